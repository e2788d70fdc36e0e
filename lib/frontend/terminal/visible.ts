/**
 * What a terminal may be shown of a tool's output or a model's text: the text, its newlines and
 * tabs; every other control character drawn visibly in caret notation (`ESC` as `^[`, `BEL` as
 * `^G`, a lone carriage return as `^M`; C1 controls as `M-^[`…, as `cat -v` writes them), so that
 * no output can clear the screen, move the cursor or retitle the window. The model still reads the
 * output as it was: this is for display only.
 */

// C0 controls but tab and newline, DEL, and the C1 controls: matching them is the point.
// deno-lint-ignore no-control-regex
const CONTROL = /\r\n|[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g;

/** `text` safe to write to a terminal (see the module's doc). */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => {
    if (c === "\r\n") return "\n";
    const code = c.charCodeAt(0);
    if (code === 0x7f) return "^?";
    if (code >= 0x80) return `M-^${String.fromCharCode(code - 0x80 + 64)}`;
    return `^${String.fromCharCode(code + 64)}`;
  });
}
