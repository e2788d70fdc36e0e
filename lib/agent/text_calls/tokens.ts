/**
 * The dialects that open with a special token or a fixed word: Llama `<|python_tag|>` and
 * `<|python_start|>`, gpt-oss harmony `to=functions.NAME`, DeepSeek `<｜tool▁calls▁begin｜>`,
 * Granite and Phi-4-mini `<|tool_call|>`, Phi-4-mini `functools[…]`, Kimi K2 `<|tool_call_begin|>`, LFM2
 * `<|tool_call_start|>`, Nemotron `<TOOLCALL>`, Command R `<|START_ACTION|>` and `Action:` with a
 * JSON fence, and Gemma's `tool_code` fence (docs/small-models.md has the table and sources).
 */

import { callsOfValue, type Declared, type TextCall } from "./calls.ts";
import { jsonEnd, parseLoose, skipSpace } from "./json_scan.ts";
import { pythonCalls } from "./pythonic.ts";
import { matchToolName } from "../tool_name.ts";

/** Calls read after a marker, and where they end. */
export interface MarkedCalls {
  calls: TextCall[];
  end: number;
}

/** Where a dialect's marker may stand, besides a line start or right after another call. */
export type Placement =
  /** Anywhere, when its calls end the message (a token a model writes right after its text). */
  | "ending"
  /** Only at a line start (or after a call): a word prose may hold too. */
  | "line"
  /** At a line start (or after a call), and only when its calls end the message. */
  | "last";

/** One dialect: its marker (a regex source, read case-insensitively) and its reader. */
export interface TokenDialect {
  name: string;
  marker: string;
  placement: Placement;
  /** The calls whose marker starts at `at` (it matched there), or undefined: prose. */
  read(text: string, at: number, known: Declared): MarkedCalls | undefined;
}

/** A DeepSeek token: `｜` or `|`, `▁` or `_` between its words (servers write either). */
const ds = (...words: string[]) => `<[｜|]${words.join("[▁_ ]")}[｜|]>`;

/** End-of-turn tokens a call may be followed by (`</s>` is Mistral's): they belong to it. */
const TRAILER = new RegExp(
  `(?:\\s*(?:<\\|(?:eom_id|eot_id|call|end|return|im_end|python_end)\\|>|<\\/s>|${
    ds("end", "of", "sentence")
  }))*`,
  "iy",
);

/** Index after `re` (sticky) matched at `i`, or -1. */
function after(text: string, i: number, re: RegExp): number {
  re.lastIndex = i;
  return re.test(text) ? re.lastIndex : -1;
}

/** `i` moved past `re` when it matches there (an optional token). */
function past(text: string, i: number, re: RegExp): number {
  const j = after(text, i, re);
  return j < 0 ? i : j;
}

/** The end of the call, past the end-of-turn tokens after it. */
export function trailed(text: string, end: number): number {
  return past(text, end, TRAILER);
}

/**
 * JSON call values from `from` (objects or arrays of `{"name", "arguments"|"parameters"}`),
 * separated by blanks, commas or semicolons; undefined unless at least one, all calls.
 */
function jsonCallsAt(text: string, from: number, known: Declared): MarkedCalls | undefined {
  const calls: TextCall[] = [];
  let i = skipSpace(text, from);
  let end = -1;
  while (text[i] === "{" || text[i] === "[") {
    const stop = jsonEnd(text, i);
    if (stop < 0) return undefined;
    const more = callsOfValue(parseLoose(text.slice(i, stop)), known, false);
    if (!more) return undefined;
    calls.push(...more);
    end = stop;
    i = skipSpace(text, stop);
    if (text[i] === "," || text[i] === ";") i = skipSpace(text, i + 1);
  }
  return end < 0 ? undefined : { calls, end };
}

/** JSON arguments opening at `from` (after blanks), as a call of `name`. */
function jsonArgsAt(
  text: string,
  from: number,
  name: string,
): { call: TextCall; end: number } | undefined {
  const s = skipSpace(text, from);
  if (text[s] !== "{") return undefined;
  const end = jsonEnd(text, s);
  if (end < 0) return undefined;
  const value = parseLoose(text.slice(s, end));
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return { call: { name, arguments: JSON.stringify(value) }, end };
}

/** JSON or Python calls after a token, then its optional closing token. */
function callsThenClose(close?: RegExp) {
  return (text: string, at: number, known: Declared, open: RegExp): MarkedCalls | undefined => {
    const s = after(text, at, open);
    const found = jsonCallsAt(text, s, known) ?? pythonCalls(text, s, known, true);
    if (!found) return undefined;
    const end = close ? past(text, found.end, close) : found.end;
    return { calls: found.calls, end: trailed(text, end) };
  };
}

