/** Spaces inside a line forgiven outside string, regex and shell-quoted literals. */

import { AMBIGUOUS, category, edit, GO, NOT_FOUND } from "./case.ts";

const c = category("interior");
export const INTERIOR_CASES = c.cases;

const SAYS = "· 1 matched ignoring spaces inside lines";

c.apply(
  "Go: `count  :=  1` for `count := 1`",
  "main.go",
  GO,
  edit("\tcount  :=  1", "\tcount  :=  2"),
  GO.replace("count := 1", "count := 2"),
  SAYS,
);
c.apply(
  "a comment without its space",
  "main.go",
  "func f() {\n\t// compute the sum\n\treturn a + b\n}\n",
  edit("\t//compute the sum\n\treturn a + b", "\t//compute the total\n\treturn a + b"),
  "func f() {\n\t// compute the total\n\treturn a + b\n}\n",
  SAYS,
);
c.apply(
  "JavaScript: `if(x){` for `if (x) {`, arguments without spaces",
  "app.js",
  "if (ready) {\n  start(a, b);\n}\n",
  edit("if(ready){\n  start(a,b);\n}", "if(ready){\n  begin(a,b);\n}"),
  "if (ready) {\n  begin(a, b);\n}\n",
  SAYS,
);
c.apply(
  "Python: a signature retyped with other spacing",
  "app.py",
  "def area(width, height=1):\n    return width * height\n",
  edit("def area(width,height = 1):", "def area(width,height = 2):"),
  "def area(width, height=2):\n    return width * height\n",
  SAYS,
);
c.apply(
  "YAML: `key:value` for `key: value` keeps the file's space",
  "app.yaml",
  "name: shop\nport: 80\n",
  edit("port:80", "port:8080"),
  "name: shop\nport: 8080\n",
  SAYS,
);
c.apply(
  "a fragment of a line, between word boundaries",
  "app.ts",
  "const total = sum(a, b) + 1;\n",
  edit("sum(a,b)", "total(a,b)"),
  "const total = total(a, b) + 1;\n",
  SAYS,
);
c.apply(
  "what the model changed keeps the model's own spacing",
  "app.ts",
  "start(a, b);\n",
  edit("start(a,b);", "start(a,b,c);"),
  "start(a, b,c);\n",
  SAYS,
);
c.refuse(
  "never inside a string literal",
  "app.js",
  'const s = "a  b";\n',
  edit('const s = "a b";', 'const s = "c";'),
  NOT_FOUND,
);
c.refuse(
  "never inside a regex literal",
  "app.js",
  "const re = /a  b/;\n",
  edit("const re = /a b/;", "const re = /c/;"),
  NOT_FOUND,
);
c.refuse(
  "never inside shell quotes",
  "run.sh",
  "echo 'hello  world'\n",
  edit("echo 'hello world'", "echo 'bye'"),
  NOT_FOUND,
);
c.apply(
  "shell: spaces outside quotes are forgiven",
  "run.sh",
  "grep -n 'x' file.txt | sort\n",
  edit("grep -n 'x' file.txt|sort", "grep -n 'x' file.txt|sort -u"),
  "grep -n 'x' file.txt | sort -u\n",
  SAYS,
);
c.refuse(
  "words stay words: `x = 1` is not inside `max = 10`",
  "app.py",
  "max = 10\n",
  edit("x  =  1", "x = 2"),
  NOT_FOUND,
);
c.refuse(
  "two words never become one",
  "app.py",
  "return value\n",
  edit("returnvalue", "return other"),
  NOT_FOUND,
);
c.refuse(
  "spaces inside lines do not relax uniqueness",
  "main.go",
  "a := f(x, y)\nb := f(x, y)\n",
  edit("f(x,y)", "g(x, y)"),
  `${AMBIGUOUS} 2 times (lines 1, 2)`,
);
c.apply(
  "several lines, spaces inside and indentation",
  "main.go",
  "func f() {\n\tif a == b {\n\t\treturn c\n\t}\n}\n",
  edit("if a==b {\n    return c\n}", "if a==b {\n    return d\n}"),
  "func f() {\n\tif a == b {\n\t\treturn d\n\t}\n}\n",
  "· 1 matched ignoring whitespace · 1 matched ignoring spaces inside lines",
);
c.refuse(
  "a line inside a Python docstring keeps its spaces",
  "app.py",
  'def f():\n    """Usage:\n        f  --fast\n    """\n',
  edit("        f --fast", "        f --slow"),
  NOT_FOUND,
);
c.apply(
  "C: `int* p` for `int *p`",
  "main.c",
  "void f(void) {\n    int *p = 0;\n}\n",
  edit("    int* p = 0;", "    int* p = NULL;"),
  "void f(void) {\n    int *p = NULL;\n}\n",
  SAYS,
);
c.refuse(
  "shell: `ls-la` is a word of its own, not `ls -la`",
  "run.sh",
  "ls -la /tmp\n",
  edit("ls-la /tmp", "ls -lah /tmp"),
  NOT_FOUND,
);
