/**
 * One streamed chat through Ollama's native `POST /api/chat` (the official `ollama` package), for
 * what its OpenAI-compatible endpoint ignores: `options.num_ctx`. Same deltas, result and error
 * sentences as chat.ts; docs/small-models.md says when mm takes this path.
 */

import type { Config } from "../config/config.ts";
import { type ChatRequest, type ChatResult, StreamAborted } from "./chat.ts";
import { type Message, type ToolCall } from "../history.ts";
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
import { serverHeaders } from "./http.ts";

type OllamaModule = typeof import("npm:ollama@0.6.4/browser");

/** Loads the `ollama` package (its browser build: plain `fetch`, no Node APIs). */
export function loadOllama(): Promise<OllamaModule> {
  return import("npm:ollama@0.6.4/browser");
}

/** One message in Ollama's shape: tool-call arguments as objects, `tool_name` on tool results. */
export interface OllamaMessage {
  role: string;
  content: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
}

/** Chat through `/api/chat` for one model; `numCtx` is sent as `options.num_ctx` when given. */
export interface OllamaChat {
  target: Target;
  stream(request: ChatRequest, numCtx?: number): Promise<ChatResult>;
}

/** Builds the native chat of `config` for `model`, from the loaded `ollama` package. */
export function createOllamaChat(mod: OllamaModule, config: Config, model: string): OllamaChat {
  const target: Target = { provider: config.provider, url: config.url, model };
  return {
    target,
    stream: (request, numCtx) => streamOllama(mod, config, target, request, numCtx),
  };
}

/** The history in Ollama's shape: arguments parsed to objects, tool results named. */
export function toOllamaMessages(messages: Message[]): OllamaMessage[] {
  const names = new Map<string, string>();
  return messages.map((m): OllamaMessage => {
    switch (m.role) {
      case "system":
      case "user":
        return { role: m.role, content: m.content };
      case "assistant": {
        const out: OllamaMessage = { role: "assistant", content: m.content ?? "" };
        if (m.tool_calls?.length) {
          out.tool_calls = m.tool_calls.map((c) => {
            names.set(c.id, c.function.name);
            return {
              function: { name: c.function.name, arguments: argumentObject(c.function.arguments) },
            };
          });
        }
        return out;
      }
      case "tool": {
        const out: OllamaMessage = { role: "tool", content: m.content };
        const name = names.get(m.tool_call_id);
        if (name) out.tool_name = name;
        return out;
      }
    }
  });
}

/**
 * Tool-call arguments as the object Ollama wants. Text that is not a JSON object (an invalid call
 * the model was already told about) goes back as `{}`: the tool result says what was wrong.
 */
function argumentObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