/** A dialect whose calls follow its opening token, JSON or Python, up to a closing token. */
function wrapped(
  name: string,
  open: string,
  close?: string,
  placement: Placement = "ending",
): TokenDialect {
  const openRe = new RegExp(open, "iy");
  const closeRe = close ? new RegExp(`\\s*${close}`, "iy") : undefined;
  const read = callsThenClose(closeRe);
  return { name, marker: open, placement, read: (t, at, k) => read(t, at, k, openRe) };
}

/** gpt-oss harmony: `<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>`. */
const HARMONY_HEAD =
  /(?:<\|start\|>\s*assistant\s*)?(?:<\|channel\|>\s*)?(?:(?:commentary|analysis)[ \t]+)?to=functions\.([\w.-]+)[ \t]*(?:<\|channel\|>[ \t]*\w+[ \t]*)?(?:<\|constrain\|>[ \t]*)?(?:json|code)?[ \t]*(?:<\|message\|>)?/iy;

function harmony(text: string, at: number, known: Declared): MarkedCalls | undefined {
  HARMONY_HEAD.lastIndex = at;
  const h = HARMONY_HEAD.exec(text);
  if (!h) return undefined;
  const name = matchToolName(h[1], known.names);
  const args = name && jsonArgsAt(text, HARMONY_HEAD.lastIndex, name);
  return args ? { calls: [args.call], end: trailed(text, args.end) } : undefined;
}

const DS_CALLS_BEGIN = new RegExp(ds("tool", "calls", "begin"), "iy");
const DS_CALL_BEGIN = new RegExp(`\\s*${ds("tool", "call", "begin")}`, "iy");
const DS_SEP = new RegExp(ds("tool", "sep"), "ig");
const DS_CALL_END = new RegExp(`\\s*${ds("tool", "call", "end")}`, "iy");
const DS_CALLS_END = new RegExp(`\\s*${ds("tool", "calls", "end")}`, "iy");

/**
 * DeepSeek: `<｜tool▁calls▁begin｜>` then per call `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`
 * and a fenced JSON (V3, R1) or `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}` (V3.1), each closed by
 * `<｜tool▁call▁end｜>`, then `<｜tool▁calls▁end｜>`.
 */
