/**
 * The window's input box: a multi-line editor. Enter sends; Shift-Enter (where the terminal reports
 * it), Alt-Enter, Ctrl-J or a trailing `\` add a line; ↑ ↓ move between lines and, from the first
 * or the last, through the history; a large paste shows as `[pasted N lines]` and is sent whole.
 */

import type { History } from "../terminal/history.ts";
import type { Key } from "../terminal/keys.ts";
import { nextLength, prevLength } from "../terminal/graphemes.ts";
import { visible } from "../terminal/visible.ts";
import { charWidth, wrapRows } from "../terminal/width.ts";
import { type Completer, TabCycle } from "../terminal/complete.ts";

/** A paste of more lines than this (or characters than {@linkcode PASTE_CHARS}) shows folded. */
export const PASTE_LINES = 3;
/** A paste longer than this shows folded. */
export const PASTE_CHARS = 1000;

/**
 * The placeholder of a folded paste: its lines (a final newline ends the last, it makes no new
 * one), or the characters of a paste on one line (`[pasted 1,500 characters]`).
 */
export function pasteLabel(text: string): string {
  const n = text.replace(/\n$/, "").split("\n").length;
  if (n === 1) return `[pasted ${text.length.toLocaleString("en-US")} characters]`;
  return `[pasted ${n} lines]`;
}

/** What a key did to the input. */
export type InputAction = "send" | "changed" | "unhandled";

/** The rows of the input box and where the caret is in them. */
export interface InputRows {
  rows: string[];
  /** The caret's row in `rows` and its column. */
  row: number;
  col: number;
}

/** The text being typed, the caret, the history being browsed, and the folded pastes. */
export class InputEditor {
  text = "";
  /** The caret, as an offset in `text`. */
  cursor = 0;
  #history: History | undefined;
  /** Where ↑ is in the history (its length: not browsing), and what was typed before. */
  #browse = 0;
  #draft = "";
  /** The folded pastes: placeholder → text. */
  #pastes = new Map<string, string>();
  /** What Tab completes (`@path`, `/model NAME`); absent: Tab inserts two spaces. */
  completer?: Completer;
  /** Called when a completion arrives (it is found asynchronously): draw again. */
  onCompleted?: () => void;
  #cycle = new TabCycle();

  /** An empty input browsing `history`. */
  constructor(history?: History) {
    this.#history = history;
    this.#browse = history?.entries.length ?? 0;
  }

  /** Whether nothing is typed. */
  get empty(): boolean {
    return this.text === "";
  }

