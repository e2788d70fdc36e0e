/** The loop detector and the runaway tool-call detector of tools.md, "Loop detection". */

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

/** What the detector says of the call just recorded. */
export type LoopVerdict = "ok" | "warn" | "stop";

/** Counts identical `(tool, input, output)` triples in a row. `/new` makes a new one; `/compact` keeps it. */
export class LoopDetector {
  #last = "";
  #count = 0;

  /** Records one call and says whether to warn (3rd to 5th in a row) or stop (6th). */
  record(tool: string, input: unknown, output: string): LoopVerdict {
    const key = JSON.stringify([tool, input, output]);
    if (key === this.#last) this.#count++;
    else {
      this.#last = key;
      this.#count = 1;
    }
    if (this.#count >= LOOP_STOP_AFTER) return "stop";
    if (this.#count >= LOOP_WARN_AFTER) return "warn";
    return "ok";
  }

  /** Forgets every call. */
  reset(): void {
    this.#last = "";
    this.#count = 0;
  }
}

/** Arguments longer than this stop the generation. */
export const RUNAWAY_MAX_BYTES = 256 * 1024;
const WINDOW = 256;

/**
 * Whether streamed tool-call arguments ran away: the last 256 characters are one 4–64-character
 * pattern repeated, or the arguments exceed 256 KB. A pattern with a shorter period (`la la `,
 * `====`) is still a 4–64-character pattern repeated, as the spec reads.
 */
export function isRunaway(args: string): boolean {
  if (args.length > RUNAWAY_MAX_BYTES) return true;
  if (args.length < WINDOW) return false;
  const tail = args.slice(args.length - WINDOW);
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
