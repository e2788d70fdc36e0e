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
  await t.step("bidi overrides, embeddings and isolates are named, not obeyed", () => {
    // "Trojan Source": RLO draws what follows backwards, so an access check reads as a comment.
    assertEquals(visible("admin\u202e ;txet\u202c"), "admin<U+202E> ;txet<U+202C>");
    assertEquals(
      visible("\u202a\u202b\u202d\u2066\u2067\u2068\u2069"),
      "<U+202A><U+202B><U+202D><U+2066><U+2067><U+2068><U+2069>",
    );
  });
  await t.step("zero-width spaces, word joiners and the BOM are named", () => {
    assertEquals(visible("rm -rf /\u200b tmp"), "rm -rf /<U+200B> tmp");
    assertEquals(visible("\ufeffa\u2060b"), "<U+FEFF>a<U+2060>b");
  });
  await t.step("tag characters (ASCII no one sees) are named; an emoji flag's stay", () => {
    // "Hi" spelt in tags: the prompt injection a page hides.
    assertEquals(visible("ok\u{e0048}\u{e0069}."), "ok<U+E0048><U+E0069>.");
    const scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
    assertEquals(visible(scotland), scotland);
  });
  await t.step("a soft hyphen and a run of variation selectors are named", () => {
    assertEquals(visible("ig\u00adnore 😀\ufe0f\u{e0101}"), "ig<U+00AD>nore 😀\ufe0f<U+E0101>");
  });
  await t.step("the line and paragraph separators are newlines", () => {
    assertEquals(visible("one\u2028two\u2029three"), "one\ntwo\nthree");
  });
  await t.step("the joiners of emoji and scripts, and the LRM and RLM marks, stay", () => {
    const text = "👩\u200d👩\u200d👧 می\u200cخواهم \u200eא\u200f";
    assertEquals(visible(text), text);
  });
});
