/** The spec's three passes: tabs versus spaces, indent depth, padding, CRLF, BOM, duplicates. */

import { AMBIGUOUS, category, edit, GO, NOT_FOUND, WHITESPACE } from "./case.ts";

const c = category("whitespace");
export const WHITESPACE_CASES = c.cases;

c.apply(
  "Go: exact, one line",
  "main.go",
  GO,
  edit("count := 1", "count := 2"),
  GO.replace("count := 1", "count := 2"),
);
c.apply(
  "Go: four spaces retyped where the file has a tab",
  "main.go",
  GO,
  edit("    count := 1\n    print(count)", "    count := 2\n    print(count)"),
  GO.replace("count := 1", "count := 2"),
  WHITESPACE,
);
c.apply(
  "Go: a block wrapped in an if, typed with spaces",
  "main.go",
  GO,
  edit(
    "func main() {\n    count := 1\n    print(count)\n}",
    "func main() {\n    count := 1\n    if count > 0 {\n        print(count)\n    }\n}",
  ),
  "package main\n\nfunc main() {\n\tcount := 1\n\tif count > 0 {\n\t\tprint(count)\n\t}\n}\n",
  WHITESPACE,
);
c.apply(
  "Go: a single line with its indent kept, spaces for a tab",
  "main.go",
  GO,
  edit("    print(count)", "    fmt.Println(count)"),
  GO.replace("print(count)", "fmt.Println(count)"),
  WHITESPACE,
);

const PY = "class Stack:\n    def __init__(self):\n        self.items = []\n\n" +
  "    def push(self, x):\n        self.items.append(x)\n";
c.apply(
  "Python: a method copied without its class indentation",
  "stack.py",
  PY,
  edit(
    "def push(self, x):\n    self.items.append(x)",
    "def push(self, x):\n    if x is None:\n        return\n    self.items.append(x)",
  ),
  PY.replace(
    "        self.items.append(x)",
    "        if x is None:\n            return\n        self.items.append(x)",
  ),
  WHITESPACE,
);
c.apply(
  "Python: two-space indentation where the file has four",
  "stack.py",
  PY,
  edit(
    "def __init__(self):\n  self.items = []",
    "def __init__(self):\n  self.items = []\n  self.size = 0",
  ),
  PY.replace("self.items = []\n", "self.items = []\n        self.size = 0\n"),
  WHITESPACE,
);
c.apply(
  "Python: a tab in new where the file uses spaces",
  "stack.py",
  PY,
  edit("        self.items = []\n", "        self.items = []\n\t\tself.top = None\n"),
  PY.replace("self.items = []\n", "self.items = []\n        self.top = None\n"),
);
c.apply(
  "CRLF file: old and new with LF",
  "win.ini",
  "[core]\r\n\tname = a\r\n\tmode = b\r\n",
  edit("\tname = a\n\tmode = b\n", "\tname = c\n\tmode = b\n"),
  "[core]\r\n\tname = c\r\n\tmode = b\r\n",
);
c.apply(
  "a byte order mark stays",
  "bom.txt",
  "\uFEFFfirst line\nsecond line\n",
  edit("first line", "1st line"),
  "\uFEFF1st line\nsecond line\n",
);
c.apply(
  "the file has no final newline, old has one",
  "a.txt",
  "x = 1\ny = 2",
  edit("y = 2\n", "y = 3\n"),
  "x = 1\ny = 3",
  WHITESPACE,
);
c.apply(
  "old with blank lines around it the file does not have there",
  "main.go",
  GO,
  edit("\n\n\tprint(count)\n\n", "\n\n\tprint(count + 1)\n\n"),
  GO.replace("print(count)", "print(count + 1)"),
  WHITESPACE,
);
c.apply(
  "a new that deliberately adds a blank line keeps it",
  "main.go",
  GO,
  edit("    count := 1\n", "    count := 1\n\n    total := 0\n"),
  GO.replace("\tcount := 1\n", "\tcount := 1\n\n\ttotal := 0\n"),
  WHITESPACE,
);
c.apply(
  "YAML: a nested key retyped with four spaces",
  "config.yaml",
  "server:\n  host: localhost\n  port: 8080\n",
  edit(
    "server:\n    host: localhost\n    port: 8080",
    "server:\n    host: 0.0.0.0\n    port: 8080",
  ),
  "server:\n  host: 0.0.0.0\n  port: 8080\n",
  WHITESPACE,
);
c.apply(
  "Makefile: recipe lines keep their tab",
  "Makefile",
  "build:\n\tgo build ./...\n",
  edit("build:\n", "build:\n    go vet ./...\n"),
  "build:\n\tgo vet ./...\n\tgo build ./...\n",
);
c.refuse(
  "duplicates: refused with both lines",
  "main.go",
  "func a() {\n\treturn nil\n}\n\nfunc b() {\n\treturn nil\n}\n",
  edit("return nil", "return err"),
  `${AMBIGUOUS} 2 times (lines 2, 6)`,
);
c.refuse(
  "duplicates of a loose match are refused the same way",
  "main.go",
  "func a() {\n\tx := 1\n\ty := 2\n}\n\nfunc b() {\n\tx := 1\n\ty := 2\n}\n",
  edit("    x := 1\n    y := 2", "    x := 3\n    y := 2"),
  `${AMBIGUOUS} 2 times (lines 2, 7)`,
);
c.refuse(
  "stale text: the value changed since the model read it",
  "main.go",
  GO,
  edit("\tcount := 7\n\tprint(count)", "\tcount := 8\n\tprint(count)"),
  NOT_FOUND,
);
