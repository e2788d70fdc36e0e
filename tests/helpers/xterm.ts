/** A terminal emulator for unit tests of the window's frames: bytes in, the screen's cells out. */

import xterm from "npm:@xterm/headless@6.0.0";

/** A headless xterm of `columns` × `rows`. */
export class Emulator {
  readonly term: xterm.Terminal;

  /** An emulator of the given size. */
  constructor(columns: number, rows: number) {
    this.term = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  }

  /** Feeds `bytes` and waits until they are parsed. */
  write(bytes: string): Promise<void> {
    return new Promise((resolve) => this.term.write(bytes, resolve));
  }

  /** Resizes the emulator. */
  resize(columns: number, rows: number): void {
    this.term.resize(columns, rows);
  }

  /** Every row of the screen as text, trailing blanks removed. */
  screen(): string[] {
    const b = this.term.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < this.term.rows; i++) {
      rows.push((b.getLine(b.viewportY + i)?.translateToString(true) ?? "").trimEnd());
    }
    return rows;
  }

  /** The cursor's row and column. */
  cursor(): { row: number; col: number } {
    const b = this.term.buffer.active;
    return { row: b.cursorY, col: b.cursorX };
  }

  /** The attributes of the cell at `row`, `col`. */
  cell(
    row: number,
    col: number,
  ): { text: string; bold: boolean; inverse: boolean; dim: boolean; fg: number } {
    const b = this.term.buffer.active;
    const c = b.getLine(b.viewportY + row)!.getCell(col)!;
    return {
      text: c.getChars(),
      bold: c.isBold() !== 0,
      inverse: c.isInverse() !== 0,
      dim: c.isDim() !== 0,
      fg: c.isFgDefault() ? -1 : c.getFgColor(),
    };
  }

  /** Releases the emulator. */
  dispose(): void {
    this.term.dispose();
  }
}
