/**
 * The dialects of text-form calls, recognised in a whole message: Hermes `<tool_call>` JSON (GLM's
 * `<arg_key>` pairs too), Qwen3-Coder `<function=…>` blocks (Llama 3.1's JSON body too), Mistral
 * `[TOOL_CALLS]`, the special-token dialects of tokens.ts, and a message that is nothing but call
 * JSON or Python calls (bare or in one fence). Only declared tool names count, and a marker inside
 * code is prose.
 */

import { matchToolName } from "../tool_name.ts";
import {
  argumentsText,
  CALL_KEYS,
  callsOfValue,
  type Declared,
  declared,
  type Found,
  isObject,
  type KnownTool,
  type KnownTools,
  type TextCall,
} from "./calls.ts";
import { jsonEnd, leadingJsonValues, parseLoose, skipSpace } from "./json_scan.ts";
import { codeRanges, inRanges, proseOutside } from "./prose.ts";
import { pythonCalls } from "./pythonic.ts";
import { dialectsAt, TOKEN_DIALECTS, trailed } from "./tokens.ts";

export { CALL_KEYS, callsOfValue, declared };
export type { Declared, Found, KnownTool, KnownTools, TextCall };

/** The calls of `text`; `bare`: a message that is only JSON may be calls. */
export function findTextCalls(text: string, known: Declared, bare: boolean): Found | undefined {
  const whole = wholeMessageCalls(text, known, bare);
  if (whole) return { calls: whole, spans: [[0, text.length]] };
  const found = markedCalls(text, known);
  return found.calls.length ? found : undefined;
}

// ---------------------------------------------------------------------------------------------
// A whole message that is only calls: JSON, or a code fence around calls.

/**
 * The calls of a message that is nothing but calls (JSON, or one fence around calls); `bare`:
 * JSON without a marker may be calls (not when the answer must be JSON).
 */
function wholeMessageCalls(text: string, known: Declared, bare: boolean): TextCall[] | undefined {
  const t = text.trim();
  const fence = t.match(/^(`{3,}|~{3,})[\w+.-]*[ \t]*\n([\s\S]*?)\n?[ \t]*\1$/);
  if (fence) {
    const inner = fence[2];
    // A fence inside the fence is an example shown in Markdown.
    if (/^\s*(?:`{3,}|~{3,})/.test(inner)) return undefined;
    const whole = wholeMessageCalls(inner, known, bare);
    if (whole) return whole;
    const marked = markedCalls(inner, known);
    if (marked.calls.length && proseOutside(inner, marked.spans) === "") return marked.calls;
    return undefined;
  }
  if (!bare) return undefined;
  if (t.startsWith("{") || t.startsWith("[")) {
    const json = bareJsonCalls(t, known);
    if (json || t.startsWith("{")) return json;
  }
  // Python calls (Llama 3.2/4 pythonic, Gemma): `[name(a=1)]`, `name(a=1)`.
  if (!/^[[A-Za-z_]/.test(t)) return undefined;
  const python = pythonCalls(t, 0, known, true);
  return python && python.end === t.length ? python.calls : undefined;
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
// Calls after a marker: <tool_call>, <function=…>, [TOOL_CALLS], and the tokens of tokens.ts.

/** Every dialect's marker in one regex. */
const MARKERS = new RegExp(
  ["<tool_call\\b", "<function=", "\\[TOOL_CALLS\\]", ...TOKEN_DIALECTS.map((d) => d.marker)].join(
    "|",
  ),
  "gi",
);

/** The calls that follow markers outside code; a marker that does not lead to a call is prose. */
function markedCalls(text: string, known: Declared): Found {
  const found: Found = { calls: [], spans: [] };
  const code = codeRanges(text);
  const markers = new RegExp(MARKERS.source, "gi");
  let m: RegExpExecArray | null;
  while ((m = markers.exec(text))) {
    const at = m.index;
    const kind = m[0].toLowerCase();
    const tokens = /^(?:<tool_call\b|<function=|\[tool_calls\])/.test(kind)
      ? []
      : dialectsAt(text, at);
    // A fence that is itself the marker (Gemma's tool_code) is not an example of one.
    const ownFence = tokens[0]?.placement === "last" && code.some(([start]) => start === at);
    if (inRanges(code, at) && !ownFence) continue;
    if (quotedLine(text, at)) continue;
    let call: { calls: TextCall[]; end: number } | undefined;
    if (tokens.length) {
      let token = tokens[0];
      for (token of tokens) if ((call = token.read(text, at, known))) break;
      if (!call) continue;
      const lineStart = atLineStart(text, at) || afterCall(text, found.spans, at);
      const ends = endsMessage(text, call.end, token.marker);
      // Introduced by a line ending in `:` and followed by prose, a call is shown in an explanation.
      const shown = !ends && token.placement === "ending" && introduced(text, at);
      const placed = token.placement === "ending"
        ? (lineStart || ends) && !shown
        : token.placement === "line"
        ? lineStart
        : lineStart && ends;
      if (!placed) continue;
    } else if (kind === "[tool_calls]") {
      call = mistralCalls(text, at + m[0].length, known);
      if (call) call.end = trailed(text, call.end);
      // Mid-sentence, the token is prose unless its calls end the message, as Mistral's do.
      const ends = call !== undefined && endsMessage(text, call.end, "\\[TOOL_CALLS\\]");
      if (!ends && !atLineStart(text, at) && !afterCall(text, found.spans, at)) continue;
    } else if (!atLineStart(text, at) && !afterCall(text, found.spans, at)) continue;
    else if (kind === "<function=") call = qwenCalls(text, at, known);
    else call = hermesCalls(text, at, known);
    if (!call) continue;
    call.end = trailed(text, call.end);
    found.calls.push(...call.calls);
    found.spans.push([at, call.end]);
    markers.lastIndex = call.end;
  }
  return found;
}

/** Whether the message ends at `end`: only blanks follow, or another call of the same `marker`. */
function endsMessage(text: string, end: number, marker: string): boolean {
  const rest = skipSpace(text, end);
  return rest === text.length || new RegExp(marker, "iy").test(text.slice(rest));
}

/** Whether only blanks stand between the last call found and `at` (calls written back to back). */
function afterCall(text: string, spans: [number, number][], at: number): boolean {
  const last = spans.at(-1);
  return last !== undefined && text.slice(last[1], at).trim() === "";
}

/** Whether the text before `at` (on its line, else the line before) ends with a colon. */
function introduced(text: string, at: number): boolean {
  return /:[ \t]*(?:\r?\n[ \t]*)?$/.test(text.slice(Math.max(0, at - 400), at));
}

/** Whether the line holding `at` is a blockquote or a list item: what it shows is quoted. */
function quotedLine(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
  return /^[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t])/.test(line);
}

