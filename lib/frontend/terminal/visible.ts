/**
 * What a terminal may be shown of a tool's output or a model's text: the text, its newlines and
 * tabs; every other control character drawn visibly in caret notation (`ESC` as `^[`, `BEL` as
 * `^G`, a lone carriage return as `^M`; C1 controls as `M-^[`…, as `cat -v` writes them), so that
 * no output can clear the screen, move the cursor or retitle the window. The characters that are
 * invisible yet change what is read are named instead, `<U+202E>`: the ones fetch_content removes
 * (lib/invisible.ts): the bidirectional embeddings, overrides and isolates (text drawn backwards,
 * "Trojan Source"), the tag characters (ASCII no one sees, a prompt-injection carrier), the
 * zero-width space, word joiner and byte order mark (a word that looks whole but is not), the soft
 * hyphen, a run of variation selectors. The joiners that emoji and scripts need (U+200C, U+200D),
 * an emoji flag's tags and the marks LRM, RLM stay. The line and paragraph separators (U+2028,
 * U+2029), which terminals draw as nothing or as a break of their own, are newlines. The model
 * still reads the output as it was: this is for display only.
 */

import { codePointName, replaceInvisible } from "../../invisible.ts";

// C0 controls but tab and newline, DEL, the C1 controls, the line and paragraph separators.
const CONTROL =
  // deno-lint-ignore no-control-regex
  /\r\n|[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u2028\u2029]/g;

/** `text` safe to write to a terminal (see the module's doc). */
export function visible(text: string): string {
  const shown = text.replace(CONTROL, (c) => {
    if (c === "\r\n" || c === "\u2028" || c === "\u2029") return "\n";
    const code = c.charCodeAt(0);
    if (code === 0x7f) return "^?";
    if (code >= 0x80) return `M-^${String.fromCharCode(code - 0x80 + 64)}`;
    return `^${String.fromCharCode(code + 64)}`;
  });
  return replaceInvisible(shown, codePointName);
}
