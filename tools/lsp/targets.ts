/** The positions an lsp call aims at: the symbol's occurrences, or the line and column it gives. */

import { charCount, type CharPosition, splitLines } from "../../lib/lsp/positions.ts";
import { findOccurrences, occurrenceLines } from "../../lib/lsp/symbol.ts";
import type { LspAction, LspInput } from "./call.ts";
import {
  columnPastEndText,
  linePastEndText,
  needsPositionText,
  notFoundText,
  notOnLineText,
  notPositionText,
} from "./texts.ts";

/** At most this many occurrences of a symbol are tried in one call. */
export const MAX_OCCURRENCES = 10;

/**
 * The positions to try, in order, or the text refusing the call: the symbol's occurrences (on
 * `line` only when given, the one under `column` first), else the exact `line` and `column`.
 */
export function findTargets(
  text: string,
  input: LspInput,
  symbol: string,
  action: LspAction,
  shown: string,
): CharPosition[] | string {
  const line = input.line ?? 0;
  const column = input.column ?? 0;
  if (line < 0) return notPositionText("line", line);
  if (column < 0) return notPositionText("column", column);
  const lines = splitLines(text);
  if (line > lines.length) return linePastEndText(line, shown, lines.length);
  if (line > 0 && column > 0) {
    const chars = charCount(lines[line - 1]);
    if (column > chars + 1) return columnPastEndText(column, line, chars);
  }
  if (symbol) {
    const found = findOccurrences(text, symbol, line > 0 ? line : undefined);
    if (found.length === 0) {
      if (line === 0) return notFoundText(symbol, shown);
      const elsewhere = occurrenceLines(text, symbol);
      if (elsewhere.length === 0) return notFoundText(symbol, shown);
      return notOnLineText(symbol, line, shown, elsewhere);
    }
    if (line > 0 && column > 0) {
      // The occurrence under the column first, then the nearest ones.
      const length = charCount(symbol);
      const distance = (o: CharPosition) =>
        column >= o.column && column < o.column + length ? -1 : Math.abs(o.column - column);
      found.sort((a, b) => distance(a) - distance(b));
    }
    return found.slice(0, MAX_OCCURRENCES);
  }
  if (line > 0 && column > 0) return [{ line, column }];
  return needsPositionText(action, shown);
}
