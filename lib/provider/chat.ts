/** One streamed chat completion through the `openai` package, assembled from its deltas. */

import type { Config } from "../config/config.ts";
import type { Message, ToolCall } from "../history.ts";
import { chatBaseURL } from "./endpoints.ts";
import {
  causeText,
  dropped,
  httpError,
  isModelMissingMessage,
  isOverflowMessage,
  modelMissing,
  overflow,
  ProviderError,
  type Target,
  unreachable,
} from "./errors.ts";
import { USER_AGENT } from "./http.ts";

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
  usage?: { promptTokens: number; completionTokens: number };
}

/** What one model call sends. */
export interface ChatRequest {
  messages: Message[];
  tools: ToolSchema[];
  signal: AbortSignal;
  onDelta: (delta: Delta) => void;
  /** The agent's estimate of the prompt's size in tokens, when it has one. */
  promptTokens?: number;
}

/** A chat client for one configuration. */
export interface ChatClient {
  target: Target;
  /** The context window, in tokens, the requests of this client get; undefined when unknown. */
  contextWindow?: number;
  stream(request: ChatRequest): Promise<ChatResult>;
}

type OpenAIModule = typeof import("npm:openai@7.59.0");

/** Thrown when the request's signal stopped the stream (cancel, watchdog, runaway). */
export class StreamAborted extends Error {
  /** Builds the error. */
  constructor() {
    super("the model's answer was stopped");
    this.name = "StreamAborted";
  }
}

/** Loads the `openai` package; start it early, it is the heaviest module of a turn. */
export function loadOpenAI(): Promise<OpenAIModule> {
  return import("npm:openai@7.59.0");
}

/**
 * Builds the chat client of `config` for `model`, from the loaded `openai` package; `serverWindow`
 * is the window the server said it gives, for the overflow sentence.
 */
export function createChatClient(
  mod: OpenAIModule,
  config: Config,
  model: string,
  serverWindow?: number,
): ChatClient {
  const target: Target = { provider: config.provider, url: config.url, model };
  if (config.contextSize) target.contextSize = config.contextSize;
  if (serverWindow !== undefined) target.serverWindow = serverWindow;
  const client = new mod.default({
    baseURL: chatBaseURL(config.provider, config.url),
    apiKey: config.apiKey ?? "none",
    maxRetries: 0,
    timeout: 24 * 3600 * 1000,
    defaultHeaders: { "User-Agent": USER_AGENT },
  });
  return { target, stream: (request) => streamChat(mod, client, config, target, request) };
}

async function streamChat(
  mod: OpenAIModule,
  client: InstanceType<OpenAIModule["default"]>,
  config: Config,
  target: Target,
  request: ChatRequest,
): Promise<ChatResult> {
  const body: Record<string, unknown> = {
    model: target.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length) body.tools = request.tools;
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxTokens !== undefined) body.max_tokens = config.maxTokens;
  if (config.structuredOutput) {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: "answer", schema: config.structuredOutput },
    };
  }
  const result: ChatResult = { text: "", thought: "", toolCalls: [] };
  let started = false;
  try {
    // deno-lint-ignore no-explicit-any
    const stream = await client.chat.completions.create(body as any, { signal: request.signal });
    started = true;
    // deno-lint-ignore no-explicit-any
    for await (const chunk of stream as unknown as AsyncIterable<any>) {
      if (chunk.usage) {
        result.usage = {
          promptTokens: chunk.usage.prompt_tokens ?? 0,
          completionTokens: chunk.usage.completion_tokens ?? 0,
        };
      }
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      if (choice.finish_reason) result.finishReason = choice.finish_reason;
      const delta = choice.delta ?? {};
      const thought = delta.reasoning_content ?? delta.reasoning;
      if (typeof thought === "string" && thought) {
        result.thought += thought;
        request.onDelta({ type: "thought", text: thought });
      }
      if (typeof delta.content === "string" && delta.content) {
        result.text += delta.content;
        request.onDelta({ type: "text", text: delta.content });
      }
      for (const tc of delta.tool_calls ?? []) {
        const index = callIndex(result.toolCalls, tc);
        let call = result.toolCalls[index];
        if (!call) call = result.toolCalls[index] = { id: "", name: "", arguments: "" };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.arguments += tc.function.arguments;
        request.onDelta({
          type: "toolCall",
          index,
          name: call.name,
          arguments: call.arguments,
        });
      }
    }
  } catch (e) {
    if (request.signal.aborted) throw new StreamAborted();
    throw toProviderError(mod, target, e, started);
  }
  // The package ends the stream quietly when it is aborted: say so.
  if (request.signal.aborted) throw new StreamAborted();
  result.toolCalls = result.toolCalls.filter(Boolean).map((c, i) => ({
    ...c,
    id: c.id || `call_${i}_${Date.now().toString(36)}`,
  }));
  return result;
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
  return delta.id && delta.id !== calls[last].id ? last + 1 : last;
}

/** Turns what the `openai` package threw into one sentence. */
function toProviderError(
  mod: OpenAIModule,
  target: Target,
  e: unknown,
  started: boolean,
): ProviderError {
  if (e instanceof ProviderError) return e;
  if (e instanceof mod.APIError && typeof e.status === "number") {
    const message = serverMessage(e);
    if (e.status === 404 && isModelMissingMessage(message)) return modelMissing(target, message);
    if (isOverflowMessage(message)) return overflow(target, message);
    return httpError(target, e.status, message);
  }
  // An error inside the stream, after HTTP 200 (LM Studio, sglang, older llama.cpp say an
  // overflow so): the package throws it without a status.
  if (e instanceof mod.APIError && isOverflowMessage(serverMessage(e))) {
    return overflow(target, serverMessage(e));
  }
  const reason = causeText(e);
  if (started) return dropped(target, reason);
  return unreachable(target, reason);
}

function serverMessage(e: { message: string; error?: unknown }): string {
  const err = e.error as { message?: unknown; error?: unknown } | string | undefined;
  if (typeof err === "string") return err;
  if (err && typeof err.message === "string") return err.message;
  if (err && typeof err.error === "string") return err.error;
  return e.message.replace(/^\d{3}\s*/, "") || "no message";
}
