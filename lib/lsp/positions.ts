/**
 * Positions at the lsp tool's boundary and on the wire. The tool speaks 1-based lines and columns
 * counted in characters (Unicode code points: `😀` and `漢` are one column each); the Language
 * Server Protocol speaks 0-based lines and UTF-16 code units (`😀` is two). A JavaScript string is
 * indexed in UTF-16 code units already, so a wire `character` is a string index into its line.
 */

import type { Position } from "npm:vscode-languageserver-protocol@3.18.5";

/** A 1-based line and a 1-based column in characters, as the tool's input and output give them. */
export interface CharPosition {
  line: number;
  column: number;
}

/** The line breaks of the protocol: `\n`, `\r\n` and a lone `\r`. */
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The lines of `text`, split on every line break the protocol knows, without the breaks. A final
 * line break ends the last line rather than starting an empty one (`"a\nb\n"` has 2 lines, and
 * `""` none), the way an editor numbers them.
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(LINE_BREAK);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The number of characters (code points) of `s`. */
export function charCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * The UTF-16 offset in `line` of its character number `chars` (0-based), or of the end of the
 * line when `chars` is past it.
 */
export function charsToUtf16(line: string, chars: number): number {
  let i = 0;
  for (let n = 0; n < chars && i < line.length; n++) {
    const c = line.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < line.length &&
      line.charCodeAt(i + 1) >= 0xdc00 && line.charCodeAt(i + 1) <= 0xdfff;
    i += pair ? 2 : 1;
  }
  return i;
}

/** The number of characters before the UTF-16 offset `utf16` of `line` (clamped to the line). */
export function utf16ToChars(line: string, utf16: number): number {
  return charCount(line.slice(0, Math.max(0, Math.min(utf16, line.length))));
}

/**
 * The wire position of a 1-based line and character column in `lines` (from {@linkcode splitLines}).
 * A line past the end maps to the line after the last, column 1.
 */
export function toWire(lines: string[], pos: CharPosition): Position {
  const text = lines[pos.line - 1] ?? "";
  return { line: pos.line - 1, character: charsToUtf16(text, pos.column - 1) };
}

/**
 * The 1-based line and character column of a wire position in `lines`; a line that is not there
 * (a file that changed since, or one mm could not read) keeps the UTF-16 count.
 */
export function fromWire(lines: string[] | undefined, pos: Position): CharPosition {
  const text = lines?.[pos.line];
  if (text === undefined) return { line: pos.line + 1, column: pos.character + 1 };
  return { line: pos.line + 1, column: utf16ToChars(text, pos.character) + 1 };
}

/**
 * The UTF-16 offset in the whole of `text` of a wire position, for applying edits. A character
 * past the end of its line stops at the line's end; a line past the end of the text is its end.
 */
export function wireToOffset(text: string, pos: Position): number {
  let start = 0;
  for (let line = 0; line < pos.line; line++) {
    const next = nextLineStart(text, start);
    if (next < 0) return text.length;
    start = next;
  }
  let end = start;
  while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
  return Math.min(start + Math.max(0, pos.character), end);
}

/** Where the line after the one starting at `start` begins, or -1 when there is none. */
function nextLineStart(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    if (text[i] === "\n") return i + 1;
    if (text[i] === "\r") return text[i + 1] === "\n" ? i + 2 : i + 1;
  }
  return -1;
}
