/** A grapheme cluster's length before and at an offset (lib/frontend/terminal/graphemes.ts). */

import { nextLength, prevLength } from "../../../lib/frontend/terminal/graphemes.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("graphemes: Backspace, Delete, ← and → take what a reader sees as one character", async (t) => {
  const family = "👨‍👩‍👧";
  const flag = "🇫🇷";
  const accented = "e\u0301";
  await t.step("a ZWJ emoji, a flag, a letter with its combining mark, whole", () => {
    const text = `a${family}${flag}${accented}z`;
    assertEquals(nextLength(text, 1), family.length);
    assertEquals(prevLength(text, 1 + family.length), family.length);
    assertEquals(nextLength(text, 1 + family.length), flag.length);
    assertEquals(prevLength(text, text.length - 1), accented.length);
    assertEquals(prevLength(text, text.length), 1);
  });
  await t.step("a newline is one character; nothing before the start or after the end", () => {
    assertEquals(prevLength("a\nb", 2), 1);
    assertEquals(nextLength("a\nb", 1), 1);
    assertEquals(prevLength("ab", 0), 0);
    assertEquals(nextLength("ab", 2), 0);
  });
  await t.step("an offset inside a cluster takes the rest of it, or what is before", () => {
    assertEquals(nextLength(family, 2), family.length - 2);
    assertEquals(prevLength(family, 2), 2);
  });
});
