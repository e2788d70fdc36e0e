/**
 * ask_user in the window, as tools.md's "Window (`-tui`)" row says: the question replaces the input
 * box (`(i/N)` after it when there are several), the options are drawn over the bottom of the
 * conversation, the highlighted one in reverse with `❯`. `choice`: ↑↓ (wrapping) and Enter, or a
 * digit 1–9. `multi`: ↑↓, Space ticks (`[x]`), Enter sends when at least one is ticked. `confirm`:
 * `y`/`o` or `n`, or ←→↑↓ and Enter. `text`: typed in the box (prefilled with the default),
 * Backspace, Enter. Escape declines the whole form. The question wraps; more options than the
 * rows there are scroll with the highlight, which is always shown.
 */

import type { AskOutcome, Question } from "../../tool.ts";
import { parseAnswer } from "../terminal/answers.ts";
import type { Key } from "../terminal/keys.ts";
import { visible } from "../terminal/visible.ts";
import { InputEditor } from "./input.ts";
import type { Style } from "./style.ts";
import { fit, pad, textWidth, wrapText } from "../terminal/width.ts";

/** The options of a `confirm` question, as drawn, and the answers they give. */
const CONFIRM = [["Yes", "yes"], ["No", "no"]] as const;

/** The question (and the typed answer of a `text` question), in place of the input box. */
export interface QuestionRows {
  rows: string[];
  /** The caret in `rows`. */
  caret: { row: number; col: number };
}

/** One ask_user call's questions, answered one after the other. */
export class AskForm {
  readonly questions: Question[];
  index = 0;
  /** The highlighted option of the question shown. */
  highlight = 0;
  /** The first option shown when they are more than the rows there are. */
  #top = 0;
  /** The ticked options of a `multi` question. */
  ticked = new Set<number>();
  /** The answer typed to a `text` question. */
  readonly typed = new InputEditor();
  readonly #answers: string[] = [];

  /** A form for `questions` (one to four, cleaned by ask_user). */
  constructor(questions: Question[]) {
    this.questions = questions;
    this.#begin();
  }

  /** The question shown. */
  get question(): Question {
    return this.questions[this.index];
  }

  /** The hint of the status line for the question shown. */
  hint(): string {
    switch (this.question.type) {
      case "choice":
        return "↑↓ choose · Enter or 1–9 answer · Esc decline";
      case "multi":
        return "↑↓ move · Space tick · Enter send (one ticked at least) · Esc decline";
      case "confirm":
        return "y/o yes · n no · or ←→↑↓ and Enter · Esc decline";
      case "text":
        return "type the answer · Enter send · Esc decline";
    }
  }

