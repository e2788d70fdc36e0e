/**
 * Frames to the terminal: the previous frame is kept and only the rows that changed are written;
 * while the conversation follows its end, the part that scrolls is scrolled by the terminal (a
 * scroll region) instead of being written again; every frame is wrapped in synchronized output
 * (`CSI ?2026h` … `CSI ?2026l`) and written in one call; the hardware cursor is left at the caret.
 * Autowrap is off while the window is up (window/terminal.ts), so a row never spills into the next.
 */

import { plainText } from "./style.ts";
import { textWidth } from "../terminal/width.ts";

/** One screen: its rows (styled, each at most the width) and where the caret is. */
export interface Frame {
  rows: string[];
  cursor: { row: number; col: number };
  /** Rows `top` to `bottom - 1` scroll together (the conversation), when the terminal may scroll them. */
  scroll?: { top: number; bottom: number };
}

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

/** Writes frames as the changes from the one before. */
export class FrameWriter {
  readonly #write: (bytes: string) => void;
  #prev: string[] = [];
  #columns = 0;
  #cursor = "";
  #valid = false;

  /** A writer that hands each frame's bytes to `write`, once per frame. */
  constructor(write: (bytes: string) => void) {
    this.#write = write;
  }

  /** The next frame is drawn whole (after a resize, a resume, Ctrl-L). */
  invalidate(): void {
    this.#valid = false;
  }

  /** Draws `frame` (as many rows as the terminal has); returns the bytes it wrote. */
  draw(frame: Frame): number {
    return this.#emit(this.bytes(frame));
  }

  /** The bytes that turn the previous frame into `frame` ("" when nothing changed). */
  bytes(frame: Frame): string {
    const rows = frame.rows;
    let out = "";
    if (!this.#valid || this.#prev.length !== rows.length) {
      out += "\x1b[0m\x1b[2J";
      this.#prev = rows.map(() => "");
      this.#valid = true;
    } else if (frame.scroll) out += this.#scroll(rows, frame.scroll);
    for (let r = 0; r < rows.length; r++) {
      if (rows[r] === this.#prev[r]) continue;
      out += `\x1b[${r + 1}H\x1b[0m${rows[r]}\x1b[0m`;
      if (textWidth(plainText(rows[r])) < this.#columns || this.#columns === 0) out += "\x1b[K";
      this.#prev[r] = rows[r];
    }
    const cursor = `\x1b[${frame.cursor.row + 1};${frame.cursor.col + 1}H`;
    if (out === "" && cursor === this.#cursor) return "";
    this.#cursor = cursor;
    return SYNC_START + out + cursor + SYNC_END;
  }

  /** Sets the terminal's width: rows narrower than it are ended with an erase. */
  resize(columns: number): void {
    if (columns !== this.#columns) this.#valid = false;
    this.#columns = columns;
  }

  #emit(bytes: string): number {
    if (bytes) this.#write(bytes);
    return bytes.length;
  }

  /**
   * When most rows of the region are the previous ones moved up by k (new text came in at the
   * bottom), scrolls the region by k: the terminal moves the rows, and only the rows that differ
   * from the moved ones are written after. Returns the bytes ("" when scrolling saves nothing).
   */
  #scroll(rows: string[], region: { top: number; bottom: number }): string {
    const { top, bottom } = region;
    const height = bottom - top;
    if (height < 4) return "";
    const prev = this.#prev;
    const matches = (k: number) => {
      let n = 0;
      for (let r = top; r < bottom - k; r++) if (rows[r] === prev[r + k]) n++;
      return n;
    };
    let best = 0;
    let bestMatches = matches(0);
    for (let k = 1; k <= height / 2; k++) {
      const n = matches(k);
      if (n > bestMatches + 1) {
        best = k;
        bestMatches = n;
      }
    }
    if (best === 0) return "";
    // The terminal scrolls the region; the rows that come in at its bottom are blank.
    prev.splice(top, best);
    prev.splice(bottom - best, 0, ...Array(best).fill(""));
    return `\x1b[${top + 1};${bottom}r\x1b[${best}S\x1b[r`;
  }
}
