/**
 * Watches a streamed message of bare JSON for the first sign it cannot be calls, and for where it
 * reads (inside a call's arguments or not), without parsing it whole.
 */

import { matchToolName } from "../tool_name.ts";
import { CALL_KEYS, type Declared } from "./dialects.ts";

/** Keys of a call object as the watch reads them (the OpenAI shape's `function` too). */
const WATCHED_KEYS = new Set([...CALL_KEYS, "function"]);

/** A JSON container the watch is in: the array of calls, a call object, or any other value. */
interface Frame {
  kind: "calls" | "call" | "value";
  /** In a call object or the array of calls: what comes next. */
  expect: "key" | "colon" | "value" | "comma";
  /** In a call object: the key whose value is read or comes next. */
  key: string;
  /** Inside a call's `arguments` (or `parameters`). */
  args: boolean;
  /** In the array of calls: how many calls it opened. */
  count: number;
}

/** What the watch saw: nothing decisive yet, a value cannot be a call, a value ended, other text. */
export type WatchEvent =
  | { kind: "more" }
  | { kind: "no" }
  | { kind: "value"; start: number; end: number }
  | { kind: "other"; at: number };

/**
 * Follows a message of bare JSON a character at a time and says as soon as it cannot be calls as
 * `bareJsonCalls` reads them: a key other than `name`, `arguments`, `parameters`, `type`, `id`,
 * `function`; a `name` that is no declared tool; a `type` other than `function`; arguments that
 * are not an object or a string; an array whose elements are not objects. Each complete value is
 * reported for the caller to check whole. Both quote kinds open a string, as the repair allows.
 */
export class BareCallWatch {
  #known: Declared;
  #stack: Frame[] = [];
  #quote = "";
  #escaped = false;
  /** The string read when it decides (a call's key, `name` or `type`), and whether it is plain. */
  #str?: { role: "key" | "name" | "type"; text: string; plain: boolean };
  #strInArgs = false;
  /** Reading a number, `true`, `false` or `null`. */
  #scalar = false;
  #start = 0;

  /** A watch knowing the declared tools. */
  constructor(known: Declared) {
    this.#known = known;
  }

  /** Whether the reading is inside a call's arguments, where a model may run away. */
  get inArguments(): boolean {
    return this.#quote ? this.#strInArgs : this.#stack.at(-1)?.args ?? false;
  }

  /** Reads `text` from `from` (`offset`: where `text` starts in the answer) up to an event. */
  advance(text: string, from: number, offset: number): WatchEvent {
    for (let i = from; i < text.length; i++) {
      const c = text[i];
      if (this.#quote) {
        if (!this.#inString(c)) return { kind: "no" };
        continue;
      }
      const top = this.#stack.at(-1);
      if (!top) {
        if (c === "{" || c === "[") {
          this.#start = offset + i;
          this.#push(c === "{" ? "call" : "calls", false);
        } else if (!/[\s,]/.test(c)) return { kind: "other", at: offset + i };
        continue;
      }
      if (top.kind === "value") {
        if (c === '"' || c === "'") this.#openString(c, undefined, top.args);
        else if (c === "{" || c === "[") this.#push("value", top.args);
        else if (c === "}" || c === "]") {
          if (this.#pop()) return { kind: "value", start: this.#start, end: offset + i + 1 };
        }
        continue;
      }
      if (this.#scalar) {
        if (!/[\s,}\]]/.test(c)) continue;
        this.#scalar = false;
      }
      if (/\s/.test(c)) continue;
      const verdict = top.kind === "calls" ? this.#inCalls(top, c) : this.#inCall(top, c);
      if (verdict === "no") return { kind: "no" };
      if (verdict === "end") return { kind: "value", start: this.#start, end: offset + i + 1 };
    }
    return { kind: "more" };
  }

  /** A character of a string; false when the string just read rules out a call. */
  #inString(c: string): boolean {
    const str = this.#str;
    if (this.#escaped) this.#escaped = false;
    else if (c === "\\") {
      this.#escaped = true;
      if (str) str.plain = false;
      return true;
    } else if (c === this.#quote) {
      this.#quote = "";
      this.#str = undefined;
      return !str || this.#stringRead(str);
    }
    if (str && str.text.length < 256) str.text += c;
    return true;
  }

  /** Whether a call may hold the key, name or type just read. */
  #stringRead(str: { role: string; text: string; plain: boolean }): boolean {
    const top = this.#stack.at(-1)!;
    if (str.role === "key") {
      top.key = str.text;
      top.expect = "colon";
    }
    if (!str.plain) return true;
    if (str.role === "key") return WATCHED_KEYS.has(str.text);
    if (str.role === "type") return str.text === "function";
    return matchToolName(str.text.trim(), this.#known.names) !== undefined;
  }

  #openString(quote: string, role?: "key" | "name" | "type", inArgs = false): void {
    this.#quote = quote;
    this.#str = role && { role, text: "", plain: true };
    this.#strInArgs = inArgs;
  }

  #push(kind: Frame["kind"], args: boolean): void {
    this.#stack.push({ kind, expect: kind === "call" ? "key" : "value", key: "", args, count: 0 });
  }

  /** Closes the innermost container; true when it was the whole value. */
  #pop(): boolean {
    this.#stack.pop();
    return this.#stack.length === 0;
  }

  /** A character between the elements of the array of calls. */
  #inCalls(top: Frame, c: string): "ok" | "no" | "end" {
    if (top.expect === "value") {
      if (c === "{") {
        top.count++;
        top.expect = "comma";
        this.#push("call", false);
        return "ok";
      }
      // `[]` is no call; `[{…},]` is a trailing comma the repair takes.
      if (c === "]" && top.count > 0) return this.#pop() ? "end" : "ok";
      return "no";
    }
    if (c === ",") top.expect = "value";
    else if (c === "]") return this.#pop() ? "end" : "ok";
    else return "no";
    return "ok";
  }

  /** A character of a call object outside its values' strings and containers. */
  #inCall(top: Frame, c: string): "ok" | "no" | "end" {
    const quote = c === '"' || c === "'";
    switch (top.expect) {
      case "key":
        if (quote) this.#openString(c, "key");
        else if (c === "}") return this.#pop() ? "end" : "ok";
        else return "no";
        return "ok";
      case "colon":
        if (c !== ":") return "no";
        top.expect = "value";
        return "ok";
      case "comma":
        if (c === ",") top.expect = "key";
        else if (c === "}") return this.#pop() ? "end" : "ok";
        else return "no";
        return "ok";
    }
    top.expect = "comma";
    const key = top.key;
    if (key === "name" || key === "type") {
      if (!quote) return "no";
      this.#openString(c, key);
    } else if (key === "arguments" || key === "parameters") {
      if (c === "{") this.#push("value", true);
      else if (quote) this.#openString(c, undefined, true);
      else if (c !== "n") return "no";
      else this.#scalar = true;
    } else if (key === "function") {
      if (c !== "{") return "no";
      this.#push("call", false);
    } else if (quote) this.#openString(c);
    else if (c === "{" || c === "[") this.#push("value", false);
    else this.#scalar = true;
    return "ok";
  }
}
