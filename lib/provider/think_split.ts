/**
 * A model's thinking written into its content (`<think>…</think>` first, as servers without a
 * reasoning parser pass it on): split out as thinking while it streams, so that it is shown,
 * stored and sent back as reasoning, never as the answer.
 */

/** A piece of the content: thinking or text. */
export interface SplitPiece {
  type: "thought" | "text";
  text: string;
}

const OPEN = "<think>";
const CLOSE = "</think>";

/** Splits one answer's content, piece by piece; content that does not start with `<think>` is text. */
export class ThinkSplit {
  #state: "start" | "thinking" | "after" | "text" = "start";
  #held = "";

  /** The pieces `text`, the next piece of the content, gives now (some may be held back). */
  push(text: string): SplitPiece[] {
    const out: SplitPiece[] = [];
    this.#held += text;
    if (this.#state === "start") {
      const t = this.#held.trimStart();
      if (t === "" || (t.length < OPEN.length && OPEN.startsWith(t))) return out;
      if (!t.startsWith(OPEN)) {
        this.#state = "text";
      } else {
        this.#state = "thinking";
        this.#held = t.slice(OPEN.length).replace(/^\n/, "");
      }
    }
    if (this.#state === "thinking") {
      const end = this.#held.indexOf(CLOSE);
      if (end < 0) {
        const keep = partialClose(this.#held);
        const thought = this.#held.slice(0, this.#held.length - keep);
        this.#held = this.#held.slice(this.#held.length - keep);
        if (thought) out.push({ type: "thought", text: thought });
        return out;
      }
      const thought = this.#held.slice(0, end).replace(/\n$/, "");
      if (thought) out.push({ type: "thought", text: thought });
      this.#held = this.#held.slice(end + CLOSE.length);
      this.#state = "after";
    }
    if (this.#state === "after") {
      this.#held = this.#held.trimStart();
      if (!this.#held) return out;
      this.#state = "text";
    }
    if (this.#held) out.push({ type: "text", text: this.#held });
    this.#held = "";
    return out;
  }

  /** What is still held at the end of the answer. */
  finish(): SplitPiece[] {
    const held = this.#held;
    this.#held = "";
    if (!held) return [];
    if (this.#state === "thinking") return [{ type: "thought", text: held }];
    if (this.#state === "after") return [];
    return [{ type: "text", text: held }];
  }
}

/** How many characters at the end of `text` may be the start of `</think>`. */
function partialClose(text: string): number {
  for (let n = Math.min(CLOSE.length - 1, text.length); n > 0; n--) {
    if (CLOSE.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
