/** The one filter between a tool's or a model's text and the terminal (lib/frontend/terminal/visible.ts). */

import { visible } from "../../../lib/frontend/terminal/visible.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("visible", async (t) => {
  await t.step("text, newlines and tabs pass as they are", () => {
    assertEquals(visible("a\tb\nc — é 🙂\n"), "a\tb\nc — é 🙂\n");
  });
  await t.step("escape sequences are shown, not obeyed", () => {
    assertEquals(visible("\x1b[2J\x1b]0;owned\x07x"), "^[[2J^[]0;owned^Gx");
  });
  await t.step("CRLF is a newline; a lone CR, DEL, NUL and C1 controls are shown", () => {
    assertEquals(visible("a\r\nb\rc\x7f\x00\x9b"), "a\nb^Mc^?^@M-^[");
  });
});
