/**
 * The context window's budget: how many tokens a prompt takes (estimated, calibrated by the
 * server's own counts), how many are kept for the answer, and how a history is made to fit —
 * the oldest tool outputs shortened first, then, for a summary request, the oldest exchanges left
 * out. Plain functions of plain data; the agent core applies the plans (docs/sessions.md).
 */

import type { Message, ToolSchema } from "../provider/chat.ts";

/** Characters of ASCII text counted as one token: fewer than real tokenizers take, to be safe. */
export const CHARS_PER_TOKEN = 3;
/** Tokens a message's framing costs beyond its text (role markers, separators). */
export const MESSAGE_OVERHEAD = 6;
/** Tokens each declared tool's framing costs beyond its JSON. */
export const TOOL_OVERHEAD = 10;
/** Tokens the chat template adds once, to open the answer. */
export const PROMPT_OVERHEAD = 3;
/** The least room kept for the answer when `maxTokens` is not set. */
export const MIN_RESERVE = 512;
/** Characters of a shortened tool output that are kept, from its start. */
export const KEPT_HEAD = 400;
/** Outputs shorter than the kept head by less than this are never shortened: too little to gain. */
export const MIN_CUT = 200;

/** What the server reported of one prompt: our raw estimate of it and its real token count. */
export interface Calibration {
  raw: number;
  real: number;
}

/** The window a prompt must fit: its size, the room kept for the answer, the calibration. */
export interface Budget {
  window: number;
  reserve: number;
  calibration?: Calibration;
}

/** One tool output to shorten: its index in the history and its new content. */
export interface Cut {
  index: number;
  content: string;
}

/** A plan to fit a history: the outputs to shorten, the estimate after, whether it then fits. */
export interface Fit {
  cuts: Cut[];
  tokens: number;
  fits: boolean;
}

/** The marker that ends a shortened tool output. */
export function cutMarker(n: number): string {
  return `[mm: ${n} more characters of this output were cut to fit the context window]`;
}

const MARKER = /\[mm: \d+ more characters of this output were cut to fit the context window\]$/;

/** The note a summary request starts with when its oldest exchanges were left out. */
export const LEFT_OUT_NOTE =
  "[mm: the start of the conversation was left out to fit the context window]";

/** The line shown when mm compacts the conversation because the window is full. */
export function compactingNotice(window: number): string {
  return `[mm: the conversation fills the context window (${window} tokens) — compacting it as /compact does]`;
}

/** The line shown when mm compacts the conversation because the server said it overflowed. */
export const OVERFLOW_NOTICE =
  "[mm: the server says the conversation no longer fits its context window — compacting it as /compact does, then trying again]";

/** The error of a prompt that cannot fit even alone with the system prompt and the tools. */
export function tooBigText(tokens: number, b: Budget): string {
  return `[error: the system prompt, the tools and this prompt take about ${tokens} tokens, more than the ${
    b.window - b.reserve
  } the context window of ${b.window} tokens leaves once ${b.reserve} are kept for the answer — raise contextSize, declare fewer tools, or shorten the prompt]`;
}

/** The error of a compaction that failed while the window was full. */
export function compactFailedText(window: number | undefined, reason: string): string {
  const of = window ? ` of ${window} tokens` : "";
  return `[error: the conversation no longer fits the context window${of} and could not be compacted (${reason}) — start a new conversation, or raise contextSize]`;
}

/** The estimated tokens of a text: a third of its ASCII characters, one per other character. */
export function textTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) ascii++;
    else if (c < 0xdc00 || c > 0xdfff) other++; // a low surrogate belongs to the character before
  }
  return Math.ceil(ascii / CHARS_PER_TOKEN) + other;
}

/** The estimated tokens of one message, its tool calls included. */
export function messageTokens(m: Message): number {
  let n = MESSAGE_OVERHEAD + textTokens(m.content ?? "");
  if (m.role === "assistant") {
    for (const c of m.tool_calls ?? []) {
      n += MESSAGE_OVERHEAD + textTokens(c.function.name) + textTokens(c.function.arguments);
    }
  }
  return n;
}

/** The estimated tokens of the tool declarations. */
export function toolsTokens(tools: readonly ToolSchema[]): number {
  let n = 0;
  for (const t of tools) n += TOOL_OVERHEAD + textTokens(JSON.stringify(t.function));
  return n;
}

/** The raw (uncalibrated) estimate of a prompt. */
export function rawPromptTokens(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
): number {
  let n = PROMPT_OVERHEAD + toolsTokens(tools);
  for (const m of messages) n += messageTokens(m);
  return n;
}

/**
 * The calibration a server's report gives, or undefined when there is none or it cannot be right:
 * under half the raw estimate is a server that counts only the tokens it had not cached.
 */
export function calibrate(raw: number, real: number | undefined): Calibration | undefined {
  if (!real || real <= 0 || raw <= 0 || real < raw / 2) return undefined;
  return { raw, real };
}

/**
 * A raw estimate corrected by the last report: the larger of the raw estimate scaled by the
 * report's ratio and the report's real count plus what the raw estimate grew by since.
 */
