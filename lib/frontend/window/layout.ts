/**
 * One frame of the window from its parts (docs/window-mode.md, "Layout"): the header, the
 * conversation, the status line, the input box at the bottom (one row, up to a third of the
 * height); a permission box or a form's options drawn over the bottom of the conversation. Below
 * 40×10, one row saying the window is too small.
 */

import type { Conversation } from "./conversation.ts";
import type { InputRows } from "./input.ts";
import type { Frame } from "./screen.ts";
import type { Style } from "./style.ts";
import { fit, pad, textWidth } from "./width.ts";
import { plainText } from "./style.ts";

/** The smallest window drawn. */
export const MIN_COLUMNS = 40;
/** The smallest window drawn. */
export const MIN_ROWS = 10;

/** The one row of a window smaller than 40×10. */
export function tooSmallText(columns: number, rows: number): string {
  return `the window is too small (${columns}×${rows}): make it at least ${MIN_COLUMNS}×${MIN_ROWS}`;
}

/** What a frame is made of. */
export interface LayoutParts {
  columns: number;
  rows: number;
  style: Style;
  /** The header's text (`mm · <model> @ <provider>`). */
  header: string;
  conversation: Conversation;
  /** The status line, left and right (styled). */
  status: { left: string; right: string };
  /** The input box's rows and caret (or the form's question, which replaces it). */
  input: InputRows;
  /** Rows drawn over the bottom of the conversation (the permission box, a form's options). */
  overlay: string[];
  /** The caret in `overlay` (the reason typed in the permission box), over the input's. */
  overlayCaret?: { row: number; col: number };
}

/** The most rows the input box takes in a window of `rows` rows. */
export function inputRowsMax(rows: number): number {
  return Math.max(1, Math.floor(rows / 3));
}

/** The frame of `parts`. */
export function layout(parts: LayoutParts): Frame {
  const { columns, rows: height, style } = parts;
  if (columns < MIN_COLUMNS || height < MIN_ROWS) {
    const rows = Array(height).fill("");
    rows[0] = fit(tooSmallText(columns, height), columns);
    return { rows, cursor: { row: 0, col: 0 } };
  }
  const input = parts.input.rows.slice(0, inputRowsMax(height));
  const statusRow = height - 1 - input.length;
  const area = statusRow - 1;
  const overlay = parts.overlay.slice(-Math.max(0, area - 1));
  const viewHeight = area - overlay.length;
  const view = parts.conversation.view(columns, viewHeight);
  const rows: string[] = [style.reverse(pad(fit(` ${parts.header}`, columns), columns))];
  for (let i = 0; i < viewHeight; i++) rows.push(view.rows[i] ?? "");
  for (const r of overlay) rows.push(r);
  rows.push(statusLine(parts.status.left, parts.status.right, columns));
  for (const r of input) rows.push(r);
  const cursor = parts.overlayCaret
    ? { row: 1 + viewHeight + parts.overlayCaret.row, col: parts.overlayCaret.col }
    : { row: statusRow + 1 + parts.input.row, col: Math.min(columns - 1, parts.input.col) };
  return {
    rows,
    cursor,
    // The terminal may scroll the conversation's rows only when they fill their part and follow the end.
    ...(parts.conversation.following && view.rows.length === viewHeight
      ? { scroll: { top: 1, bottom: 1 + viewHeight } }
      : {}),
  };
}

/** The status line: `left`, and `right` at the right edge when both fit. */
function statusLine(left: string, right: string, columns: number): string {
  const l = textWidth(plainText(left));
  const r = textWidth(plainText(right));
  if (!right) return l <= columns ? left : fit(plainText(left), columns);
  if (l + 2 + r > columns) {
    return r <= columns ? right : fit(plainText(right), columns);
  }
  return left + " ".repeat(columns - l - r) + right;
}
