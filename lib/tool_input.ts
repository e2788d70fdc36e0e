/** Tool-call arguments from a small model: JSON repaired where unambiguous, values coerced to types. */

import type { Parameter } from "./tool.ts";

/** The arguments as an object, or why they could not be read. */
export type ParsedArguments = { ok: true; value: Record<string, unknown> } | {
  ok: false;
  reason: string;
};

/**
 * Parses a tool call's arguments, repairing what is unambiguous: a code fence around the JSON,
 * a JSON string holding the JSON, trailing commas, single-quoted strings and keys.
 * Empty arguments mean `{}`.
 */
export function parseToolArguments(raw: string): ParsedArguments {
  let text = raw.trim();
  if (text === "") return { ok: true, value: {} };
  const fence = text.match(/^```[\w-]*\s*\n?([\s\S]*?)\n?\s*```$/);
  if (fence) text = fence[1].trim();
  const first = tryParse(text) ?? tryParse(withoutTrailingCommas(text)) ??
    tryParse(withoutTrailingCommas(singleToDoubleQuotes(text)));
  if (first === undefined) {
    return { ok: false, reason: `the arguments are not valid JSON (${jsonError(text)})` };
  }
  let value = first.value;
  // A JSON string holding the JSON object: `"{\"command\": \"ls\"}"`.
  if (typeof value === "string") {
    const inner = tryParse(value.trim());
    if (inner !== undefined) value = inner.value;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, reason: "the arguments must be a JSON object of named fields" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The arguments of a call as the history keeps them, for every server to read back: the model's
 * own text when it is a JSON object already, the repaired object when mm repaired it, `{}` when
 * nothing could be read (llama.cpp parses the history's calls and refuses the whole request
 * otherwise).
 */
export function historyArguments(raw: string): string {
  const exact = tryParse(raw.trim());
  const v = exact?.value;
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return raw;
  const parsed = parseToolArguments(raw);
  return parsed.ok ? JSON.stringify(parsed.value) : "{}";
}

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return "";
  } catch (e) {
    return (e as Error).message;
  }
}

/** Removes commas that stand before a closing `}` or `]`, outside strings. */
function withoutTrailingCommas(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ",") {
      const rest = text.slice(i + 1).trimStart();
      if (rest.startsWith("}") || rest.startsWith("]")) continue;
    }
    out += c;
  }
  return out;
}

/** Rewrites single-quoted strings as double-quoted ones, outside double-quoted strings. */
function singleToDoubleQuotes(text: string): string {
  let out = "";
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "") {
      if (c === '"' || c === "'") {
        quote = c;
        out += '"';
      } else out += c;
      continue;
    }
    if (c === "\\") {
      const next = text[i + 1] ?? "";
      i++;
      out += quote === "'" && next === "'" ? "'" : c + next;
    } else if (c === quote) {
      quote = "";
      out += '"';
    } else if (c === '"') out += '\\"';
    else if (c === "\n") out += "\\n";
    else out += c;
  }
  return out;
}

/** The input coerced to the parameters' types, or every fault found and the fields that did coerce. */
export type CoercedInput = { ok: true; input: Record<string, unknown> } | {
  ok: false;
  faults: string[];
  partial: Record<string, unknown>;
};

/**
 * Coerces each field to its parameter's type: a numeric string for a number, `"true"`/`"false"` for
 * a boolean, a number or boolean for a string. Aliases, and names written in another case or style
 * (`Command`, `filePath`), are renamed; unknown fields are ignored unless `strict`, where each is a
 * fault.
 */
export function coerceInput(
  params: Record<string, Parameter>,
  args: Record<string, unknown>,
  strict = false,
): CoercedInput {
  const input: Record<string, unknown> = {};
  const faults: string[] = [];
  const byAlias = new Map<string, string>();
  // A name written in another case or style (`Command`, `filePath`) is the parameter's too.
  const byPlain = new Map<string, string>();
  for (const [name, p] of Object.entries(params)) {
    for (const alias of p.aliases ?? []) byAlias.set(alias, name);
    for (const n of [name, ...(p.aliases ?? [])]) byPlain.set(plainKey(n), name);
  }
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const name = key in params ? key : byAlias.get(key) ?? byPlain.get(plainKey(key));
    if (name === undefined) {
      if (strict) faults.push(`${faultValue(key)} is not a parameter of this tool`);
      continue;
    }
    if (!(name in given) || key === name) given[name] = value;
  }
  for (const [name, p] of Object.entries(params)) {
    const value = given[name];
    if (value === undefined || value === null) {
      if (!p.optional) faults.push(`${name} is missing`);
      continue;
    }
    const coerced = coerceValue(p.type, value);
    if (coerced === undefined) {
      faults.push(`${name}: ${faultValue(value)} is not ${article(p.type)}`);
    } else input[name] = coerced;
  }
  return faults.length ? { ok: false, faults, partial: input } : { ok: true, input };
}

/**
 * What no file path may hold: a control character (a line break, a tab, an escape), U+2028 and
 * U+2029 (line and paragraph separators), and the marks that reorder text (bidirectional
 * controls), and the other invisible format characters (U+061C, the soft hyphen U+00AD, U+180E,
 * the zero-width space U+200B, the byte order mark U+FEFF…; the joiners U+200C and U+200D stay).
 * Each can make a path show as something else than what it opens.
 */
