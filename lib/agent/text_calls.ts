/**
 * Tool calls a model wrote as text, for servers that pass them through (no tool-call parser for the
 * model's template): Hermes `<tool_call>` JSON, Qwen3-Coder `<function=…>` blocks, Mistral
 * `[TOOL_CALLS]`, and a message that is nothing but call JSON. Only declared tool names count, and a
 * call shown in a code block or an inline code span mid-prose is an example, never a call
 * (docs/small-models.md, "Text-form tool calls").
 */

import { parseToolArguments } from "../tool_input.ts";
import { isRunaway, RUNAWAY_MAX_BYTES } from "./loop_detector.ts";
import { matchToolName } from "./tool_name.ts";

/** What the recogniser knows of a declared tool: its name, and its parameters' types when known. */
export interface KnownTool {
  name: string;
  parameters?: Record<string, { type: string }>;
}

/** The declared tools, as names or as tools (a tool's parameter types decode `<parameter=…>`). */
export type KnownTools = readonly (string | KnownTool)[];

/** One recognised call: the declared tool's name and its arguments as a JSON object's text. */
export interface TextCall {
  name: string;
  arguments: string;
}

/** The calls a message holds, and its prose outside them ("" when there is none). */
export interface TextCalls {
  calls: TextCall[];
  text: string;
}

/** How the answer is read. */
export interface TextCallOptions {
  /**
   * The answer must be JSON (`structuredOutput` is set): a message that is only JSON, bare or in
   * one fence, is the answer and never a call. Calls after a marker still count.
   */
  jsonAnswer?: boolean;
}

/** The calls `text` holds as text, with the prose left around them, or undefined when none. */
export function textToolCalls(
  text: string,
  tools: KnownTools,
  options: TextCallOptions = {},
): TextCalls | undefined {
  const found = findTextCalls(text, declared(tools), !options.jsonAnswer);
  return found && { calls: found.calls, text: proseOutside(text, found.spans) };
}

/** Calls and the `[start, end)` ranges of the text they were written in. */
interface Found {
  calls: TextCall[];
  spans: [number, number][];
}

/** The declared tools as the recogniser reads them. */
interface Declared {
  names: string[];
  tools: Map<string, KnownTool>;
}

function declared(tools: KnownTools): Declared {
  const list = tools.map((t) => typeof t === "string" ? { name: t } : t);
  return { names: list.map((t) => t.name), tools: new Map(list.map((t) => [t.name, t])) };
}

/** The calls of `text`; `bare`: a message that is only JSON may be calls. */
function findTextCalls(text: string, known: Declared, bare: boolean): Found | undefined {
  const whole = wholeMessageCalls(text, known, bare);
  if (whole) return { calls: whole, spans: [[0, text.length]] };
  const found = markedCalls(text, known);
  return found.calls.length ? found : undefined;
}

// ---------------------------------------------------------------------------------------------
// A whole message that is only calls: JSON, or a code fence around calls.

/** Keys a bare JSON call may have; any other key (`version`, `description`…) makes it data. */
const CALL_KEYS = new Set(["name", "arguments", "parameters", "type", "id"]);

/**
 * The calls of a message that is nothing but calls (JSON, or one fence around calls); `bare`:
 * JSON without a marker may be calls (not when the answer must be JSON).
 */
