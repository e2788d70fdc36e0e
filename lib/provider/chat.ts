/**
 * One chat completion from an OpenAI-compatible server, streamed as server-sent events and
 * assembled from its deltas; a server that ignores `stream` and answers one JSON completion is
 * taken too. Every way it can fail is one sentence (lib/provider/errors.ts).
 */

import type { Config } from "../config/config.ts";
import type { Message, ToolCall } from "../history.ts";
import { orNothingAfter } from "../wait.ts";
import { chatBaseURL, modelsURL } from "./endpoints.ts";
import {
  causeText,
  closedUnanswered,
  dropped,
  errorWords,
  httpError,
  isClosedUnanswered,
  isModelMissingMessage,
  isOverflowMessage,
  llamaModelMissing,
  llamaNotLoaded,
  modelMissing,
  notAStream,
  overflow,
  ProviderError,
  rateLimited,
  reachReason,
  streamFailed,
  type Target,
  tooLarge,
  unreachable,
} from "./errors.ts";
import { MAX_ANSWER, MAX_BODY, MAX_ERROR_BODY } from "../bounded/limits.ts";
import { readBody, TooLarge } from "../bounded/lines.ts";
import { requestServer, serverHeaders } from "./http.ts";
import { sseEvents } from "./sse.ts";
import { thinkingFields } from "./thinking.ts";
import { ThinkSplit } from "./think_split.ts";
import { openaiUsage, type Usage } from "./usage.ts";

/** A tool as declared to the model. */
export interface ToolSchema {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** What streams while the model answers; every delta is a sign of life for the watchdog. */
export type Delta =
  | { type: "text"; text: string }
  | { type: "thought"; text: string }
  | { type: "toolCall"; index: number; name: string; arguments: string };

/** The assembled answer of one model call. */
export interface ChatResult {
  text: string;
  thought: string;
  toolCalls: ToolCall[];
  finishReason?: string;
  /** The server's count, when it gave a believable one (lib/provider/usage.ts). */
  usage?: Usage;
}

/** What one model call sends. */
export interface ChatRequest {
  messages: Message[];
  tools: ToolSchema[];
  signal: AbortSignal;
  onDelta: (delta: Delta) => void;
  /** The agent's estimate of the prompt's size in tokens, when it has one. */
  promptTokens?: number;
  /**
   * `"none"`: the tools are declared (the prompt keeps the bytes the server has cached) but none
   * may be called, as for a summary.
   */
  toolChoice?: "none";
  /** Told before the client waits `ms` as the server asked (HTTP 429): not the model's silence. */
  onWait?: (ms: number) => void;
  /** The thinking asked for, over the configuration's (`/think`). */
  thinking?: ThinkingChoice;
  /** The answer's limit over the configuration's `maxTokens` (the warm-up's 1). */
  maxTokens?: number;
}

/** What `thinking` and `reasoningEffort` ask, as one value a conversation may change. */
export type ThinkingChoice = Pick<Config, "thinking" | "reasoningEffort">;

/** A chat client for one configuration. */
export interface ChatClient {
  target: Target;
  /** The context window, in tokens, the requests of this client get; undefined when unknown. */
  contextWindow?: number;
  stream(request: ChatRequest): Promise<ChatResult>;
}

/** Thrown when the request's signal stopped the stream (cancel, watchdog, runaway). */
export class StreamAborted extends Error {
  /** Builds the error. */
  constructor() {
    super("the model's answer was stopped");
    this.name = "StreamAborted";
  }
}

/** How many times a request answered HTTP 429 is sent again (after the server's delay). */
export const RATE_LIMIT_RETRIES = 3;

/** The longest wait for a 429's `retry-after`, in milliseconds; a longer one is cut to it. */
export const MAX_RETRY_WAIT = 30_000;

/** The wait before the one retry of a llama.cpp router's `proxy error` (its model restarting). */
export const PROXY_RETRY_WAIT = 250;

/**
 * Builds the chat client of `config` for `model`; `serverWindow` is the window the server said it
 * gives, for the overflow sentence.
 */
export function createChatClient(
  config: Config,
  model: string,
  serverWindow?: number,
): ChatClient {
  const target: Target = { provider: config.provider, url: config.url, model };
  if (config.contextSize) target.contextSize = config.contextSize;
  if (serverWindow !== undefined) target.serverWindow = serverWindow;
  const format: FormatState = { refused: false };
  return { target, stream: (request) => streamChat(config, target, request, format) };
}

/** Whether the server refused the answer's `response_format` (then it is never sent again). */
interface FormatState {
  refused: boolean;
}

/**
 * Whether an error is a server's refusal of `response_format` (llama-server refuses a JSON schema's
 * grammar beside tools): an HTTP 400 or 500 whose words name the format, a grammar or a schema.
 */
export function refusesResponseFormat(e: unknown): boolean {
  return e instanceof ProviderError && e.kind === "http" &&
    (e.status === 400 || e.status === 500 || e.status === 422) &&
    /response_format|json_schema|grammar|schema/i.test(e.message);
}

/** The JSON body of a chat request; `withFormat` false leaves `response_format` out. */
function requestBody(
  config: Config,
  target: Target,
  request: ChatRequest,
  withFormat = true,
): string {
  const body: Record<string, unknown> = {
    model: target.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length) body.tools = request.tools;
  if (request.tools.length && request.toolChoice) body.tool_choice = request.toolChoice;
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  const maxTokens = request.maxTokens ?? config.maxTokens;
  if (maxTokens !== undefined) body.max_tokens = maxTokens;
  Object.assign(body, thinkingFields({ ...config, ...request.thinking }));
  if (config.structuredOutput && withFormat) {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "answer", schema: config.structuredOutput },
    };
  }
  return JSON.stringify(body);
}

