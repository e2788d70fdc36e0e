/**
 * Controls the relaxations must not disturb: `$&` in new, TSV lines that look numbered, Python
 * `...` stubs, a Markdown file whose fences are content, a 20,000-line file, and others.
 */

import { AMBIGUOUS, category, edit, NOT_FOUND } from "./case.ts";

const c = category("controls");
export const CONTROL_CASES = c.cases;

c.apply(
  "`$&` in new is written as it is",
  "app.js",
  "const s = a.replace(/x/g, 'y');\n",
  edit("'y'", "'[$&]'"),
  "const s = a.replace(/x/g, '[$&]');\n",
);
c.apply(
  "`$1`, `$$` and `$'` in new, through a relaxed pass",
  "app.js",
  "function f() {\n\treturn s;\n}\n",
  edit("    return s;", "    return s.replace(/(a)/, '$1$$' + \"$'\");"),
  "function f() {\n\treturn s.replace(/(a)/, '$1$$' + \"$'\");\n}\n",
  "· 1 matched ignoring whitespace",
);
const TSV = "id\tname\n1\talpha\n2\tbeta\n3\tgamma\n";
c.apply(
  "TSV lines that look numbered: an exact edit is applied as sent",
  "data.tsv",
  TSV,
  edit("2\tbeta\n3\tgamma", "2\tBETA\n3\tgamma"),
  TSV.replace("2\tbeta", "2\tBETA"),
);
c.refuse(
  "TSV lines that look numbered: a stale edit is not stripped of its ids",
  "data.tsv",
  TSV + "beta\ngamma\n",
  edit("2\tbetta\n3\tgamma", "2\tBETA\n3\tgamma"),
  NOT_FOUND,
);
c.refuse(
  "TSV with a first column of ids, old's ids stale: never matched on what follows them",
  "data.tsv",
  "id\tname\n7\talpha\n8\tbeta\nalpha\nbeta\n",
  edit("1\talpha\n2\tbeta", "1\tALPHA\n2\tbeta"),
  NOT_FOUND,
);
const STUBS =
  "from typing import Protocol\n\nclass Repo(Protocol):\n    def get(self, id: int) -> str: ...\n" +
  "    def all(self) -> list[str]:\n        ...\n";
