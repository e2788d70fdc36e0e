/**
 * ask_user in the window, as tools.md's "Window (`-tui`)" row says: the question replaces the input
 * box (`(i/N)` after it when there are several), the options are drawn over the bottom of the
 * conversation, the highlighted one in reverse with `❯`. `choice`: ↑↓ (wrapping) and Enter, or a
 * digit 1–9. `multi`: ↑↓, Space ticks (`[x]`), Enter sends when at least one is ticked. `confirm`:
 * `y`/`o` or `n`, or ←→↑↓ and Enter. `text`: typed in the box (prefilled with the default),
 * Backspace, Enter. Escape declines the whole form.
 */

import type { AskOutcome, Question } from "../../tool.ts";
import { parseAnswer } from "../terminal/answers.ts";
import type { Key } from "../terminal/keys.ts";
import { visible } from "../terminal/visible.ts";
import { InputEditor } from "./input.ts";
import type { Style } from "./style.ts";
import { fit, pad } from "./width.ts";

/** The options of a `confirm` question, as drawn, and the answers they give. */
const CONFIRM = [["Yes", "yes"], ["No", "no"]] as const;

/** The rows the form draws over the conversation and in place of the input box. */
export interface FormRows {
  /** The options, drawn over the bottom of the conversation (none for `text`). */
  options: string[];
  /** The question (and the typed answer of a `text` question), in place of the input box. */
  question: string[];
  /** The caret in `question`. */
  caret: { row: number; col: number };
}

/** One ask_user call's questions, answered one after the other. */
export class AskForm {
  readonly questions: Question[];
  index = 0;
  /** The highlighted option of the question shown. */
  highlight = 0;
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

  /** The form's rows at `width`. */
  rows(width: number, style: Style): FormRows {
    const q = this.question;
    const n = this.questions.length;
    const title = `❓ ${visible(q.question).replace(/\s+/g, " ")}${
      n > 1 ? ` (${this.index + 1}/${n})` : ""
    }`;
    const question = [style.bold(fit(title, width))];
    let caret = { row: 0, col: Math.min(width - 1, [...fit(title, width)].length + 1) };
    if (q.type === "text") {
      const box = this.typed.rows(width, 3);
      for (const r of box.rows) question.push(r);
      caret = { row: 1 + box.row, col: box.col };
    }
    const options = this.#options().map((o, i) => {
      const lit = i === this.highlight;
      const tick = q.type === "multi" ? (this.ticked.has(i) ? "[x] " : "[ ] ") : "";
      const number = q.type === "choice" ? `${i + 1}. ` : "";
      const dflt = q.type !== "multi" && q.default !== undefined && this.#isDefault(i)
        ? " (default)"
        : "";
      const text = `${lit ? "❯" : " "} ${tick}${number}${visible(o)}${dflt}`;
      const row = pad(fit(text, width), width);
      return lit ? style.reverse(row) : row;
    });
    return { options, question, caret };
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
    const options = this.#options();
    const d = options.findIndex((_, i) => q.default !== undefined && this.#isDefault(i));
    this.highlight = d >= 0 ? d : 0;
    if (q.type === "text" && q.default !== undefined) this.typed.set(q.default);
  }
}
