/** Small text helpers shared by tools and front ends. */

import { redact, redactCutEnd, redactCutStart } from "./secrets.ts";

/**
 * Cuts `text` to at most `max` characters, keeping its head and its tail around a marker line,
 * so that both the start of a command's output and its final error stay visible. When `keep` is in
 * the text, it is repeated in the marker, so the cut never hides it. A text that is cut is redacted
 * of mm's secrets first (lib/secrets.ts), whole: a cut secret would no longer match; and what is
 * kept on either side of the cut, if it is part of a secret cut before, is redacted too.
 */
export function truncateMiddle(text: string, max: number, keep?: string): string {
  if (text.length <= max) return text;
  text = redact(text);
  if (text.length <= max) return text;
  const marker = (n: number, kept: boolean) =>
    `${kept ? `\n${keep}` : ""}\n[... ${n} characters cut: output truncated to maxOutput ...]\n`;
  const mayKeep = keep !== undefined && text.includes(keep);
  const room = Math.max(0, max - marker(text.length, mayKeep).length);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const cut = text.length - head - tail;
  // A line the cut must not hide (the read-back marker of very large output) stays in the marker.
  const kept = mayKeep && text.slice(head, text.length - tail).includes(keep!);
  return redactCutEnd(text.slice(0, head)) + marker(cut, kept) +
    (tail > 0 ? redactCutStart(text.slice(text.length - tail)) : "");
}

/** Counts the lines of `text` the way an editor numbers them (a final newline ends the last line). */
export function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/** The first line of `text`, without its newline. */
export function firstLine(text: string): string {
  const i = text.indexOf("\n");
  return i < 0 ? text : text.slice(0, i);
}

/** Yes and no as a user or a model writes them, in English or French (tools.md, `ask_user`). */
const YES_WORDS = ["yes", "y", "oui", "o"];
const NO_WORDS = ["no", "n", "non"];

/**
 * `yes` for `yes`/`y`/`oui`/`o`, `no` for `no`/`n`/`non` (any case), else undefined; with
 * `booleans` (the default) `true`/`1` and `false`/`0` count too, as a model writes them.
 */
export function yesNo(text: string, booleans = true): "yes" | "no" | undefined {
  const word = text.trim().toLowerCase();
  if (YES_WORDS.includes(word) || (booleans && (word === "true" || word === "1"))) return "yes";
  if (NO_WORDS.includes(word) || (booleans && (word === "false" || word === "0"))) return "no";
  return undefined;
}
