/**
 * The window's permission box (`yolo: false`; tools.md, "Permissions"): drawn over the input box,
 * it waits for `a` (allow once), `s` (allow this tool for the session; not offered for an asked
 * agent's request), `r` (refuse with a reason typed in the box), `n` or Esc (refuse).
 */

import type { PermissionAnswer } from "../../permissions/prompt.ts";
import type { Key } from "../terminal/keys.ts";
import { visible } from "../terminal/visible.ts";
import type { Style } from "./style.ts";
import { fit, pad, textWidth, wrapText } from "./width.ts";

/** What a key did to the box: answered, cancelled the turn as well (Ctrl-C), or nothing yet. */
export type BoxOutcome =
  | { kind: "answer"; answer: PermissionAnswer }
  | { kind: "cancel" }
  | undefined;

/** The most rows of the call's summary the box shows. */
const SUMMARY_ROWS = 6;

/** One permission request in the box. */
export class PermissionBox {
  readonly tool: string;
  readonly summary: string;
  /** An asked agent's request: no "allow for the session". */
  readonly asked: boolean;
  /** Typing the reason of a refusal (after `r`). */
  reasoning = false;
  reason = "";

  /** The request for a call of `tool` shown as `summary` (for an asked agent, its whole question). */
  constructor(tool: string, summary: string, asked: boolean) {
    this.tool = tool;
    this.summary = summary;
    this.asked = asked;
  }

  /** The choices, as the box's last row says them. */
  choices(): string {
    return this.reasoning
      ? "Enter refuse with this reason · Esc back"
      : this.asked
      ? "a allow once · r refuse, saying why · n refuse"
      : `a allow once · s allow ${this.tool} for this session · r refuse, saying why · n refuse`;
  }

  /** Applies one key. */
  handle(key: Key): BoxOutcome {
    if (key.name === "ctrl-c") return { kind: "cancel" };
    if (this.reasoning) {
      if (key.name === "enter") {
        const reason = this.reason.trim();
        return { kind: "answer", answer: reason ? { kind: "reject", reason } : { kind: "reject" } };
      }
      if (key.name === "escape") this.reasoning = false;
      else if (key.name === "backspace") this.reason = [...this.reason].slice(0, -1).join("");
      else if (key.name === "text" || key.name === "paste") {
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

  /** The box's rows at `width`, and the caret's place in them when a reason is typed. */
  rows(width: number, style: Style): { rows: string[]; caret?: { row: number; col: number } } {
    const inner = Math.max(1, width - 4);
    const title = this.asked ? " 🔐 an asked agent's call " : " 🔐 allow this call? ";
    const top = "╭─" + title + "─".repeat(Math.max(0, width - 3 - textWidth(title))) + "╮";
    const line = (text: string, paint = (t: string) => t) =>
      "│ " + paint(pad(fit(text, inner), inner)) + " │";
    // An asked agent's request is the whole question already: `<agent> asks: <title>`.
    const asked = this.asked ? this.summary : `${this.tool}: ${this.summary}`;
    const summary = wrapText(visible(asked), inner);
    const shown = summary.slice(0, SUMMARY_ROWS);
    if (summary.length > SUMMARY_ROWS) shown.push(`… ${summary.length - SUMMARY_ROWS} more lines`);
    const rows = [style.fg("yellow", top), ...shown.map((t) => line(t, (x) => style.bold(x)))];
    let caret: { row: number; col: number } | undefined;
    if (this.reasoning) {
      const prompt = "why not? ";
      const room = inner - prompt.length;
      const typed = textWidth(this.reason) > room
        ? "…" + [...this.reason].slice(-(room - 1)).join("")
        : this.reason;
      rows.push(line(prompt + typed));
      caret = { row: rows.length - 1, col: 2 + prompt.length + textWidth(typed) };
    }
    for (const t of wrapText(this.choices(), inner)) rows.push(line(t, (x) => style.dim(x)));
    rows.push(style.fg("yellow", "╰" + "─".repeat(Math.max(0, width - 2)) + "╯"));
    return { rows, caret };
  }
}
