/**
 * Line-number prefixes copied from a read: mm's own (`12 │ `) and other tools' (`cat -n`'s
 * `    12\t`, `12→`, `00012| `, `12: `), the latter only when consecutive.
 */

import { category, edit, GO, GO2, NOT_FOUND } from "./case.ts";

const c = category("lineNumbers");
export const LINE_NUMBER_CASES = c.cases;

const SAYS = "· 1 matched without line numbers";

c.apply(
  "mm's read_file: `  4 │ ` on every line",
  "main.go",
  GO,
  edit("4 │ \tcount := 1\n5 │ \tprint(count)", "4 │ \tcount := 2\n5 │ \tprint(count)"),
  GO2,
  SAYS,
);
c.apply(
  "mm's refusal gutter: `  │ 4 │ `",
  "main.go",
  GO,
  edit("  │ 4 │ \tcount := 1", "\tcount := 2"),
  GO2,
  SAYS,
);
c.apply(
  "cat -n: six columns and a tab",
  "main.go",
  GO,
  edit(
    "     4\t\tcount := 1\n     5\t\tprint(count)",
    "     4\t\tcount := 2\n     5\t\tprint(count)",
  ),
  GO2,
  SAYS,
);
c.apply(
  "cat -n, new without the numbers",
  "main.go",
  GO,
  edit("     3\tfunc main() {\n     4\t\tcount := 1", "func main() {\n\tcount := 2"),
  GO2,
  SAYS,
);
c.apply(
  "`12→` (Claude Code's read), a line added without a number",
  "main.go",
  GO,
  edit(
    "     4→\tcount := 1\n     5→\tprint(count)",
    "     4→\tcount := 1\n\tcount++\n     5→\tprint(count)",
  ),
  GO.replace("\tcount := 1\n", "\tcount := 1\n\tcount++\n"),
  SAYS,
);
c.apply(
  "`00012| ` (OpenCode's read)",
  "main.go",
  GO,
  edit("00004| \tcount := 1\n00005| \tprint(count)", "00004| \tcount := 2\n00005| \tprint(count)"),
  GO2,
  SAYS,
);
c.apply(
  "`12: ` prefixes",
  "app.py",
  "def f():\n    a = 1\n    return a\n",
  edit("2:     a = 1\n3:     return a", "2:     a = 2\n3:     return a"),
  "def f():\n    a = 2\n    return a\n",
  SAYS,
);
c.apply(
  "cat -n with an empty line in the middle",
  "main.go",
  GO,
  edit(
    "     1\tpackage main\n     2\t\n     3\tfunc main() {",
    "     1\tpackage app\n     2\t\n     3\tfunc main() {",
  ),
  GO.replace("package main", "package app"),
  SAYS,
);
c.apply(
  "numbered lines and spaces for the tab",
  "main.go",
  GO,
  edit(
    "     4→    count := 1\n     5→    print(count)",
    "     4→    count := 2\n     5→    print(count)",
  ),
  GO2,
  "· 1 matched ignoring whitespace · 1 matched without line numbers",
);
c.refuse(
  "numbers that are not consecutive are content",
  "main.go",
  GO,
  edit(
    "     4\t\tcount := 1\n     9\t\tprint(count)",
    "     4\t\tcount := 2\n     9\t\tprint(count)",
  ),
  NOT_FOUND,
);
c.refuse(
  "one numbered line is not enough evidence",
  "data.yaml",
  "codes:\n  200: ok\n  404: missing\nok\n",
  edit("12: ok", "12: fine"),
  NOT_FOUND,
);
c.refuse(
  "a file whose own lines start that way: the numbers are not taken off",
  "data.yaml",
  "codes:\n  200: ok\n",
  edit("1: codes:\n2:   200: ok", "1: codes:\n2:   200: ok\n  404: missing"),
  NOT_FOUND,
);
c.refuse(
  "a stale edit behind numbers still gets its excerpt",
  "main.go",
  GO,
  edit(
    "     4\t\tcount := 7\n     5\t\tprint(count)",
    "     4\t\tcount := 8\n     5\t\tprint(count)",
  ),
  "the closest the file comes to it — copy these lines:\n  │ 4 │ \tcount := 1\n  │ 5 │ \tprint(count)",
);
c.apply(
  "mm's numbering on new alone is taken off too",
  "main.go",
  GO,
  edit("\tcount := 1\n", "4 │ \tcount := 2\n"),
  GO2,
  SAYS,
);
c.apply(
  "mm's own diff lines: `- 4 │ ` in old, `+ 4 │ ` in new",
  "main.go",
  GO,
  edit("- 4 │ \tcount := 1", "+ 4 │ \tcount := 2"),
  GO2,
  SAYS,
);
c.apply(
  "a fence around numbered lines",
  "main.go",
  GO,
  edit(
    "```go\n     4\t\tcount := 1\n     5\t\tprint(count)\n```",
    "```go\n\tcount := 2\n\tprint(count)\n```",
  ),
  GO2,
  "· 1 matched without line numbers · 1 matched without code fences",
);
