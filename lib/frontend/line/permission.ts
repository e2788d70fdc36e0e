/** Line mode's answer to the `🔐` prompt (tools.md, "Permissions", Terminal display). */

import type { PermissionAnswer } from "../../permissions/prompt.ts";
import { yesNo } from "../../text.ts";

/** Reads the answer to the `🔐` prompt: yes, always, no (also an empty line), or a reason for no. */
export function permissionAnswer(text: string): PermissionAnswer {
  const a = text.trim().toLowerCase();
  const word = yesNo(a, false);
  if (word === "yes") return { kind: "allow" };
  if (a === "a" || a === "always") return { kind: "allowAlways" };
  if (a === "" || word === "no") return { kind: "reject" };
  return { kind: "reject", reason: text.trim() };
}

/**
 * The `🔐` prompt's "always" choice: for the tool, or for the session rule it adds when that is
 * narrower (`[a]lways for fetch_content(example.com)`).
 */
export function alwaysChoice(tool: string, always?: string): string {
  return always === undefined || always === tool
    ? "[a]lways for this tool"
    : `[a]lways for ${always}`;
}

/** How many first lines of a long call the `🔐` prompt shows. */
export const PROMPT_HEAD_LINES = 10;
/** How many last lines of a long call the `🔐` prompt shows. */
export const PROMPT_TAIL_LINES = 5;

/** The line that stands for the lines of a long call the prompt leaves out. */
export function moreLinesText(n: number): string {
  return `… ${n} more lines …`;
}

/**
 * The lines of a call's `🔐` line as the prompt shows them: all of them, or for a long call (a
 * command of many lines) its first and last lines with `… N more lines …` between, so that its
 * head is still on the screen when `allow?` is asked; `cut` says whether lines were left out.
 */
export function promptLines(text: string, whole = false): { lines: string[]; cut: boolean } {
  const lines = text.split("\n");
  const keep = PROMPT_HEAD_LINES + PROMPT_TAIL_LINES;
  if (whole || lines.length <= keep + 1) return { lines, cut: false };
  return {
    lines: [
      ...lines.slice(0, PROMPT_HEAD_LINES),
      `   ${moreLinesText(lines.length - keep)}`,
      ...lines.slice(-PROMPT_TAIL_LINES),
    ],
    cut: true,
  };
}

/** Whether an answer to a shortened `🔐` prompt asks to see the whole call (`v`, `view`). */
export function wantsWhole(text: string): boolean {
  return /^(v|view)$/i.test(text.trim());
}
