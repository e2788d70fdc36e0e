/**
 * Reading session files fast for the search: one reused buffer, and the messages of a file in
 * mm's own layout taken without parsing the tool outputs, which are most of its bytes.
 */

import { parseSession } from "./store.ts";

/** A message as the search reads it. */
export interface SkimmedMessage {
  role: string;
  /** The text; left undefined for a tool output, which is never searched. */
  content?: unknown;
  turn: number;
  /** It carries tool calls (a non-empty `tool_calls`). */
  toolCalls: boolean;
}

/** A session as the search reads it. */
export interface SkimmedSession {
  id: string;
  updated: string;
  messages: SkimmedMessage[];
}

const INITIAL_BUFFER = 64 * 1024;
const MAX_KEPT_BUFFER = 4 * 1024 * 1024;

/**
 * Reads files one at a time into one reused buffer, synchronously: on the measurements of
 * docs/performance.md an asynchronous read costs about twice as much (a hop to a thread pool and
 * a new buffer each). The buffer grows to the largest file and is dropped above 4 MiB.
 */
export class FileReader {
  #buffer = new Uint8Array(INITIAL_BUFFER);
  #decoder = new TextDecoder();

  /** The text of the file at `path` (invalid UTF-8 as U+FFFD). Throws when it cannot be read. */
  read(path: string): string {
    const file = Deno.openSync(path);
    let length = 0;
    try {
      for (;;) {
        if (length === this.#buffer.length) {
          const bigger = new Uint8Array(this.#buffer.length * 2);
          bigger.set(this.#buffer);
          this.#buffer = bigger;
        }
        const n = file.readSync(this.#buffer.subarray(length));
        if (n === null) break;
        length += n;
      }
    } finally {
      file.close();
    }
    const text = this.#decoder.decode(this.#buffer.subarray(0, length));
    if (this.#buffer.length > MAX_KEPT_BUFFER) this.#buffer = new Uint8Array(INITIAL_BUFFER);
    return text;
  }
}

const MESSAGES = '\n "messages": [';
const HEADER_LINE = /^ "([^"\\]+)": (.*?),?$/;

/**
 * The session in `raw` when it is laid out as mm writes it (`JSON.stringify(session, null, 1)`),
 * else undefined. A JSON string never holds a raw line break, so every line break is layout: a
 * message is the lines from `\n  {` to `\n  }`, its keys the lines indented by three spaces, and
 * only the values needed are parsed — the texts of questions and answers, never a tool output.
 */
export function skimCanonical(raw: string): SkimmedSession | undefined {
  if (!raw.startsWith('{\n "') || !raw.trimEnd().endsWith("\n}")) return undefined;
  const at = raw.indexOf(MESSAGES);
  if (at < 0) return undefined;
  const header: Record<string, unknown> = {};
  for (const line of raw.slice(2, at).split("\n")) {
    const m = HEADER_LINE.exec(line);
    if (!m) return undefined;
    try {
      header[m[1]] = JSON.parse(m[2]);
    } catch {
      return undefined;
    }
  }
  if (
    typeof header.id !== "string" || typeof header.updated !== "string" ||
    typeof header.created !== "string"
  ) return undefined;
  const messages: SkimmedMessage[] = [];
  let i = at + MESSAGES.length;
  if (raw.startsWith("]", i)) return { id: header.id, updated: header.updated, messages };
  for (;;) {
    if (!raw.startsWith("\n  {", i)) return undefined;
    const end = raw.indexOf("\n  }", i + 4);
    if (end < 0) return undefined;
    const message = skimMessage(raw, i + 4, end);
    if (!message) return undefined;
    messages.push(message);
    i = end + 4;
    if (raw.charCodeAt(i) === 44 /* , */) i++;
    else if (raw.startsWith("\n ]", i)) break;
    else return undefined;
  }
  return { id: header.id, updated: header.updated, messages };
}

/** The message whose key lines run from `p` (a line break) to `end`. */
function skimMessage(raw: string, p: number, end: number): SkimmedMessage | undefined {
  let role: unknown;
  let turn: unknown = 0;
  let toolCalls = false;
  let content: [number, number] | undefined;
  while (p < end) {
    if (!raw.startsWith('\n   "', p)) return undefined;
    const lineEnd = raw.indexOf("\n", p + 1);
    const colon = raw.indexOf('": ', p + 5);
    if (colon < 0 || colon > lineEnd) return undefined;
    const key = raw.slice(p + 5, colon);
    const last = raw.charCodeAt(lineEnd - 1) === 44 /* , */ ? lineEnd - 1 : lineEnd;
    const opener = raw[last - 1];
    if (last === colon + 4 && (opener === "[" || opener === "{")) {
      // A nested array or object: skip to its closing line, at the same indent.
      const close = raw.indexOf(opener === "[" ? "\n   ]" : "\n   }", lineEnd);
      if (close < 0 || close > end) return undefined;
      if (key === "tool_calls") toolCalls = true;
      p = raw.indexOf("\n", close + 1);
      continue;
    }
    try {
      if (key === "role") role = JSON.parse(raw.slice(colon + 3, last));
      else if (key === "turn") turn = JSON.parse(raw.slice(colon + 3, last));
      else if (key === "content") content = [colon + 3, last];
    } catch {
      return undefined;
    }
    p = lineEnd;
  }
  // Only what mm writes is skimmed: a message without its turn is parsed in full, which gives it one.
  if (typeof role !== "string" || !Number.isInteger(turn) || (turn as number) < 1) return undefined;
  const message: SkimmedMessage = { role, turn: turn as number, toolCalls };
  if (content && role !== "tool") {
    try {
      message.content = JSON.parse(raw.slice(content[0], content[1]));
    } catch {
      return undefined;
    }
  }
  return message;
}

/**
 * The session in `raw`, skimmed when it is in mm's layout, else parsed in full. Throws a
 * SessionFileError when it is not a session.
 */
export function skimSession(path: string, raw: string): SkimmedSession {
  const skimmed = skimCanonical(raw);
  if (skimmed) return skimmed;
  const s = parseSession(path, raw);
  return {
    id: s.id,
    updated: s.updated,
    messages: s.messages.filter((m) => m && typeof m === "object").map((m) => {
      const message: SkimmedMessage = {
        role: String(m.role),
        turn: m.turn,
        toolCalls: "tool_calls" in m && Array.isArray(m.tool_calls) && m.tool_calls.length > 0,
      };
      if (m.role !== "tool" && m.content !== undefined) message.content = m.content;
      return message;
    }),
  };
}
