/**
 * The file as edit_file's passes see it (LF-normalised, without a BOM, split once into lines), and
 * what a pass finds there: a region and its replacement, or several places (docs/tools.md).
 */

import { detectIndentLines, type IndentUnit } from "./reindent.ts";

/** The spec's pass that found an edit's `old`: `exact`, or a whitespace one (`edges`, `indent`). */
export type Pass = "exact" | "edges" | "indent";

/**
 * A relaxation beyond the spec's whitespace passes, each reported in the headline in its own words:
 * copied line numbers, code fences or JSON escapes taken off, typography or spaces inside lines
 * ignored, an elided `old` matched piece by piece.
 */
export type Relaxation =
  | "lineNumbers"
  | "fences"
  | "escapes"
  | "typography"
  | "interior"
  | "elision";

/** One edit located in the file: the region `[start, end)` and what replaces it. */
export interface Located {
  kind: "found";
  pass: Pass;
  start: number;
  end: number;
  replacement: string;
  /** The relaxations beyond the spec's passes it needed; absent when none. */
  relaxed?: Relaxation[];
  /**
   * An elided old: the regions replaced one by one (the lines between them are not part of the
   * edit, and another edit may change them); `start`, `end` and `replacement` then span them all.
   */
  pieces?: Piece[];
}

/** One region of the file and what replaces it. */
export interface Piece {
  start: number;
  end: number;
  replacement: string;
}

/** `old` found in several places: how many, and the (1-based) lines they start on. */
export interface Ambiguous {
  kind: "ambiguous";
  count: number;
  lines: number[];
}

/** What one pass says: found, found several times, or nothing (undefined). */
export type PassResult = Located | Ambiguous | undefined;

/** A text split once into lines, with what the passes need to look things up. */
export class FileText {
  /** The lines, split on `\n` (a final newline gives a last empty line). */
  readonly lines: string[];
  /** The offset where each line starts. */
  readonly starts: number[];
  readonly #unit: IndentUnit | undefined;
  /** The file's path, which tells the passes its language (literals, comments, `...`). */
  readonly path: string;
  readonly #memo = new Map<string, unknown>();

  /**
   * `text`, LF-normalised; `unit` overrides the detected indentation (a Makefile's tabs); `path`
   * names the file (its extension matters to some passes).
   */
  constructor(readonly text: string, unit?: IndentUnit, path = "") {
    this.lines = text.split("\n");
    this.starts = new Array(this.lines.length);
    let at = 0;
    for (let i = 0; i < this.lines.length; i++) {
      this.starts[i] = at;
      at += this.lines[i].length + 1;
    }
    this.#unit = unit;
    this.path = path;
  }

  /** The file's indentation unit, when it shows one (or the one it was given). */
  get unit(): IndentUnit | undefined {
    return this.#unit ?? this.memo("unit", () => detectIndentLines(this.lines));
  }

  /** How many times `word` occurs in the file, counted up to 256 (computed once). */
  occurrences(word: string): number {
    return this.memo(`count:${word}`, () => countUpTo(this.text, word, COMMON + 1));
  }

  /** Each line without its leading and trailing spaces and tabs (computed on first use). */
  get trimmed(): string[] {
    return this.memo("trimmed", () => this.lines.map(trimBlanks));
  }

  /**
   * The (0-based) lines holding `word`, each once, in order. A run of letters and digits is never
   * split by the spaces the passes forgive, so a line can line up with one of old's only when it
   * holds that line's words: the passes look at these lines only.
   */
  linesHolding(word: string): number[] {
    return this.memo(`holding:${word}`, () => {
      const out: number[] = [];
      let line = 0;
      for (let at = this.text.indexOf(word); at >= 0; at = this.text.indexOf(word, at + 1)) {
        while (line + 1 < this.starts.length && this.starts[line + 1] <= at) line++;
        if (out[out.length - 1] !== line) out.push(line);
        at = this.starts[line] + this.lines[line].length;
        if (line + 1 >= this.starts.length) break;
      }
      return out;
    });
  }

  /** The 0-based index of the line holding `offset`. */
  lineIndex(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The 1-based number of the line holding `offset`. */
  lineNumber(offset: number): number {
    return this.lineIndex(offset) + 1;
  }

  /** `make()`, computed once per file and `key`: what a pass derives from the whole file. */
  memo<T>(key: string, make: () => T): T {
    if (!this.#memo.has(key)) this.#memo.set(key, make());
    return this.#memo.get(key) as T;
  }
}

/** Leading and trailing spaces and tabs off. */
export function trimBlanks(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === 32 || s.charCodeAt(a) === 9)) a++;
  while (b > a && (s.charCodeAt(b - 1) === 32 || s.charCodeAt(b - 1) === 9)) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** The runs of letters, digits and `_` in `text`, longest first, each once. */
export function wordsOf(text: string): string[] {
  const words = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}_]+/gu)) words.add(m[0]);
  return [...words].sort((a, b) => b.length - a.length);
}

/** Occurrences above which a word is common enough that any rarer one is a better anchor. */
const COMMON = 256;

/**
 * Of `words`, the one the file holds least often (of the 8 longest; the longer on a tie, counts
 * above 256 alike), or "" when there is none: the passes look only at the lines that hold it.
 */
export function rarestWord(file: FileText, words: string[]): string {
  let best = "";
  let count = Infinity;
  for (const word of words.slice(0, 8)) {
    const n = file.occurrences(word);
    if (n < count) [best, count] = [word, n];
    if (n === 0) break;
  }
  return best;
}

/** How many times `needle` occurs in `text`, counting up to `max` at most. */
export function countUpTo(text: string, needle: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0 && n < max; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

/** Every offset where `needle` starts in `text`, overlapping occurrences included. */
export function findAll(text: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === "") return out;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** The ambiguous result for occurrences starting on these (0-based) line indexes. */
export function ambiguous(indexes: number[]): Ambiguous {
  const lines = [...new Set(indexes)].sort((a, b) => a - b).map((i) => i + 1);
  return { kind: "ambiguous", count: indexes.length, lines };
}

/** The lines of `text` without its leading and trailing blank lines, and how many led. */
export function coreLines(text: string): { lines: string[]; lead: number } | undefined {
  const lines = text.split("\n");
  const first = lines.findIndex((l) => !/^[ \t]*$/.test(l));
  if (first < 0) return undefined;
  let last = lines.length - 1;
  while (/^[ \t]*$/.test(lines[last])) last--;
  return { lines: lines.slice(first, last + 1), lead: first };
}
