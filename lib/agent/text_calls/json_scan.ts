/**
 * JSON as a small model writes it, read out of a message: where a value that opens with a bracket
 * ends, the values that follow one another, and parsing with the repair tool arguments get.
 */

import { parseToolArguments } from "../../tool_input.ts";

/** JSON as a small model writes it: repaired as tool arguments are (single quotes, trailing commas). */
export function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // parseToolArguments repairs an object; wrapping lets it repair an array or a scalar too.
    const wrapped = parseToolArguments(`{"v":${text}}`);
    return wrapped.ok ? wrapped.value.v : undefined;
  }
}

/**
 * The JSON values (objects or arrays) that follow one another from `from`, separated by blanks or
 * commas, up to `limit` or the first other character: their ranges, and where the last one ends.
 */
export function leadingJsonValues(
  text: string,
  from: number,
  limit: number,
): { values: [number, number][]; end: number } {
  const values: [number, number][] = [];
  let end = from;
  let i = skipSpace(text, from);
  while (i < limit && (text[i] === "{" || text[i] === "[")) {
    const stop = jsonEnd(text, i, limit);
    if (stop < 0) break;
    values.push([i, stop]);
    end = stop;
    i = skipSpace(text, stop);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return { values, end };
}

/** The index of the first character from `i` on that is not blank (`text.length` when none). */
export function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

/**
 * Follows one JSON value from its opening bracket, a piece of text at a time: brackets are counted
 * outside strings, and both quote kinds open a string (the repair accepts single quotes).
 */
class JsonScan {
  #depth = 0;
  #quote = "";
  #escaped = false;

  /** Reads `text` from `from`: the index after the value's closing bracket, or -1 (not yet). */
  advance(text: string, from = 0, limit = text.length): number {
    for (let i = from; i < limit; i++) {
      const c = text[i];
      if (this.#quote) {
        if (this.#escaped) this.#escaped = false;
        else if (c === "\\") this.#escaped = true;
        else if (c === this.#quote) this.#quote = "";
        continue;
      }
      if (c === '"' || c === "'") this.#quote = c;
      else if (c === "{" || c === "[") this.#depth++;
      else if ((c === "}" || c === "]") && --this.#depth === 0) return i + 1;
    }
    return -1;
  }
}

/** The index after the JSON value opening at `start` (before `limit`), or -1 when it does not end. */
export function jsonEnd(text: string, start: number, limit = text.length): number {
  return new JsonScan().advance(text, start, limit);
}