export function calibrated(raw: number, c?: Calibration): number {
  if (!c) return raw;
  return Math.max(Math.ceil(raw * c.real / c.raw), c.real + raw - c.raw);
}

/** The estimate of a prompt, calibrated. */
export function promptTokens(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  calibration?: Calibration,
): number {
  return calibrated(rawPromptTokens(messages, tools), calibration);
}

/** The room kept for the answer: `maxTokens` when set, else an eighth of the window (at least 512), never more than half. */
export function answerReserve(window: number, maxTokens?: number): number {
  const wanted = maxTokens ?? Math.max(MIN_RESERVE, Math.ceil(window / 8));
  return Math.min(wanted, Math.floor(window / 2));
}

/** The most tokens a prompt may take in the budget's window. */
export function promptLimit(b: Budget): number {
  return b.window - b.reserve;
}

/** Whether a tool output was already shortened. */
export function isShortened(content: string): boolean {
  return MARKER.test(content);
}

/**
 * A tool output shortened to its head (cut at a line end when one is near) and the marker that
 * says how much was cut; undefined when it is too short, or already shortened.
 */
export function shortenOutput(content: string): string | undefined {
  if (content.length < KEPT_HEAD + MIN_CUT || isShortened(content)) return undefined;
  let head = content.slice(0, KEPT_HEAD);
  const nl = head.lastIndexOf("\n");
  if (nl >= KEPT_HEAD / 2) head = head.slice(0, nl + 1);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const cut = content.length - head.length;
  return `${head}${head.endsWith("\n") ? "" : "\n"}${cutMarker(cut)}`;
}

/**
 * Where the tool outputs the model has not read yet start: after the last assistant message of
 * the turn whose prompt is at `promptAt`, or the prompt itself when the model has not answered.
 */
export function unreadFrom(history: readonly Message[], promptAt: number): number {
  const last = history.findLastIndex((m) => m.role === "assistant");
  return Math.max(promptAt, last);
}

/**
 * The plan that fits `messages` in the budget by shortening the tool outputs before `end`, the
 * oldest first, only as many as needed — or every one with `all` (the server overflowed where
 * the estimate said it fits). `fits` is false when that is not enough.
 */
export function planCuts(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  budget: Budget | undefined,
  end: number,
  all = false,
): Fit {
  let raw = rawPromptTokens(messages, tools);
  const limit = budget ? promptLimit(budget) : Infinity;
  const estimate = () => calibrated(raw, budget?.calibration);
  const cuts: Cut[] = [];
  for (let i = 0; i < Math.min(end, messages.length); i++) {
    if (!all && estimate() <= limit) break;
    const m = messages[i];
    if (m.role !== "tool") continue;
    const content = shortenOutput(m.content);
    if (content === undefined) continue;
    raw -= textTokens(m.content) - textTokens(content);
    cuts.push({ index: i, content });
  }
  const tokens = estimate();
  return { cuts, tokens, fits: tokens <= limit };
}

/** `messages` with the cuts applied, in a new array; the other messages are the same objects. */
export function applyCuts(messages: readonly Message[], cuts: readonly Cut[]): Message[] {
  const out = [...messages];
  for (const c of cuts) out[c.index] = { ...out[c.index], content: c.content } as Message;
  return out;
}

/**
 * The messages of a summary request: `messages` (the system prompt first) then the request,
 * without tools. Fitted to the budget when there is one: the tool outputs shortened, the oldest
 * first, then the oldest exchanges left out (a note says so); with `all`, every output is
 * shortened. Undefined when even the last exchange cannot fit.
 */
export function summaryRequest(
  messages: readonly Message[],
  request: string,
  budget?: Budget,
  all = false,
): Message[] | undefined {
  const ask: Message = { role: "user", content: request };
  const plan = planCuts([...messages, ask], [], budget, messages.length, all);
  const fitted = applyCuts(messages, plan.cuts);
  if (plan.fits) return [...fitted, ask];
  const limit = promptLimit(budget!);
  const [system, ...body] = fitted;
  const sizes = body.map(messageTokens);
  const fixed = PROMPT_OVERHEAD + messageTokens(system) + messageTokens(ask);
  let rest = sizes.reduce((a, b) => a + b, 0);
  for (let start = 0; start < body.length; start++) {
    if (start > 0) rest -= sizes[start - 1];
    // An exchange starts with a question or a model message, never with a tool output.
    if (start === 0 || body[start].role === "tool") continue;
    const note = leftOut([body[start]]).reduce((n, m) => n + messageTokens(m), 0) - sizes[start];
    if (calibrated(fixed + note + rest, budget!.calibration) > limit) continue;
    return [system, ...leftOut(body.slice(start)), ask];
  }
  return undefined;
}

/** The messages after the left-out start, the note in front: merged into a question, or its own. */
function leftOut(kept: Message[]): Message[] {
  const [first, ...rest] = kept;
  if (first.role === "user") {
    return [{ role: "user", content: `${LEFT_OUT_NOTE}\n\n${first.content}` }, ...rest];
  }
  return [{ role: "user", content: LEFT_OUT_NOTE }, ...kept];
}
