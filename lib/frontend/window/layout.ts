/**
 * One frame of the window from its parts (docs/window-mode.md, "Layout"): the header, the
 * conversation, the status line, the input box at the bottom (one row, up to a third of the
 * height); a permission box or a form's options drawn over the bottom of the conversation, given
 * the rows there is room for (it keeps its head: a part cut is cut at its bottom). Below 40×10, the
 * window only says it is too small.
 */

import type { Conversation } from "./conversation.ts";
import type { InputRows } from "./input.ts";
import type { Frame } from "./screen.ts";
import type { Style } from "./style.ts";
import { fit, pad, textWidth, wrapText } from "../terminal/width.ts";
import { plainText } from "./style.ts";

/** The smallest window drawn. */
export const MIN_COLUMNS = 40;
/** The smallest window drawn. */
export const MIN_ROWS = 10;

/** What a window smaller than 40×10 says, wrapped to its width. */
export function tooSmallText(columns: number, rows: number): string {
  return `the window is too small (${columns}×${rows}): make it at least ${MIN_COLUMNS}×${MIN_ROWS}`;
}

/** The same, short, for a window too small for {@linkcode tooSmallText} wrapped. */
export function tooSmallShort(columns: number, rows: number): string {
  return `too small: ${columns}×${rows} < ${MIN_COLUMNS}×${MIN_ROWS}`;
}

/** The most rows the status line takes (a long hint wraps). */
export const STATUS_ROWS_MAX = 3;

/** Rows drawn over the bottom of the conversation, and the caret in them (a reason being typed). */
export interface Overlay {
  rows: string[];
  caret?: { row: number; col: number };
}

/** The status line: `left` (plain text, painted with `paint`), and `right` (styled) at the right. */
export interface StatusParts {
  left: string;
  paint: (text: string) => string;
  right: string;
  /** Wrap `left` (a hint to read whole) rather than cut it to one row. */
  wrap?: boolean;
}

/** What a frame is made of. */
export interface LayoutParts {
  columns: number;
  rows: number;
  style: Style;
  /** The header's text (`mm · <model> @ <provider>`). */
  header: string;
  conversation: Conversation;
  status: StatusParts;
  /** The input box's rows and caret (or the form's question, which replaces it). */
  input: InputRows;
  /**
   * What is drawn over the bottom of the conversation (the permission box, a form's options), in at
   * most `room` rows; the caret in it is the frame's when it has one.
   */
  overlay?: (room: number) => Overlay;
}

/** The most rows the input box takes in a window of `rows` rows. */
export function inputRowsMax(rows: number): number {
  return Math.max(1, Math.floor(rows / 3));
}

/** The frame of `parts`. */
export function layout(parts: LayoutParts): Frame {
  const { columns, rows: height, style } = parts;
  if (columns < MIN_COLUMNS || height < MIN_ROWS) return tooSmall(columns, height);
  const input = parts.input.rows.slice(0, inputRowsMax(height));
  const status = statusRows(parts.status, columns);
  const statusRow = height - input.length - status.length;
  // The conversation and the overlay share the rows between the header and the status line; the
  // conversation keeps one at least.
  const area = statusRow - 1;
  const drawn = parts.overlay?.(Math.max(0, area - 1)) ?? { rows: [] };
  const overlay = drawn.rows.slice(0, Math.max(0, area - 1));
  const viewHeight = area - overlay.length;
  const view = parts.conversation.view(columns, viewHeight);
  const rows: string[] = [style.reverse(pad(fit(` ${parts.header}`, columns), columns))];
  for (let i = 0; i < viewHeight; i++) rows.push(view.rows[i] ?? "");
  for (const r of overlay) rows.push(r);
  for (const r of status) rows.push(r);
  for (const r of input) rows.push(r);
  const caret = drawn.caret;
  const cursor = caret && caret.row < overlay.length
    ? { row: 1 + viewHeight + caret.row, col: Math.min(columns - 1, caret.col) }
    : {
      row: statusRow + status.length + Math.min(input.length - 1, parts.input.row),
      col: Math.min(columns - 1, parts.input.col),
    };
  return {
    rows,
    cursor,
    // The terminal may scroll the conversation's rows only when they fill their part and follow the end.
    ...(parts.conversation.following && view.rows.length === viewHeight
      ? { scroll: { top: 1, bottom: 1 + viewHeight } }
      : {}),
  };
}

/** A window smaller than 40×10: what it says, wrapped within its rows. */
function tooSmall(columns: number, height: number): Frame {
  let text = wrapText(tooSmallText(columns, height), columns);
  if (text.length > height) text = wrapText(tooSmallShort(columns, height), columns);
  const rows = Array(height).fill("");
  text.slice(0, height).forEach((t, i) => rows[i] = fit(t, columns));
  return { rows, cursor: { row: 0, col: 0 } };
}

/** The status line's rows: `left`, and `right` at the right edge of the last row when both fit. */
function statusRows(status: StatusParts, columns: number): string[] {
  const { left, paint, right } = status;
  const r = textWidth(plainText(right));
  const lefts = status.wrap
    ? wrapText(left, columns).slice(0, STATUS_ROWS_MAX)
    : [textWidth(left) <= columns ? left : fit(left, columns)];
  const last = lefts.length - 1;
  const l = textWidth(lefts[last]);
  const rows = lefts.map((t) => t ? paint(t) : t);
  if (!right) return rows;
  if (l + 2 + r <= columns) {
    rows[last] += " ".repeat(columns - l - r) + right;
    return rows;
  }
  // No room beside the hint: the right part has a row of its own when the hint wraps anyway, and
  // else takes the row (the new lines count is worth more than a hint cut short).
  if (status.wrap && rows.length < STATUS_ROWS_MAX) {
    return [
      ...rows,
      r <= columns ? " ".repeat(columns - r) + right : fit(plainText(right), columns),
    ];
  }
  if (status.wrap) return rows;
  return [r <= columns ? right : fit(plainText(right), columns)];
}
