/**
 * How many terminal columns text takes, and text cut or wrapped to a width. Wide characters (CJK,
 * most emoji) take two columns, combining marks and joiners none; a tab is expanded to the next
 * multiple of {@linkcode TAB} columns. Text given here is already safe to show (terminal/visible.ts):
 * no control character but the newline and the tab.
 */

import { eastAsianWidth } from "npm:get-east-asian-width@1.7.0";

/** The tab stops of drawn text. */
export const TAB = 4;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/** The columns of one code point (the tab is not one: it depends on where it falls). */
export function charWidth(cp: number): number {
  if (cp < 0x7f) return cp < 0x20 ? 0 : 1;
  if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (cp >= 0x300 && ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  return eastAsianWidth(cp);
}

/** The columns `text` takes on one line (tabs expanded from column 0). */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) {
    width += ch === "\t" ? TAB - (width % TAB) : charWidth(ch.codePointAt(0)!);
  }
  return width;
}

/** `text` with its tabs expanded to spaces, from column `start`. */
export function expandTabs(text: string, start = 0): string {
  if (!text.includes("\t")) return text;
  let out = "";
  let width = start;
  for (const ch of text) {
    if (ch === "\t") {
      const n = TAB - (width % TAB);
      out += " ".repeat(n);
      width += n;
    } else {
      out += ch;
      width += charWidth(ch.codePointAt(0)!);
    }
  }
  return out;
}

/** `text` (one line, no tab) cut to `width` columns, the cut marked with `…`. */
export function fit(text: string, width: number): string {
  if (width <= 0) return "";
  if (PRINTABLE_ASCII.test(text)) {
    return text.length <= width ? text : text.slice(0, width - 1) + "…";
  }
  if (textWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + "…";
}

/** `text` (one line, no tab) padded with spaces to `width` columns. */
export function pad(text: string, width: number): string {
  const w = textWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}

/**
 * The rows of one line of text (no newline, no tab) wrapped to `width` columns: broken after a
 * space where one is, else inside the word. Greedy, so appending text never changes any row but
 * the last: {@linkcode Wrapped} relies on it.
 */
export function wrapLine(text: string, width: number): string[] {
  return wrapRows(text, width).rows;
}

/** {@linkcode wrapLine}'s rows and where each starts in `text` (a space a break drops is in none). */
export function wrapRows(text: string, width: number): { rows: string[]; starts: number[] } {
  if (width <= 0) return { rows: [text], starts: [0] };
  if (PRINTABLE_ASCII.test(text)) return wrapAscii(text, width);
  const rows: string[] = [];
  const starts: number[] = [];
  let rowStart = 0;
  let used = 0;
  // Where the row may be broken: just after its last space (an offset in `text`), and its width.
  let breakAt = -1;
  let widthAtBreak = 0;
  let i = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0)!);
    if (used + w > width) {
      if (ch === " ") {
        // A space at the end of a full row is where it breaks, and belongs to no row.
        rows.push(text.slice(rowStart, i));
        starts.push(rowStart);
        rowStart = i + 1;
        used = 0;
        breakAt = -1;
        i += ch.length;
        continue;
      }
      const at = breakAt > rowStart ? breakAt : i;
      rows.push(text.slice(rowStart, at));
      starts.push(rowStart);
      used = at === i ? 0 : used - widthAtBreak;
      rowStart = at;
      breakAt = -1;
    }
    used += w;
    i += ch.length;
    if (ch === " ") {
      breakAt = i;
      widthAtBreak = used;
    }
  }
  rows.push(text.slice(rowStart));
  starts.push(rowStart);
  return { rows, starts };
}

function wrapAscii(text: string, width: number): { rows: string[]; starts: number[] } {
  const rows: string[] = [];
  const starts: number[] = [];
  let start = 0;
  while (text.length - start > width) {
    const end = start + width;
    starts.push(start);
    if (text[end] === " ") {
      rows.push(text.slice(start, end));
      start = end + 1;
      continue;
    }
    const space = text.lastIndexOf(" ", end - 1);
    const at = space >= start ? space + 1 : end;
    rows.push(text.slice(start, at));
    start = at;
  }
  rows.push(text.slice(start));
  starts.push(start);
  return { rows, starts };
}

/** Every line of `text` wrapped to `width` (tabs expanded first). */
export function wrapText(text: string, width: number): string[] {
  return text.split("\n").flatMap((line) => wrapLine(expandTabs(line), width));
}

/**
 * The wrapped rows of a text that only grows (a streamed answer), kept per width: appending
 * re-wraps the last row only, so a frame costs what was added, not the whole text.
 */
export class Wrapped {
  #text = "";
  #width = -1;
  #rows: string[] = [];
  /** Where the last line starts in `#text`, and how many rows come before it. */
  #lineAt = 0;
  #rowsBefore = 0;
  /** Where the last row starts in `#text` (tabs are expanded from the line's start: then its start). */
  #lastAt = 0;

  /** The whole text so far. */
  get text(): string {
    return this.#text;
  }

  /** Adds text at the end. */
  append(text: string): void {
    this.#text += text;
  }

  /** The rows at `width`. */
  rows(width: number): string[] {
    if (width !== this.#width) {
      this.#width = width;
      this.#rows = [];
      this.#lineAt = this.#rowsBefore = this.#lastAt = 0;
    }
    // Wrap again from the start of the last row (its line may have grown), or of the last line
    // when a tab came: a tab's width depends on where it falls in its line.
    let at = this.#lastAt;
    if (this.#text.indexOf("\t", this.#lineAt) >= 0) at = this.#lineAt;
    this.#rows.length = at === this.#lineAt
      ? this.#rowsBefore
      : Math.max(this.#rowsBefore, this.#rows.length - 1);
    for (;;) {
      const end = this.#text.indexOf("\n", at);
      const line = this.#text.slice(at, end < 0 ? undefined : end);
      const tabs = line.includes("\t");
      const { rows, starts } = wrapRows(tabs ? expandTabs(line) : line, width);
      for (const row of rows) this.#rows.push(row);
      if (end < 0) {
        this.#lastAt = tabs ? at : at + starts[starts.length - 1];
        break;
      }
      at = this.#lastAt = this.#lineAt = end + 1;
      this.#rowsBefore = this.#rows.length;
    }
    return this.#rows;
  }
}
