/**
 * An old that elides lines with `...` (or `// ...`, `# ... existing code ...`) kept in new:
 * applied piece by piece when each piece is unique, in order, inside the block.
 */

import { category, edit, NOT_FOUND } from "./case.ts";

const c = category("elision");
export const ELISION_CASES = c.cases;

const SAYS = "· 1 matched piece by piece";
const PY = "def total(items):\n    s = 0\n    for x in items:\n        s += x\n    return s\n\n" +
  "def mean(items):\n    return total(items) / len(items)\n";

c.apply(
  "Python: `# ...` between a function's first and last lines",
  "stats.py",
  PY,
  edit(
    "def total(items):\n    # ...\n    return s",
    "def total(items, start=0):\n    # ...\n    return s + start",
  ),
  PY.replace("def total(items):", "def total(items, start=0):").replace(
    "    return s\n",
    "    return s + start\n",
  ),
  SAYS,
);
const TS =
  "export function load(path: string) {\n  const text = read(path);\n  const data = parse(text);\n" +
  "  check(data);\n  return data;\n}\n\nexport function save() {}\n";
c.apply(
  "TypeScript: `// ... existing code ...` kept in new",
  "store.ts",
  TS,
  edit(
    "export function load(path: string) {\n  // ... existing code ...\n  return data;\n}",
    "export function load(path: string) {\n  // ... existing code ...\n  log(data);\n  return data;\n}",
  ),
  TS.replace("  return data;\n", "  log(data);\n  return data;\n"),
  SAYS,
);
c.apply(
  "a bare `...` line and indentation retyped",
  "main.go",
  "func run() error {\n\tinit()\n\tstep()\n\tstep()\n\treturn nil\n}\n",
  edit(
    "func run() error {\n    init()\n    ...\n    return nil\n}",
    "func run() error {\n    setup()\n    ...\n    return nil\n}",
  ),
  "func run() error {\n\tsetup()\n\tstep()\n\tstep()\n\treturn nil\n}\n",
  "· 1 matched ignoring whitespace · 1 matched piece by piece",
);
c.apply(
  "two markers, three pieces",
  "app.js",
  "function main() {\n  a();\n  b();\n  mid();\n  c();\n  d();\n  end();\n}\n",
  edit(
    "function main() {\n  // ...\n  mid();\n  // ...\n  end();\n}",
    "function main() {\n  // ...\n  middle();\n  // ...\n  end();\n}",
  ),
  "function main() {\n  a();\n  b();\n  middle();\n  c();\n  d();\n  end();\n}\n",
  SAYS,
);
c.refuse(
  "a piece that appears twice is refused",
  "app.py",
  "def a():\n    x = 1\n    return x\n\ndef b():\n    y = 2\n    return x\n",
  edit("def a():\n    # ...\n    return x", "def a():\n    # ...\n    return x + 1"),
  'old leaves out lines with "# ...", and its piece 2 appears 2 times',
);
c.refuse(
  "pieces out of order are refused",
  "app.py",
  "def a():\n    x = 1\n    y = 2\n    return y\n",
  edit("    y = 2\n    # ...\n    x = 1", "    y = 3\n    # ...\n    x = 1"),
  "but its pieces are not in the file in that order",
);
c.refuse(
  "lines left out that leave the block are refused",
  "app.py",
  "def a():\n    return 1\n\ndef b():\n    return 2\n",
  edit("def a():\n    # ...\n    return 2", "def a():\n    # ...\n    return 3"),
  "do not stay inside the block line 1 opens",
);
c.refuse(
  "a marker in old that new drops would delete the elided lines: not found",
  "app.py",
  PY,
  edit("def total(items):\n    # ...\n    return s", "def total(items):\n    return 0"),
  NOT_FOUND,
);
c.refuse(
  "a stale piece: not found, with the excerpt of that piece",
  "app.py",
  PY,
  edit(
    "def total(items):\n    # ...\n    return sum",
    "def total(items):\n    # ...\n    return sum + 1",
  ),
  "the closest the file comes to it — copy these lines:\n  │ 5 │     return s",
);
c.apply(
  "C#: `// ...` inside a class, the method signature changed",
  "Cart.cs",
  "class Cart\n{\n    int count;\n    string name;\n    public int Count() { return count; }\n}\n",
  edit(
    "class Cart\n{\n    // ...\n    public int Count() { return count; }",
    "class Cart\n{\n    // ...\n    public int Count() => count;",
  ),
  "class Cart\n{\n    int count;\n    string name;\n    public int Count() => count;\n}\n",
  SAYS,
);
c.apply(
  "Go: `// ...` inside a switch",
  "main.go",
  'func kind(x int) string {\n\tswitch x {\n\tcase 0:\n\t\treturn "zero"\n\tcase 1:\n\t\treturn "one"\n\t}\n\treturn "many"\n}\n',
  edit(
    '\tswitch x {\n\t// ...\n\t}\n\treturn "many"',
    '\tswitch x {\n\t// ...\n\t}\n\treturn "lots"',
  ),
  'func kind(x int) string {\n\tswitch x {\n\tcase 0:\n\t\treturn "zero"\n\tcase 1:\n\t\treturn "one"\n\t}\n\treturn "lots"\n}\n',
  SAYS,
);
c.apply(
  "an elided edit and a second edit inside the lines it leaves out",
  "stats.py",
  PY,
  [
    {
      old: "def total(items):\n    # ...\n    return s",
      new: "def total(items, start=0):\n    # ...\n    return s + start",
    },
    { old: "        s += x", new: "        s += abs(x)" },
  ],
  PY.replace("def total(items):", "def total(items, start=0):").replace("s += x", "s += abs(x)")
    .replace("    return s\n", "    return s + start\n"),
  "2 edits applied",
);
c.refuse(
  "a second edit overlapping a piece of an elided one is refused",
  "stats.py",
  PY,
  [
    {
      old: "def total(items):\n    # ...\n    return s",
      new: "def total(items):\n    # ...\n    return s + 1",
    },
    { old: "    return s\n\ndef mean", new: "    return s\n\n\ndef mean" },
  ],
  "edit #1 lies inside edit #2 (lines 5-7)",
);