  /** Applies one key; the outcome once the last question is answered, or the form declined. */
  handle(key: Key): AskOutcome | undefined {
    if (key.name === "escape") return { kind: "declined" };
    const q = this.question;
    const options = this.#options();
    const move = (d: number) => {
      this.highlight = (this.highlight + d + options.length) % options.length;
    };
    if (q.type === "text") {
      if (key.name === "enter") {
        const parsed = parseAnswer(q, this.typed.value());
        if (parsed.kind === "skip") return { kind: "declined" };
        if (parsed.kind === "answer") return this.#answer(parsed.value);
        return undefined;
      }
      if (key.name !== "up" && key.name !== "down") this.typed.handle(key);
      return undefined;
    }
    // Keys that came in one read (fast typing, ssh) are taken one by one: ` 4` ticks and picks.
    if (key.name === "text" && [...key.text].length > 1) {
      for (const ch of key.text) {
        const outcome = this.handle({ ...key, text: ch });
        if (outcome) return outcome;
      }
      return undefined;
    }
    switch (key.name) {
      case "up":
        move(-1);
        return undefined;
      case "down":
        move(1);
        return undefined;
      case "left":
      case "right":
        if (q.type === "confirm") move(key.name === "left" ? -1 : 1);
        return undefined;
      case "enter":
        if (q.type === "multi") {
          if (this.ticked.size === 0) return undefined;
          return this.#answer(
            [...this.ticked].sort((a, b) => a - b).map((i) => q.options[i]).join(
              ", ",
            ),
          );
        }
        return this.#answer(
          q.type === "confirm" ? CONFIRM[this.highlight][1] : options[this.highlight],
        );
      case "text": {
        const c = key.text;
        if (q.type === "multi" && c === " ") {
          if (this.ticked.has(this.highlight)) this.ticked.delete(this.highlight);
          else this.ticked.add(this.highlight);
          return undefined;
        }
        if (q.type === "confirm") {
          const parsed = parseAnswer(q, c);
          return parsed.kind === "answer" ? this.#answer(parsed.value) : undefined;
        }
        const n = /^[1-9]$/.test(c) ? Number(c) : 0;
        if (n >= 1 && n <= options.length) {
          if (q.type === "choice") return this.#answer(options[n - 1]);
          this.highlight = n - 1;
          if (this.ticked.has(n - 1)) this.ticked.delete(n - 1);
          else this.ticked.add(n - 1);
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * The question at `width` in at most `max` rows, in place of the input box: `❓ <question> (i/N)`
   * wrapped (cut with `…` before the count when it needs more), then the typed answer of a `text`
   * question; the caret in them.
   */
  questionRows(width: number, style: Style, max: number): QuestionRows {
    const q = this.question;
    const n = this.questions.length;
    const count = n > 1 ? ` (${this.index + 1}/${n})` : "";
    const box = q.type === "text"
      ? this.typed.rows(width, Math.min(3, Math.max(1, max - 1)))
      : undefined;
    const room = Math.max(1, max - (box?.rows.length ?? 0));
    let title = wrapText(`❓ ${visible(q.question).replace(/\s+/g, " ")}${count}`, width);
    if (title.length > room) {
      title = title.slice(0, room);
      title[room - 1] = fit(title[room - 1] + " …", width - textWidth(count)) + count;
    }
    const rows = title.map((t) => style.bold(t));
    const lastWidth = textWidth(title[title.length - 1]);
    let caret = { row: title.length - 1, col: Math.min(width - 1, lastWidth + 1) };
    if (box) {
      for (const r of box.rows) rows.push(r);
      caret = { row: title.length + box.row, col: box.col };
    }
    return { rows, caret };
  }

  /**
   * The options at `width` in at most `room` rows, drawn over the bottom of the conversation. More
   * options than rows scroll with the highlight, which is always shown: `↑ N more` above and
   * `↓ N more` below say what is not.
   */
  optionRows(width: number, style: Style, room: number): string[] {
    const q = this.question;
    const options = this.#options();
    const row = (o: string, i: number) => {
      const lit = i === this.highlight;
      const tick = q.type === "multi" ? (this.ticked.has(i) ? "[x] " : "[ ] ") : "";
      const number = q.type === "choice" ? `${i + 1}. ` : "";
      const dflt = q.type !== "multi" && q.default !== undefined && this.#isDefault(i)
        ? " (default)"
        : "";
      const text = `${lit ? "❯" : " "} ${tick}${number}${visible(o)}${dflt}`;
      const drawn = pad(fit(text, width), width);
      return lit ? style.reverse(drawn) : drawn;
    };
    const n = options.length;
    if (n <= room) return options.map(row);
    // A window of `slots` options that holds the highlight, a row above and below for the signs;
    // at either end the sign's row shows one more option instead.
    const slots = Math.max(1, room - 2);
    if (this.highlight < this.#top) this.#top = this.highlight;
    if (this.highlight >= this.#top + slots) this.#top = this.highlight - slots + 1;
    this.#top = Math.max(0, Math.min(this.#top, n - slots));
    let first = this.#top;
    let end = this.#top + slots;
    if (first === 0) end++;
    else if (end === n) first--;
    const more = (sign: string, k: number) => style.dim(fit(`  ${sign} ${k} more`, width));
    return [
      ...(first > 0 ? [more("↑", first)] : []),
      ...options.slice(first, end).map((o, i) => row(o, first + i)),
      ...(end < n ? [more("↓", n - end)] : []),
    ];
  }

  /** The option texts of the question shown. */
  #options(): string[] {
    const q = this.question;
    if (q.type === "confirm") return CONFIRM.map(([shown]) => shown);
    return q.type === "text" ? [] : q.options;
  }

  #isDefault(i: number): boolean {
    const q = this.question;
    if (q.type === "confirm") return CONFIRM[i][1] === q.default;
    return q.options[i] === q.default;
  }

  /** Answers the question shown; the outcome when it was the last. */
  #answer(value: string): AskOutcome | undefined {
    this.#answers.push(value);
    if (this.index === this.questions.length - 1) {
      return { kind: "answered", answers: [...this.#answers] };
    }
    this.index++;
    this.#begin();
    return undefined;
  }

  /** Starts the question shown: the default highlighted or typed. */
  #begin(): void {
    const q = this.question;
    this.ticked.clear();
    this.typed.clear();
    this.#top = 0;
    const options = this.#options();
    const d = options.findIndex((_, i) => q.default !== undefined && this.#isDefault(i));
    this.highlight = d >= 0 ? d : 0;
    if (q.type === "text" && q.default !== undefined) this.typed.set(q.default);
  }
}
