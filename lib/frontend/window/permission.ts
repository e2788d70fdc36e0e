/**
 * The window's permission box (`yolo: false`; tools.md, "Permissions"): drawn over the input box,
 * it waits for `a` (allow once), `s` (allow this tool for the session; not offered for an asked
 * agent's request), `r` (refuse with a reason typed in the box), `n` or Esc (refuse). A call
 * longer than the box has room for scrolls in it (↑↓ PgUp PgDn), so the whole of it can be read
 * before it is allowed.
 */

import type { PermissionAnswer } from "../../permissions/prompt.ts";
import type { Key } from "../terminal/keys.ts";
import { visible } from "../terminal/visible.ts";
import { prevLength } from "../terminal/graphemes.ts";
import type { Overlay } from "./layout.ts";
import type { Style } from "./style.ts";
import { fit, pad, textWidth, wrapText } from "../terminal/width.ts";

/** What a key did to the box: answered, cancelled the turn as well (Ctrl-C), or nothing yet. */
export type BoxOutcome =
  | { kind: "answer"; answer: PermissionAnswer }
  | { kind: "cancel" }
  | undefined;

/** The fewest rows of the call the box shows when it may take more (half the room, else these). */
const SUMMARY_ROWS = 6;

/** The keys that scroll the call in the box when it does not fit. */
export const SCROLL_HINT = "↑↓ PgUp PgDn read the whole call";

/** One permission request in the box. */
export class PermissionBox {
  readonly tool: string;
  readonly summary: string;
  /** An asked agent's request: no "allow for the session". */
  readonly asked: boolean;
  /** Typing the reason of a refusal (after `r`). */
  reasoning = false;
  reason = "";
  /** The first row of the call shown, when it has more rows than the box shows. */
  #top = 0;
  /** How many rows of the call the box showed last, and how many there are. */
  #shown = 0;
  #total = 0;

  /** The session rule `s` adds (`fetch_content(example.com)`); the tool's name when none is said. */
  readonly always: string;

  /**
   * The request for a call of `tool` shown as `summary` (for an asked agent, its whole question);
   * `always`: the session rule `s` adds.
   */
  constructor(tool: string, summary: string, asked: boolean, always?: string) {
    this.tool = tool;
    this.summary = summary;
    this.asked = asked;
    this.always = always ?? tool;
  }

  /** The choices, as the box's hint line says them. */
  choices(): string {
    return this.reasoning
      ? "Enter refuse with this reason · Esc back"
      : this.asked
      ? "a allow once · r refuse, saying why · n refuse"
      : `a allow once · s allow ${this.always} for this session · r refuse, saying why · n refuse`;
  }

  /** The choices in a few characters, for a window with little room: `a · s · r · n`. */
  shortChoices(): string {
    if (this.reasoning) return "Enter refuse · Esc back";
    return this.asked ? "a · r · n" : "a · s · r · n";
  }

  /** Whether the call has more rows than the box showed last (↑↓ PgUp PgDn scroll it). */
  get cut(): boolean {
    return this.#total > this.#shown;
  }

  /**
   * Scrolls the call when it does not fit: ↑ ↓ a row, PgUp PgDn a page (Home End, while no reason is
   * typed, its start and end). Whether `key` did.
   */
  scroll(key: Key): boolean {
    if (!this.cut) return false;
    // A page keeps one row of the last in view, when it has a few.
    const page = this.#shown > 3 ? this.#shown - 1 : this.#shown;
    const last = this.#total - this.#shown;
    const to = key.name === "up"
      ? this.#top - 1
      : key.name === "down"
      ? this.#top + 1
      : key.name === "pageup"
      ? this.#top - page
      : key.name === "pagedown"
      ? this.#top + page
      : key.name === "home" && !this.reasoning
      ? 0
      : key.name === "end" && !this.reasoning
      ? last
      : undefined;
    if (to === undefined) return false;
    this.#top = Math.max(0, Math.min(last, to));
    return true;
  }

