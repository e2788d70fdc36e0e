/** The excerpt a search hit shows: the text around the words found, on one line (tools.md, `search_memory`). */

import { foldWithMap } from "./fold.ts";

/** Characters of an excerpt before the first word found. */
export const EXCERPT_BEFORE = 80;
/** Characters of an excerpt at least after the first word found (counted from its end). */
export const EXCERPT_AFTER = 160;
/** Characters of an excerpt at most (before whitespace is collapsed). */
export const EXCERPT_MAX = 600;
/** Characters of a text's beginning, shown when it holds none of the words. */
export const BEGINNING = EXCERPT_BEFORE + EXCERPT_AFTER;

/** Where the words are in an original text: the first one found, its end, the end of the last. */
export interface Span {
  start: number;
  firstEnd: number;
  end: number;
}

/** The span of `words` (folded) in `text`, in the original's indices, or undefined when none is there. */
export function locateWords(text: string, words: readonly string[]): Span | undefined {
  const folded = foldWithMap(text);
  const back = (i: number) => folded.map ? folded.map[i] : i;
  // The original index just after the character that folded unit `i` came from.
  const after = (i: number) => {
    const o = back(i);
    return o + ((text.codePointAt(o) ?? 0) > 0xffff ? 2 : 1);
  };
  let first = -1;
  let firstLength = 0;
  let last = -1;
  for (const w of words) {
    const i = folded.text.indexOf(w);
    if (i < 0) continue;
    if (first < 0 || i < first || (i === first && w.length > firstLength)) {
      first = i;
      firstLength = w.length;
    }
    last = Math.max(last, folded.text.lastIndexOf(w) + w.length);
  }
  if (first < 0) return undefined;
  return { start: back(first), firstEnd: after(first + firstLength - 1), end: after(last - 1) };
}

/** Moves `i` off the second half of a surrogate pair, towards `direction`. */
export function whole(text: string, i: number, direction: -1 | 1): number {
  if (i <= 0 || i >= text.length) return i;
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff ? i + direction : i;
}

/** `text[from, to)` on one line, with `…` on each side where text was cut away. */
export function cutText(text: string, from: number, to: number): string {
  const body = text.slice(from, to).replace(/\s+/g, " ").trim();
  const before = from > 0 && /\S/.test(text.slice(0, from)) ? "…" : "";
  const after = to < text.length && /\S/.test(text.slice(to)) ? "…" : "";
  return before + body + after;
}

/**
 * The excerpt of `text` around `words`: from 80 characters before the first word found to the end
 * of the last, at least 160 after the end of the first, 600 at most, whitespace collapsed to one
 * space, `…` where cut. When the text holds none of the words: its first 240 characters.
 */
export function excerpt(text: string, words: readonly string[]): string {
  const span = locateWords(text, words);
  if (!span) return cutText(text, 0, whole(text, BEGINNING, 1));
  const from = whole(text, Math.max(0, span.start - EXCERPT_BEFORE), -1);
  const to = Math.max(span.firstEnd + EXCERPT_AFTER, span.end);
  return cutText(text, from, whole(text, Math.min(to, from + EXCERPT_MAX, text.length), -1));
}