function wholeMessageCalls(text: string, known: Declared, bare: boolean): TextCall[] | undefined {
  const t = text.trim();
  const fence = t.match(/^(`{3,}|~{3,})[\w+.-]*[ \t]*\n([\s\S]*?)\n?[ \t]*\1$/);
  if (fence) {
    const inner = fence[2];
    const whole = wholeMessageCalls(inner, known, bare);
    if (whole) return whole;
    const marked = markedCalls(inner, known);
    if (marked.calls.length && proseOutside(inner, marked.spans) === "") return marked.calls;
    return undefined;
  }
  if (!bare || (!t.startsWith("{") && !t.startsWith("["))) return undefined;
  return bareJsonCalls(t, known);
}

/** The calls of text made only of JSON call objects (or arrays of them), or undefined. */
function bareJsonCalls(text: string, known: Declared): TextCall[] | undefined {
  const values = leadingJsonValues(text, 0, text.length);
  if (!values.values.length || text.slice(values.end).trim() !== "") return undefined;
  const calls: TextCall[] = [];
  for (const [start, end] of values.values) {
    const more = callsOfValue(parseLoose(text.slice(start, end)), known, true);
    if (!more) return undefined;
    calls.push(...more);
  }
  return calls;
}

// ---------------------------------------------------------------------------------------------
// Calls after a marker: <tool_call>, <function=…>, [TOOL_CALLS].

const MARKERS = /<tool_call\b|<function=|\[TOOL_CALLS\]/gi;

/** The calls that follow markers outside code; a marker that does not lead to a call is prose. */
function markedCalls(text: string, known: Declared): Found {
  const found: Found = { calls: [], spans: [] };
  const code = codeRanges(text);
  const markers = new RegExp(MARKERS.source, "gi");
  let m: RegExpExecArray | null;
  while ((m = markers.exec(text))) {
    const at = m.index;
    if (inRanges(code, at)) continue;
    const kind = m[0].toLowerCase();
    let call: { calls: TextCall[]; end: number } | undefined;
    if (kind === "[tool_calls]") {
      call = mistralCalls(text, at + m[0].length, known);
      // Mid-sentence, the token is prose unless its calls end the message, as Mistral's do.
      const ends = call !== undefined && text.slice(call.end).trim() === "";
      if (!ends && !atLineStart(text, at) && !afterCall(text, found.spans, at)) continue;
    } else if (!atLineStart(text, at) && !afterCall(text, found.spans, at)) continue;
    else if (kind === "<function=") call = qwenCalls(text, at, known);
    else call = hermesCalls(text, at, known);
    if (!call) continue;
    found.calls.push(...call.calls);
    found.spans.push([at, call.end]);
    markers.lastIndex = call.end;
  }
  return found;
}

/** Whether only blanks stand between the last call found and `at` (calls written back to back). */
function afterCall(text: string, spans: [number, number][], at: number): boolean {
  const last = spans.at(-1);
  return last !== undefined && text.slice(last[1], at).trim() === "";
}

/** Whether only spaces or tabs stand between the start of its line and `at`. */
function atLineStart(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  return i < 0 || text[i] === "\n";
}

/**
 * `<tool_call>` then JSON (`{"name", "arguments"|"parameters"}`, several, or an array of them,
 * possibly fenced) or Qwen3-Coder `<function=…>` blocks, then `</tool_call>`. The body ends where
 * its JSON (or its last `</function>`) ends, so a tag written inside a JSON string or a value is
 * part of it. Without the closing tag the call ends there too (what follows is prose).
 */
function hermesCalls(
  text: string,
  at: number,
  known: Declared,
): { calls: TextCall[]; end: number } | undefined {
  const open = /<tool_call\s*>/iy;
  open.lastIndex = at;
  if (!open.exec(text)) return undefined;
  let s = skipSpace(text, open.lastIndex);
  if (text.slice(s, s + 10).toLowerCase() === "<function=") {
    const calls: TextCall[] = [];
    let end = s;
    while (text.slice(s, s + 10).toLowerCase() === "<function=") {
      const call = qwenCalls(text, s, known);
      if (!call) return undefined;
      calls.push(...call.calls);
      end = call.end;
      s = skipSpace(text, end);
    }
    const after = closingTag(text, end, /^\s*$/);
    return after < 0 ? undefined : { calls, end: after };
  }
  const fenced = text.startsWith("```", s);
  if (fenced) {
    const eol = text.indexOf("\n", s);
    if (eol < 0) return undefined;
    s = eol + 1;
  }
  const values = leadingJsonValues(text, s, text.length);
  if (!values.values.length) return undefined;
  let end = values.end;
  if (fenced) {
    const f = skipSpace(text, end);
    if (text.startsWith("```", f)) end = f + 3;
  }
  // A stray closing brace or comma before the tag is a slip, not prose.
  const after = closingTag(text, end, /^[\s,}]*$/);
  if (after < 0) return undefined;
  const calls: TextCall[] = [];
  for (const [start, stop] of values.values) {
    const more = callsOfValue(parseLoose(text.slice(start, stop)), known, false);
    if (!more) return undefined;
    calls.push(...more);
  }
  return { calls, end: after };
}

/**
 * Where a `<tool_call>` whose body ends at `end` ends: after its `</tool_call>`, or at `end` when
 * the tag is missing (no `</tool_call>` before the next `<tool_call>`). -1 when text other than
 * `slip` stands between the body and the tag: the body was not what the tags hold.
 */
function closingTag(text: string, end: number, slip: RegExp): number {
  const close = /<\/tool_call\s*>/gi;
  close.lastIndex = end;
  const c = close.exec(text);
  if (!c) return end;
  const open = /<tool_call\s*>/gi;
  open.lastIndex = end;
  const o = open.exec(text);
  if (o && o.index < c.index) return end;
  return slip.test(text.slice(end, c.index)) ? close.lastIndex : -1;
}

/**
 * Qwen3-Coder's `<function=name>` with `<parameter=p>value</parameter>` blocks, up to its
 * `</function>` (see `qwenCallEnd`). A value ends at the `</parameter>` the structure puts there —
 * the first one followed by nothing but blanks before the next parameter's tag or the end of the
 * call — so a value may hold `</function>`, `<tool_call>` or even `</parameter>`. A missing
 * `</parameter>` ends at the next parameter. One newline either side of a value is the format's.
 */
function qwenCalls(
  text: string,
  at: number,
  known: Declared,
): { calls: TextCall[]; end: number } | undefined {
  const head = /<function=([^>\n]*)>/iy;
  head.lastIndex = at;
  const h = head.exec(text);
  if (!h) return undefined;
  const name = matchToolName(h[1].trim(), known.names);
  if (!name) return undefined;
  const { bodyEnd, end } = qwenCallEnd(text, head.lastIndex);
  const types = known.tools.get(name)?.parameters;
  const args: Record<string, unknown> = {};
  const tag = /<parameter=([^>\n]*)>/iy;
  let i = skipSpace(text, head.lastIndex);
  while (i < bodyEnd) {
    tag.lastIndex = i;
    const p = tag.exec(text);
    // Text outside the parameters: this is no call.
    if (!p || tag.lastIndex > bodyEnd) return undefined;
    const key = p[1].trim();
    args[key] = undefined;
    // Another parameter's tag ends a value; one naming no other parameter of the tool is its text.
    const opens = (k: string) => !(k in args) && (!types || k in types);
    const value = qwenValue(text, tag.lastIndex, bodyEnd, opens);
    const raw = text.slice(tag.lastIndex, value.end).replace(/^\r?\n/, "").replace(/\r?\n$/, "");
    args[key] = decodeValue(raw, types?.[key]?.type);
    i = skipSpace(text, value.next);
  }
  return { calls: [{ name, arguments: JSON.stringify(args) }], end };
}

/**
 * Where the call whose body starts at `bodyStart` ends: at the first `</function>` that is not
 * inside a value — one is when the next tag after it is a `</parameter>`, which closes that value
 * (an opening tag or a `<tool_call>` tag counts only at a line start or after another tag: `x =
 * "<function=f>"` is text).
 * A `</parameter>` followed by nothing, another call or a `<tool_call>` tag before that ends a
 * call missing its `</function>`. Neither: the body runs to the next call or tag.
 */
function qwenCallEnd(text: string, bodyStart: number): { bodyEnd: number; end: number } {
  const re =
    /<\/function\s*>|<\/parameter\s*>(?=\s*(?:$|<function=|<tool_call\s*>|<\/tool_call\s*>))/gi;
  re.lastIndex = bodyStart;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m[0][2].toLowerCase() === "p") return { bodyEnd: re.lastIndex, end: re.lastIndex };
    const next = /<\/parameter\s*>|(?<=^|>)[ \t]*(?:<parameter=|<function=|<\/?tool_call\s*>)/gim;
    next.lastIndex = re.lastIndex;
    const orphan = next.exec(text)?.[0].slice(0, 3).toLowerCase() === "</p";
    if (!orphan) return { bodyEnd: m.index, end: re.lastIndex };
  }
  const stop = /<function=|<tool_call\s*>|<\/tool_call\s*>/gi;
  stop.lastIndex = bodyStart;
  const end = stop.exec(text)?.index ?? text.length;
  return { bodyEnd: end, end };
}

