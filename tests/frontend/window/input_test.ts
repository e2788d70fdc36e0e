/** The window's input box (lib/frontend/window/input.ts). */

import { InputEditor, pasteLabel } from "../../../lib/frontend/window/input.ts";
import { History } from "../../../lib/frontend/terminal/history.ts";
import type { Key } from "../../../lib/frontend/terminal/keys.ts";
import { assertEquals } from "../../helpers/assert.ts";

const type = (input: InputEditor, ...keys: (Key | string)[]) =>
  keys.map((k) => input.handle(typeof k === "string" ? { name: "text", text: k } : k));

Deno.test("InputEditor", async (t) => {
  await t.step("Enter sends; Shift-Enter, Alt-Enter, Ctrl-J and a trailing \\ add a line", () => {
    const input = new InputEditor();
    const actions = type(
      input,
      "one",
      { name: "shift-enter" },
      "two",
      { name: "alt-enter" },
      "three",
      { name: "ctrl-j" },
      "four\\",
      { name: "enter" },
      "five",
    );
    assertEquals(input.value(), "one\ntwo\nthree\nfour\nfive");
    assertEquals(actions.includes("send"), false);
    assertEquals(input.handle({ name: "enter" }), "send");
  });
  await t.step("a large paste shows as [pasted N lines] and is sent whole", () => {
    const input = new InputEditor();
    const big = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n");
    type(input, "see ", { name: "paste", text: big }, " please");
    assertEquals(input.text, "see [pasted 12 lines] please");
    assertEquals(input.value(), `see ${big} please`);
    // One line is counted in characters; a final newline makes no new line.
    assertEquals(pasteLabel("x".repeat(1500)), "[pasted 1,500 characters]");
    assertEquals(pasteLabel("a\nb\n"), "[pasted 2 lines]");
    // Backspace after the placeholder removes the whole paste.
    const other = new InputEditor();
    type(other, { name: "paste", text: big }, { name: "backspace" });
    assertEquals([other.text, other.value()], ["", ""]);
  });
  await t.step("a small paste is typed as it is", () => {
    const input = new InputEditor();
    type(input, { name: "paste", text: "a\nb" });
    assertEquals(input.text, "a\nb");
  });
  await t.step("↑ ↓ move between lines, then through the history; the draft comes back", () => {
    const history = new History();
    history.entries.push("first", "second");
    const input = new InputEditor(history);
    type(input, "draft");
    type(input, { name: "up" });
    assertEquals(input.text, "second");
    type(input, { name: "up" }, { name: "up" });
    assertEquals(input.text, "first");
    type(input, { name: "down" }, { name: "down" });
    assertEquals(input.text, "draft");
    const lines = new InputEditor(history);
    type(lines, "ab", { name: "alt-enter" }, "cd", { name: "up" });
    assertEquals([lines.text, lines.cursor], ["ab\ncd", 2]);
  });
  await t.step("editing keys: ←→, Home/End of the line, Ctrl-K, Ctrl-U, Ctrl-W, Delete", () => {
    const input = new InputEditor();
    type(input, "hello big world", { name: "ctrl-w" });
    assertEquals(input.text, "hello big ");
    type(input, { name: "home" }, { name: "delete" }, { name: "right" }, { name: "ctrl-k" });
    assertEquals(input.text, "e");
    type(input, { name: "end" }, "x", { name: "left" }, { name: "ctrl-u" });
    assertEquals([input.text, input.cursor], ["x", 0]);
  });
  await t.step(
    "the rows: the prompt, wrapped lines, the caret; at most max rows with the caret in",
    () => {
      const input = new InputEditor();
      type(input, "abcdefghij", { name: "alt-enter" }, "k");
      assertEquals(input.rows(8, 5), { rows: ["› abcdef", "  ghij", "  k"], row: 2, col: 3 });
      assertEquals(input.rows(8, 2), { rows: ["  ghij", "  k"], row: 1, col: 3 });
    },
  );
  await t.step("Backspace, Delete, ← → take a grapheme cluster whole: a ZWJ emoji, a flag", () => {
    const family = "👩\u200d👩\u200d👧";
    const input = new InputEditor();
    type(input, `a${family}`, { name: "backspace" });
    assertEquals(input.text, "a");
    type(input, `🇫🇷e\u0301b`, { name: "left" }, { name: "left" });
    assertEquals(input.cursor, "a🇫🇷".length, "← over e and its accent");
    type(input, { name: "backspace" });
    assertEquals(input.text, "ae\u0301b");
    type(input, { name: "delete" });
    assertEquals(input.text, "ab");
    type(input, { name: "home" }, { name: "right" }, family, { name: "left" }, { name: "right" });
    assertEquals(input.cursor, 1 + family.length);
    type(input, { name: "alt-enter" }, { name: "backspace" }, { name: "backspace" });
    assertEquals(input.text, "ab", "a newline, then the emoji");
  });
  await t.step("a control character typed shows as ^X; wide characters take two columns", () => {
    const input = new InputEditor();
    type(input, "a\x1bb中");
    assertEquals(input.text, "a^[b中");
    assertEquals(input.rows(20, 1).col, 2 + 4 + 2);
  });
});