  /** The text to send: the folded pastes put back. */
  value(): string {
    let out = this.text;
    for (const [label, text] of this.#pastes) out = out.split(label).join(text);
    return out;
  }

  /** Empties the input (after sending), and adds what was sent to the history. */
  clear(): void {
    this.text = "";
    this.cursor = 0;
    this.#pastes.clear();
    this.#browse = this.#history?.entries.length ?? 0;
  }

  /** Puts `text` in the input, the caret at its end (a prefilled answer, a recalled prompt). */
  set(text: string): void {
    this.text = visible(text).replaceAll("\t", "    ");
    this.cursor = this.text.length;
  }

  /** Applies one key. */
  handle(key: Key): InputAction {
    if (key.name !== "tab") this.#cycle.reset();
    switch (key.name) {
      case "text":
        this.#insert(key.text);
        return "changed";
      case "paste": {
        const text = key.text;
        if (text.split("\n").length > PASTE_LINES || text.length > PASTE_CHARS) {
          let label = pasteLabel(text);
          for (let n = 2; this.#pastes.has(label); n++) label = `${pasteLabel(text)} #${n}`;
          this.#pastes.set(label, text);
          this.#insert(label);
        } else this.#insert(text);
        return "changed";
      }
      case "enter":
        if (this.text.slice(0, this.cursor).endsWith("\\")) {
          this.text = this.text.slice(0, this.cursor - 1) + "\n" + this.text.slice(this.cursor);
          return "changed";
        }
        return "send";
      case "shift-enter":
      case "alt-enter":
      case "ctrl-j":
        this.#insert("\n");
        return "changed";
      case "backspace": {
        if (this.cursor === 0) return "changed";
        const label = this.#labelEndingAt(this.cursor);
        const n = label ? label.length : prevLength(this.text, this.cursor);
        if (label) this.#pastes.delete(label);
        this.text = this.text.slice(0, this.cursor - n) + this.text.slice(this.cursor);
        this.cursor -= n;
        return "changed";
      }
      case "delete":
      case "ctrl-d":
        if (this.cursor < this.text.length) {
          const n = nextLength(this.text, this.cursor);
          this.text = this.text.slice(0, this.cursor) + this.text.slice(this.cursor + n);
        }
        return "changed";
      case "left":
        this.cursor -= prevLength(this.text, this.cursor);
        return "changed";
      case "right":
        this.cursor += nextLength(this.text, this.cursor);
        return "changed";
      case "home":
      case "ctrl-a":
        this.cursor = this.#lineStart();
        return "changed";
      case "end":
      case "ctrl-e":
        this.cursor = this.#lineEnd();
        return "changed";
      case "ctrl-k":
        this.text = this.text.slice(0, this.cursor) + this.text.slice(this.#lineEnd());
        return "changed";
      case "ctrl-u": {
        const start = this.#lineStart();
        this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
        this.cursor = start;
        return "changed";
      }
      case "ctrl-w": {
        const before = this.text.slice(0, this.cursor).replace(/\S+\s*$/, "");
        this.text = before + this.text.slice(this.cursor);
        this.cursor = before.length;
        return "changed";
      }
      case "up":
        return this.#vertical(-1);
      case "down":
        return this.#vertical(1);
      case "tab": {
        if (!this.completer) {
          this.#insert("  ");
          return "changed";
        }
        const [text, at] = [this.text, this.cursor];
        this.#cycle.tab(this.completer, text, at).then((r) => {
          // A key typed meanwhile wins over the completion.
          if (this.text !== text || this.cursor !== at) return;
          if (r) [this.text, this.cursor] = [r.text, r.cursor];
          else this.#insert("  ");
          this.onCompleted?.();
        });
        return "changed";
      }
      default:
        return "unhandled";
    }
  }

  /** The box's rows at `width` (the prompt `› `, then two spaces), at most `max` with the caret in. */
  rows(width: number, max: number, prompt = "› "): InputRows {
    const room = Math.max(1, width - 2);
    const rows: string[] = [];
    let caretRow = 0;
    let caretCol = 0;
    let at = 0;
    for (const line of this.text.split("\n")) {
      const shown = line;
      const { rows: wrapped, starts } = wrapRows(shown, room);
      const caretIn = this.cursor >= at && this.cursor <= at + line.length;
      for (let i = 0; i < wrapped.length; i++) {
        if (caretIn) {
          const offset = this.cursor - at;
          const next = starts[i + 1] ?? Infinity;
          if (offset >= starts[i] && (offset < next || i === wrapped.length - 1)) {
            caretRow = rows.length;
            caretCol = 2 + columnsOf(shown.slice(starts[i], offset));
          }
        }
        rows.push((rows.length === 0 ? prompt : "  ") + wrapped[i]);
      }
      at += line.length + 1;
    }
    // A caret past the last column goes to the start of the next row, as a terminal draws it.
    if (caretCol >= width) caretCol = width - 1;
    const first = Math.max(0, Math.min(caretRow - max + 1, rows.length - max));
    return { rows: rows.slice(first, first + max), row: caretRow - first, col: caretCol };
  }

  /** Inserts typed text at the caret: a control character shows as `^X`, a tab as spaces. */
  #insert(typed: string): void {
    const text = visible(typed).replaceAll("\t", "    ");
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** The folded paste's placeholder that ends at `offset`, if one does. */
  #labelEndingAt(offset: number): string | undefined {
    const before = this.text.slice(0, offset);
    for (const label of this.#pastes.keys()) if (before.endsWith(label)) return label;
    return undefined;
  }

  #lineStart(): number {
    return this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  #lineEnd(): number {
    const end = this.text.indexOf("\n", this.cursor);
    return end < 0 ? this.text.length : end;
  }

  /** ↑ or ↓: the line above or below, else the history. */
  #vertical(dir: -1 | 1): InputAction {
    const start = this.#lineStart();
    const column = this.cursor - start;
    if (dir < 0 && start > 0) {
      const prevStart = this.text.lastIndexOf("\n", start - 2) + 1;
      this.cursor = Math.min(prevStart + column, start - 1);
      return "changed";
    }
    const end = this.#lineEnd();
    if (dir > 0 && end < this.text.length) {
      const nextEnd = this.text.indexOf("\n", end + 1);
      this.cursor = Math.min(end + 1 + column, nextEnd < 0 ? this.text.length : nextEnd);
      return "changed";
    }
    const history = this.#history;
    if (!history || history.entries.length === 0) return "changed";
    if (this.#browse === history.entries.length) this.#draft = this.text;
    this.#browse = Math.max(0, Math.min(history.entries.length, this.#browse + dir));
    this.set(this.#browse === history.entries.length ? this.#draft : history.entries[this.#browse]);
    return "changed";
  }
}

/** The columns of `text`. */
function columnsOf(text: string): number {
  let n = 0;
  for (const ch of text) n += charWidth(ch.codePointAt(0)!);
  return n;
}
