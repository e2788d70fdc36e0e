/**
 * A model that says the same thing over and over (a text or reasoning loop, common in 3B–8B
 * models): one chunk of {@linkcode CHUNK} characters that comes back {@linkcode TIMES} times close
 * together (on average at most {@linkcode CLOSE} characters apart), a chunk of words: numbers and
 * punctuation repeat in ordinary answers (an array of zeros). Code blocks are not watched: repeated
 * lines are ordinary there. The runaway detector of tool arguments is
 * lib/agent/loop_detector.ts.
 */

/** The length of the chunks compared. */
export const CHUNK = 50;

/** How many times one chunk must come back to be a loop. */
export const TIMES = 10;

/** The most characters, on average, between two comings of the chunk. */
export const CLOSE = 75;

/** A chunk with a word in it: three letters in a row. */
const WORDS = /\p{L}{3}/u;

/** The most text kept for the comparison; older text is let go. */
const KEPT = 4_000;

/** Watches one stream of text (the answer, or the thinking) for a loop. */
export class RepetitionWatch {
  #text = "";
  /** Where each chunk of `#text` starts, by chunk. */
  #seen = new Map<string, number[]>();
  /** Up to where `#text` has been read into `#seen`. */
  #read = 0;
  #inCode = false;
  /** The end of a partial fence (`` ` `` or ``` `` ```) carried to the next piece. */
  #tail = "";

  /** Adds a piece of the stream; returns the chunk that repeats once a loop is seen. */
  push(piece: string): string | undefined {
    const text = this.#tail + piece;
    const fences = text.split("```").length - 1;
    this.#tail = text.endsWith("``") ? "``" : text.endsWith("`") ? "`" : "";
    if (fences > 0) {
      // Code starts or ends: what came before it is let go, and code is not watched.
      if (fences % 2 === 1) this.#inCode = !this.#inCode;
      const after = text.slice(text.lastIndexOf("```") + 3);
      this.#reset();
      if (!this.#inCode) this.#text = after;
      return this.#scan();
    }
    if (this.#inCode) return undefined;
    this.#text += piece;
    if (this.#text.length > KEPT) {
      this.#text = this.#text.slice(this.#text.length - KEPT / 2);
      this.#seen.clear();
      this.#read = 0;
    }
    return this.#scan();
  }

  #reset(): void {
    this.#text = "";
    this.#seen.clear();
    this.#read = 0;
  }

  /** Reads the chunks not read yet; the repeated chunk when one comes back often and close. */
  #scan(): string | undefined {
    for (; this.#read + CHUNK <= this.#text.length; this.#read++) {
      const chunk = this.#text.slice(this.#read, this.#read + CHUNK);
      let at = this.#seen.get(chunk);
      if (!at) this.#seen.set(chunk, at = []);
      at.push(this.#read);
      if (at.length > TIMES) at.shift();
      if (
        at.length === TIMES && (at[TIMES - 1] - at[0]) / (TIMES - 1) <= CLOSE && WORDS.test(chunk)
      ) return chunk;
    }
    return undefined;
  }
}

/** The error that stops a model repeating itself, in its answer or its thinking. */
export function repetitionText(chunk: string, where: "answer" | "thinking"): string {
  const shown = chunk.replace(/\s+/g, " ").trim();
  return `[error: the model kept repeating itself in its ${where} ("${shown}" ${TIMES} times over) — generation stopped; rephrase the request, or try another model]`;
}
