/**
 * The window's conversation as a list of blocks, and the part of it on the screen: it follows the
 * end unless the user scrolled up; scrolled up, new output does not move the view and is counted
 * (`↓ N new lines`). A view costs the rows it shows, whatever the length of the history.
 */

import type { Block, Foldable } from "./blocks.ts";
import type { Style } from "./style.ts";

/** A row of the conversation: row `row` of block `block`. */
export interface RowAt {
  block: number;
  row: number;
}

/** What the screen shows of the conversation. */
export interface View {
  /** The rows, top first (fewer than the height when the conversation is short). */
  rows: string[];
  /** Where each row comes from. */
  at: RowAt[];
}

/** The blocks of a conversation and the scroll position over them. */
export class Conversation {
  readonly blocks: Block[] = [];
  readonly #style: Style;
  /** Following the end; else the top row of the view. */
  #top: RowAt | undefined;
  /** Scrolled up: the blocks there were then, and the rows of the last of them. */
  #since: { blocks: number; lastRows: number; width: number } | undefined;
  #lastView: View = { rows: [], at: [] };
  #height = 1;
  #now: () => number;

  /** An empty conversation drawn with `style`; `now` is the clock of running calls. */
  constructor(style: Style, now: () => number = Date.now) {
    this.#style = style;
    this.#now = now;
  }

  /** Whether the view follows the end. */
  get following(): boolean {
    return this.#top === undefined;
  }

  /** Adds a block at the end. */
  add(block: Block): void {
    this.blocks.push(block);
  }

  /** The rows of block `i` at `width`. */
  rowsOf(i: number, width: number): string[] {
    return this.blocks[i].rows(width, this.#style, this.#now());
  }

  /** The view of `height` rows at `width`. */
  view(width: number, height: number): View {
    this.#height = height;
    let view = this.#top === undefined
      ? this.#endView(width, height)
      : this.#viewFrom(this.#clamp(this.#top, width), width, height);
    // Scrolled up, the rows below the view shrank (a call folded): the end is in view, followed.
    if (this.#top !== undefined && view.rows.length < height) {
      this.end();
      view = this.#endView(width, height);
    }
    this.#lastView = view;
    return view;
  }

  /** The height of the last view. */
  get height(): number {
    return this.#height;
  }

  /** What PgUp and PgDn scroll: the last view's height but one row, which stays in view. */
  get page(): number {
    return Math.max(1, this.#height - 1);
  }

  /** How many rows came after the view since the user scrolled up (0 when following). */
  newRows(width: number): number {
    const since = this.#since;
    if (!since) return 0;
    if (since.width !== width) {
      // Drawn again at a new width: count from there.
      this.#since = this.#mark(width);
      return 0;
    }
    let n = 0;
    if (since.blocks > 0) n += this.rowsOf(since.blocks - 1, width).length - since.lastRows;
    for (let i = since.blocks; i < this.blocks.length; i++) n += this.rowsOf(i, width).length;
    return Math.max(0, n);
  }

  /** Scrolls by `delta` rows (negative: up), at `width` with a view of `height` rows. */
  scroll(delta: number, width: number, height: number): void {
    if (delta === 0 || this.blocks.length === 0) return;
    let top = this.#top ?? this.#lastView.at[0] ?? this.#endTop(width, height);
    if (this.#top === undefined) {
      if (delta > 0) return;
      this.#since = this.#mark(width);
    }
    top = this.#move(this.#clamp(top, width), delta, width);
    // Scrolled down to where the end is in view: follow it again.
    const view = this.#viewFrom(top, width, height);
    if (delta > 0 && this.#reachesEnd(view, width, height)) {
      this.end();
      return;
    }
    this.#top = top;
  }

  /** Goes to the first row. */
  home(width: number): void {
    if (this.blocks.length === 0) return;
    if (this.#top === undefined) this.#since = this.#mark(width);
    this.#top = { block: 0, row: 0 };
  }

  /** Follows the end again. */
  end(): void {
    this.#top = undefined;
    this.#since = undefined;
  }

  /** The block a click or Enter on row `row` of the last view folds, if any. */
  foldAt(row: number): Foldable | undefined {
    const at = this.#lastView.at[row];
    return at ? this.blocks[at.block].foldAt(at.row) : undefined;
  }

  /** The last foldable block of the last view (what Enter on an empty input folds). */
  lastFoldable(): Foldable | undefined {
    const at = this.#lastView.at;
    for (let i = at.length - 1; i >= 0; i--) {
      const f = this.blocks[at[i].block].foldAt(at[i].row);
      if (f?.foldable) return f;
    }
    return undefined;
  }

  /** Every row of the conversation at `width`: what is printed to the main screen on exit. */
  allRows(width: number): string[] {
    const rows: string[] = [];
    for (let i = 0; i < this.blocks.length; i++) {
      for (const r of this.rowsOf(i, width)) rows.push(r);
    }
    return rows;
  }

  #mark(width: number): { blocks: number; lastRows: number; width: number } {
    const n = this.blocks.length;
    return { blocks: n, lastRows: n ? this.rowsOf(n - 1, width).length : 0, width };
  }

  /** The last `height` rows, walking back from the last block. */
  #endView(width: number, height: number): View {
    const rows: string[] = [];
    const at: RowAt[] = [];
    for (let b = this.blocks.length - 1; b >= 0 && rows.length < height; b--) {
      const own = this.rowsOf(b, width);
      for (let r = own.length - 1; r >= 0 && rows.length < height; r--) {
        rows.push(own[r]);
        at.push({ block: b, row: r });
      }
    }
    return { rows: rows.reverse(), at: at.reverse() };
  }

  #endTop(width: number, height: number): RowAt {
    return this.#endView(width, height).at[0] ?? { block: 0, row: 0 };
  }