async function streamChat(
  config: Config,
  target: Target,
  request: ChatRequest,
  format: FormatState,
): Promise<ChatResult> {
  const url = `${chatBaseURL(config.provider, config.url)}/chat/completions`;
  const options = { ...request, accept: "text/event-stream, application/json" };
  const withFormat = config.structuredOutput !== undefined && !format.refused;
  let response: Response;
  try {
    response = await sendChat(
      config,
      target,
      url,
      requestBody(config, target, request, withFormat),
      options,
    );
  } catch (e) {
    // A server that refuses the format (beside tools, say) is asked once more without it, and
    // never again with it: mm checks the answer against the schema itself (--output-schema).
    if (!withFormat || !refusesResponseFormat(e)) throw e;
    format.refused = true;
    response = await sendChat(config, target, url, requestBody(config, target, request, false), {
      ...options,
    });
  }
  return await readAnswer(target, url, response, request);
}

/** How {@linkcode sendChat} sends: the request's signal, and when it waits on the server. */
export interface SendOptions {
  signal: AbortSignal;
  /** The `Accept` header. */
  accept: string;
  /** Told before mm waits `ms` as the server asked (HTTP 429): the silence is the server's. */
  onWait?: (ms: number) => void;
}

/**
 * Sends a chat request to `url` and returns the server's 2xx answer, unread. On the way: HTTP 429
 * waits as the server asks (at most {@linkcode RATE_LIMIT_RETRIES} times), a llama.cpp router's
 * `proxy error` is sent once more; any other failure is thrown as one sentence.
 */
export async function sendChat(
  config: Config,
  target: Target,
  url: string,
  body: string,
  opts: SendOptions,
): Promise<Response> {
  const headers = {
    ...serverHeaders(config.apiKey),
    "Content-Type": "application/json",
    Accept: opts.accept,
  };
  let proxyRetried = false;
  for (let attempt = 1;; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { method: "POST", headers, body, signal: opts.signal });
    } catch (e) {
      if (opts.signal.aborted) throw new StreamAborted();
      if (isClosedUnanswered(e)) throw closedUnanswered(target);
      throw unreachable(target, reachReason(e, url));
    }
    if (response.ok) return response;
    const text = await bodyText(response, opts.signal);
    const words = errorWords(text);
    if (response.status === 429 && attempt <= RATE_LIMIT_RETRIES) {
      const ms = retryAfter(response.headers.get("retry-after"), attempt);
      opts.onWait?.(ms);
      await waitOrAbort(ms, opts.signal);
      continue;
    }
    // A llama.cpp router answers this while the model's own server restarts (after an unload):
    // the same request a moment later reaches it.
    if (response.status === 500 && /^proxy error/i.test(words) && !proxyRetried) {
      proxyRetried = true;
      await waitOrAbort(PROXY_RETRY_WAIT, opts.signal);
      continue;
    }
    throw await statusError(config, target, response.status, words, text, attempt);
  }
}

