/** An elided old applied piece by piece (tools/edit_file/elision.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import { resolveElided } from "../../../tools/edit_file/elision.ts";
import { FileText, findAll, type PassResult } from "../../../tools/edit_file/file_text.ts";

/** A resolver of pieces by exact search only. */
function exact(file: FileText) {
  return (old: string, neu: string): PassResult => {
    const at = findAll(file.text, old);
    if (at.length === 0) return undefined;
    if (at.length > 1) return { kind: "ambiguous", count: at.length, lines: [] };
    return {
      kind: "found",
      pass: "exact",
      start: at[0],
      end: at[0] + old.length,
      replacement: neu,
    };
  };
}

const PY = "def f(x):\n    a = 1\n    b = 2\n    return a\n\ndef g():\n    return 2\n";

Deno.test("elisions", async (t) => {
  const file = new FileText(PY, undefined, "a.py");

  await t.step("the pieces replaced, the lines between them kept", () => {
    const old = "def f(x):\n    # ...\n    return a";
    const r = resolveElided(file, old, "def f(x, y):\n    # ...\n    return a + y", exact(file));
    assertEquals(r, {
      kind: "found",
      pass: "exact",
      start: 0,
      end: PY.indexOf("return a") + "return a".length,
      replacement: "def f(x, y):\n    a = 1\n    b = 2\n    return a + y",
      relaxed: ["elision"],
      pieces: [
        { start: 0, end: 9, replacement: "def f(x, y):" },
        { start: 30, end: 42, replacement: "    return a + y" },
      ],
    });
  });

  await t.step("a piece new empties takes its line break with it", () => {
    const r = resolveElided(
      file,
      "def f(x):\n    a = 1\n    # ...\n    return a",
      "def f(x):\n    # ...\n    return a",
      exact(file),
    );
    assertEquals(r?.kind === "found" && r.replacement, "def f(x):\n    b = 2\n    return a");
  });

  await t.step("not an elision: no marker, an empty piece, new without the same markers", () => {
    assertEquals(resolveElided(file, "def f(x):", "x", exact(file)), undefined);
    assertEquals(resolveElided(file, "def f(x):\n# ...", "x\n# ...", exact(file)), undefined);
    assertEquals(
      resolveElided(file, "def f(x):\n# ...\n    return a", "def f(x):\n    return a", exact(file)),
      undefined,
    );
    assertEquals(
      resolveElided(
        file,
        "def f(x):\n# ...\n    return a",
        "def f(x):\n// ...\n    return a",
        exact(file),
      ),
      undefined,
    );
  });

  await t.step("a piece not in the file: which one", () => {
    assertEquals(
      resolveElided(file, "def f(x):\n    # ...\n    return z", "x\n    # ...\ny", exact(file)),
      { kind: "missingPiece", piece: "    return z" },
    );
  });

  await t.step("a piece found twice, pieces out of order, lines outside the block", () => {
    assertEquals(
      resolveElided(file, "def f(x):\n    # ...\nreturn", "x\n    # ...\ny", exact(file)),
      { kind: "elision", fault: "ambiguous", marker: "# ...", piece: 2, count: 2, lines: [] },
    );
    assertEquals(
      resolveElided(file, "    b = 2\n    # ...\n    a = 1", "x\n    # ...\ny", exact(file)),
      { kind: "elision", fault: "order", marker: "# ..." },
    );
    assertEquals(
      resolveElided(file, "def f(x):\n    # ...\n    return 2", "x\n    # ...\ny", exact(file)),
      { kind: "elision", fault: "outside", marker: "# ...", opener: 1, first: 2, last: 6 },
    );
  });

  await t.step("brackets the first line opens keep an equally indented line inside", () => {
    const go = new FileText("switch x {\ncase 0:\n\ta()\n}\nb()\n", undefined, "a.go");
    const r = resolveElided(go, "switch x {\n// ...\n}", "switch y {\n// ...\n}", exact(go));
    assertEquals(r?.kind === "found" && r.replacement, "switch y {\ncase 0:\n\ta()\n}");
    // The block's own closing line may be left out; a line after it may not.
    const after = new FileText("switch x {\ncase 0:\n}\nb()\nc()\n", undefined, "a.go");
    const close = resolveElided(after, "switch x {\n// ...\nb()", "s {\n// ...\nb()", exact(after));
    assertEquals(close?.kind, "found");
    const out = resolveElided(after, "switch x {\n// ...\nc()", "s {\n// ...\nc()", exact(after));
    assertEquals(out, {
      kind: "elision",
      fault: "outside",
      marker: "// ...",
      opener: 1,
      first: 2,
      last: 4,
    });
  });
});