/**
 * The end of a value starting at `from` and where the call goes on: at the first `</parameter>`
 * followed by blanks up to `bodyEnd` or a tag of a parameter that `opens`; without one, before
 * such a tag starting a line (a missing `</parameter>`); else at the first `</parameter>` (what
 * follows it is then text outside the parameters) or `bodyEnd`.
 */
function qwenValue(
  text: string,
  from: number,
  bodyEnd: number,
  opens: (key: string) => boolean,
): { end: number; next: number } {
  const re = /<\/parameter\s*>|<parameter=([^>\n]*)>/gi;
  re.lastIndex = from;
  let first: { end: number; next: number } | undefined;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) && re.lastIndex <= bodyEnd) {
    if (m[1] !== undefined) {
      if (atLineStart(text, m.index) && opens(m[1].trim())) {
        return first ?? { end: m.index, next: m.index };
      }
      continue;
    }
    const after = skipSpace(text, re.lastIndex);
    const tag = /<parameter=([^>\n]*)>/iy;
    tag.lastIndex = after;
    const t = after < bodyEnd ? tag.exec(text) : null;
    if (after >= bodyEnd || (t && opens(t[1].trim()))) return { end: m.index, next: after };
    first ??= { end: m.index, next: re.lastIndex };
  }
  return first ?? { end: bodyEnd, next: bodyEnd };
}