/**
 * The text of an answer: an error's first {@linkcode MAX_ERROR_BODY} bytes (empty when it cannot
 * be read), or with `target`, the whole of a 2xx answer, which past {@linkcode MAX_BODY} is the
 * error of a body too large.
 */
async function bodyText(
  response: Response,
  signal: AbortSignal,
  target?: Target,
): Promise<string> {
  if (!response.body) return "";
  try {
    const max = target ? MAX_BODY : MAX_ERROR_BODY;
    return new TextDecoder().decode(await readBody(response.body, max, { cut: !target }));
  } catch (e) {
    if (signal.aborted) throw new StreamAborted();
    if (e instanceof TooLarge && target) throw tooLarge(target, "a body", e.limit);
    return "";
  }
}

/** The sentence of an HTTP error status. */
async function statusError(
  config: Config,
  target: Target,
  status: number,
  words: string,
  text: string,
  attempts: number,
): Promise<ProviderError> {
  if (status === 429) return rateLimited(target, words, attempts);
  if (config.provider === "llamacpp" && /model is not loaded|not loaded/i.test(words)) {
    return llamaNotLoaded(target, words);
  }
  if ((status === 404 || status === 400) && isModelMissingMessage(words)) {
    if (config.provider !== "llamacpp") return modelMissing(target, words);
    return llamaModelMissing(target, words, await servedModels(config));
  }
  if (isOverflowMessage(words)) {
    return overflow(
      target,
      words,
      errorNumber(text, "n_ctx"),
      errorNumber(text, "n_prompt_tokens"),
    );
  }
  return httpError(target, status, words);
}

/** The names of the models a server lists, or none when it lists nothing readable. */
async function servedModels(config: Config): Promise<string[]> {
  const answer = await requestServer({
    url: modelsURL(config.provider, config.url),
    apiKey: config.apiKey,
    timeout: 5_000,
  });
  if (answer.kind !== "ok") return [];
  const data = (answer.json as { data?: { id?: unknown }[] } | undefined)?.data ?? [];
  return data.flatMap((m) => typeof m.id === "string" ? [m.id] : []);
}

/**
 * A number a llama.cpp error body names (`n_ctx`, the window; `n_prompt_tokens`, the prompt's
 * size), when it names it.
 */
function errorNumber(text: string, key: "n_ctx" | "n_prompt_tokens"): number | undefined {
  try {
    const n = (JSON.parse(text) as { error?: Record<string, unknown> }).error?.[key];
    return typeof n === "number" && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds to wait before retry `attempt` of a 429: the server's `retry-after`, else 1, 2, 4 s. */
export function retryAfter(header: string | null, attempt: number): number {
  const fallback = 1000 * 2 ** (attempt - 1);
  if (!header) return fallback;
  const seconds = Number(header.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms) || ms < 0) return fallback;
  return Math.min(ms, MAX_RETRY_WAIT);
}

/** Waits `ms`, or throws StreamAborted as soon as `signal` aborts. */
function waitOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new StreamAborted());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StreamAborted());
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The answer of an HTTP 2xx: an event stream, or one JSON completion from a server that ignored
 * `stream`; anything else (a proxy's HTML page) is one sentence naming what came back.
 */
async function readAnswer(
  target: Target,
  url: string,
  response: Response,
  request: ChatRequest,
): Promise<ChatResult> {
  const type = response.headers.get("content-type") ?? "";
  if (/text\/event-stream/i.test(type) && response.body) {
    return await readStream(target, response.body, request);
  }
  const text = await bodyText(response, request.signal, target);
  // An event stream a proxy labelled otherwise (text/plain, nothing) is read all the same.
  if (/^\s*data:/.test(text)) return await readStream(target, textStream(text), request);
  const json = /json/i.test(type) || /^\s*\{/.test(text) ? parseJSON(text) : undefined;
  const completion = json as Completion | undefined;
  if (completion?.error !== undefined) throw inStreamError(target, completion.error);
  if (Array.isArray(completion?.choices)) return takeCompletion(completion, request);
  const first = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== "") ?? "";
  throw notAStream(target, url, type, first.length > 120 ? `${first.slice(0, 119)}…` : first);
}

/** `text` as a body stream. */
function textStream(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body!;
}

/** The JSON value of `text`, or undefined. */
function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A non-streamed chat completion, as far as mm reads it. */
interface Completion {
  error?: unknown;
  choices?: {
    finish_reason?: string | null;
    message?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
    };
  }[];
  usage?: unknown;
  timings?: unknown;
}

