/**
 * The context window's budget: how many tokens a prompt takes (estimated, calibrated by the
 * server's own counts), how many are kept for the answer, and how a history is made to fit —
 * the oldest tool outputs shortened first, then the last step's outputs when they are too big by
 * themselves, then, for a summary request, the oldest exchanges left out. Plain functions of plain
 * data; the agent core applies the plans (docs/sessions.md).
 */

import { TOO_LARGE_MARKER } from "../history.ts";
import type { ToolSchema } from "../provider/chat.ts";
import type { Message } from "../history.ts";

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
/**
 * Once outputs must be shortened, they are shortened until the prompt takes at most this share of
 * what it may take: the room freed lasts many steps, so the server's prompt cache (llama.cpp's
 * `cache_prompt`, Ollama's) is broken once for them, not at every step.
 */
export const LOW_WATER = 0.6;

/** What the server reported of one prompt: our raw estimate of it and its real token count. */
export interface Calibration {
  raw: number;
  real: number;
}

/** The window a prompt must fit: its size, the room kept for the answer, the calibration. */
export interface Budget {
  window: number;
  reserve: number;
  /**
   * The least room for the answer below which a prompt is refused before it is sent: `maxTokens`
   * when set, else a small share of the window — the server itself takes any prompt it can hold.
   * `reserve` when unset.
   */
  floor?: number;
  calibration?: Calibration;
  /**
   * False when the server is not told the window (llama.cpp, DMR, other OpenAI-compatible
   * servers take theirs when they start): raising `contextSize` would not help them.
   */
  toldWindow?: boolean;
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
  /**
   * Whether the plan leaves the room it aims at ({@linkcode LOW_WATER} once a cut is needed): when
   * it does not, the window fills again within a few steps.
   */
  roomy?: boolean;
}

/** What the marker of an output the model had not read adds: how to read the rest. */
export const READ_IN_PARTS =
  " — read it in parts (read_file with start and end, or head, tail or grep in bash)";

/**
 * The marker that ends a shortened tool output; `unread`: the model has not seen the output whole,
 * and is told how to read the rest; `over`: the count is a floor (the tool had cut the output too,
 * without saying by how much).
 */
export function cutMarker(n: number, unread = false, over = false): string {
  return `[mm: ${
    over ? "over " : ""
  }${n} more characters of this output were cut to fit the context window${
    unread ? READ_IN_PARTS : ""
  }]`;
}

const MARKER =
  /\[mm: (over )?(\d+) more characters of this output were cut to fit the context window( — read it in parts[^\]\n]*)?\]$/;

/**
 * What a tool's own truncation notes in `text` change in the count of unread characters (they say
 * what they cut, and are not output themselves), and whether the tool cut more than it counted.
 */
function toolCuts(text: string): { n: number; over: boolean } {
  let n = 0;
  const notes = /\n?\[\.\.\. (\d+) characters cut: output truncated to maxOutput \.\.\.\]\n?/g;
  for (const m of text.matchAll(notes)) n += Number(m[1]) - m[0].length;
  const over = text.includes(TOO_LARGE_MARKER);
  if (over) n -= TOO_LARGE_MARKER.length;
  const dropped = text.match(
    /\[\.\.\. (at least )?\d+ bytes dropped between the two ends \.\.\.\]\n/,
  );
  if (over && dropped) n -= dropped[0].length;
  return { n, over };
}

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

/**
 * The line shown when the server said the conversation overflowed and there is nothing to compact:
 * the outputs of the step the model has not read are cut short instead.
 */
export const OVERFLOW_CUT_NOTICE =
  "[mm: the server says the conversation no longer fits its context window — cutting the last tool outputs short, then trying again]";

/**
 * What the session's `errors` keep of an overflow mm answered (the server's words; `compacted`,
 * or the last tool outputs cut short), whether or not the request sent again then succeeds.
 */
export function overflowAnsweredText(serverMessage: string, compacted: boolean): string {
  const how = compacted ? "compacted the conversation" : "cut the last tool outputs short";
  return `[mm: the server said the conversation no longer fits its context window (${serverMessage}) — mm ${how} and sent the request again]`;
}

/** The error of a prompt that cannot fit even alone with the system prompt and the tools. */
export function tooBigText(tokens: number, b: Budget): string {
  const room = b.floor ?? b.reserve;
  return `[error: the system prompt, the tools and this prompt take about ${tokens} tokens, more than the ${
    b.window - room
  } the context window of ${b.window} tokens leaves once ${room} are kept for the answer — ${
    b.toldWindow === false
      ? "give the model a larger window on the server (llama-server `-c`, DMR's context size)"
      : "raise contextSize"
  }, declare fewer tools, or shorten the prompt]`;
}

/** Why the window cannot be fitted when only the last step is left to shorten. */
export const STEP_TOO_BIG = "the last step's tool calls do not fit it even with their outputs cut";

