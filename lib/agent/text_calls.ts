/**
 * Tool calls a model wrote as text, for servers that pass them through (no tool-call parser for the
 * model's template): Hermes `<tool_call>` JSON, Qwen3-Coder `<function=…>` blocks, Mistral
 * `[TOOL_CALLS]`, and a message that is nothing but call JSON. Only declared tool names count, and a
 * call shown in a code block or an inline code span mid-prose is an example, never a call
 * (docs/small-models.md, "Text-form tool calls").
 */

import { parseToolArguments } from "./arguments.ts";
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

/** The calls `text` holds as text, with the prose left around them, or undefined when none. */
export function textToolCalls(text: string, tools: KnownTools): TextCalls | undefined {
  const found = findTextCalls(text, tools);
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

function findTextCalls(text: string, tools: KnownTools): Found | undefined {
  const known = declared(tools);
  const whole = wholeMessageCalls(text, known);
  if (whole) return { calls: whole, spans: [[0, text.length]] };
  const found = markedCalls(text, known);
  return found.calls.length ? found : undefined;
}

// ---------------------------------------------------------------------------------------------
// A whole message that is only calls: JSON, or a code fence around calls.

/** Keys a bare JSON call may have; any other key (`version`, `description`…) makes it data. */
const CALL_KEYS = new Set(["name", "arguments", "parameters", "type", "id"]);

/** The calls of a message that is nothing but calls (JSON, or one fence around calls). */
function wholeMessageCalls(text: string, known: Declared): TextCall[] | undefined {
  const t = text.trim();
  const fence = t.match(/^(`{3,}|~{3,})[\w+.-]*[ \t]*\n([\s\S]*?)\n?[ \t]*\1$/);
  if (fence) {
    const inner = fence[2];
    const whole = wholeMessageCalls(inner, known);
    if (whole) return whole;
    const marked = markedCalls(inner, known);
    if (marked.calls.length && proseOutside(inner, marked.spans) === "") return marked.calls;
    return undefined;
  }
  if (!t.startsWith("{") && !t.startsWith("[")) return undefined;
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
    else if (kind === "<function=") call = qwenCalls(text, at, text.length, known);
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
 * possibly fenced) or Qwen3-Coder `<function=…>` blocks, then `</tool_call>`. Without the closing
 * tag the call ends where its JSON ends (what follows is prose).
 */
function hermesCalls(
  text: string,
  at: number,
  known: Declared,
): { calls: TextCall[]; end: number } | undefined {
  const open = /<tool_call\s*>/iy;
  open.lastIndex = at;
  if (!open.exec(text)) return undefined;
  const bodyStart = open.lastIndex;
  const close = /<\/tool_call\s*>/gi;
  close.lastIndex = bodyStart;
  const closed = close.exec(text);
  const next = /<tool_call\s*>/gi;
  next.lastIndex = bodyStart;
  const nextOpen = next.exec(text);
  const hasClose = closed !== null && (nextOpen === null || closed.index < nextOpen.index);
  const bodyEnd = hasClose ? closed!.index : nextOpen?.index ?? text.length;
  const after = hasClose ? close.lastIndex : undefined;
  let s = skipSpace(text, bodyStart);
  if (text.slice(s, s + 10).toLowerCase() === "<function=") {
    const calls: TextCall[] = [];
    while (text.slice(s, s + 10).toLowerCase() === "<function=") {
      const call = qwenCalls(text, s, bodyEnd, known);
      if (!call) return undefined;
      calls.push(...call.calls);
      s = skipSpace(text, call.end);
    }
    if (s < bodyEnd) return undefined;
    return { calls, end: after ?? s };
  }
  const fenced = text.startsWith("```", s);
  if (fenced) {
    const eol = text.indexOf("\n", s);
    if (eol < 0 || eol >= bodyEnd) return undefined;
    s = eol + 1;
  }
  const values = leadingJsonValues(text, s, bodyEnd);
  if (!values.values.length) return undefined;
  let end = values.end;
  if (fenced) {
    const f = skipSpace(text, end);
    if (text.startsWith("```", f)) end = f + 3;
  }
  // A stray closing brace or comma before the tag is a slip, not prose.
  if (after !== undefined && !/^[\s,}]*$/.test(text.slice(end, bodyEnd))) return undefined;
  const calls: TextCall[] = [];
  for (const [start, stop] of values.values) {
    const more = callsOfValue(parseLoose(text.slice(start, stop)), known, false);
    if (!more) return undefined;
    calls.push(...more);
  }
  return { calls, end: after ?? end };
}

/**
 * Qwen3-Coder's `<function=name>` with `<parameter=p>value</parameter>` lines, up to
 * `</function>` (or `limit`, or the next function). A missing `</parameter>` ends at the next
 * parameter. One newline either side of a value is the format's, not the value's.
 */
function qwenCalls(
  text: string,
  at: number,
  limit: number,
  known: Declared,
): { calls: TextCall[]; end: number } | undefined {
  const head = /<function=([^>\n]*)>/iy;
  head.lastIndex = at;
  const h = head.exec(text);
  if (!h) return undefined;
  const name = matchToolName(h[1].trim(), known.names);
  if (!name) return undefined;
  const bodyStart = head.lastIndex;
  const stop = /<\/function\s*>|<function=|<\/tool_call\s*>/gi;
  stop.lastIndex = bodyStart;
  const s = stop.exec(text);
  const bodyEnd = s && s.index < limit ? s.index : limit;
  const end = s && s.index < limit && s[0].toLowerCase().startsWith("</function")
    ? stop.lastIndex
    : bodyEnd;
  const body = text.slice(bodyStart, bodyEnd);
  const types = known.tools.get(name)?.parameters ?? {};
  const args: Record<string, unknown> = {};
  const param = /<parameter=([^>\n]*)>/gi;
  const tags: { key: string; from: number; valueFrom: number }[] = [];
  let p: RegExpExecArray | null;
  while ((p = param.exec(body))) {
    tags.push({ key: p[1].trim(), from: p.index, valueFrom: param.lastIndex });
  }
  let outside = body.slice(0, tags[0]?.from ?? body.length);
  for (const [i, tag] of tags.entries()) {
    const until = tags[i + 1]?.from ?? body.length;
    const closeAt = body.slice(tag.valueFrom, until).search(/<\/parameter\s*>/i);
    const valueEnd = closeAt < 0 ? until : tag.valueFrom + closeAt;
    if (closeAt >= 0) {
      outside += body.slice(valueEnd, until).replace(/^<\/parameter\s*>/i, "");
    }
    const raw = body.slice(tag.valueFrom, valueEnd).replace(/^\r?\n/, "").replace(/\r?\n$/, "");
    args[tag.key] = decodeValue(raw, types[tag.key]?.type);
  }
  if (outside.trim() !== "") return undefined;
  return { calls: [{ name, arguments: JSON.stringify(args) }], end };
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

/**
 * Holds back streamed text from where a text-form call could start until it is clear: `push`
 * returns what can be shown now, `finish` what is left to show once the answer is complete (the
 * held text, without the calls it turned out to hold). Held: from a marker (`<tool_call`,
 * `<function=` at a line start, `[TOOL_CALLS]`), and a message that opens with `{`, `[` or a code
 * fence, until its first JSON value (or the fence's first character) shows it is no call.
 */
export class TextCallFilter {
  #tools: KnownTools;
  /** Every piece received; joined only when needed, so a long answer is not copied per piece. */
  #pieces: string[] = [];
  #length = 0;
  /** How many characters were handed out. */
  #shown = 0;
  /** The text after the shown part, while it is short-lived (start, fence and stream modes). */
  #pending = "";
  /** Markers are looked for in `#pending` from here on. */
  #scanFrom = 0;
  /** Whether the shown text's last line is blank so far (a marker there starts a line). */
  #blankLine = true;
  #mode: "start" | "json" | "fence" | "stream" | "hold" | "done" = "start";
  #json?: { scan: JsonScan; start: number };

  /** A filter for one model answer, knowing the declared tools. */
  constructor(tools: KnownTools) {
    this.#tools = tools;
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
    const found = recognise ? findTextCalls(all, this.#tools) : undefined;
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
   * call. Undefined otherwise; cheap while it is not (only the end is looked at).
   */
  heldRunaway(): string | undefined {
    if (this.#mode === "done") return undefined;
    const held = this.#length - this.#shown;
    if (held <= RUNAWAY_MAX_BYTES && !isRunaway(this.#tail(Math.min(held, 1024)))) {
      return undefined;
    }
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
      } else if (text[i] === "{" || text[i] === "[") {
        this.#mode = "json";
        this.#json = { scan: new JsonScan(), start: i };
        this.#pending = "";
        return this.#jsonPiece(text, 0, i);
      } else if (text[i] === "`" || text[i] === "~") this.#mode = "fence";
      else this.#mode = "stream";
    }
    if (this.#mode === "fence" && !this.#fenceDecided()) return "";
    if (this.#mode !== "stream") return "";
    return this.#stream();
  }

  /** Follows the opening JSON value; once whole, a call holds the rest, anything else shows. */
  #jsonPiece(piece: string, offset: number, from = 0): string {
    const { scan, start } = this.#json!;
    const end = scan.advance(piece, from);
    if (end < 0) return "";
    const all = this.#all();
    const value = all.slice(start, offset + end);
    const parsed = parseLoose(value);
    const mayBeCall = parsed === undefined
      ? /["']name["']\s*:/.test(value)
      : callsOfValue(parsed, declared(this.#tools), true) !== undefined;
    if (mayBeCall) {
      this.#mode = "hold";
      return "";
    }
    this.#mode = "stream";
    this.#pending = all.slice(this.#shown);
    this.#scanFrom = offset + end - this.#shown;
    return this.#stream();
  }

  /** Whether the opening fence told what follows (the mode is then set); false to wait. */
  #fenceDecided(): boolean {
    const text = this.#pending;
    const fence = text.match(/^\s*(`{1,3}|~{1,3})/);
    if (!fence || (fence[1].length < 3 && text.trimStart().length > fence[1].length)) {
      this.#mode = "stream";
      return true;
    }
    const eol = text.indexOf("\n", fence.index! + fence[0].length);
    if (eol < 0) return false;
    const i = skipSpace(text, eol + 1);
    const head = text.slice(i, i + 12).toLowerCase();
    if (head === "") return false;
    if (head[0] === "{" || head[0] === "[" || MARKER_WORDS.some((w) => head.startsWith(w))) {
      this.#mode = "hold";
      return true;
    }
    if (head[0] === "<" && MARKER_WORDS.some((w) => w.startsWith(head))) return false;
    this.#mode = "stream";
    return true;
  }

  /** Hands out the text up to the next marker (or a marker's possible beginning at the end). */
  #stream(): string {
    const text = this.#pending;
    ANY_MARKER.lastIndex = this.#scanFrom;
    let m: RegExpExecArray | null;
    while ((m = ANY_MARKER.exec(text))) {
      const lineStart = atLineStart((this.#blankLine ? "\n" : "x") + text, m.index + 1);
      if (m[0][0] === "<" && !lineStart) continue;
      return this.#handOut(m.index, "hold");
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

  /** Hands out `#pending` up to `upTo`; the rest stays pending. */
  #handOut(upTo: number, mode: "hold" | "stream"): string {
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