/** A whole completion as the result of a call, its text and thinking shown as one delta each. */
function takeCompletion(completion: Completion, request: ChatRequest): ChatResult {
  const choice = completion.choices?.[0];
  const message = choice?.message ?? {};
  const result: ChatResult = { text: "", thought: "", toolCalls: [] };
  const thought = message.reasoning_content ?? message.reasoning;
  if (typeof thought === "string" && thought) {
    result.thought = thought;
    request.onDelta({ type: "thought", text: thought });
  }
  if (typeof message.content === "string" && message.content) {
    const split = new ThinkSplit();
    for (const p of [...split.push(message.content), ...split.finish()]) {
      takePiece(p, result, request);
    }
  }
  (message.tool_calls ?? []).forEach((c, index) => {
    const args = c.function?.arguments;
    const call: ToolCall = {
      id: c.id || `call_${index}_${Date.now().toString(36)}`,
      name: c.function?.name ?? "",
      arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
    };
    result.toolCalls.push(call);
    request.onDelta({ type: "toolCall", index, name: call.name, arguments: call.arguments });
  });
  if (choice?.finish_reason) result.finishReason = choice.finish_reason;
  const usage = openaiUsage(completion.usage, completion.timings);
  if (usage) result.usage = usage;
  return result;
}

/** The error an event of the stream carries (`data: {"error": …}`), as one sentence. */
export function inStreamError(target: Target, error: unknown): ProviderError {
  const words = errorWords(JSON.stringify({ error }));
  if (isOverflowMessage(words)) return overflow(target, words);
  return streamFailed(target, words);
}

/** Milliseconds an answer that has its finish_reason waits for the rest of its stream. */
export const TRAILER_WAIT = 2_000;

/** Why a stream that ended without its end is no answer. */
export const STREAM_CUT_REASON = "the stream ended without a finish_reason or [DONE]";

/** The deltas of an event stream, assembled; a line that is not JSON is passed over. */
async function readStream(
  target: Target,
  body: ReadableStream<Uint8Array>,
  request: ChatRequest,
): Promise<ChatResult> {
  const result: ChatResult = { text: "", thought: "", toolCalls: [] };
  let done = false;
  let size = 0;
  const split = new ThinkSplit();
  const events = sseEvents(body)[Symbol.asyncIterator]();
  try {
    for (;;) {
      // Once the answer has its finish_reason only its trailer (usage, [DONE]) is to come: a slow
      // proxy holding it back does not cost the answer.
      const next = result.finishReason
        ? await orNothingAfter(events.next(), TRAILER_WAIT)
        : await events.next();
      if (next === undefined || next.done) break;
      const { event, data } = next.value;
      if (data.trim() === "[DONE]") {
        done = true;
        break;
      }
      // deno-lint-ignore no-explicit-any
      const chunk = parseJSON(data) as any;
      // An `event: error` (some proxies and servers say their failure so) is the server's error.
      if (event === "error") throw inStreamError(target, chunk?.error ?? chunk ?? data);
      if (typeof chunk !== "object" || chunk === null) continue;
      if (chunk.error !== undefined) throw inStreamError(target, chunk.error);
      // Told before its deltas are: a piece crossing the limit is neither shown nor held.
      size += chunkSize(chunk);
      if (size > MAX_ANSWER) throw tooLarge(target, "an answer", MAX_ANSWER);
      takeChunk(chunk, result, request, split);
    }
  } catch (e) {
    if (request.signal.aborted) throw new StreamAborted();
    if (e instanceof ProviderError) throw e;
    if (e instanceof TooLarge) throw tooLarge(target, "a line", e.limit);
    throw dropped(target, causeText(e));
  } finally {
    body.cancel().catch(() => {});
  }
  if (request.signal.aborted) throw new StreamAborted();
  // A stream that just stops, with neither a finish_reason nor [DONE], was cut on its way (a proxy
  // that closed the connection): what came is not the whole answer, and a cut call must not run.
  if (!done && !result.finishReason) throw dropped(target, STREAM_CUT_REASON);
  for (const p of split.finish()) takePiece(p, result, request);
  result.toolCalls = result.toolCalls.filter(Boolean).map((c, i) => ({
    ...c,
    id: c.id || `call_${i}_${Date.now().toString(36)}`,
  }));
  return result;
}

