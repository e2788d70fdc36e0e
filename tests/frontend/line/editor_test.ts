/** The line being edited, scrolled sideways in columns (lib/frontend/line/editor.ts). */

import { LineEditor, sideways } from "../../../lib/frontend/line/editor.ts";
import { KeyRouter } from "../../../lib/frontend/line/keys.ts";
import type { Key } from "../../../lib/frontend/terminal/keys.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("sideways: the part of the line in view, in columns", async (t) => {
  await t.step("a line that fits is shown whole, the cursor at its end", () => {
    assertEquals(sideways("hello", 5, 10), { view: "hello", back: 0 });
    assertEquals(sideways("hello", 2, 10), { view: "hello", back: 3 });
  });
  await t.step("a long line: its end, with room for the cursor", () => {
    assertEquals(sideways("abcdefghij", 10, 5), { view: "ghij", back: 0 });
  });
  await t.step("wide characters take two columns each: the view never overflows", () => {
    const text = "请帮我修复这个测试文件中的错误"; // 15 characters, 30 columns
    // At the end: as many as fit with a column for the cursor.
    assertEquals(sideways(text, text.length, 10), { view: "中的错误", back: 0 });
    // Before the third: from the start, ten columns, the cursor six columns before their end.
    assertEquals(sideways(text, 2, 10), { view: "请帮我修复", back: 6 });
  });
  await t.step("an emoji (a surrogate pair) is never cut in half", () => {
    const text = "ab😀cd";
    assertEquals(sideways(text, text.length, 10), { view: "ab😀cd", back: 0 });
    assertEquals(sideways(text, 2, 10).back, 4);
  });
});

Deno.test("LineEditor: ← → Backspace Delete take an emoji or a letter and its mark whole", async () => {
  const router = new KeyRouter();
  const editor = new LineEditor(router, () => {}, () => 80, new AbortController().signal);
  const typed = (text: string): Key => ({ name: "text", text });
  const line = editor.read("› ");
  for (
    const key of [
      typed("ab😀cd"),
      { name: "left" },
      { name: "left" },
      { name: "left" },
      typed("X"), // before the emoji
      { name: "right" },
      { name: "backspace" }, // the emoji, whole
      { name: "end" },
      typed("e\u0301"), // e and its combining accent
      { name: "backspace" },
      { name: "home" },
      { name: "delete" },
      { name: "enter" },
    ] as Key[]
  ) {
    router.dispatch(key);
    await new Promise((r) => setTimeout(r, 0));
  }
  assertEquals(await line, { kind: "line", text: "bXcd" });
});
