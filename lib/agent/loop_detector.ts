/** The loop detector and the runaway tool-call detector of tools.md, "Loop detection". */

import { SUSTAINED } from "./repetition.ts";

/** Appended to a tool's output the third time the same call gives the same result. */
export const LOOP_DETECTED =
  "[LOOP_DETECTED: You have attempted the same action multiple times with the same result. Please try a different approach or provide more information.]";

/** Identical calls in a row that append LOOP_DETECTED. */
export const LOOP_WARN_AFTER = 3;
/** Identical calls in a row that stop the turn. */
export const LOOP_STOP_AFTER = 6;

/**
 * The error that ends a turn after six identical calls: "the same failing result" when the call
 * failed each time, else "the same result".
 */
export function loopStoppedText(tool: string, failing = true): string {
  return `[error: the model repeated the same ${tool} call 6 times in a row with the same ${
    failing ? "failing " : ""
  }result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]`;
}

/**
 * The error that ends a turn after a cycle of `tools` (two to four calls) came six times over with
 * the same results each time.
 */
export function cycleStoppedText(tools: string[]): string {
  return `[error: the model repeated the same ${tools.length} calls (${
    tools.join(", ")
  }) 6 times over with the same results — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]`;
}

/** What the detector says of the call just recorded. */
export type LoopVerdict = "ok" | "warn" | "stop";

/** The longest cycle of calls the detector sees repeating: a call and up to three others. */
export const LONGEST_CYCLE = 4;

/**
 * Counts repetitions of the last calls' `(tool, input, output)` triples: one triple in a row, or a
 * cycle of two to four (read, edit, read, edit, … with the same outputs each time). A repetition
 * is a whole cycle come again. `/new` makes a new one; `/compact` keeps it.
 */
export class LoopDetector {
  /** The last calls, oldest first: their keys and tools (as many as six longest cycles). */
  #keys: string[] = [];
  #tools: string[] = [];
  /** The length of the cycle of the last verdict that was not "ok". */
  #cycle = 1;

  /** Records one call; warns from the 3rd coming of its cycle on, stops at the 6th. */
  record(tool: string, input: unknown, output: string): LoopVerdict {
    this.#keys.push(JSON.stringify([tool, input, output]));
    this.#tools.push(tool);
    const keep = LONGEST_CYCLE * LOOP_STOP_AFTER;
    if (this.#keys.length > keep) {
      this.#keys.splice(0, this.#keys.length - keep);
      this.#tools.splice(0, this.#tools.length - keep);
    }
    let verdict: LoopVerdict = "ok";
    for (let p = 1; p <= LONGEST_CYCLE; p++) {
      const times = this.#comings(p);
      const now: LoopVerdict = times >= LOOP_STOP_AFTER
        ? "stop"
        : times >= LOOP_WARN_AFTER
        ? "warn"
        : "ok";
      if (rank(now) > rank(verdict)) {
        verdict = now;
        this.#cycle = p;
      }
    }
    return verdict;
  }

  /**
   * The error that ends the turn on a "stop": the spec's for one call repeated, else the cycle's
   * naming its tools.
   */
  stoppedText(tool: string, failing: boolean): string {
    if (this.#cycle === 1) return loopStoppedText(tool, failing);
    return cycleStoppedText(this.#tools.slice(-this.#cycle));
  }

  /**
   * How many times the last `p` calls came in a row as a cycle (whole ones); a cycle of one call
   * repeated (`a a a a`) is that call's, not a longer cycle's.
   */
  #comings(p: number): number {
    const keys = this.#keys;
    if (keys.length < p) return 0;
    if (p > 1) {
      const unit = keys.slice(-p);
      for (let q = 1; q < p; q++) {
        if (p % q === 0 && unit.every((k, i) => k === unit[i % q])) return 0;
      }
    }
    let same = 0;
    for (let i = keys.length - 1; i - p >= 0 && keys[i] === keys[i - p]; i--) same++;
    return Math.floor((same + p) / p);
  }

  /** Forgets every call. */
  reset(): void {
    this.#keys = [];
    this.#tools = [];
    this.#cycle = 1;
  }
}

/** The order of verdicts, for the strongest of several cycle lengths. */
function rank(v: LoopVerdict): number {
  return v === "stop" ? 2 : v === "warn" ? 1 : 0;
}

/** Arguments longer than this stop the generation. */
export const RUNAWAY_MAX_BYTES = 256 * 1024;

/**
 * The characters of arguments looked at: {@linkcode SUSTAINED} (6 KiB) of one pattern repeated
 * is a runaway; less is ordinary data (a `=` rule, an array of zeros, a base64 run).
 */
export const RUNAWAY_WINDOW = SUSTAINED;

/**
 * Whether streamed tool-call arguments ran away: the last {@linkcode RUNAWAY_WINDOW} characters
 * are one pattern of up to 64 characters repeated, or the arguments exceed 256 KB. A pattern with
 * a shorter period (`la la `, `====`) is still a 4–64-character pattern repeated, as the spec reads.
 */
export function isRunaway(args: string): boolean {
  if (args.length > RUNAWAY_MAX_BYTES) return true;
  if (args.length < RUNAWAY_WINDOW) return false;
  const tail = args.slice(args.length - RUNAWAY_WINDOW);
  for (let p = 1; p <= 64; p++) {
    if (hasPeriod(tail, p)) return true;
  }
  return false;
}

function hasPeriod(s: string, p: number): boolean {
  for (let i = p; i < s.length; i++) {
    if (s.charCodeAt(i) !== s.charCodeAt(i - p)) return false;
  }
  return true;
}

/**
 * The error that stops a runaway generation; the spec's `…` is completed with the arguments' last
 * characters. Arguments stopped for their size say so instead of naming a pattern.
 */
export function runawayText(args: string): string {
  const tail = args.slice(-48).replace(/\s+/g, " ");
  const what = args.length > RUNAWAY_MAX_BYTES
    ? "its arguments exceed 256 KB"
    : "its arguments repeat the same pattern";
  return `[error: the model's tool call ran away: ${what} (${args.length} characters so far: …${tail}) — generation stopped; rephrase the request, or try another model]`;
}