/** How many characters of content, reasoning and arguments a `chat.completion.chunk` holds. */
// deno-lint-ignore no-explicit-any
function chunkSize(chunk: any): number {
  const delta = chunk.choices?.[0]?.delta;
  if (!delta) return 0;
  const length = (v: unknown) =>
    typeof v === "string" ? v.length : v && typeof v === "object" ? JSON.stringify(v).length : 0;
  let size = length(delta.reasoning_content ?? delta.reasoning) + length(delta.content);
  for (const tc of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
    size += length(tc?.function?.arguments);
  }
  return size;
}

/** One `chat.completion.chunk` taken into `result`, its deltas told to the request. */
function takeChunk(
  // deno-lint-ignore no-explicit-any
  chunk: any,
  result: ChatResult,
  request: ChatRequest,
  split: ThinkSplit,
): void {
  if (chunk.usage) {
    const usage = openaiUsage(chunk.usage, chunk.timings);
    if (usage) result.usage = usage;
  }
  const choice = chunk.choices?.[0];
  if (!choice) return;
  if (choice.finish_reason) result.finishReason = choice.finish_reason;
  const delta = choice.delta ?? {};
  const thought = delta.reasoning_content ?? delta.reasoning;
  if (typeof thought === "string" && thought) {
    result.thought += thought;
    request.onDelta({ type: "thought", text: thought });
  }
  if (typeof delta.content === "string" && delta.content) {
    for (const p of split.push(delta.content)) takePiece(p, result, request);
  }
  for (const tc of delta.tool_calls ?? []) {
    const index = callIndex(result.toolCalls, tc);
    let call = result.toolCalls[index];
    if (!call) call = result.toolCalls[index] = { id: "", name: "", arguments: "" };
    if (tc.id) call.id = tc.id;
    // A name comes in pieces, or whole in every delta (some servers repeat it): never doubled.
    const name = tc.function?.name;
    if (name && call.name !== name) call.name += name;
    const args = tc.function?.arguments;
    const piece = typeof args === "string"
      ? args
      : args && typeof args === "object"
      ? JSON.stringify(args)
      : "";
    call.arguments += piece;
    request.onDelta({ type: "toolCall", index, name: call.name, arguments: call.arguments });
  }
}

/** A piece of the content (thinking a `<think>` block held, or text) added and told. */
export function takePiece(
  piece: { type: "thought" | "text"; text: string },
  result: ChatResult,
  request: ChatRequest,
): void {
  if (piece.type === "thought") result.thought += piece.text;
  else result.text += piece.text;
  request.onDelta(piece);
}

/**
 * Which call a tool-call delta belongs to. Servers that leave out `index` start each call with a
 * new `id` and continue it with deltas that carry none.
 */
function callIndex(
  calls: ToolCall[],
  delta: { index?: unknown; id?: string; function?: { name?: string } },
): number {
  if (typeof delta.index === "number") return delta.index;
  const last = calls.length - 1;
  if (last < 0) return 0;
  if (delta.id) return delta.id !== calls[last].id ? last + 1 : last;
  // Neither index nor id: a name after arguments starts the next call.
  const started = calls[last].name !== "" && calls[last].arguments !== "";
  return delta.function?.name && started ? last + 1 : last;
}
