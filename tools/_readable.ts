/**
 * Command output as the model reads it (tools.md, `bash`, "Output"): a terminal's escapes and a
 * progress bar's redrawn frames left out, each binary part one line. bash and the declared tools
 * read output alike.
 */

/** What the model reads in place of output that is not text (NUL bytes, bytes that are not UTF-8). */
export function binaryOutputText(bytes: number): string {
  return `[binary output: ${bytes} bytes, not shown]`;
}

/** Where a NUL byte stood in output that is mostly text (`find -print0`). */
export const NUL_MARK = "␀";

/**
 * Output a model can read: as it is when it is text. Colour and cursor escapes (`ESC [31m`, a
 * title's `ESC ]0;…BEL`) are left out, and a line a progress bar redrew with `\r` is its last
 * frame: both cost a small model its window and say nothing. A line that is mostly not text (NUL
 * bytes, bytes that are not UTF-8, already U+FFFD, raw control bytes) is replaced, with the lines
 * like it around it, by one line saying how many bytes were left out (`[binary output: N bytes,
 * not shown]`): sent as JSON, each NUL would cost six characters of escape, and the text around a
 * binary file (`cat notes.txt icon.ico; echo done`) stays readable — text that follows the binary
 * part on its last line too. The scraps between two binary lines (a few characters, or any that
 * carry such bytes) belong to the binary part, and an output that starts binary is so up to its
 * last binary line, so `cat` of an executable is one line, not dozens. NULs between words
 * (`find -print0`, `printf 'ok\0'`) are marked {@linkcode NUL_MARK}.
 */
export function readableOutput(output: string): string {
  if (!MAYBE_UNREADABLE.test(output)) return output;
  const text = redrawn(withoutEscapes(output));
  if (!/[\0\ufffd]/.test(text)) return text;
  const lines = text.split("\n");
  const binary = binaryLines(lines);
  // Text after the binary part of the last line (`cat icon.ico; echo done`) is the output's end.
  const splitAt = tailSplit(lines, binary);
  const out: string[] = [];
  let bytes = 0;
  lines.forEach((line, i) => {
    if (binary[i]) {
      if (i === splitAt) {
        const tail = textTail(line)!;
        bytes += byteLength(line.slice(0, line.length - tail.length));
        out.push(binaryOutputText(bytes), tail);
        bytes = 0;
        return;
      }
      bytes += byteLength(line) + (i === lines.length - 1 ? 0 : 1);
      return;
    }
    if (bytes) out.push(binaryOutputText(bytes));
    bytes = 0;
    out.push(line.replaceAll("\0", NUL_MARK));
  });
  if (bytes) out.push(binaryOutputText(bytes));
  return out.join("\n");
}

// NUL, U+FFFD, CR and ESC: only output with one of them needs more than a look.
// deno-lint-ignore no-control-regex
const MAYBE_UNREADABLE = /[\x00\ufffd\r\x1b]/;

// CSI sequences (colours, the cursor), OSC sequences (a window title, a link) up to BEL or ST on
// their line, and the two-character escapes.
// deno-lint-ignore no-control-regex
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;

/** `text` without a terminal's escape sequences. */
function withoutEscapes(text: string): string {
  return text.includes("\x1b") ? text.replace(ESCAPES, "") : text;
}

/**
 * `text` with each line a terminal redrew in place — three frames or more between `\r`s, most of
 * them as long as the last, as a progress bar draws them — as its last frame. Other `\r`s stay
 * (a CRLF, a file of old Mac line ends).
 */
function redrawn(text: string): string {
  if (!text.includes("\r")) return text;
  return text.split("\n").map((line) => {
    const crlf = line.endsWith("\r");
    const frames = (crlf ? line.slice(0, -1) : line).split("\r").filter((f) => f !== "");
    if (frames.length < 3) return line;
    const last = frames[frames.length - 1].length;
    const alike = frames.filter((f) => Math.abs(f.length - last) <= Math.max(2, last / 5));
    if (alike.length < frames.length * 0.8) return line;
    return frames[frames.length - 1] + (crlf ? "\r" : "");
  }).join("\n");
}

