/** The file as the passes see it (tools/edit_file/file_text.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import {
  coreLines,
  countUpTo,
  FileText,
  rarestWord,
  trimBlanks,
  wordsOf,
} from "../../../tools/edit_file/file_text.ts";

Deno.test("file text", async (t) => {
  await t.step("lines, their starts, the unit (detected once, or given)", () => {
    const f = new FileText("a\n\tb\n\t\tc\n");
    assertEquals([f.lines, f.starts], [["a", "\tb", "\t\tc", ""], [0, 2, 5, 9]]);
    assertEquals(f.unit, { tab: true });
    assertEquals(new FileText("a\n", { tab: true }).unit, { tab: true });
    assertEquals([f.lineIndex(0), f.lineIndex(4), f.lineNumber(5)], [0, 1, 3]);
  });

  await t.step("the lines holding a word, each once", () => {
    const f = new FileText("sum sum\nx\nsum\n");
    assertEquals(f.linesHolding("sum"), [0, 2]);
    assertEquals(f.linesHolding("nope"), []);
  });

  await t.step("the rarest word of old's, counts above 256 alike", () => {
    const f = new FileText("items items items total500\n".repeat(3));
    assertEquals(rarestWord(f, wordsOf("total500(items)")), "total500");
    assertEquals(rarestWord(f, wordsOf("{ }")), "");
    assertEquals(wordsOf("b aa b ccc"), ["ccc", "aa", "b"]);
    assertEquals(countUpTo("aaaa", "a", 2), 2);
    assertEquals(new FileText("x ".repeat(1000)).occurrences("x"), 257);
  });

  await t.step("trimBlanks and coreLines", () => {
    assertEquals(trimBlanks(" \t a b \t"), "a b");
    assertEquals(trimBlanks("\u00A0a"), "\u00A0a", "only spaces and tabs");
    assertEquals(coreLines("\n\n  a\nb\n \n"), { lines: ["  a", "b"], lead: 2 });
    assertEquals(coreLines(" \n"), undefined);
  });
});