const PATH_FORBIDDEN =
  /[\p{Cc}\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]|(?![\u200C\u200D])\p{Cf}/u;

/** The fault of a path `name` holding `char`: one sentence the model reads in the invalid-call text. */
export function pathFaultText(name: string, char: string): string {
  const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `${name} holds a line break or a control character (U+${code}), which a file path may not hold`;
}

/**
 * The faults of the path parameters of `input` (each {@linkcode Parameter} marked `path`): one
 * rule for every path of every tool, so that a path never shows as something else than the
 * file it opens (`notes.txt` then a line that looks like a diff, then `../../OUT.txt`).
 */
export function pathFaults(
  params: Record<string, Parameter>,
  input: Record<string, unknown>,
): string[] {
  const faults: string[] = [];
  for (const [name, p] of Object.entries(params)) {
    const value = input[name];
    if (!p.path || typeof value !== "string") continue;
    const bad = PATH_FORBIDDEN.exec(value);
    if (bad) faults.push(pathFaultText(name, bad[0]));
  }
  return faults;
}

/** A field's name as compared when it is not exact: lowercase, without `_` and `-`. */
export function plainKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, "");
}

/** How long a value in a fault may be: past it, the value is cut with `…`. */
export const FAULT_VALUE_LIMIT = 80;

/** A value as a fault quotes it: JSON, cut to {@linkcode FAULT_VALUE_LIMIT} characters with `…`. */
export function faultValue(value: unknown): string {
  return cutText(JSON.stringify(value) ?? String(value), FAULT_VALUE_LIMIT);
}

/** `text` cut to `max` characters, its last one `…` (never half a surrogate pair). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2]) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

function article(type: Parameter["type"]): string {
  return type === "integer" || type === "array" || type === "object" ? `an ${type}` : `a ${type}`;
}

/** One value coerced to `type`, or undefined when it cannot be. */
export function coerceValue(type: Parameter["type"], value: unknown): unknown {
  switch (type) {
    case "string":
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return undefined;
    case "number":
    case "integer": {
      let n: number | undefined;
      if (typeof value === "number") n = value;
      else if (
        typeof value === "string" && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)
      ) {
        n = Number(value);
      }
      if (n === undefined || !Number.isFinite(n)) return undefined;
      if (type === "integer" && !Number.isInteger(n)) return undefined;
      return n;
    }
    case "boolean":
      if (typeof value === "boolean") return value;
      if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) {
        return value.trim().toLowerCase() === "true";
      }
      return undefined;
    case "array":
      return Array.isArray(value) ? value : undefined;
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value)
        ? value
        : undefined;
  }
}

/** The invalid-call text of tools.md ("Declared tools"), used for every tool the model misuses. */
export function invalidCallText(
  name: string,
  faults: string[],
  sent: string,
  params: Record<string, Parameter>,
): string {
  // A description's own final period would double the separators that follow it (`.;`, `..`).
  const expected = Object.entries(params).map(([p, spec]) => {
    const description = spec.description.trim().replace(/\.+$/, "");
    return `${p} (${spec.type}${spec.optional ? ", optional" : ""})${
      description ? `: ${description}` : ""
    }`;
  }).join("; ");
  return `[${name}: invalid call, nothing was run — ${faults.join("; ")}. You sent: ${
    echoSent(sent)
  }. ` +
    `Expected: ${expected}. Call ${name} again with each parameter as its own field.]`;
}

/** How much of one string value of a call an invalid-call text repeats. */
export const ECHO_VALUE_LIMIT = 200;

/** How much of a call's input as a whole an invalid-call text repeats. */
export const ECHO_LIMIT = 2000;

/**
 * A call's input as an invalid-call text repeats it: each string (a value at any depth, or a key)
 * over {@linkcode ECHO_VALUE_LIMIT} characters and the whole over {@linkcode ECHO_LIMIT} end in
 * `… [N more characters]`, so a 30 KB `content` sent without its `path` costs the window little.
 * Input that needs no cut is repeated as it was sent.
 */
export function echoSent(sent: string): string {
  let text = sent;
  try {
    const value: unknown = JSON.parse(sent);
    let cut = false;
    // Every string at any depth, and every key, over the limit is shortened.
    const short = (v: unknown): unknown => {
      if (typeof v === "string") {
        if (v.length <= ECHO_VALUE_LIMIT) return v;
        cut = true;
        return shortened(v, ECHO_VALUE_LIMIT);
      }
      if (Array.isArray(v)) return v.map(short);
      if (v && typeof v === "object") {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [short(k), short(x)]));
      }
      return v;
    };
    const shortValue = short(value);
    if (cut) text = JSON.stringify(shortValue);
  } catch {
    // Not JSON: repeated as text, cut as a whole.
  }
  return text.length > ECHO_LIMIT ? shortened(text, ECHO_LIMIT) : text;
}

/** `text`'s first `max` characters (never half a surrogate pair) and how many more there were. */
function shortened(text: string, max: number): string {
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}