/** Whether code unit `c` is a control byte text does not carry (tab, newlines, bell, BS, FF, ESC do). */
function isRawControl(c: number): boolean {
  return (c >= 0x01 && c <= 0x06) || (c >= 0x0e && c <= 0x1f && c !== 0x1b) || c === 0x7f;
}

/** Whether `line` holds a raw control byte. */
function hasRawControl(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (isRawControl(line.charCodeAt(i))) return true;
  return false;
}

/** Whether code unit `c` is NUL, U+FFFD (a byte that was not UTF-8) or a raw control. */
function isOdd(c: number): boolean {
  return c === 0 || c === 0xfffd || isRawControl(c);
}

/** How many characters of `line` are NUL, U+FFFD or a raw control. */
function oddCount(line: string): number {
  let odd = 0;
  for (let i = 0; i < line.length; i++) if (isOdd(line.charCodeAt(i))) odd++;
  return odd;
}

/**
 * Whether `line` is binary: more than a tenth of it is NUL bytes, bytes that were not UTF-8 or raw
 * controls, or it has NULs or such bytes beside raw controls (an executable's tables). Words
 * between NULs and nothing else odd (`find -print0`) are text.
 */
function isBinaryLine(line: string): boolean {
  const odd = oddCount(line);
  if (odd === 0) return false;
  if (line.includes("\0") && !line.includes("\ufffd") && !hasRawControl(line)) {
    const pieces = line.split("\0");
    if (pieces.at(-1) === "") pieces.pop();
    if (pieces.every((p) => p !== "")) return false;
  }
  return odd > line.length / 10 || (/[\0\ufffd]/.test(line) && hasRawControl(line));
}

/**
 * Which lines are binary: those {@linkcode isBinaryLine} says, and the scraps between them — the
 * lines between two binary ones that are short or hold a byte text does not, and on the side of a
 * binary line that has text beyond, the lines next to it that hold such a byte.
 */
function binaryLines(lines: string[]): boolean[] {
  const binary = lines.map(isBinaryLine);
  const odd = (i: number) => oddCount(lines[i]) > 0;
  const scrap = (i: number) => odd(i) || lines[i].trim().length < 8;
  for (let i = 0; i < lines.length; i++) {
    if (binary[i]) continue;
    let end = i; // the run of lines that are not binary: [i, end)
    while (end < lines.length && !binary[end]) end++;
    const before = i > 0;
    const after = end < lines.length;
    if (before && after && lines.slice(i, end).every((_, k) => scrap(i + k))) {
      binary.fill(true, i, end);
    } else {
      for (let k = i; before && k < end && odd(k); k++) binary[k] = true;
      for (let k = end - 1; after && k >= i && odd(k) && !binary[k]; k--) binary[k] = true;
    }
    i = end;
  }
  // Output that starts binary (`cat` of an executable) is so up to its last binary line: the
  // strings of an executable are not text to read; what a later command printed stays.
  if (binary[0]) binary.fill(true, 0, binary.lastIndexOf(true) + 1);
  return binary;
}

/** The last line with anything on it, when it is binary and text follows its binary part. */
function tailSplit(lines: string[], binary: boolean[]): number | undefined {
  let last = lines.length - 1;
  while (last > 0 && lines[last] === "") last--;
  return binary[last] && textTail(lines[last]) !== undefined ? last : undefined;
}

/** The text after the last odd byte of `line`, when it holds a word of three characters or more. */
function textTail(line: string): string | undefined {
  let i = line.length;
  while (i > 0 && !isOdd(line.charCodeAt(i - 1))) i--;
  const tail = line.slice(i);
  return /[A-Za-z0-9_]{3}/.test(tail) ? tail : undefined;
}

/** The bytes `text` stood for: each U+FFFD was one byte that was not UTF-8, not its three. */
function byteLength(text: string): number {
  const replacements = text.split("\ufffd").length - 1;
  return new TextEncoder().encode(text).length - 2 * replacements;
}