/** A `<parameter=…>` value: decoded from JSON when the parameter is not a string and it parses. */
function decodeValue(raw: string, type: string | undefined): unknown {
  if (type === undefined || type === "string") return raw;
  const value = parseLoose(raw.trim());
  return value === undefined ? raw : value;
}

/**
 * After `[TOOL_CALLS]`: a JSON array (or object) of `{"name", "arguments"}` (Mistral v0.3, Nemo),
 * or `name[ARGS]{…}` with an optional `[CALL_ID]id` (newer templates; some servers drop `[ARGS]`).
 */
function mistralCalls(
  text: string,
  from: number,
  known: Declared,
): { calls: TextCall[]; end: number } | undefined {
  const s = skipSpace(text, from);
  if (text[s] === "[" || text[s] === "{") {
    const end = jsonEnd(text, s);
    if (end < 0) return undefined;
    const calls = callsOfValue(parseLoose(text.slice(s, end)), known, false);
    return calls && { calls, end };
  }
  const head = /([A-Za-z_][\w.-]*)\s*(?:\[CALL_ID\]\s*[\w-]*\s*)?(?:\[ARGS\]\s*)?/y;
  head.lastIndex = s;
  const h = head.exec(text);
  if (!h || text[head.lastIndex] !== "{") return undefined;
  const name = matchToolName(h[1], known.names);
  if (!name) return undefined;
  const end = jsonEnd(text, head.lastIndex);
  if (end < 0) return undefined;
  const args = argumentsText(parseLoose(text.slice(head.lastIndex, end)), false);
  return args === undefined ? undefined : { calls: [{ name, arguments: args }], end };
}

// ---------------------------------------------------------------------------------------------
// Call objects.

/**
 * The calls a parsed JSON value stands for: one call object, or an array of them (every element a
 * call). `strict` is for bare JSON: only call keys, arguments present and an object.
 */
function callsOfValue(value: unknown, known: Declared, strict: boolean): TextCall[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (!items.length) return undefined;
  const calls: TextCall[] = [];
  for (const item of items) {
    const call = callOfObject(item, known, strict);
    if (!call) return undefined;
    calls.push(call);
  }
  return calls;
}

function callOfObject(value: unknown, known: Declared, strict: boolean): TextCall | undefined {
  if (!isObject(value)) return undefined;
  let o = value;
  // The OpenAI shape: {"type": "function", "function": {"name", "arguments"}}.
  if (o.name === undefined && isObject(o.function)) {
    if (Object.keys(o).some((k) => k !== "type" && k !== "function" && k !== "id")) {
      return undefined;
    }
    o = o.function;
  }
  if (strict && Object.keys(o).some((k) => !CALL_KEYS.has(k))) return undefined;
  if (o.type !== undefined && o.type !== "function") return undefined;
  if (typeof o.name !== "string") return undefined;
  const name = matchToolName(o.name.trim(), known.names);
  if (!name) return undefined;
  const raw = o.arguments ?? o.parameters;
  if (raw === undefined) return strict ? undefined : { name, arguments: "{}" };
  const args = argumentsText(raw, strict);
  return args === undefined ? undefined : { name, arguments: args };
}

/**
 * The arguments as JSON text: an object as it is, a string holding JSON repaired and re-encoded.
 * Outside `strict`, anything else is passed on as it came: the call's refusal tells the model.
 */