function deepseek(text: string, at: number, known: Declared): MarkedCalls | undefined {
  let i = past(text, at, DS_CALLS_BEGIN);
  const calls: TextCall[] = [];
  for (;;) {
    const begin = after(text, i, DS_CALL_BEGIN);
    if (begin < 0) break;
    DS_SEP.lastIndex = begin;
    const sep = DS_SEP.exec(text);
    if (!sep || sep.index - begin > 100) return undefined;
    const before = text.slice(begin, sep.index).trim();
    let s = DS_SEP.lastIndex;
    let raw = before;
    if (before === "" || before.toLowerCase() === "function") {
      const n = /[ \t]*([^\s`{<]+)/y;
      n.lastIndex = s;
      const m = n.exec(text);
      if (!m) return undefined;
      raw = m[1];
      s = n.lastIndex;
    }
    const name = matchToolName(raw, known.names);
    if (!name) return undefined;
    s = skipSpace(text, s);
    const fenced = text.startsWith("```", s);
    if (fenced) s = past(text, s, /```[\w]*[ \t]*\n?/y);
    const args = jsonArgsAt(text, s, name);
    if (!args) return undefined;
    calls.push(args.call);
    i = args.end;
    if (fenced) i = past(text, i, /\s*```/y);
    i = past(text, i, DS_CALL_END);
  }
  if (!calls.length) return undefined;
  return { calls, end: trailed(text, past(text, i, DS_CALLS_END)) };
}

const KIMI_SECTION = /<\|tool_calls_section_begin\|>/iy;
const KIMI_CALL = /\s*<\|tool_call_begin\|>/iy;
const KIMI_NAME =
  /\s*(?:functions\.)?([A-Za-z_][\w.-]*?)(?::\d+)?\s*<\|tool_call_argument_begin\|>/iy;
const KIMI_CALL_END = /\s*<\|tool_call_end\|>/iy;
const KIMI_SECTION_END = /\s*<\|tool_calls_section_end\|>/iy;

/**
 * Kimi K2: `<|tool_calls_section_begin|>` then per call `<|tool_call_begin|>functions.NAME:0
 * <|tool_call_argument_begin|>{…}<|tool_call_end|>`, then `<|tool_calls_section_end|>`.
 */
function kimi(text: string, at: number, known: Declared): MarkedCalls | undefined {
  let i = at;
  const section = after(text, i, KIMI_SECTION);
  if (section >= 0) i = section;
  const calls: TextCall[] = [];
  for (;;) {
    const begin = after(text, i, KIMI_CALL);
    if (begin < 0 && !(section >= 0 && calls.length === 0)) break;
    KIMI_NAME.lastIndex = begin < 0 ? i : begin;
    const m = KIMI_NAME.exec(text);
    if (!m) {
      if (begin < 0) break;
      return undefined;
    }
    const name = matchToolName(m[1], known.names);
    const args = name && jsonArgsAt(text, KIMI_NAME.lastIndex, name);
    if (!args) return undefined;
    calls.push(args.call);
    i = past(text, args.end, KIMI_CALL_END);
  }
  if (!calls.length) return undefined;
  return { calls, end: trailed(text, past(text, i, KIMI_SECTION_END)) };
}

/** Command R+: `Action:` then a JSON fence holding `[{"tool_name", "parameters"}]`. */
function commandR(text: string, at: number, known: Declared): MarkedCalls | undefined {
  let s = after(text, at, /Action:[ \t]*\n?[ \t]*```(?:json)?[ \t]*\n/iy);
  if (s < 0) return undefined;
  const found = jsonCallsAt(text, s, known);
  if (!found) return undefined;
  s = after(text, found.end, /\s*```/y);
  return s < 0 ? undefined : { calls: found.calls, end: trailed(text, s) };
}

/** Gemma: a `tool_code` fence of `print(default_api.NAME(…))` or plain Python calls. */
function gemma(text: string, at: number, known: Declared): MarkedCalls | undefined {
  const open = /(`{3,})tool_code[ \t]*\n/iy;
  open.lastIndex = at;
  const m = open.exec(text);
  if (!m) return undefined;
  const found = pythonCalls(text, open.lastIndex, known, true);
  if (!found) return undefined;
  const s = after(text, found.end, new RegExp(`\\s*${m[1]}`, "y"));
  return s < 0 ? undefined : { calls: found.calls, end: trailed(text, s) };
}

/** Phi-4-mini: `functools[{"name", "arguments"}, …]` (vLLM `phi4mini_tool_parser.py`). */
function functools(text: string, at: number, known: Declared): MarkedCalls | undefined {
  const s = after(text, at, /functools(?=\[)/iy);
  if (s < 0) return undefined;
  const end = jsonEnd(text, s);
  const calls = end < 0 ? undefined : callsOfValue(parseLoose(text.slice(s, end)), known, false);
  return calls && { calls, end: trailed(text, end) };
}

/** Every dialect read here, most written first. */
export const TOKEN_DIALECTS: TokenDialect[] = [
  wrapped("Llama <|python_tag|>", "<\\|python_tag\\|>"),
  wrapped("Llama 4 <|python_start|>", "<\\|python_start\\|>", "<\\|python_end\\|>"),
  {
    name: "gpt-oss harmony",
    marker:
      "(?:<\\|start\\|>\\s*assistant\\s*)?(?:<\\|channel\\|>\\s*)?(?:(?:commentary|analysis)[ \\t]+)?to=functions\\.",
    placement: "ending",
    read: harmony,
  },
  {
    name: "DeepSeek",
    marker: `${ds("tool", "calls", "begin")}|${ds("tool", "call", "begin")}`,
    placement: "ending",
    read: deepseek,
  },
  wrapped("Granite, Phi-4-mini <|tool_call|>", "<\\|tool_call\\|>", "<\\|?/tool_call\\|>"),
  { name: "Phi-4-mini functools", marker: "functools(?=\\[)", placement: "line", read: functools },
  {
    name: "Kimi K2",
    marker: "<\\|tool_calls_section_begin\\|>|<\\|tool_call_begin\\|>",
    placement: "ending",
    read: kimi,
  },
  wrapped("LFM2", "<\\|tool_call_start\\|>", "<\\|tool_call_end\\|>"),
  wrapped("Nemotron", "<TOOLCALL>", "</TOOLCALL>"),
  wrapped("Command R7B", "<\\|START_ACTION\\|>", "<\\|END_ACTION\\|>"),
  {
    name: "Command R+",
    marker: "Action:(?=[ \\t]*\\n?[ \\t]*```)",
    placement: "last",
    read: commandR,
  },
  { name: "Gemma tool_code", marker: "`{3,}tool_code\\b", placement: "last", read: gemma },
];

/** The dialects whose marker matches at `at` (DeepSeek's and Kimi's tokens may read alike). */
export function dialectsAt(text: string, at: number): TokenDialect[] {
  return TOKEN_DIALECTS.filter((d) => after(text, at, stickyMarker(d)) >= 0);
}

const STICKY = new Map<TokenDialect, RegExp>();

function stickyMarker(d: TokenDialect): RegExp {
  let re = STICKY.get(d);
  if (!re) STICKY.set(d, re = new RegExp(d.marker, "iy"));
  return re;
}
