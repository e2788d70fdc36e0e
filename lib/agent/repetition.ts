/**
 * A model that says the same thing over and over (a text or reasoning loop, common in 3B–8B
 * models): one chunk of {@linkcode CHUNK} characters, with words in it, that comes back
 * {@linkcode TIMES} times at one and the same distance, at most {@linkcode PERIOD} characters, the
 * text between two comings the same each time — the text repeating itself exactly, a sentence or a
 * paragraph at a time. Numbers and punctuation
 * repeat in ordinary answers (an array of zeros), and so do lines of code, quotes, tables and
 * lists (a log line quoted twelve times): chunks that lie wholly inside a code block, or inside
 * such lines, are not counted. The runaway detector of tool arguments is lib/agent/loop_detector.ts.
 */

/** The length of the chunks compared. */
export const CHUNK = 50;

/** How many times one chunk must come back to be a loop. */
export const TIMES = 10;

/** The longest stretch of text that may repeat: a short paragraph. */
export const PERIOD = 300;

/** A chunk with a word in it: three letters in a row. */
const WORDS = /\p{L}{3}/u;

/** The most text kept for the comparison; older text is let go. */
const KEPT = 8_000;

/** Lines whose repetition is ordinary: a quote, a table row, a list item, a heading. */
const STRUCTURED = /^\s*(?:>|\||[-*+] |\d+[.)] |#)/;

/** What a line is, once its first characters tell: prose, a fence, or other (code, a quote…). */
type LineKind = "prose" | "fence" | "other";

/** Watches one stream of text (the answer, or the thinking) for a loop. */
export class RepetitionWatch {
  #text = "";
  /** For each character of `#text`: whether it is plain prose (not code, not a structured line). */
  #prose: boolean[] = [];
  /** Where each chunk of `#text` starts, by chunk. */
  #seen = new Map<string, number[]>();
  /** Up to where `#text` has been read into `#seen`. */
  #read = 0;
  #inCode = false;
  /** Where the line being written starts, and what it is once known. */
  #lineStart = 0;
  #kind: LineKind | undefined;

  /** Adds a piece of the stream; returns the chunk that repeats once a loop is seen. */
  push(piece: string): string | undefined {
    for (const c of piece) this.#add(c);
    if (this.#text.length > KEPT) this.#trim();
    return this.#scan();
  }

  /** One character, and what it belongs to. */
  #add(c: string): void {
    this.#text += c;
    this.#prose.push(this.#kind === "prose");
    // A line's kind is told by its first characters: only an undecided (short) line is looked at.
    const line = this.#kind === undefined ? this.#text.slice(this.#lineStart) : "";
    if (this.#kind === undefined && (line.trimStart().length >= 3 || c === "\n")) {
      this.#kind = /^\s*(```|~~~)/.test(line)
        ? "fence"
        : this.#inCode || STRUCTURED.test(line)
        ? "other"
        : "prose";
      for (let i = this.#lineStart; i < this.#prose.length; i++) {
        this.#prose[i] = this.#kind === "prose";
      }
    }
    if (c !== "\n") return;
    if (this.#kind === "fence") this.#inCode = !this.#inCode;
    this.#kind = undefined;
    this.#lineStart = this.#text.length;
  }

  /** Lets the older half of the text go. */
  #trim(): void {
    const drop = this.#text.length - KEPT / 2;
    this.#text = this.#text.slice(drop);
    this.#prose = this.#prose.slice(drop);
    this.#lineStart = Math.max(0, this.#lineStart - drop);
    this.#seen.clear();
    this.#read = 0;
  }

  /** Reads the chunks not read yet; the repeated chunk when one comes back as a loop does. */
  #scan(): string | undefined {
    // A line whose first characters have not come yet is not known: not read.
    const end = this.#kind === undefined ? this.#lineStart : this.#text.length;
    for (; this.#read + CHUNK <= end; this.#read++) {
      const at = this.#read;
      const chunk = this.#text.slice(at, at + CHUNK);
      if (!this.#prose.slice(at, at + CHUNK).some(Boolean) || !WORDS.test(chunk)) continue;
      let places = this.#seen.get(chunk);
      if (!places) this.#seen.set(chunk, places = []);
      places.push(at);
      if (places.length > TIMES) places.shift();
      if (places.length === TIMES && this.#repeats(places)) return chunk;
    }
    return undefined;
  }

  /**
   * Whether the chunk's `places` are evenly spaced, at most {@linkcode PERIOD} apart, and the text
   * from one to the next is the same each time: the text repeating itself exactly.
   */
  #repeats(places: number[]): boolean {
    const period = places[1] - places[0];
    if (period > PERIOD) return false;
    const unit = this.#text.slice(places[0], places[1]);
    for (let i = 2; i < places.length; i++) {
      if (places[i] - places[i - 1] !== period) return false;
      if (this.#text.slice(places[i - 1], places[i]) !== unit) return false;
    }
    return true;
  }
}

/** The error that stops a model repeating itself, in its answer or its thinking. */
export function repetitionText(chunk: string, where: "answer" | "thinking"): string {
  const shown = chunk.replace(/\s+/g, " ").trim();
  return `[error: the model kept repeating itself in its ${where} ("${shown}" ${TIMES} times over) — generation stopped; rephrase the request, or try another model]`;
}