  /** `height` rows from `top` down. */
  #viewFrom(top: RowAt, width: number, height: number): View {
    const rows: string[] = [];
    const at: RowAt[] = [];
    for (let b = top.block; b < this.blocks.length && rows.length < height; b++) {
      const own = this.rowsOf(b, width);
      for (let r = b === top.block ? top.row : 0; r < own.length && rows.length < height; r++) {
        rows.push(own[r]);
        at.push({ block: b, row: r });
      }
    }
    return { rows, at };
  }

  /** Whether `view` shows the last row of the conversation. */
  #reachesEnd(view: View, width: number, height: number): boolean {
    if (view.rows.length < height) return true;
    const last = view.at[view.at.length - 1];
    const lastBlock = this.blocks.length - 1;
    return last.block === lastBlock && last.row >= this.rowsOf(lastBlock, width).length - 1;
  }

  /** `top` moved by `delta` rows, within the conversation. */
  #move(top: RowAt, delta: number, width: number): RowAt {
    let { block, row } = top;
    if (delta < 0) {
      let left = -delta;
      while (left > 0) {
        if (row >= left) return { block, row: row - left };
        left -= row;
        if (block === 0) return { block: 0, row: 0 };
        block--;
        row = this.rowsOf(block, width).length;
      }
      return { block, row };
    }
    let left = delta;
    for (;;) {
      const n = this.rowsOf(block, width).length;
      if (row + left < n) return { block, row: row + left };
      if (block === this.blocks.length - 1) return { block, row: Math.max(0, n - 1) };
      left -= n - row;
      block++;
      row = 0;
    }
  }

  /** `top` within its block's rows (a block drawn again at another width has fewer). */
  #clamp(top: RowAt, width: number): RowAt {
    const block = Math.min(top.block, this.blocks.length - 1);
    const n = this.rowsOf(block, width).length;
    return { block, row: Math.max(0, Math.min(top.row, n - 1)) };
  }
}