c.apply(
  "Python `...` stubs: a stub body kept in new",
  "repo.py",
  STUBS,
  edit(
    "    def all(self) -> list[str]:\n        ...",
    "    def all(self, limit: int) -> list[str]:\n        ...",
  ),
  STUBS.replace("def all(self)", "def all(self, limit: int)"),
);
c.apply(
  "Python `...` stubs: a new stub added",
  "repo.py",
  STUBS,
  edit(
    "    def get(self, id: int) -> str: ...\n",
    "    def get(self, id: int) -> str: ...\n    def count(self) -> int: ...\n",
  ),
  STUBS.replace("-> str: ...\n", "-> str: ...\n    def count(self) -> int: ...\n"),
);
c.apply(
  "Python `...` stubs, old retyped with two spaces",
  "repo.py",
  STUBS,
  edit(
    "def all(self) -> list[str]:\n  ...",
    "def all(self) -> list[str]:\n  ...\ndef first(self) -> str:\n  ...",
  ),
  STUBS + "    def first(self) -> str:\n        ...\n",
  "· 1 matched ignoring whitespace",
);
const DOC = "# API\n\n```ts\nconst x = load();\n```\n\n```ts\nconst y = load();\n```\n";
c.apply(
  "a Markdown file whose fences are content: an edit across a fence",
  "API.md",
  DOC,
  edit("```ts\nconst y = load();\n```", "```ts\nconst y = await load();\n```"),
  DOC.replace("const y = load();", "const y = await load();"),
);
c.refuse(
  "a Markdown file whose fences are content: the same fence twice is ambiguous",
  "API.md",
  "```ts\nrun();\n```\n\n```ts\nrun();\n```\n",
  edit("```ts\nrun();\n```", "```ts\nrun(1);\n```"),
  `${AMBIGUOUS} 2 times (lines 1, 5)`,
);
const BIG = Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}: value ${i * 7}`).join("\n") +
  "\n";
c.apply(
  "a 20,000-line file: an edit near the end",
  "big.txt",
  BIG,
  edit("line 19999: value 139986\n", "line 19999: value 0\n"),
  BIG.replace("line 19999: value 139986\n", "line 19999: value 0\n"),
);
c.apply(
  "a 20,000-line file: spaces inside a line",
  "big.txt",
  BIG,
  edit("line 12345:  value  86408", "line 12345: value 1"),
  BIG.replace("line 12345: value 86408", "line 12345: value 1"),
  "· 1 matched ignoring spaces inside lines",
);
c.refuse(
  "a 20,000-line file: a stale edit is refused",
  "big.txt",
  BIG,
  edit("line 5: value 99\nline 6: value 35", "x"),
  NOT_FOUND,
);
c.apply(
  "emoji and accents are plain text",
  "i18n.json",
  '{\n  "greeting": "héllo 👋",\n  "bye": "au revoir"\n}\n',
  edit('"greeting": "héllo 👋"', '"greeting": "salut 👋"'),
  '{\n  "greeting": "salut 👋",\n  "bye": "au revoir"\n}\n',
);
c.apply(
  "a file that holds box-drawing lines is matched as it is first",
  "table.txt",
  "1 │ a\n2 │ b\n",
  edit("1 │ a", "1 │ A"),
  "1 │ A\n2 │ b\n",
);
c.apply(
  "a CRLF file, old with curly quotes",
  "win.py",
  'print("a")\r\nprint("b")\r\n',
  edit("print(\u201Cb\u201D)", "print(\u201Cc\u201D)"),
  'print("a")\r\nprint("c")\r\n',
  "· 1 matched ignoring typography",
);
c.apply(
  "several edits, each relaxed its own way, counted apart",
  "main.go",
  "func f() {\n\ta := 1\n\tb := 2\n\tc := 3\n}\n",
  [
    { old: "    a := 1", new: "    a := 10" },
    { old: "2 │ \tb := 2\n3 │ \tc := 3", new: "2 │ \tb := 20\n3 │ \tc := 3" },
  ],
  "func f() {\n\ta := 10\n\tb := 20\n\tc := 3\n}\n",
  "2 edits applied, 2 lines added, 2 deleted, first change at line 2 · 1 matched ignoring whitespace · 1 matched without line numbers",
);
c.refuse(
  "one refused edit among several: nothing is written",
  "main.go",
  "func f() {\n\ta := 1\n}\n",
  [{ old: "\ta := 1", new: "\ta := 2" }, { old: "\tz := 9", new: "\tz := 0" }],
  "nothing was written: 1 of 2 edits was refused",
);
c.apply(
  "a JSON file keeps its own escapes when old is exact",
  "package.json",
  '{\n  "scripts": {\n    "echo": "printf \\"a\\\\n\\""\n  }\n}\n',
  edit('"echo": "printf \\"a\\\\n\\""', '"echo": "printf \\"b\\\\n\\""'),
  '{\n  "scripts": {\n    "echo": "printf \\"b\\\\n\\""\n  }\n}\n',
);
c.apply(
  "an indented Python block deleted",
  "app.py",
  "def f():\n    if debug:\n        log()\n    return 1\n",
  edit("    if debug:\n        log()\n", ""),
  "def f():\n    return 1\n",
);
c.apply(
  "a verbatim match wins over a loose one elsewhere",
  "app.py",
  "a = 1\na  =  1\n",
  edit("a  =  1", "a  =  2"),
  "a = 1\na  =  2\n",
);
c.apply(
  "Rust: spaces inside a signature",
  "lib.rs",
  "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
  edit("fn add( a: i32, b: i32 ) -> i32 {", "fn add( a: i64, b: i64 ) -> i64 {"),
  "fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
  "· 1 matched ignoring spaces inside lines",
);
