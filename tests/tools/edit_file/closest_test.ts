/** The region closest to an old that was not found (tools/edit_file/closest.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import {
  closestRegion,
  fragmentSimilarity,
  FUZZY_BUDGET,
} from "../../../tools/edit_file/closest.ts";
import { FileText } from "../../../tools/edit_file/file_text.ts";

const LINES = "func f() {\n\ta := 1\n\tb := 2\n\tc := 3\n\td := 4\n}\n";

Deno.test("the closest region", async (t) => {
  const file = new FileText(LINES);

  await t.step("one line added in the file: the window has it", () => {
    assertEquals(closestRegion(file, "a := 1\nc := 3\nd := 5"), {
      first: 2,
      lines: ["\ta := 1", "\tb := 2", "\tc := 3", "\td := 4"],
    });
  });

  await t.step("one line of old missing from the file: the window lacks it", () => {
    const f = new FileText("x\n\ta := 1\n\tc := 3\n\td := 4\n");
    assertEquals(closestRegion(f, "a := 1\nb := 2\nc := 3\nd := 5"), {
      first: 2,
      lines: ["\ta := 1", "\tc := 3", "\td := 4"],
    });
  });

  await t.step("a window with no line added or missing wins a tie", () => {
    assertEquals(closestRegion(file, "a := 1\nb := 2\nz"), {
      first: 2,
      lines: ["\ta := 1", "\tb := 2", "\tc := 3"],
    });
  });

  await t.step("exactly 80% similar lines line up", () => {
    const f = new FileText("x\n    return s\ny\n");
    assertEquals(closestRegion(f, "return sum"), { first: 2, lines: ["    return s"] });
  });

  await t.step("a one-line old lines up with a stretch of a line 85% like it", () => {
    const f = new FileText("const limit = computeLimit(config.maxItems, 10); // capped\n");
    assertEquals(closestRegion(f, "computeLimit(config.maxItem, 10)")?.first, 1);
    assertEquals(closestRegion(f, "vlue"), undefined, "too short for a stretch");
    assertEquals(fragmentSimilarity("abc computeLimit(x) def", "computeLimt(x)") > 0.9, true);
    assertEquals(fragmentSimilarity("abc def", "totally other"), 0);
  });

  await t.step("a big file: equal lines only, found through their words", () => {
    const lines = Array.from({ length: FUZZY_BUDGET }, (_, i) => `line ${i}`);
    lines[40_000] = "\tcount := 1";
    lines[40_001] = "}";
    lines[40_002] = "\tprint(count)";
    const big = new FileText(lines.join("\n") + "\n");
    assertEquals(closestRegion(big, "count := 1\n}\nprint(count)\nmissing()"), {
      first: 40_001,
      lines: ["\tcount := 1", "}", "\tprint(count)", "line 40003"],
    });
    assertEquals(closestRegion(big, "count := 9"), undefined, "no similar lines in a big file");
  });
});
