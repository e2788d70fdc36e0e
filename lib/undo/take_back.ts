/**
 * Taking back the last turns of a conversation (`/undo`, `/rewind N`, `mm undo`): their records
 * read, the plan made and applied, the conversation's `forget` called between the writes and the
 * journal's end; and the texts the user reads of it (docs/undo.md).
 */

import { relative } from "node:path";
import { applyPlan, type PathNote, planRestore, type Recovered } from "./restore.ts";
import type { TurnRecord, UndoStore } from "./store.ts";
import { errorWords } from "./snapshot.ts";

/** One turn to take back: its number and its prompt. */
export interface TurnOf {
  turn: number;
  prompt: string;
}

/** What taking turns back did, its paths relative to the working directory. */
export interface UndoReport {
  /** The turns taken back, oldest first. */
  turns: number[];
  /** The prompt of the first of them: it goes back into the input. */
  prompt: string;
  restored: string[];
  /** Files the turns made, removed. */
  removed: string[];
  leftAlone: PathNote[];
  notKept: PathNote[];
  failed: PathNote[];
  /** Turns whose files were not kept at all (no record: a full disk, or before undo existed). */
  unrecorded: number[];
  faults: string[];
  outsideGit: boolean;
}

/** What a take-back that could not start says (its journal could not be written): nothing changed. */
export function notStartedText(reason: string): string {
  return `the undo store cannot be written (${reason}): nothing was changed`;
}

/** Thrown when a take-back cannot start; nothing was changed. */
export class UndoStoreError extends Error {
  /** The error for `reason`. */
  constructor(reason: string) {
    super(notStartedText(reason));
    this.name = "UndoStoreError";
  }
}

/**
 * Takes back `turns` (oldest first, the last turns of the conversation): files as they were before
 * the first, `forget()` removing their messages. Throws an UndoStoreError when it cannot start.
 */
export async function takeBack(
  store: UndoStore,
  turns: TurnOf[],
  cwd: string,
  forget: () => Promise<void>,
): Promise<UndoReport> {
  const numbers = turns.map((t) => t.turn);
  const records = await Promise.all(numbers.map((n) => store.record(n)));
  const plan = await planRestore(store, numbers, records);
  let result;
  try {
    result = await applyPlan(store, plan, forget);
  } catch (e) {
    throw new UndoStoreError(errorWords(e));
  }
  const rel = (p: string) => relative(cwd, p) || p;
  const relNotes = (notes: PathNote[]) => notes.map((n) => ({ path: rel(n.path), why: n.why }));
  const removed = new Set(plan.writes.filter((w) => w.to.kind === "absent").map((w) => w.path));
  return {
    turns: numbers,
    prompt: records[0]?.prompt ?? turns[0]?.prompt ?? "",
    restored: result.restored.filter((p) => !removed.has(p)).map(rel),
    removed: result.restored.filter((p) => removed.has(p)).map(rel),
    leftAlone: relNotes(result.leftAlone),
    notKept: relNotes(result.notKept),
    failed: relNotes(result.failed),
    unrecorded: result.unrecorded,
    faults: [...new Set(result.faults)],
    outsideGit: result.outsideGit,
  };
}

/** What a command ran outside git says at undo. */
export const OUTSIDE_GIT =
  "commands ran outside a git work tree: what they changed cannot be taken back";

/** The turns of a report in words: `turn 3`, `turns 3–5`. */
function turnsText(turns: number[]): string {
  return turns.length === 1 ? `turn ${turns[0]}` : `turns ${turns[0]}–${turns.at(-1)}`;
}

/** What the user reads of a take-back, line by line. */
export function reportLines(r: UndoReport): string[] {
  const first = r.prompt.split("\n")[0].trim();
  const files = r.restored.length + r.removed.length;
  const lines = [
    `took back ${turnsText(r.turns)}${first ? ` ("${first}")` : ""}: ${
      files ? `${files} file(s) restored` : "no file to restore"
    }`,
  ];
  for (const p of r.restored) lines.push(`  restored ${p}`);
  for (const p of r.removed) lines.push(`  removed ${p} (the turn made it)`);
  for (const n of r.leftAlone) lines.push(`  left alone ${n.path}: ${n.why}`);
  for (const n of r.notKept) lines.push(`  not kept ${n.path}: ${n.why}`);
  for (const n of r.failed) lines.push(`  could not restore ${n.path}: ${n.why}`);
  for (const t of r.unrecorded) lines.push(`  turn ${t}'s files were not kept`);
  for (const f of r.faults) lines.push(`  ${f}`);
  if (r.outsideGit) lines.push(`  ${OUTSIDE_GIT}`);
  return lines;
}

/** How many of a turn's files `/rewind` names before it counts the rest. */
export const FILES_NAMED = 3;

/**
 * One line of `/rewind`'s list: the turn, its time, its prompt's first line, the files it changed
 * (relative to `cwd`; the first {@linkcode FILES_NAMED}, then `+N more`).
 */
export function turnLine(turn: TurnOf, record: TurnRecord | undefined, cwd = ""): string {
  const time = record ? new Date(record.time).toTimeString().slice(0, 5) : "--:--";
  const first = turn.prompt.split("\n")[0].trim();
  const shown = first.length > 60 ? `${first.slice(0, 59)}…` : first;
  const changed = record
    ? Object.keys(record.before).filter((p) => {
      const a = record.after?.[p];
      return !a || JSON.stringify(a) !== JSON.stringify(record.before[p]);
    })
    : undefined;
  const rel = (p: string) => (cwd && relative(cwd, p)) || p;
  const named = changed?.slice(0, FILES_NAMED).map(rel).join(", ");
  const more = changed && changed.length > FILES_NAMED
    ? ` +${changed.length - FILES_NAMED} more`
    : "";
  const files = changed === undefined
    ? "files not kept"
    : changed.length
    ? `${named}${more}`
    : "no files changed";
  return `${String(turn.turn).padStart(3)}  ${time}  ${shown}  (${files})`;
}

/** What the start says of an undo it finished (mm was stopped during it). */
export function recoveredText(r: Recovered): string {
  const failed = r.failed.map((f) => `; could not restore ${f.path}: ${f.why}`).join("");
  return `an undo of ${
    turnsText(r.turns)
  } was stopped half way; it was finished: ${r.restored} file(s) restored${failed}`;
}
