/**
 * Calls written as Python: `[name(a=1, b="x"), other()]` (Llama 3.2/4 pythonic, LFM2, Gemma), and
 * Gemma's `print(default_api.name(…))`. Keyword arguments only, their values Python literals, each
 * converted by the type the tool declares for it.
 */

import { matchToolName } from "../tool_name.ts";
import type { Declared, TextCall } from "./calls.ts";

/** Calls read from `from`, and the index after the last one. */
export interface PythonCalls {
  calls: TextCall[];
  end: number;
}

/**
 * The calls written from `from`: a list `[call, …]`, or (`bare`) calls one after another,
 * separated by commas, semicolons or newlines. Undefined unless every call names a declared tool
 * and every argument is a keyword with a literal value.
 */
export function pythonCalls(
  text: string,
  from: number,
  known: Declared,
  bare = false,
): PythonCalls | undefined {
  const r = new Reader(text, from);
  r.blank();
  const listed = r.eat("[");
  if (!listed && !bare) return undefined;
  const calls: TextCall[] = [];
  for (;;) {
    r.blank();
    const call = readCall(r, known);
    if (!call) return undefined;
    calls.push(call);
    const save = r.i;
    r.blank(listed);
    if (r.eat(",") || (!listed && r.eat(";"))) continue;
    if (listed) return r.eat("]") ? { calls, end: r.i } : undefined;
    // One call per line: the next line opens another, or the calls end here.
    r.i = save;
    r.blank();
    if (r.i < text.length && text.slice(save, r.i).includes("\n") && startsCall(text, r.i)) {
      continue;
    }
    return { calls, end: save };
  }
}

/** Whether a call's name (then its parenthesis) starts at `at`. */
function startsCall(text: string, at: number): boolean {
  return /^(?:print\s*\(\s*)?[A-Za-z_][\w.]*\s*\(/.test(text.slice(at, at + 200));
}

/** One `name(k=v, …)`, optionally inside `print(…)` and after `default_api.` or `functions.`. */
function readCall(r: Reader, known: Declared): TextCall | undefined {
  const printed = r.match(/print\s*\(\s*/y) !== undefined;
  const path = r.match(/[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*/y);
  if (!path) return undefined;
  const bare = path.replace(/^(?:default_api|functions)\./, "");
  if (bare.includes(".")) return undefined;
  const name = matchToolName(bare, known.names);
  if (!name) return undefined;
  r.blank(true);
  if (!r.eat("(")) return undefined;
  const types = known.tools.get(name)?.parameters;
  const args: Record<string, unknown> = {};
  for (;;) {
    r.blank(true);
    if (r.eat(")")) break;
    const key = r.match(/[A-Za-z_]\w*/y);
    r.blank(true);
    if (key === undefined || !r.eat("=")) return undefined;
    const value = readValue(r);
    if (value === NONE) return undefined;
    args[key] = converted(value, types?.[key]?.type);
    r.blank(true);
    if (r.eat(",")) continue;
    if (r.eat(")")) break;
    return undefined;
  }
  if (printed) {
    r.blank(true);
    if (!r.eat(")")) return undefined;
  }
  return { name, arguments: JSON.stringify(args) };
}

/** No value could be read. */
const NONE = Symbol("none");

/** A Python literal: a string, a number, True/False/None, a list, a tuple or a dict. */
function readValue(r: Reader): unknown {
  r.blank(true);
  const c = r.text[r.i];
  const str = r.match(/[rRbBuU]?(?='|")/y);
  if (str !== undefined && (r.text[r.i] === '"' || r.text[r.i] === "'")) {
    return readString(r, /r/i.test(str));
  }
  const num = r.match(/-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?![\w.])/y);
  if (num !== undefined) return Number(num);
  const word = r.match(/(?:True|False|None|true|false|null)(?!\w)/y);
  if (word !== undefined) {
    return word === "None" || word === "null" ? null : word.toLowerCase() === "true";
  }
  if (c === "[" || c === "(") {
    r.i++;
    const close = c === "[" ? "]" : ")";
    const items: unknown[] = [];
    for (;;) {
      r.blank(true);
      if (r.eat(close)) return items;
      const item = readValue(r);
      if (item === NONE) return NONE;
      items.push(item);
      r.blank(true);
      if (r.eat(",")) continue;
      if (r.eat(close)) return items;
      return NONE;
    }
  }
  if (c === "{") {
    r.i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      r.blank(true);
      if (r.eat("}")) return out;
      const key = readValue(r);
      r.blank(true);
      if (key === NONE || typeof key === "object" || !r.eat(":")) return NONE;
      const value = readValue(r);
      if (value === NONE) return NONE;
      out[String(key)] = value;
      r.blank(true);
      if (r.eat(",")) continue;
      if (r.eat("}")) return out;
      return NONE;
    }
  }
  return NONE;
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "0": "\0",
  b: "\b",
  f: "\f",
  v: "\v",
  a: "\x07",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "\n": "",
};

/** A quoted string, single or triple quotes, with Python's escapes (none when `raw`). */
function readString(r: Reader, raw: boolean): unknown {
  const q = r.text[r.i];
  const quote = r.text.startsWith(q.repeat(3), r.i) ? q.repeat(3) : q;
  r.i += quote.length;
  let out = "";
  while (r.i < r.text.length) {
    if (r.text.startsWith(quote, r.i)) {
      r.i += quote.length;
      return out;
    }
    const c = r.text[r.i];
    if (quote.length === 1 && c === "\n") return NONE;
    if (c === "\\" && !raw && r.i + 1 < r.text.length) {
      const e = r.text[r.i + 1];
      const hex = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
      const digits = hex ? r.text.slice(r.i + 2, r.i + 2 + hex) : "";
      if (hex && /^[0-9a-fA-F]+$/.test(digits) && digits.length === hex) {
        out += String.fromCodePoint(parseInt(digits, 16));
        r.i += 2 + hex;
      } else if (e in ESCAPES) {
        out += ESCAPES[e];
        r.i += 2;
      } else {
        out += c + e;
        r.i += 2;
      }
      continue;
    }
    out += c;
    r.i++;
  }
  return NONE;
}

/**
 * A value as the declared `type` wants it: a number or boolean for a string parameter becomes its
 * text, a numeric string for a number its number, `"true"` for a boolean true, JSON text for an
 * array or object its value; anything else as it was (the tool's refusal tells the model).
 */
export function converted(value: unknown, type: string | undefined): unknown {
  if (type === "string" && (typeof value === "number" || typeof value === "boolean")) {
    return String(value);
  }
  if (typeof value !== "string") return value;
  const t = value.trim();
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (type === "boolean" && /^(true|false)$/i.test(t)) return t.toLowerCase() === "true";
  if ((type === "array" && t.startsWith("[")) || (type === "object" && t.startsWith("{"))) {
    try {
      return JSON.parse(t);
    } catch {
      return value;
    }
  }
  return value;
}

/** A cursor over the text. */
class Reader {
  constructor(readonly text: string, public i: number) {}

  /** Skips spaces and tabs, and newlines too when `lines`. */
  blank(lines = true): void {
    const re = lines ? /\s/ : /[ \t]/;
    while (this.i < this.text.length && re.test(this.text[this.i])) this.i++;
  }

  eat(s: string): boolean {
    if (!this.text.startsWith(s, this.i)) return false;
    this.i += s.length;
    return true;
  }

  /** The text a sticky regex matches here (consumed), or undefined. */
  match(re: RegExp): string | undefined {
    re.lastIndex = this.i;
    const m = re.exec(this.text);
    if (!m) return undefined;
    this.i = re.lastIndex;
    return m[0];
  }
}
