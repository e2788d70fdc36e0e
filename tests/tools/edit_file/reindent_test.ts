/** Re-indenting a model's text in a file's style (tools/edit_file/reindent.ts): unit, base, lines. */

import { assertEquals } from "../../helpers/assert.ts";
import {
  detectIndent,
  modelWidth,
  type Reindent,
  reindent,
  spaceStep,
} from "../../../tools/edit_file/reindent.ts";

Deno.test("reindent", async (t) => {
  await t.step("detectIndent: tabs, the space step, nothing", () => {
    assertEquals(detectIndent("a\n\tb\n\t\tc\n"), { tab: true });
    assertEquals(detectIndent("a:\n  b:\n    c: 1\n  d: 2\n"), { tab: false, width: 2 });
    assertEquals(detectIndent("def f():\n    if x:\n        y\n"), { tab: false, width: 4 });
    assertEquals(detectIndent("a\nb\n"), undefined);
    assertEquals(spaceStep(["/**", " * x", " */", "f()"]), undefined, "a 1-space step is none");
  });

  await t.step("modelWidth: the model's own step, else the file's, else 4", () => {
    assertEquals(modelWidth(["a\n  b\n", "x"], { tab: true }), 2);
    assertEquals(modelWidth(["a"], { tab: false, width: 3 }), 3);
    assertEquals(modelWidth(["a"], { tab: true }), 4);
  });

  const relaxed = (over: Partial<Reindent>): Reindent => ({
    modelBase: "",
    fileBase: "",
    modelWidth: 4,
    unit: { tab: true },
    firstLine: "indented",
    emptyBlankLines: true,
    ...over,
  });

  await t.step("to the file's base and unit; fewer levels below the base", () => {
    assertEquals(
      reindent("if x:\n    y\nz", relaxed({ fileBase: "\t\t" })),
      "\t\tif x:\n\t\t\ty\n\t\tz",
    );
    assertEquals(
      reindent("    a\n        b\nc", relaxed({ modelBase: "    ", fileBase: "\t\t" })),
      "\t\ta\n\t\t\tb\n\tc",
    );
    assertEquals(
      reindent("a\n\tb", relaxed({ unit: { tab: false, width: 2 }, fileBase: "  " })),
      "  a\n    b",
    );
  });

  await t.step("blank lines stay empty; alignment spaces are kept", () => {
    assertEquals(reindent("a\n    \n  b", relaxed({})), "a\n\n  b");
    assertEquals(reindent("f(a,\n\t  b)", relaxed({})), "f(a,\n\t  b)");
  });

  await t.step("the first line: relative to the base, or verbatim", () => {
    assertEquals(
      reindent(
        "    a\n    b",
        relaxed({ modelBase: "    ", fileBase: "\t", firstLine: "relative" }),
      ),
      "a\n\tb",
    );
    assertEquals(reindent("  a\n    b", relaxed({ firstLine: "verbatim" })), "  a\n\tb");
  });

  await t.step("an exact match in the file's own style is left as it is", () => {
    const exact = (text: string, base: string, unit: Reindent["unit"], width = 4) =>
      reindent(text, {
        modelBase: base,
        fileBase: base,
        modelWidth: width,
        unit,
        firstLine: "indented",
        emptyBlankLines: false,
      });
    const go = "\tif x {\n\t\ty := 1  \n\t  // aligned\n\n  \t\n\t}";
    assertEquals(exact(go, "\t", { tab: true }), go);
    const py = "    def f():\n      # odd\n        return 1\n   \n";
    assertEquals(exact(py, "    ", { tab: false, width: 4 }), py);
    assertEquals(exact("  a\n    b\n", "  ", { tab: false, width: 2 }, 2), "  a\n    b\n");
  });

  await t.step("trailing blanks dropped when asked", () => {
    assertEquals(reindent("a  \n    b\t", relaxed({ trimTrailing: true })), "a\n\tb");
  });
});
