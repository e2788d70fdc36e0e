/** Terminal input parsed into keys (lib/frontend/terminal/keys.ts). */

import { KeyParser } from "../../../lib/frontend/terminal/keys.ts";
import { assertEquals } from "../../helpers/assert.ts";

const parse = (...chunks: string[]) => {
  const p = new KeyParser();
  return chunks.flatMap((c) => p.parse(c));
};

Deno.test("KeyParser", async (t) => {
  await t.step("text, Enter, Ctrl-J, control keys", () => {
    assertEquals(parse("ab\r\n\x04\x1a\x0f"), [
      { name: "text", text: "ab" },
      { name: "enter" },
      { name: "ctrl-d" },
      { name: "ctrl-z" },
      { name: "ctrl-o" },
    ]);
    assertEquals(parse("\n"), [{ name: "ctrl-j" }]);
  });
  await t.step("Shift-Enter as modifyOtherKeys and the kitty protocol say it; Alt-Enter", () => {
    assertEquals(parse("\x1b[27;2;13~\x1b[13;2u\x1b\r"), [
      { name: "shift-enter" },
      { name: "shift-enter" },
      { name: "alt-enter" },
    ]);
  });
  await t.step("cursor and page keys, Shift-↑↓, F2, Shift-Tab", () => {
    assertEquals(parse("\x1b[A\x1b[1;2A\x1b[1;2B\x1b[5~\x1b[6~\x1bOQ\x1b[Z\x1b[1;5C"), [
      { name: "up" },
      { name: "shift-up" },
      { name: "shift-down" },
      { name: "pageup" },
      { name: "pagedown" },
      { name: "f2" },
      { name: "shift-tab" },
      { name: "right" },
    ]);
  });
  await t.step("SGR mouse reports: buttons, release, the wheel; motion is 'other'", () => {
    assertEquals(parse("\x1b[<0;5;3M\x1b[<0;9;3m\x1b[<64;1;1M\x1b[<65;1;1M\x1b[<32;2;2M"), [
      { name: "mouse", button: "left", down: true, x: 4, y: 2 },
      { name: "mouse", button: "left", down: false, x: 8, y: 2 },
      { name: "mouse", button: "wheel-up", down: true, x: 0, y: 0 },
      { name: "mouse", button: "wheel-down", down: true, x: 0, y: 0 },
      { name: "mouse", button: "other", down: true, x: 1, y: 1 },
    ]);
  });
  await t.step("a bracketed paste, over two chunks, its newlines kept", () => {
    assertEquals(parse("x\x1b[200~a\r\nb", "\rc\x1b[201~y"), [
      { name: "text", text: "x" },
      { name: "paste", text: "a\nb\nc" },
      { name: "text", text: "y" },
    ]);
  });
  await t.step("a lone Esc", () => {
    assertEquals(parse("\x1b"), [{ name: "escape" }]);
  });
});

Deno.test("a burst of lines in one read, without bracketed paste, is one paste", async (t) => {
  await t.step("lines and a last newline: a paste, then one Enter", () => {
    assertEquals(parse("one\rtwo\rthree\r"), [
      { name: "paste", text: "one\ntwo\nthree" },
      { name: "enter" },
    ]);
  });
  await t.step("lines without a last newline: a paste only", () => {
    assertEquals(parse("a\nb"), [{ name: "paste", text: "a\nb" }]);
  });
  await t.step("one line and its Enter stays typed text and Enter", () => {
    assertEquals(parse("hello\r"), [{ name: "text", text: "hello" }, { name: "enter" }]);
  });
  await t.step("a read with a control key or an escape is keys", () => {
    assertEquals(parse("a\rb\x03"), [
      { name: "text", text: "a" },
      { name: "enter" },
      { name: "text", text: "b" },
      { name: "ctrl-c" },
    ]);
  });
});
