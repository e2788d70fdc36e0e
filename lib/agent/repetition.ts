/**
 * A model repeating itself (a text or reasoning loop, common in 3B–8B models): the stream's last
 * characters are one unit of at most {@linkcode PERIOD} characters said over and over, for
 * {@linkcode SUSTAINED} characters past its first saying. Only sustained repetition stops a
 * stream: an answer repeats a few KiB legitimately (an array of zeros, a `=` rule, identical
 * table rows, a base64 run, thinking that goes back to a phrase), a model that ran away repeats
 * without end. The same measure stops a tool call's arguments (lib/agent/loop_detector.ts,
 * `isRunaway`, with units of at most 64 characters); the thresholds are docs/small-models.md's.
 * A unit without words (numbers, punctuation: a matrix of zeros, a `=` rule) is never a loop of
 * text.
 */

/** Characters of repetition, past the unit's first saying, that stop a stream (6 KiB). */
export const SUSTAINED = 6 * 1024;

/** The longest unit that may repeat in an answer or thinking: a short paragraph. */
export const PERIOD = 300;

/** A unit with words in it: two letters in a row. */
const WORDS = /\p{L}\p{L}/u;

/** The most characters of a unit the error shows. */
const SHOWN = 60;

/** Watches one stream of text (the answer, or the thinking) for a loop. */
export class RepetitionWatch {
  /** The last {@linkcode PERIOD} characters (UTF-16 units), as a ring. */
  #ring = new Uint16Array(PERIOD);
  /** How many characters came. */
  #count = 0;
  /** For each period p: how many characters in a row equal the one p before them. */
  #run = new Int32Array(PERIOD + 1);
  /** For each period p: its sustained unit was found without words (numbers, punctuation). */
  #wordless = new Uint8Array(PERIOD + 1);

  /** Adds a piece of the stream; returns the unit that repeats once the repetition is sustained. */
  push(piece: string): string | undefined {
    for (let i = 0; i < piece.length; i++) {
      const p = this.#add(piece.charCodeAt(i));
      if (p) return this.#last(p);
    }
    return undefined;
  }

  /** One character; the period whose repetition it sustained past the limit, else 0. */
  #add(c: number): number {
    const n = this.#count;
    let found = 0;
    for (let p = 1; p <= PERIOD && p <= n; p++) {
      if (this.#ring[(n - p) % PERIOD] === c) {
        if (++this.#run[p] >= SUSTAINED && !found && !this.#wordless[p]) found = p;
      } else {
        this.#run[p] = 0;
        this.#wordless[p] = 0;
      }
    }
    this.#ring[n % PERIOD] = c;
    this.#count = n + 1;
    if (found && !WORDS.test(this.#last(found).repeat(2))) {
      // Numbers and punctuation repeat in ordinary answers (a matrix of zeros): never a loop.
      this.#wordless[found] = 1;
      return 0;
    }
    return found;
  }

  /** The last `p` characters. */
  #last(p: number): string {
    const codes: number[] = [];
    for (let i = this.#count - p; i < this.#count; i++) codes.push(this.#ring[i % PERIOD]);
    return String.fromCharCode(...codes);
  }
}

/** How many times `unit` came when its repetition was stopped. */
export function timesOver(unit: string): number {
  return Math.floor((SUSTAINED + unit.length) / unit.length);
}

/** The error that stops a model repeating itself, in its answer or its thinking. */
export function repetitionText(unit: string, where: "answer" | "thinking"): string {
  const flat = unit.replace(/\s+/g, " ").trim();
  const shown = flat.length > SHOWN ? `${flat.slice(0, SHOWN - 1)}…` : flat;
  return `[error: the model kept repeating itself in its ${where} ("${shown}" ${
    timesOver(unit)
  } times over) — generation stopped; rephrase the request, or try another model]`;
}
