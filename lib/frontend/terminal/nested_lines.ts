/**
 * How an asked agent's steps look in the terminal (tools.md, `ask_agent`, Display): its text
 * indented under the `🗣 ask_agent` line, its tool calls as tool lines titled `<agent> · <title>`.
 */

import type { NestedEvent } from "../../tool.ts";
import { toolLine } from "./display.ts";
import { visible } from "./visible.ts";

/** The indentation of an asked agent's text, the same as a tool's output preview. */
export const NESTED_INDENT = "   ";

/** The display line of an asked agent's call: `🛠️  helper · bash: echo hi`, first line only. */
export function nestedToolLine(e: Extract<NestedEvent, { type: "tool_call" }>): string {
  const at = e.title.indexOf(": ");
  if (at >= 0) return toolLine(e.emoji, e.title.slice(0, at), e.title.slice(at + 2));
  return toolLine(e.emoji, e.title, "").replace(/: $/, "");
}

/** Whether a step ends one of the asked agent's calls (its output is then known). */
export function endsCall(e: NestedEvent): e is Extract<NestedEvent, { type: "tool_update" }> {
  return e.type === "tool_update" && (e.status === "completed" || e.status === "failed");
}

/**
 * `text` with every line that starts in it indented; `atLineStart` says whether the cursor was at
 * the start of a line before it.
 */
export function indented(text: string, atLineStart: boolean): string {
  let out = "";
  let start = atLineStart;
  for (const ch of text) {
    if (start && ch !== "\n") out += NESTED_INDENT;
    out += ch;
    start = ch === "\n";
  }
  return out;
}

/**
 * The titles of an asked agent's calls, to tell when one changes before it ends: its own
 * preToolCall hook gave it a new input (the asked agent says so as a new title).
 */
export class NestedTitles {
  #titles = new Map<string, string>();

  /** Follows `e`; the line to show under the call when its title changed, else undefined. */
  line(e: NestedEvent): string | undefined {
    if (e.type === "tool_call") this.#titles.set(e.id, e.title);
    if (e.type !== "tool_update" || e.title === undefined) return undefined;
    const before = this.#titles.get(e.id);
    if (before === undefined || before === e.title) return undefined;
    this.#titles.set(e.id, e.title);
    const shown = e.title.split("\n")[0] + (e.title.includes("\n") ? " …" : "");
    return `${NESTED_INDENT}↳ preToolCall hook: ${visible(shown)}`;
  }
}
