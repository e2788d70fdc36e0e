/** A one-line editor for the terminal: arrows, Ctrl-A/E/K/U/W, history, `\` continuation, paste. */

import type { KeyRouter } from "./keys.ts";
import type { Key } from "../terminal/keys.ts";
import type { History } from "../terminal/history.ts";
import { nextLength, prevLength } from "../terminal/graphemes.ts";
import { charWidth } from "../terminal/width.ts";
import { type Completer, TabCycle } from "../terminal/complete.ts";

/** What reading a line gave. */
export type LineResult =
  | { kind: "line"; text: string }
  | { kind: "interrupt" }
  | { kind: "eof" };

/** Reads lines from the keys routed to it, drawing the line being edited. */
export class LineEditor {
  #router: KeyRouter;
  #write: (text: string) => void;
  #width: () => number;
  /** Draws the line being read again, while one is. */
  #redraw?: () => void;
  #stop?: AbortSignal;
  /** What Tab completes (`@path`, `/model NAME`); absent: Tab inserts two spaces. */
  completer?: Completer;

  /**
   * An editor drawing with `write`, `width` columns wide; once `stop` aborts (mm is ending), every
   * read, waiting or to come, ends as at the end of the input.
   */
  constructor(
    router: KeyRouter,
    write: (text: string) => void,
    width: () => number,
    stop?: AbortSignal,
  ) {
    this.#router = router;
    this.#write = write;
    this.#width = width;
    this.#stop = stop;
  }