/** The error of a compaction that failed while the window was full. */
export function compactFailedText(
  window: number | undefined,
  reason: string,
  toldWindow?: boolean,
): string {
  const of = window ? ` of ${window} tokens` : "";
  const larger = toldWindow === false
    ? "give the model a larger window on the server (llama-server `-c`, DMR's context size)"
    : "raise contextSize";
  return `[error: the conversation no longer fits the context window${of} and could not be compacted (${reason}) — ${larger}, or ask for a smaller step]`;
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

/** The estimated tokens of one message, its tool calls and reasoning included. */
export function messageTokens(m: Message): number {
  let n = MESSAGE_OVERHEAD + textTokens(m.content ?? "");
  if (m.role === "assistant") {
    if (m.reasoning_content) n += textTokens(m.reasoning_content);
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

/** How many times mm's raw estimate of a prompt a server's count of it may be and be believed. */
export const MOST_BELIEVED = 4;

/**
 * Whether a server's count of a prompt (`real`) can be that prompt's: at most
 * {@linkcode MOST_BELIEVED} times mm's raw estimate of it (`raw`) and, when the window is known,
 * at most twice the window. A count above is a server's fault: believed, it would make every later
 * prompt seem too big. A count below is believed as shown (a server may count only what it had not
 * cached); {@linkcode calibrate} leaves it out.
 */
export function believable(raw: number, real: number, window?: number): boolean {
  return real <= raw * MOST_BELIEVED && (!window || real <= 2 * window);
}

/**
 * A raw estimate corrected by the last report: the larger of the raw estimate scaled by the
 * report's ratio and the report's real count plus what the raw estimate grew by since.
 */
export function calibrated(raw: number, c?: Calibration): number {
  if (!c) return raw;
  return Math.max(Math.ceil(raw * c.real / c.raw), c.real + raw - c.raw);
}

/**
 * The least a prompt of `raw` estimated tokens may take before the server has counted one: the
 * estimate reckons three characters a token, real tokenizers take about four of English or code.
 * A prompt is refused only when even this is too big.
 */
export function leastTokens(raw: number, c?: Calibration): number {
  return c ? calibrated(raw, c) : Math.ceil(raw * 3 / 4);
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

/** The least room for an answer when `maxTokens` is not set: a thirty-second of the window. */
export function answerFloor(window: number, maxTokens?: number): number {
  return Math.min(maxTokens ?? Math.max(64, Math.floor(window / 32)), Math.floor(window / 2));
}

/** The most tokens a prompt may take before mm refuses to send it (the server could not answer). */
export function sendLimit(b: Budget): number {
  return b.window - (b.floor ?? b.reserve);
}

/** Whether a tool output was already shortened. */
export function isShortened(content: string): boolean {
  return MARKER.test(content);
}

/**
 * A tool output shortened to its head (cut at a line end when one is near) and the marker that
 * says how much was cut; undefined when its head is already that short.
 */
export function shortenOutput(content: string): string | undefined {
  // An output cut to fit before it was read is shortened like any other once it has been read.
  const marked = MARKER.exec(content);
  const whole = marked ? marked.index : content.length;
  if (whole < KEPT_HEAD + MIN_CUT) return undefined;
  return shortenTo(content, KEPT_HEAD);
}

/**
 * `content` with at most `keep` characters of its head kept (cut at a line end when one is in the
 * second half, never halfway through a character), then the marker; an output shortened before is
 * shortened further, its count added up. Undefined when nothing would be cut.
 */
export function shortenTo(content: string, keep: number, unread = false): string | undefined {
  const marked = MARKER.exec(content);
  const whole = marked ? content.slice(0, marked.index) : content;
  const before = marked ? Number(marked[2]) : 0;
  if (whole.length <= keep) return undefined;
  let head = whole.slice(0, keep);
  const nl = head.lastIndexOf("\n");
  if (nl >= keep / 2) head = head.slice(0, nl + 1);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  // The tool's own notes of what it cut go with the cut part: the count says all that is unread.
  const tool = toolCuts(whole.slice(head.length));
  const cut = before + whole.length - head.length + tool.n;
  const over = marked?.[1] !== undefined || tool.over;
  const gap = head === "" || head.endsWith("\n") ? "" : "\n";
  return `${head}${gap}${cutMarker(cut, unread || marked?.[3] !== undefined, over)}`;
}

/** The most raw tokens a prompt may take: its calibrated estimate then fits the budget. */
export function rawLimit(b: Budget): number {
  const limit = promptLimit(b);
  const c = b.calibration;
  if (!c) return limit;
  return Math.min(Math.floor(limit * c.raw / c.real), limit - c.real + c.raw);
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
 * oldest first: none while the prompt fits; once it does not, as many as bring it down to
 * {@linkcode LOW_WATER} of the limit, so that the next steps fit without another cut (each cut
 * changes what the server has cached) — or every one with `all` (the server overflowed where the
 * estimate said it fits). Each keeps its first {@linkcode KEPT_HEAD} characters; with `asNeeded`
 * (a summary request, sent once), only as many as needed, the last one keeping as much as still
 * fits. `fits` is false when that is not enough.
 */
export function planCuts(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  budget: Budget | undefined,
  end: number,
  all = false,
  asNeeded = false,
): Fit {
  let raw = rawPromptTokens(messages, tools);
  const max = budget ? rawLimit(budget) : Infinity;
  const goal = raw > max && !asNeeded ? Math.floor(max * LOW_WATER) : max;
  const cuts: Cut[] = [];
  for (let i = 0; i < Math.min(end, messages.length); i++) {
    if (!all && raw <= goal) break;
    const m = messages[i];
    if (m.role !== "tool") continue;
    let content = shortenOutput(m.content);
    if (content === undefined) continue;
    if (asNeeded && !all) content = leastCut(m.content, raw - max) ?? content;
    raw -= textTokens(m.content) - textTokens(content);
    cuts.push({ index: i, content });
  }
  const tokens = calibrated(raw, budget?.calibration);
  return { cuts, tokens, fits: raw <= max, ...(goal < max ? { roomy: raw <= goal } : {}) };
}

/**
 * `content` shortened by at least `need` tokens, keeping the longest head that does (never less
 * than {@linkcode KEPT_HEAD} characters); undefined when that is not enough.
 */
function leastCut(content: string, need: number): string | undefined {
  const tokens = textTokens(content);
  const saves = (keep: number) => {
    const cut = shortenTo(content, keep);
    return cut !== undefined && tokens - textTokens(cut) >= need ? cut : undefined;
  };
  let lo = KEPT_HEAD; // saves enough, or nothing does
  let hi = content.length; // saves nothing
  if (saves(lo) === undefined) return undefined;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (saves(mid) !== undefined) lo = mid;
    else hi = mid;
  }
  return saves(lo);
}

/** A plan for the last step's outputs, with the length of head each kept at most. */
export interface UnreadFit extends Fit {
  kept: number;
}

/**
 * The plan that fits `messages` by shortening the tool outputs from `from` on (the last step's,
 * which the model has not read), the largest first: every one longer than the longest head that
 * lets the prompt fit is cut to that head, with the marker that says how to read the rest. `fits`
 * is false when even their markers alone do not fit.
 */
export function planUnreadCuts(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  budget: Budget,
  from: number,
): UnreadFit {
  const raw = rawPromptTokens(messages, tools);
  const max = rawLimit(budget);
  const outputs: number[] = [];
  for (let i = from; i < messages.length; i++) if (messages[i].role === "tool") outputs.push(i);
  const at = (keep: number) => {
    const cuts: Cut[] = [];
    let tokens = raw;
    for (const i of outputs) {
      const content = shortenTo(messages[i].content as string, keep, true);
      if (content === undefined) continue;
      const saved = textTokens(messages[i].content as string) - textTokens(content);
      if (saved <= 0) continue; // the marker would take more than it cuts
      tokens -= saved;
      cuts.push({ index: i, content });
    }
    return { cuts, tokens };
  };
  const longest = Math.max(0, ...outputs.map((i) => (messages[i].content as string).length));
  let lo = 0;
  let hi = longest;
  let plan = at(lo);
  if (raw <= max || plan.tokens > max) {
    const fits = raw <= max;
    if (fits) plan = { cuts: [], tokens: raw };
    return {
      ...plan,
      tokens: calibrated(plan.tokens, budget.calibration),
      fits,
      kept: fits ? longest : 0,
    };
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (at(mid).tokens <= max) lo = mid;
    else hi = mid;
  }
  plan = at(lo);
  return { ...plan, tokens: calibrated(plan.tokens, budget.calibration), fits: true, kept: lo };
}

/** `messages` with the cuts applied, in a new array; the other messages are the same objects. */
export function applyCuts(messages: readonly Message[], cuts: readonly Cut[]): Message[] {
  const out = [...messages];
  for (const c of cuts) out[c.index] = { ...out[c.index], content: c.content } as Message;
  return out;
}

/**
 * The messages of a summary request: `messages` (the system prompt first) then the request, with
 * `tools` declared (none to be called). Fitted to the budget when there is one: the tool outputs shortened, the oldest
 * first, the last of them only as far as needed, then the oldest exchanges left out (a note says
 * so); with `all`, every output is shortened. Undefined when even the last exchange cannot fit.
 */
export function summaryRequest(
  messages: readonly Message[],
  request: string,
  budget?: Budget,
  all = false,
  tools: readonly ToolSchema[] = [],
): Message[] | undefined {
  const ask: Message = { role: "user", content: request };
  const plan = planCuts([...messages, ask], tools, budget, messages.length, all, true);
  const fitted = applyCuts(messages, plan.cuts);
  if (plan.fits) return [...fitted, ask];
  const limit = promptLimit(budget!);
  const [system, ...body] = fitted;
  const sizes = body.map(messageTokens);
  const fixed = PROMPT_OVERHEAD + toolsTokens(tools) + messageTokens(system) + messageTokens(ask);
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