async function streamOllama(
  mod: OllamaModule,
  config: Config,
  target: Target,
  request: ChatRequest,
  numCtx: number | undefined,
): Promise<ChatResult> {
  // One client per request: its fetch carries this request's signal from the first byte on.
  const client = new mod.Ollama({ host: config.url, fetch: requestFetch(config, request.signal) });
  const options: Record<string, number> = {};
  if (numCtx) options.num_ctx = numCtx;
  if (config.temperature !== undefined) options.temperature = config.temperature;
  if (config.topP !== undefined) options.top_p = config.topP;
  if (config.maxTokens !== undefined) options.num_predict = config.maxTokens;
  const body: Record<string, unknown> = {
    model: target.model,
    messages: toOllamaMessages(request.messages),
    stream: true,
  };
  if (request.tools.length) body.tools = request.tools;
  if (Object.keys(options).length) body.options = options;
  if (config.structuredOutput) body.format = config.structuredOutput;
  // `think` is left out: Ollama then thinks with the models that can, as on its OpenAI endpoint.
  const result: ChatResult = { text: "", thought: "", toolCalls: [] };
  let started = false;
  try {
    // deno-lint-ignore no-explicit-any
    const stream = await client.chat(body as any);
    started = true;
    for await (const part of stream) {
      const message = part.message ?? {};
      if (typeof message.thinking === "string" && message.thinking) {
        result.thought += message.thinking;
        request.onDelta({ type: "thought", text: message.thinking });
      }
      if (typeof message.content === "string" && message.content) {
        result.text += message.content;
        request.onDelta({ type: "text", text: message.content });
      }
      for (const tc of (message.tool_calls ?? []) as unknown[]) {
        const call = toolCall(tc, result.toolCalls.length);
        const index = result.toolCalls.push(call) - 1;
        request.onDelta({ type: "toolCall", index, name: call.name, arguments: call.arguments });
      }
      if (part.done) {
        result.finishReason = result.toolCalls.length ? "tool_calls" : part.done_reason || "stop";
        if (typeof part.prompt_eval_count === "number" || typeof part.eval_count === "number") {
          result.usage = {
            promptTokens: part.prompt_eval_count ?? 0,
            completionTokens: part.eval_count ?? 0,
          };
        }
      }
    }
  } catch (e) {
    if (request.signal.aborted) throw new StreamAborted();
    throw toProviderError(target, e, started);
  }
  if (request.signal.aborted) throw new StreamAborted();
  return result;
}

/** A tool call as Ollama sends it, whole: arguments as an object, an id only in recent versions. */
function toolCall(raw: unknown, index: number): ToolCall {
  const c = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  const args = c?.function?.arguments;
  return {
    id: typeof c?.id === "string" && c.id ? c.id : `call_${index}_${Date.now().toString(36)}`,
    name: typeof c?.function?.name === "string" ? c.function.name : "",
    arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
  };
}

/**
 * The `fetch` the package uses for one request: this request's signal (the package only aborts
 * once the answer has started), mm's User-Agent and key, and error bodies handed over as JSON
 * (the package prints to stdout when an error body is not JSON, which would break `--json`).
 */
function requestFetch(config: Config, signal: AbortSignal): typeof fetch {
  return async (input, init = {}) => {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(serverHeaders(config.apiKey))) {
      headers.set(name, value);
    }
    const signals = init.signal ? [init.signal, signal] : [signal];
    const response = await fetch(input, { ...init, headers, signal: AbortSignal.any(signals) });
    if (response.ok || response.headers.get("content-type")?.includes("application/json")) {
      return response;
    }
    const text = (await response.text()).replace(/\s+/g, " ").trim();
    return Response.json(
      { error: text.slice(0, 300) || response.statusText || "no message" },
      { status: response.status, statusText: response.statusText },
    );
  };
}

/** The message of the package's stream when the server closed it before `done`. */
const NOT_DONE = "Did not receive done or success response in stream.";

/** Turns what the `ollama` package threw into one sentence. */
function toProviderError(target: Target, e: unknown, started: boolean): ProviderError {
  if (e instanceof ProviderError) return e;
  const err = e as { name?: unknown; status_code?: unknown; error?: unknown; message?: unknown };
  if (err?.name === "ResponseError" && typeof err.status_code === "number") {
    const message = typeof err.error === "string" && err.error ? err.error : "no message";
    if (err.status_code === 404 && isModelMissingMessage(message)) {
      return modelMissing(target, message);
    }
    if (isOverflowMessage(message)) return overflow(target, message);
    return httpError(target, err.status_code, message);
  }
  if (!started) return unreachable(target, causeText(e));
  if (e instanceof Error && e.constructor === Error && e.message !== NOT_DONE) {
    // An `{"error": …}` line in the middle of the stream: the server's own words.
    if (isOverflowMessage(e.message)) return overflow(target, e.message);
    return dropped(target, `the server said: ${e.message}`);
  }
  if (e instanceof Error && e.message === NOT_DONE) {
    return dropped(target, "the answer ended before it was done");
  }
  return dropped(target, causeText(e));
}
