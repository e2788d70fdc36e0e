/** One level of JSON escaping typed literally (`\n`, `\t`, `\"`): undone under its conditions. */

import { category, edit, NOT_FOUND } from "./case.ts";

const c = category("escapes");
export const ESCAPE_CASES = c.cases;

const SAYS = "· 1 matched without JSON escapes";

c.apply(
  "YAML: old and new with `\\n` typed literally",
  "config.yaml",
  "server:\n  host: localhost\n  port: 8080\n",
  edit("  host: localhost\\n  port: 8080", "  host: 0.0.0.0\\n  port: 8080"),
  "server:\n  host: 0.0.0.0\n  port: 8080\n",
  SAYS,
);
c.apply(
  'Python: `\\"` and `\\n` in old and new',
  "app.py",
  'def greet():\n    print("hi")\n',
  edit('def greet():\\n    print(\\"hi\\")', 'def greet():\\n    print(\\"hello\\")'),
  'def greet():\n    print("hello")\n',
  SAYS,
);
c.apply(
  "Go: `\\t` and `\\n` for a tab-indented block",
  "main.go",
  "func f() {\n\ta := 1\n\tb := 2\n}\n",
  edit("\\ta := 1\\n\\tb := 2", "\\ta := 1\\n\\tb := 3"),
  "func f() {\n\ta := 1\n\tb := 3\n}\n",
  SAYS,
);
c.apply(
  "old escaped, new a plain line: new is used as it is",
  "config.yaml",
  "a: 1\nb: 2\n",
  edit("a: 1\\nb: 2", "a: 1"),
  "a: 1\n",
  SAYS,
);
c.apply(
  "a backslash escaped twice stays one backslash",
  "paths.toml",
  "[paths]\nroot = 'C:\\data'\nlogs = 'C:\\logs'\n",
  edit("root = 'C:\\\\data'\\nlogs = 'C:\\\\logs'", "root = 'D:\\\\data'\\nlogs = 'C:\\\\logs'"),
  "[paths]\nroot = 'D:\\data'\nlogs = 'C:\\logs'\n",
  SAYS,
);
c.refuse(
  "a C file that holds `\\n` itself: not unescaped",
  "main.c",
  'int main(void) {\n    printf("hi\\n");\n    return 0;\n}\n',
  edit('    printf(\\"hi\\");\\n    return 1;', '    printf(\\"bye\\");\\n    return 1;'),
  NOT_FOUND,
);
c.apply(
  "a literal `\\n` in old that the file has: matched exactly, never unescaped",
  "main.c",
  'int main(void) {\n    printf("hi\\n");\n    return 0;\n}\n',
  edit('printf("hi\\n");', 'printf("bye\\n");'),
  'int main(void) {\n    printf("bye\\n");\n    return 0;\n}\n',
);
c.refuse(
  "a backslash that is no JSON escape: not double-escaped text",
  "notes.txt",
  "alpha\nbeta\n",
  edit("alpha\\nbeta\\d", "x"),
  NOT_FOUND,
);
c.apply(
  "a Makefile recipe escaped with `\\t`",
  "Makefile",
  "test:\n\tdeno test\n",
  edit("test:\\n\\tdeno test", "test:\\n\\tdeno test --allow-all"),
  "test:\n\tdeno test --allow-all\n",
  SAYS,
);
const C_FILE = 'int main(void) {\n\tprintf("hi\\n");\n\treturn 0;\n}\n';
c.apply(
  "old and new escaped twice whole, the file's own C escape `\\n` kept",
  "main.c",
  C_FILE,
  edit(
    '\\tprintf(\\"hi\\\\n\\");\\n\\treturn 0;',
    '\\tprintf(\\"bye\\\\n\\");\\n\\treturn 0;',
  ),
  C_FILE.replace("hi", "bye"),
  SAYS,
);
c.apply(
  "only the tabs escaped, real newlines",
  "main.go",
  "func f() {\n\tif ok {\n\t\treturn 1\n\t}\n}\n",
  edit("\\tif ok {\n\\t\\treturn 1\n\\t}", "\\tif ok {\n\\t\\treturn 2\n\\t}"),
  "func f() {\n\tif ok {\n\t\treturn 2\n\t}\n}\n",
  SAYS,
);
c.apply(
  "a C-style `\\n` in a string escaped twice, no escaped quote: one backslash",
  "greet.py",
  "def greet():\n    print('a\\n')\n",
  edit("print('a\\\\n')", "print('b\\\\n')"),
  "def greet():\n    print('b\\n')\n",
  SAYS,
);
c.refuse(
  "a doubled backslash alone that reads as no text of the file",
  "notes.txt",
  "alpha\nbeta\n",
  edit("alpha\\\\beta", "x"),
  NOT_FOUND,
);
