/**
 * new placed line by line: the wrong edits of one shift for every line (a YAML mapping moved, a
 * Python line at class level) and of dropped trailing spaces (Markdown hard breaks), made
 * impossible.
 */

import { category, edit, WHITESPACE } from "./case.ts";

const c = category("placement");
export const PLACEMENT_CASES = c.cases;

const CLASS = "class A:\n    def f(self):\n        return 1\n";
c.apply(
  "Python: an exact match inside the indentation; the added line goes in the method",
  "a.py",
  CLASS,
  edit("  def f(self):", '  def f(self):\n    """Return one."""'),
  'class A:\n    def f(self):\n        """Return one."""\n        return 1\n',
);
c.apply(
  "Python: a method retyped with two-space indentation, lines added",
  "a.py",
  CLASS,
  edit("  def f(self):\n    return 1", "  def f(self):\n    x = 1\n    return x"),
  "class A:\n    def f(self):\n        x = 1\n        return x\n",
  WHITESPACE,
);
c.apply(
  "Python: one line copied without indentation; the added line stays at its level",
  "a.py",
  "def f(x):\n    y = x * 2\n    return y\n",
  edit("y = x * 2", "y = x * 2\nprint(y)"),
  "def f(x):\n    y = x * 2\n    print(y)\n    return y\n",
);
c.apply(
  "Python: one line copied without indentation opens a block",
  "a.py",
  "def f(x):\n    return x\n",
  edit("return x", "if x is None:\n    return 0\nreturn x"),
  "def f(x):\n    if x is None:\n        return 0\n    return x\n",
);

const YAML = "root:\n  a:\n    x: 1\n  b:\n    y: 2\n";
c.apply(
  "YAML: old's indentation shifted on half its lines; the mapping stays where it is",
  "c.yaml",
  YAML,
  edit("  a:\n    x: 1\nb:\n  y: 2", "  a:\n    x: 5\nb:\n  y: 2"),
  YAML.replace("x: 1", "x: 5"),
  WHITESPACE,
);
c.apply(
  "YAML: a key added under the shifted part lands under its own parent",
  "c.yaml",
  YAML,
  edit("  a:\n    x: 1\nb:\n  y: 2", "  a:\n    x: 1\nb:\n  y: 2\n  z: 3"),
  "root:\n  a:\n    x: 1\n  b:\n    y: 2\n    z: 3\n",
  WHITESPACE,
);
c.apply(
  "YAML: a list item changed in a file indented by two",
  "ci.yml",
  "steps:\n  - name: test\n    run: deno test\n  - name: lint\n    run: deno lint\n",
  edit(
    "- name: test\n  run: deno test\n- name: lint",
    "- name: test\n  run: deno test --allow-all\n- name: lint",
  ),
  "steps:\n  - name: test\n    run: deno test --allow-all\n  - name: lint\n    run: deno lint\n",
  WHITESPACE,
);

const POEM = "Roses are red,  \nviolets are blue,  \nsugar is sweet\n";
c.apply(
  "Markdown: hard breaks on the lines not changed are kept",
  "poem.md",
  POEM,
  edit(
    "Roses are red,\nviolets are blue,\nsugar is sweet",
    "Roses are red,\nviolets are blue,\nhoney is sweet",
  ),
  "Roses are red,  \nviolets are blue,  \nhoney is sweet\n",
  WHITESPACE,
);
c.apply(
  "Markdown: a changed line keeps the hard break the model did not see",
  "poem.md",
  POEM,
  edit("Roses are red,\nviolets are blue,", "Roses are red,\nviolets are purple,"),
  "Roses are red,  \nviolets are purple,  \nsugar is sweet\n",
  WHITESPACE,
);
c.apply(
  "Markdown: a hard break the model typed on an added line is kept",
  "poem.md",
  POEM,
  edit("violets are blue,\nsugar is sweet", "violets are blue,\nsugar is sweet,  \nand so are you"),
  "Roses are red,  \nviolets are blue,  \nsugar is sweet,  \nand so are you\n",
  WHITESPACE,
);
c.apply(
  "a tab file with one space-indented line: the unchanged line keeps its spaces",
  "main.go",
  "func f() {\n\ta := 1\n    b := 2 // aligned by hand\n\tc := 3\n}\n",
  edit(
    "\ta := 1\n    b := 2 // aligned by hand\n\tc := 3",
    "\ta := 10\n    b := 2 // aligned by hand\n\tc := 3",
  ),
  "func f() {\n\ta := 10\n    b := 2 // aligned by hand\n\tc := 3\n}\n",
);
c.apply(
  "Go: each changed line re-indented against the line it replaces",
  "main.go",
  "func f() {\n\tif ok {\n\t\tgo run()\n\t}\n}\n",
  edit("if ok {\n    go run()\n}", "if ok && ready {\n    go start()\n}"),
  "func f() {\n\tif ok && ready {\n\t\tgo start()\n\t}\n}\n",
  WHITESPACE,
);
c.apply(
  "TypeScript: lines added at the end of a block follow the line before them",
  "a.ts",
  "export function f() {\n  const a = 1;\n  return a;\n}\n",
  edit("const a = 1;\nreturn a;", "const a = 1;\nconst b = 2;\nreturn a + b;"),
  "export function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n",
  WHITESPACE,
);
c.apply(
  "trailing spaces the file has on an unchanged line stay",
  "main.go",
  "func f() {\n\tif x {\n\t\ty()\n\t}  \n}\n",
  edit("if x {\n\t\ty()\n\t}\n}", "if x {\n\t\tz()\n\t}\n}"),
  "func f() {\n\tif x {\n\t\tz()\n\t}  \n}\n",
  WHITESPACE,
);
c.apply(
  "a deleted line between unchanged ones",
  "a.py",
  "def f():\n    a = 1\n    debug(a)\n    return a\n",
  edit("def f():\n  a = 1\n  debug(a)\n  return a", "def f():\n  a = 1\n  return a"),
  "def f():\n    a = 1\n    return a\n",
  WHITESPACE,
);
c.apply(
  "JSON: a key added after an exact line keeps its level",
  "package.json",
  '{\n  "name": "app",\n  "version": "1.0.0"\n}\n',
  edit('  "name": "app",\n', '  "name": "app",\n  "private": true,\n'),
  '{\n  "name": "app",\n  "private": true,\n  "version": "1.0.0"\n}\n',
);
c.apply(
  "Python: an exact block with a line added after it",
  "a.py",
  "def f():\n    for x in xs:\n        use(x)\n    done()\n",
  edit("    for x in xs:\n        use(x)\n", "    for x in xs:\n        use(x)\n        log(x)\n"),
  "def f():\n    for x in xs:\n        use(x)\n        log(x)\n    done()\n",
);
c.refuse(
  "YAML: a mangled block that lines up in two places is refused",
  "c.yaml",
  "dev:\n  db:\n    port: 1\nprod:\n  db:\n    port: 1\n",
  edit("db:\nport: 1", "db:\nport: 2"),
  "old text appears 2 times (lines 2, 5)",
);
