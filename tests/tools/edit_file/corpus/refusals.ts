/**
 * Better refusals: "already applied", the closest region with a line added or missing, a one-line
 * old lined up with a stretch of a line, and nothing shown when nothing is close.
 */

import { category, edit, GO2 as GO, NOT_FOUND } from "./case.ts";

const c = category("refusals");
export const REFUSAL_CASES = c.cases;

const APPLIED = "this edit looks already applied";
const CLOSEST = "the closest the file comes to it — copy these lines:";
const NOTHING = "nothing in the file comes close to it";

c.refuse(
  "a one-line edit sent again after it was made",
  "main.go",
  GO,
  edit("\tcount := 1\n", "\tcount := 2\n"),
  `already in the file at line 4 — ${APPLIED}`,
);
c.refuse(
  "an insertion sent again",
  "main.go",
  GO.replace("\tprint(count)\n", "\tcount++\n\tprint(count)\n"),
  edit("\tcount := 2\n\tprint(count)", "\tcount := 2\n\tcount++\n\tprint(count)"),
  `already in the file at lines 4-6 — ${APPLIED}`,
);
c.refuse(
  "a deletion sent again",
  "app.py",
  "def f():\n    a = 1\n    return a\n",
  edit("    a = 1\n    debug(a)\n    return a", "    a = 1\n    return a"),
  `already in the file at lines 2-3 — ${APPLIED}`,
);
c.refuse(
  "new elsewhere in the file, far from old's region: a plain not found",
  "notes.txt",
  "alpha beta gamma\n\n\n\n\n\n\n\nTODO later\n",
  edit("alpha beta delta", "TODO later"),
  NOT_FOUND,
);
c.refuse(
  "old misses a line the file has: the region offered has it",
  "main.go",
  "func f() {\n\ta := 1\n\tb := 2\n\tc := 3\n\td := 4\n}\n",
  edit("\ta := 1\n\tc := 3\n\td := 5", "x"),
  `${CLOSEST}\n  │ 2 │ \ta := 1\n  │ 3 │ \tb := 2\n  │ 4 │ \tc := 3\n  │ 5 │ \td := 4`,
);
c.refuse(
  "old has a line the file does not: the region offered lacks it",
  "main.go",
  "func f() {\n\ta := 1\n\tc := 3\n\td := 4\n}\n",
  edit("\ta := 1\n\tb := 2\n\tc := 3\n\td := 5", "x"),
  `${CLOSEST}\n  │ 2 │ \ta := 1\n  │ 3 │ \tc := 3\n  │ 4 │ \td := 4`,
);
c.refuse(
  "a one-line old that is a stretch of a longer line, with a typo",
  "app.ts",
  "export const limit = computeLimit(config.maxItems, 10); // capped\n",
  edit("computeLimit(config.maxItem, 10)", "computeLimit(config.maxItems, 20)"),
  `${CLOSEST}\n  │ 1 │ export const limit = computeLimit(config.maxItems, 10); // capped`,
);
c.refuse(
  "a one-line old like no line: nothing is offered",
  "app.ts",
  "export const limit = 10;\nexport const name = 'x';\n",
  edit("throw new Error(message)", "x"),
  NOTHING,
);
c.refuse(
  "a short one-line old is not matched against stretches of lines",
  "app.ts",
  "const value = other + 1;\n",
  edit("vlue", "x"),
  NOTHING,
);
c.refuse(
  "already applied, new retyped with spaces for tabs",
  "main.go",
  GO,
  edit("    count := 1\n    print(count)", "    count := 2\n    print(count)"),
  APPLIED,
);