  /**
   * Writes `text` on a line of its own above the line being read, which is drawn again below it
   * (an MCP server that came up while the user types); false when no line is being read.
   */
  above(text: string): boolean {
    if (!this.#redraw) return false;
    this.#write(`\r\x1b[2K${text}\r\n`);
    this.#redraw();
    return true;
  }

  /**
   * Reads one line (or several joined by `\` at line ends, or pasted), starting from `initial`
   * (the prompt `/undo` put back) to be edited or sent again. `prompt` is asked for at every redraw
   * when a function; `shiftTab`, when given, answers Shift+Tab with a line written above the one
   * being read (plan mode's), the prompt drawn again. With `escapeCancels` (a picker's question),
   * Esc ends the read as Ctrl-C does instead of clearing the line.
   */
  read(
    prompt: string | (() => string),
    history?: History,
    shiftTab?: () => string,
    initial = "",
    escapeCancels = false,
  ): Promise<LineResult> {
    if (this.#stop?.aborted) return Promise.resolve({ kind: "eof" });
    return new Promise((resolve) => {
      let buffer = initial;
      let cursor = initial.length;
      let done: string[] = [];
      let browse = history ? history.entries.length : 0;
      let current = "";
      const promptNow = () => done.length ? "… " : typeof prompt === "string" ? prompt : prompt();
      const draw = () => {
        const shown = buffer.replaceAll("\n", "⏎");
        const room = Math.max(10, this.#width() - visibleLength(promptNow()) - 1);
        const { view, back } = sideways(shown, cursor, room);
        this.#write(`\r\x1b[2K${promptNow()}${view}${back > 0 ? `\x1b[${back}D` : ""}`);
      };
      const finish = (result: LineResult) => {
        this.#redraw = undefined;
        release();
        this.#stop?.removeEventListener("abort", stopped);
        this.#write("\r\n");
        resolve(result);
      };
      const stopped = () => finish({ kind: "eof" });
      const insert = (text: string) => {
        buffer = buffer.slice(0, cursor) + text + buffer.slice(cursor);
        cursor += text.length;
      };
      const cycle = new TabCycle();
      const release = this.#router.push((key: Key) => {
        if (key.name !== "tab") cycle.reset();
        switch (key.name) {
          case "text":
          case "paste":
            insert(key.text);
            break;
          case "enter":
          case "ctrl-j":
            if (buffer.endsWith("\\")) {
              // The row keeps the prompt it was typed at: `›` first, `…` after.
              const rowPrompt = promptNow();
              done.push(buffer.slice(0, -1));
              this.#write(
                `\r\x1b[2K${rowPrompt}${buffer.slice(0, -1).replaceAll("\n", "⏎")}\r\n`,
              );
              buffer = "";
              cursor = 0;
              break;
            }
            {
              // The last row is drawn at its own prompt (`…` after a continuation), its pasted
              // newlines as the lines they are (`⏎` only marks them until sent).
              this.#write(`\r\x1b[2K${promptNow()}${buffer.replaceAll("\n", "\r\n… ")}`);
              done.push(buffer);
              const text = done.join("\n");
              done = [];
              if (history) history.add(text);
              finish({ kind: "line", text });
            }
            return;
          // A character is a grapheme cluster: an emoji, a flag, a letter and its marks move whole.
          case "backspace": {
            const n = prevLength(buffer, cursor);
            buffer = buffer.slice(0, cursor - n) + buffer.slice(cursor);
            cursor -= n;
            break;
          }
          case "delete":
            buffer = buffer.slice(0, cursor) + buffer.slice(cursor + nextLength(buffer, cursor));
            break;
          case "left":
            cursor -= prevLength(buffer, cursor);
            break;
          case "right":
            cursor += nextLength(buffer, cursor);
            break;
          case "home":
          case "ctrl-a":
            cursor = 0;
            break;
          case "end":
          case "ctrl-e":
            cursor = buffer.length;
            break;
          case "ctrl-k":
            buffer = buffer.slice(0, cursor);
            break;
          case "ctrl-u":
            buffer = buffer.slice(cursor);
            cursor = 0;
            break;
          case "ctrl-w": {
            const before = buffer.slice(0, cursor).replace(/\S+\s*$/, "");
            buffer = before + buffer.slice(cursor);
            cursor = before.length;
            break;
          }
          case "up":
          case "down": {
            if (!history || history.entries.length === 0) break;
            if (browse === history.entries.length) current = buffer;
            browse = key.name === "up"
              ? Math.max(0, browse - 1)
              : Math.min(history.entries.length, browse + 1);
            buffer = browse === history.entries.length ? current : history.entries[browse];
            cursor = buffer.length;
            break;
          }
          case "ctrl-c":
            finish({ kind: "interrupt" });
            return;
          case "ctrl-d":
            if (buffer === "" && done.length === 0) {
              finish({ kind: "eof" });
              return;
            }
            buffer = buffer.slice(0, cursor) + buffer.slice(cursor + nextLength(buffer, cursor));
            break;
          case "escape":
            if (escapeCancels) {
              finish({ kind: "interrupt" });
              return;
            }
            buffer = "";
            cursor = 0;
            break;
          case "shift-tab":
            if (shiftTab) this.#write(`\r\x1b[2K${shiftTab()}\r\n`);
            break;
          case "tab": {
            // The prompt completes (it browses the history); a question or the 🔐 prompt does not.
            const completer = history ? this.completer : undefined;
            if (!completer || done.length > 0) {
              insert("  ");
              break;
            }
            const [text, at] = [buffer, cursor];
            cycle.tab(completer, text, at).then((r) => {
              // A key typed meanwhile wins over the completion.
              if (buffer !== text || cursor !== at || this.#redraw !== draw) return;
              if (r) [buffer, cursor] = [r.text, r.cursor];
              else insert("  ");
              draw();
            });
            return;
          }
        }
        draw();
      });
      this.#redraw = draw;
      this.#stop?.addEventListener("abort", stopped, { once: true });
      draw();
    });
  }
}

/** The columns `text` takes, without its escape sequences (every character counted as one). */
export function visibleLength(text: string): number {
  // deno-lint-ignore no-control-regex
  return [...text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")].length;
}

/**
 * The part of `text` a line of `room` columns shows with the cursor (at code unit `cursor`) in
 * view, counted in columns (a CJK character or an emoji takes two), and how many columns the
 * cursor stands before the end of that part.
 */
export function sideways(
  text: string,
  cursor: number,
  room: number,
): { view: string; back: number } {
  const chars: { ch: string; at: number; width: number }[] = [];
  let at = 0;
  for (const ch of text) {
    chars.push({ ch, at, width: charWidth(ch.codePointAt(0)!) });
    at += ch.length;
  }
  let here = chars.findIndex((c) => c.at >= cursor);
  if (here < 0) here = chars.length;
  // From the cursor back as far as fits, then forward to fill the room.
  let start = here;
  let used = here < chars.length ? chars[here].width || 1 : 1;
  while (start > 0 && used + chars[start - 1].width <= room) used += chars[--start].width;
  let end = start;
  let width = 0;
  while (end < chars.length && width + chars[end].width <= room) width += chars[end++].width;
  const view = chars.slice(start, end).map((c) => c.ch).join("");
  const back = chars.slice(here, end).reduce((n, c) => n + c.width, 0);
  return { view, back };
}