function argumentsText(raw: unknown, strict: boolean): string | undefined {
  if (isObject(raw)) return JSON.stringify(raw);
  if (typeof raw === "string") {
    const parsed = parseToolArguments(raw);
    if (parsed.ok) return JSON.stringify(parsed.value);
    return strict ? undefined : raw;
  }
  return strict ? undefined : JSON.stringify(raw);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// JSON text.

/** JSON as a small model writes it: repaired as tool arguments are (single quotes, trailing commas). */
function parseLoose(text: string): unknown {
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
function leadingJsonValues(
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

function skipSpace(text: string, i: number): number {
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

function jsonEnd(text: string, start: number, limit = text.length): number {
  return new JsonScan().advance(text, start, limit);
}

// ---------------------------------------------------------------------------------------------
// Code and prose.

/** The ranges of fenced code blocks and inline code spans: what a message shows, not what it does. */
function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const open = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*$/gm;
  let m: RegExpExecArray | null;
  while ((m = open.exec(text))) {
    const close = new RegExp(
      `^[ \\t]{0,3}${m[1][0] === "`" ? "`" : "~"}{${m[1].length},}[ \\t]*$`,
      "gm",
    );
    close.lastIndex = open.lastIndex + 1;
    const c = close.exec(text);
    const end = c ? close.lastIndex : text.length;
    ranges.push([m.index, end]);
    open.lastIndex = end;
  }
  const inline = /(`+)[^`\n]+?\1/g;
  while ((m = inline.exec(text))) {
    if (!inRanges(ranges, m.index)) ranges.push([m.index, inline.lastIndex]);
  }
  return ranges;
}

function inRanges(ranges: [number, number][], at: number): boolean {
  return ranges.some(([start, end]) => at >= start && at < end);
}

/**
 * The text of `text` from `from` on without the spans: the pieces either side of a call trimmed
 * where the call was, joined by a blank line; "" when nothing but blanks is left.
 */
function proseOutside(text: string, spans: [number, number][], from = 0): string {
  const pieces: string[] = [];
  let at = from;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    pieces.push(text.slice(at, Math.max(at, start)));
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.map((p, i) => {
    if (i > 0) p = p.trimStart();
    if (i < pieces.length - 1) p = p.trimEnd();
    return p;
  }).filter((p) => p.trim() !== "").join("\n\n").trim();
}

// ---------------------------------------------------------------------------------------------
// Streaming.

const MARKER_WORDS = ["<tool_call", "<function=", "[tool_calls]"];
const ANY_MARKER = /<tool_call|<function=|\[TOOL_CALLS\]/gi;

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
type WatchEvent =
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
class BareCallWatch {
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

/**
 * Holds back streamed text from where a text-form call could start until it is clear: `push`
 * returns what can be shown now, `finish` what is left to show once the answer is complete (the
 * held text, without the calls it turned out to hold). Held: from a marker (`<tool_call`,
 * `<function=` at a line start, `[TOOL_CALLS]`) until what follows it cannot be a call, and a
 * message that opens with `{`, `[` or a code fence, until it cannot be a call (`BareCallWatch`:
 * often its first key tells) or the fence's first character is neither JSON nor a marker.
 */
export class TextCallFilter {
  #tools: KnownTools;
  #known: Declared;
  /** A message that is only JSON is the answer (`TextCallOptions.jsonAnswer`). */
  #bare: boolean;
  /** Every piece received; joined only when needed, so a long answer is not copied per piece. */
  #pieces: string[] = [];
  #length = 0;
  /** How many characters were handed out. */
  #shown = 0;
  /** The text after the shown part, while it is short-lived (start, fence, marker, stream). */
  #pending = "";
  /** Markers are looked for in `#pending` from here on. */
  #scanFrom = 0;
  /** Whether the shown text's last line is blank so far (a marker there starts a line). */
  #blankLine = true;
  #mode: "start" | "json" | "fence" | "marker" | "stream" | "hold" | "done" = "start";
  #json?: { watch: BareCallWatch; fenced: boolean };

  /** A filter for one model answer, knowing the declared tools. */
  constructor(tools: KnownTools, options: TextCallOptions = {}) {
    this.#tools = tools;
    this.#known = declared(tools);
    this.#bare = !options.jsonAnswer;
  }

  /** Takes a piece of the answer; returns the text that can be shown now ("" while held). */
  push(delta: string): string {
    if (this.#mode === "done") return delta;
    const offset = this.#length;
    this.#pieces.push(delta);
    this.#length += delta.length;
    if (this.#mode === "hold") return "";
    if (this.#mode === "json") return this.#jsonPiece(delta, offset);
    this.#pending += delta;
    return this.#advance();
  }

  /**
   * Ends the answer; returns the text left to show. With `recognise` (the answer had no
   * structured calls), calls found in the held text are left out; otherwise it is shown as it is.
   */
  finish(recognise = true): string {
    if (this.#mode === "done") return "";
    this.#mode = "done";
    const all = this.#all();
    const found = recognise ? findTextCalls(all, this.#known, this.#bare) : undefined;
    const shown = this.#shown;
    this.#shown = all.length;
    if (!found) return all.slice(shown);
    const rest = proseOutside(all, found.spans, shown);
    if (!rest || !all.slice(0, shown).trim()) return rest;
    const before = all.slice(0, shown).replace(/[ \t]+$/, "");
    return (before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n") + rest;
  }

  /**
   * The held text when it ran away as a structured call's arguments do (`isRunaway`: its end is one
   * short pattern repeated, or it passed 256 KB): a model repeating itself inside what may be a
   * call. Held bare JSON repeats itself only inside a call's arguments (elsewhere a repetition,
   * `[0, 0, …]`, is data); its size counts everywhere. Undefined otherwise; cheap while it is not
   * (only the end is looked at).
   */
  heldRunaway(): string | undefined {
    if (this.#mode === "done") return undefined;
    const held = this.#length - this.#shown;
    const repeats = this.#mode !== "json" || this.#json!.watch.inArguments;
    if (
      held <= RUNAWAY_MAX_BYTES && !(repeats && isRunaway(this.#tail(Math.min(held, 1024))))
    ) return undefined;
    return this.#all().slice(this.#shown);
  }

  /** The last `n` characters received, without joining every piece. */
  #tail(n: number): string {
    let out = "";
    for (let i = this.#pieces.length - 1; i >= 0 && out.length < n; i--) {
      const piece = this.#pieces[i];
      out = piece.slice(Math.max(0, piece.length - (n - out.length))) + out;
    }
    return out;
  }

  #all(): string {
    const all = this.#pieces.join("");
    this.#pieces = [all];
    return all;
  }

  /** The opening of the message decides: JSON, a fence, or text to stream. */
  #advance(): string {
    const text = this.#pending;
    if (this.#mode === "start") {
      const i = skipSpace(text, 0);
      if (i === text.length) return "";
      const head = text.slice(i, i + 12).toLowerCase();
      if (text[i] === "[" && MARKER_WORDS[2].startsWith(head)) {
        if (head.length < 12) return "";
        this.#mode = "stream";
      } else if ((text[i] === "{" || text[i] === "[") && this.#bare) {
        return this.#watchJson(i, false);
      } else if (text[i] === "`" || text[i] === "~") this.#mode = "fence";
      else this.#mode = "stream";
    }
    if (this.#mode === "fence") {
      const json = this.#fenceDecided();
      if (json !== undefined) return this.#watchJson(json, true);
    }
    if (this.#mode === "marker") return this.#markerPiece();
    if (this.#mode !== "stream") return "";
    return this.#stream();
  }

  /** Starts watching the JSON at `i` of the pending text (all of the answer: none is shown). */
  #watchJson(i: number, fenced: boolean): string {
    const text = this.#pending;
    this.#mode = "json";
    this.#json = { watch: new BareCallWatch(this.#known), fenced };
    this.#pending = "";
    return this.#jsonPiece(text, 0, i);
  }

  /**
   * Follows the JSON values the message opens with: held while they may be calls; shown, with
   * what follows, from the first sign they are not (`BareCallWatch`, or a whole value that is no
   * call, or text after them). A fence closing after calls holds the rest.
   */
  #jsonPiece(piece: string, offset: number, from = 0): string {
    const { watch, fenced } = this.#json!;
    let i = from;
    for (;;) {
      const event = watch.advance(piece, i, offset);
      if (event.kind === "more") return "";
      if (event.kind === "value") {
        const value = this.#all().slice(event.start, event.end);
        if (callsOfValue(parseLoose(value), this.#known, true)) {
          i = event.end - offset;
          continue;
        }
      } else if (event.kind === "other" && fenced && /[`~]/.test(piece[event.at - offset])) {
        this.#mode = "hold";
        return "";
      }
      this.#mode = "stream";
      this.#json = undefined;
      this.#pending = this.#all().slice(this.#shown);
      this.#scanFrom = 0;
      return this.#stream();
    }
  }

  /**
   * Whether the opening fence told what follows: the index of JSON that may be calls, else
   * undefined with the mode set (hold for a marker, stream for anything else) or left (wait).
   */
  #fenceDecided(): number | undefined {
    const text = this.#pending;
    const fence = text.match(/^\s*(`{1,3}|~{1,3})/);
    if (!fence || (fence[1].length < 3 && text.trimStart().length > fence[1].length)) {
      this.#mode = "stream";
      return undefined;
    }
    const eol = text.indexOf("\n", fence.index! + fence[0].length);
    if (eol < 0) return undefined;
    const i = skipSpace(text, eol + 1);
    const head = text.slice(i, i + 12).toLowerCase();
    if (head === "") return undefined;
    if (MARKER_WORDS.some((w) => head.startsWith(w))) this.#mode = "hold";
    else if (head.length < 12 && MARKER_WORDS.some((w) => w.startsWith(head))) return undefined;
    else if ((head[0] === "{" || head[0] === "[") && this.#bare) return i;
    else this.#mode = "stream";
    return undefined;
  }

  /** Hands out the text up to the next marker (or a marker's possible beginning at the end). */
  #stream(): string {
    const text = this.#pending;
    ANY_MARKER.lastIndex = this.#scanFrom;
    let m: RegExpExecArray | null;
    while ((m = ANY_MARKER.exec(text))) {
      const lineStart = atLineStart((this.#blankLine ? "\n" : "x") + text, m.index + 1);
      if (m[0][0] === "<" && !lineStart) continue;
      const out = this.#handOut(m.index, "marker");
      return out + this.#markerPiece();
    }
    let keep = 0;
    const tail = text.slice(-11).toLowerCase();
    for (let k = tail.length; k > 0; k--) {
      if (MARKER_WORDS.some((w) => w.startsWith(tail.slice(-k)))) {
        keep = k;
        break;
      }
    }
    return this.#handOut(text.length - keep, "stream");
  }

  /**
   * The pending text opens with a marker: held for good once what follows may be a call, shown
   * (and streaming goes on after the marker) once it cannot: `<tool_call>` not followed by JSON, a
   * fence or `<function=`; `<function=…>` naming no declared tool.
   */
  #markerPiece(): string {
    const text = this.#pending;
    const head = text.slice(0, 10).toLowerCase();
    let call: boolean | undefined = true;
    if (head.startsWith("<tool_call")) {
      const m = text.match(/^<tool_call(\s*)(>?)(\s*)/i)!;
      const next = text.slice(m[0].length, m[0].length + 10).toLowerCase();
      if (m[0].length === text.length) call = undefined;
      else if (!m[2]) call = false;
      else if (/^[{[`]/.test(next)) call = true;
      else if (next.startsWith("<function=")) call = true;
      else call = "<function=".startsWith(next) && next.length < 10 ? undefined : false;
    } else if (head.startsWith("<function=")) {
      const m = text.match(/^<function=([^>\n]*)(>?)/i)!;
      if (m[2]) call = matchToolName(m[1].trim(), this.#known.names) !== undefined;
      else call = m[0].length === text.length ? undefined : false;
    }
    if (call === undefined) return "";
    if (call) {
      this.#mode = "hold";
      return "";
    }
    this.#mode = "stream";
    this.#scanFrom = 1;
    return this.#stream();
  }

  /** Hands out `#pending` up to `upTo`; the rest stays pending. */
  #handOut(upTo: number, mode: "marker" | "stream"): string {
    const out = this.#pending.slice(0, upTo);
    this.#pending = this.#pending.slice(upTo);
    this.#shown += out.length;
    this.#scanFrom = 0;
    this.#mode = mode;
    if (out) {
      const nl = out.lastIndexOf("\n");
      const line = out.slice(nl + 1);
      this.#blankLine = (nl >= 0 || this.#blankLine) && /^[ \t]*$/.test(line);
    }
    return out;
  }
}