  /** Applies one key. */
  handle(key: Key): BoxOutcome {
    if (key.name === "ctrl-c") return { kind: "cancel" };
    if (this.scroll(key)) return undefined;
    if (this.reasoning) {
      if (key.name === "enter") {
        const reason = this.reason.trim();
        return { kind: "answer", answer: reason ? { kind: "reject", reason } : { kind: "reject" } };
      }
      if (key.name === "escape") this.reasoning = false;
      else if (key.name === "backspace") {
        const end = this.reason.length;
        this.reason = this.reason.slice(0, end - prevLength(this.reason, end));
      } else if (key.name === "text" || key.name === "paste") {
        this.reason += visible(key.text).replace(/\s+/g, " ");
      }
      return undefined;
    }
    if (key.name === "escape") return { kind: "answer", answer: { kind: "reject" } };
    if (key.name !== "text") return undefined;
    const c = key.text.toLowerCase();
    if (c === "a" || c === "y") return { kind: "answer", answer: { kind: "allow" } };
    if (c === "s" && !this.asked) return { kind: "answer", answer: { kind: "allowAlways" } };
    if (c === "n") return { kind: "answer", answer: { kind: "reject" } };
    if (c === "r") this.reasoning = true;
    return undefined;
  }

  /**
   * The box's rows at `width`, at most `room` of them when it can, and the caret's place in them
   * when a reason is typed. A call longer than the box has room for shows a part of its rows, which
   * ↑↓ PgUp PgDn scroll: the hint line says so, the bottom border says which rows are shown.
   */
  rows(width: number, style: Style, room: number): Overlay {
    const inner = Math.max(1, width - 4);
    const title = this.asked ? " 🔐 an asked agent's call " : " 🔐 allow this call? ";
    const top = "╭─" + title + "─".repeat(Math.max(0, width - 3 - textWidth(title))) + "╮";
    const line = (text: string, paint = (t: string) => t) =>
      "│ " + paint(pad(fit(text, inner), inner)) + " │";
    // An asked agent's request is the whole question already: `<agent> asks: <title>`.
    const asked = this.asked ? this.summary : `${this.tool}: ${this.summary}`;
    const summary = wrapText(visible(asked), inner);
    // In a window with little room the hint is its keys alone, so the box keeps its borders.
    const full = (cut: boolean) =>
      wrapText(cut ? `${SCROLL_HINT} · ${this.choices()}` : this.choices(), inner);
    const reasonRows = this.reasoning ? 1 : 0;
    const hint = (cut: boolean) =>
      3 + reasonRows + full(cut).length <= room
        ? full(cut)
        : wrapText(`${cut ? "↑↓ · " : ""}${this.shortChoices()}`, inner);
    // The borders, the reason's row and the hint take what they need; the call the rest.
    const fixed = (cut: boolean) => 2 + (this.reasoning ? 1 : 0) + hint(cut).length;
    const most = Math.max(SUMMARY_ROWS, Math.floor(room / 2));
    let shown = Math.min(summary.length, most, Math.max(1, room - fixed(false)));
    const cut = shown < summary.length;
    if (cut) shown = Math.min(most, Math.max(1, room - fixed(true)));
    this.#shown = shown;
    this.#total = summary.length;
    this.#top = Math.max(0, Math.min(this.#top, summary.length - shown));
    const rows = [
      style.fg("yellow", top),
      ...summary.slice(this.#top, this.#top + shown).map((t) => line(t, (x) => style.bold(x))),
    ];
    let caret: { row: number; col: number } | undefined;
    if (this.reasoning) {
      const prompt = "why not? ";
      const space = inner - prompt.length;
      const typed = textWidth(this.reason) > space
        ? "…" + [...this.reason].slice(-(space - 1)).join("")
        : this.reason;
      rows.push(line(prompt + typed));
      caret = { row: rows.length - 1, col: 2 + prompt.length + textWidth(typed) };
    }
    for (const t of hint(cut)) rows.push(line(t, (x) => style.dim(x)));
    rows.push(style.fg("yellow", bottom(width, cut ? this.#position() : "")));
    return { rows, caret };
  }

  /** Which rows of the call are shown: `lines 7–12 of 40 ↑↓`. */
  #position(): string {
    const first = this.#top + 1;
    const last = this.#top + this.#shown;
    const more = `${this.#top > 0 ? "↑" : ""}${last < this.#total ? "↓" : ""}`;
    return ` lines ${first}–${last} of ${this.#total} ${more} `;
  }
}

/** The box's bottom border, saying `label` near its left end when there is one. */
function bottom(width: number, label: string): string {
  const inner = Math.max(0, width - 2);
  if (!label || textWidth(label) + 1 > inner) return "╰" + "─".repeat(inner) + "╯";
  return "╰─" + label + "─".repeat(inner - 1 - textWidth(label)) + "╯";
}
