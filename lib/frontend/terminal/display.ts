/**
 * How a tool call looks in the terminal: the `🛠️  bash: <command>` line and the output preview,
 * both through {@linkcode visible} (a summary and an output are the model's and the tool's text).
 */

import { lineDiff } from "../../diff.ts";
import { visible } from "./visible.ts";

/** How many lines of a change line mode shows above its permission prompt. */
export const CHANGE_PREVIEW_LINES = 40;

/**
 * The diff a permission prompt shows of a file change (`+`/`-`/` ` lines, `@@` headers), all of
 * it, or its first `max` lines and `… N more lines (+A −D in all)`; none when the diff would take
 * too long.
 */
export function changeLines(
  change: { oldText?: string; newText: string; replaces?: string },
  max = Infinity,
): string[] {
  // What the text replaces when it is no text (a binary file) is said first: no "new file" then.
  const replaces = change.replaces ? [`(replaces ${change.replaces}, not shown)`] : [];
  const diff = lineDiff(change.oldText ?? "", change.newText);
  if (!diff || diff.hunks === "") return replaces;
  const lines = [...replaces, ...diff.hunks.split("\n").map((l) => visible(l))];
  // One line hidden would cost the line that says so.
  if (lines.length <= max + 1) return lines;
  const more = lines.length - max;
  return [
    ...lines.slice(0, max),
    `… ${more} more line${more === 1 ? "" : "s"} (+${diff.added} −${diff.deleted} in all)`,
  ];
}

/**
 * The display line of a call: `<emoji> <name>: <summary>`. An emoji written with the variation
 * selector (`🛠️`) is drawn one column wide by many terminals, so it gets a second space.
 */
export function toolLine(emoji: string, name: string, summary: string): string {
  const gap = emoji.endsWith("\uFE0F") ? "  " : " ";
  const lines = summary.split("\n");
  const shown = lines.length > 1 ? `${shortLine(lines[0])} …` : shortLine(summary);
  return `${emoji}${gap}${visible(name)}: ${visible(shown)}`;
}

/**
 * The line under a call whose input a preToolCall hook changed: what runs instead,
 * `   ↳ preToolCall hook: bash: echo REWRITTEN` (its first line, as the call's line shows it).
 */
export function hookInputLine(name: string, summary: string): string {
  const lines = summary.split("\n");
  const shown = lines.length > 1 ? `${lines[0]} …` : summary;
  return `   ↳ preToolCall hook: ${visible(name)}: ${visible(shown)}`;
}

/** The preview under a call: up to `max` lines of its output, indented, or `(no output)`. */
export function previewLines(output: string, max: number): string[] {
  if (max <= 0) return [];
  const trimmed = output.replace(/\n+$/, "");
  if (trimmed.trim() === "") return ["   (no output)"];
  const lines = trimmed.split("\n");
  return lines.slice(0, max).map((l) => `   ${visible(shortLine(l))}`);
}

/** How much of one line the terminal shows of a call or its output: a few rows of a wide one. */
export const DISPLAY_LINE_LIMIT = 500;

/** `line` cut to {@linkcode DISPLAY_LINE_LIMIT} characters with `…` (a 30 KB line is no preview). */
function shortLine(line: string): string {
  return line.length > DISPLAY_LINE_LIMIT ? `${line.slice(0, DISPLAY_LINE_LIMIT - 1)}…` : line;
}
