import { assertEquals } from "../helpers/assert.ts";
import {
  charCount,
  charsToUtf16,
  fromWire,
  splitLines,
  toWire,
  utf16ToChars,
  wireToOffset,
} from "../../lib/lsp/positions.ts";

const LINE = 'const s = "😀😀 漢字"; greet(s);';

Deno.test("lsp positions", async (t) => {
  await t.step("lines split on \\n, \\r\\n and \\r; a final break ends the last line", () => {
    assertEquals(splitLines(""), []);
    assertEquals(splitLines("a"), ["a"]);
    assertEquals(splitLines("a\nb\n"), ["a", "b"]);
    assertEquals(splitLines("a\r\nb\rc\n\n"), ["a", "b", "c", ""]);
  });

  await t.step("characters are code points: an emoji and a CJK ideograph are one each", () => {
    assertEquals(charCount("😀"), 1);
    assertEquals("😀".length, 2);
    assertEquals(charCount("漢字"), 2);
    assertEquals(charCount(LINE), 28);
    assertEquals(LINE.length, 30);
  });

  await t.step("1-based character columns to 0-based UTF-16 and back", () => {
    const greet = 20; // 1-based column of `greet` in characters
    assertEquals(charsToUtf16(LINE, greet - 1), 21);
    assertEquals(LINE.slice(21, 26), "greet");
    assertEquals(utf16ToChars(LINE, 21), greet - 1);
    const lines = ["first", LINE];
    assertEquals(toWire(lines, { line: 2, column: greet }), { line: 1, character: 21 });
    assertEquals(fromWire(lines, { line: 1, character: 21 }), { line: 2, column: greet });
    // The character after an emoji, and a CJK one.
    assertEquals(toWire(lines, { line: 2, column: 14 }), { line: 1, character: 15 });
    assertEquals(LINE.slice(15, 16), " ");
    assertEquals(fromWire(lines, { line: 1, character: 16 }), { line: 2, column: 15 });
    assertEquals(LINE.slice(16, 17), "漢");
  });

  await t.step("a column at the end of the line maps to the line's length", () => {
    assertEquals(toWire([LINE], { line: 1, column: 29 }), { line: 0, character: 30 });
    assertEquals(charsToUtf16("ab", 9), 2);
  });

  await t.step("a wire position on a line mm does not know keeps the UTF-16 count", () => {
    assertEquals(fromWire(undefined, { line: 4, character: 7 }), { line: 5, column: 8 });
    assertEquals(fromWire(["x"], { line: 4, character: 7 }), { line: 5, column: 8 });
  });

  await t.step("wire positions to offsets in the whole text, line breaks of every kind", () => {
    const text = "ab\r\n😀x\rz\n";
    assertEquals(wireToOffset(text, { line: 0, character: 1 }), 1);
    assertEquals(wireToOffset(text, { line: 1, character: 2 }), 6);
    assertEquals(text[6], "x");
    assertEquals(wireToOffset(text, { line: 2, character: 0 }), 8);
    assertEquals(wireToOffset(text, { line: 0, character: 99 }), 2, "clamped to the line's end");
    assertEquals(wireToOffset(text, { line: 3, character: 0 }), text.length);
    assertEquals(wireToOffset(text, { line: 9, character: 0 }), text.length);
  });
});
