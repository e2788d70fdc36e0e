/**
 * A new that holds a placeholder old does not have is refused (it would delete the code it stands
 * for); the lines that only look like one are applied.
 */

import { category, edit } from "./case.ts";

const c = category("placeholder");
export const PLACEHOLDER_CASES = c.cases;

const SAYS = "which old does not have — edit_file would write it into the file";
const TS = "export class Cart {\n  items: Item[] = [];\n\n  add(item: Item) {\n" +
  "    this.items.push(item);\n  }\n\n  total() {\n    return this.items.length;\n  }\n}\n";

c.refuse(
  "TypeScript: `// ... existing code ...` in new, old exact",
  "cart.ts",
  TS,
  edit(
    "  add(item: Item) {\n    this.items.push(item);\n  }",
    "  add(item: Item) {\n    // ... existing code ...\n    this.save();\n  }",
  ),
  SAYS,
);
c.refuse(
  "TypeScript: `// rest of methods ...` after the changed method",
  "cart.ts",
  TS,
  edit(
    "export class Cart {\n  items: Item[] = [];",
    'export class Cart {\n  items: Item[] = [];\n  owner = "";\n\n  // rest of methods ...',
  ),
  SAYS,
);
c.refuse(
  "Python: `# ...` standing for a function body",
  "app.py",
  "def load(path):\n    with open(path) as f:\n        return f.read()\n",
  edit("def load(path):", "def load(path, mode='r'):\n    # ..."),
  SAYS,
);
c.refuse(
  "Go: `// ...` where the loop body was",
  "main.go",
  "func f(xs []int) {\n\tfor _, x := range xs {\n\t\tuse(x)\n\t}\n}\n",
  edit("\tfor _, x := range xs {\n\t\tuse(x)\n\t}", "\tfor i, x := range xs {\n\t\t// ...\n\t}"),
  SAYS,
);
c.refuse(
  "C: `/* ... */` in new",
  "main.c",
  "int main(void) {\n    init();\n    run();\n    return 0;\n}\n",
  edit("    init();\n    run();", "    init();\n    /* ... */"),
  SAYS,
);
c.refuse(
  "HTML: `<!-- ... -->` in new",
  "index.html",
  "<body>\n  <header>Shop</header>\n  <main>items</main>\n</body>\n",
  edit("<body>\n  <header>Shop</header>", "<body>\n  <header>My shop</header>\n  <!-- ... -->"),
  SAYS,
);
c.refuse(
  "Rust: `// existing code here` without dots",
  "lib.rs",
  'fn main() {\n    let a = 1;\n    println!("{}", a);\n}\n',
  edit("fn main() {\n    let a = 1;", "fn main() {\n    // existing code here\n    let b = 2;"),
  SAYS,
);
c.refuse(
  "Ruby: `# rest of the file unchanged`",
  "app.rb",
  "require 'json'\n\ndef parse(s)\n  JSON.parse(s)\nend\n",
  edit("require 'json'\n", "require 'json'\nrequire 'yaml'\n# rest of the file unchanged\n"),
  SAYS,
);
c.refuse(
  "JavaScript: a bare `...` line in new",
  "app.js",
  "function main() {\n  start();\n  stop();\n}\n",
  edit("function main() {\n  start();", "function main() {\n  ...\n  start();"),
  SAYS,
);
c.refuse(
  "Java: `// … other methods …` with the ellipsis character",
  "App.java",
  "class App {\n    void run() {}\n    void stop() {}\n}\n",
  edit(
    "class App {\n    void run() {}",
    "class App {\n    void run() { log(); }\n    // … other methods …",
  ),
  SAYS,
);
c.apply(
  "Python: a `...` body in new is code (a stub), applied",
  "proto.py",
  "class Store(Protocol):\n    def get(self, key: str) -> bytes: ...\n",
  edit(
    "    def get(self, key: str) -> bytes: ...\n",
    "    def get(self, key: str) -> bytes: ...\n    def put(self, key: str, value: bytes) -> None:\n        ...\n",
  ),
  "class Store(Protocol):\n    def get(self, key: str) -> bytes: ...\n    def put(self, key: str, value: bytes) -> None:\n        ...\n",
);
c.apply(
  "a comment that ends in dots but is prose, applied",
  "main.go",
  "func f() error {\n\treturn g()\n}\n",
  edit("\treturn g()", "\t// TODO: handle errors...\n\treturn g()"),
  "func f() error {\n\t// TODO: handle errors...\n\treturn g()\n}\n",
);
c.apply(
  "a comment continuing another with dots, applied",
  "main.ts",
  "run();\n",
  edit("run();", "// First we prepare the cache\n// ...and then we run\nrun();"),
  "// First we prepare the cache\n// ...and then we run\nrun();\n",
);
c.apply(
  "YAML: `...` ends a document, applied",
  "docs.yaml",
  "a: 1\n---\nb: 2\n",
  edit("b: 2\n", "b: 2\n...\n"),
  "a: 1\n---\nb: 2\n...\n",
);
c.apply(
  "a placeholder old has too is kept, applied",
  "notes.ts",
  "function f() {\n  // ... existing code ...\n  return 1;\n}\n",
  edit("  // ... existing code ...\n  return 1;", "  // ... existing code ...\n  return 2;"),
  "function f() {\n  // ... existing code ...\n  return 2;\n}\n",
);
c.refuse(
  "Kotlin: `// ... rest of the class`",
  "App.kt",
  "class App {\n    fun run() {}\n    fun stop() {}\n}\n",
  edit(
    "class App {\n    fun run() {}",
    "class App {\n    fun run() { start() }\n    // ... rest of the class",
  ),
  SAYS,
);
c.refuse(
  "SQL: `-- ...` in new",
  "schema.sql",
  "CREATE TABLE users (\n  id INT,\n  name TEXT\n);\n",
  edit("CREATE TABLE users (\n  id INT,", "CREATE TABLE users (\n  id BIGINT,\n  -- ..."),
  SAYS,
);