/** Whether only spaces or tabs stand between the start of its line and `at`. */
export function atLineStart(text: string, at: number): boolean {
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
  // GLM writes its tool's name right after the tag.
  if (s === open.lastIndex && /[A-Za-z_]/.test(text[s] ?? "")) return glmCall(text, s, known);
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
 * GLM 4.5/4.6: `<tool_call>NAME` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs, then
 * `</tool_call>` (missing at the end of the message: the call ends there). A value is decoded from
 * JSON when the tool's parameter is not a string; it ends at the first `</arg_value>` followed by
 * the next `<arg_key>` or the closing tag, so it may hold `</arg_value>` itself.
 */
function glmCall(
  text: string,
  from: number,
  known: Declared,
): { calls: TextCall[]; end: number } | undefined {
  const head = /([^\s<]+)\s*/y;
  head.lastIndex = from;
  const h = head.exec(text);
  const name = h && matchToolName(h[1], known.names);
  if (!name) return undefined;
  const types = known.tools.get(name)?.parameters;
  const args: Record<string, unknown> = {};
  const key = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>/iy;
  const valueEnd = /<\/arg_value>(?=\s*(?:<arg_key>|<\/tool_call\s*>|$))/gi;
  let i = head.lastIndex;
  for (;;) {
    key.lastIndex = i;
    const k = key.exec(text);
    if (!k) break;
    valueEnd.lastIndex = key.lastIndex;
    const v = valueEnd.exec(text);
    if (!v) return undefined;
    const name = k[1].trim();
    args[name] = decodeValue(text.slice(key.lastIndex, v.index), types?.[name]?.type);
    i = skipSpace(text, valueEnd.lastIndex);
  }
  // A bare name is a call only of a tool without parameters: `<tool_call>bash</tool_call>` is text.
  const none = types !== undefined && Object.keys(types).length === 0;
  if (Object.keys(args).length === 0 && !none) return undefined;
  const close = /<\/tool_call\s*>/iy;
  close.lastIndex = i;
  if (close.exec(text)) {
    return { calls: [{ name, arguments: JSON.stringify(args) }], end: close.lastIndex };
  }
  return text.slice(i).trim() === ""
    ? { calls: [{ name, arguments: JSON.stringify(args) }], end: i }
    : undefined;
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
  // Llama 3.1's own form: `<function=NAME>{…json…}</function>`.
  const json = skipSpace(text, head.lastIndex);
  if (text[json] === "{") {
    const stop = jsonEnd(text, json);
    const value = stop < 0 ? undefined : parseLoose(text.slice(json, stop));
    if (!isObject(value)) return undefined;
    const close = /\s*<\/function\s*>/iy;
    close.lastIndex = stop;
    const end = close.exec(text) ? close.lastIndex : stop;
    return { calls: [{ name, arguments: JSON.stringify(value) }], end };
  }
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
