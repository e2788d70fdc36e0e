/**
 * One streamed chat through Ollama's native `POST /api/chat` (NDJSON), for what its
 * OpenAI-compatible endpoint ignores: `options.num_ctx`. The same request path as chat.ts
 * (`sendChat`: its waits, retries and error sentences), the same deltas and result;
 * docs/small-models.md says when mm takes this path.
 */

import type { Config } from "../config/config.ts";
import {
  type ChatRequest,
  type ChatResult,
  inStreamError,
  sendChat,
  StreamAborted,
  takePiece,
} from "./chat.ts";
import { ollamaThink } from "./thinking.ts";
import { ThinkSplit } from "./think_split.ts";
import { ollamaUsage } from "./usage.ts";
import { type Message, type ToolCall } from "../history.ts";
import { serverRoot } from "./endpoints.ts";
import { causeText, dropped, ProviderError, type Target, tooLarge } from "./errors.ts";
import { MAX_ANSWER, MAX_STREAM_LINE } from "../bounded/limits.ts";
import { readLines, TooLarge } from "../bounded/lines.ts";

/** One message in Ollama's shape: tool-call arguments as objects, `tool_name` on tool results. */
export interface OllamaMessage {
  role: string;
  content: string;
  tool_calls?: { function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
  /** An assistant message's reasoning, sent back. */
  thinking?: string;
}

/** Chat through `/api/chat` for one model; `numCtx` is sent as `options.num_ctx` when given. */
export interface OllamaChat {
  target: Target;
  stream(request: ChatRequest, numCtx?: number): Promise<ChatResult>;
}

/** Builds the native chat of `config` for `model`. */
export function createOllamaChat(config: Config, model: string): OllamaChat {
  const target: Target = { provider: config.provider, url: config.url, model };
  if (config.contextSize) target.contextSize = config.contextSize;
  return { target, stream: (request, numCtx) => streamOllama(config, target, request, numCtx) };
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
        if (m.reasoning_content) out.thinking = m.reasoning_content;
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
  config: Config,
  asked: Target,
  request: ChatRequest,
  numCtx: number | undefined,
): Promise<ChatResult> {
  // The window is the num_ctx sent: what an overflow's advice starts from.
  const target = numCtx ? { ...asked, serverWindow: numCtx } : asked;
  const options: Record<string, number> = {};
  if (numCtx) options.num_ctx = numCtx;
  if (config.temperature !== undefined) options.temperature = config.temperature;
  if (config.topP !== undefined) options.top_p = config.topP;
  const maxTokens = request.maxTokens ?? config.maxTokens;
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  const body: Record<string, unknown> = {
    model: target.model,
    messages: toOllamaMessages(request.messages),
    stream: true,
  };
  if (request.tools.length) body.tools = request.tools;
  if (Object.keys(options).length) body.options = options;
  if (config.structuredOutput) body.format = config.structuredOutput;
  // `think` left out (`thinking: auto`): Ollama thinks with the models that can.
  const think = ollamaThink({ ...config, ...request.thinking });
  if (think !== undefined) body.think = think;
  const url = `${serverRoot(config.provider, config.url)}/api/chat`;
  const response = await sendChat(config, target, url, JSON.stringify(body), {
    ...request,
    accept: "application/x-ndjson, application/json",
  });
  const result: ChatResult = { text: "", thought: "", toolCalls: [] };
  let done = false;
  let size = 0;
  const split = new ThinkSplit();
  try {
    for await (const line of ndjsonLines(response.body!)) {
      // deno-lint-ignore no-explicit-any
      let part: any;
      try {
        part = JSON.parse(line);
      } catch {
        continue; // a line that is not JSON is passed over, as on the OpenAI path
      }
      if (part?.error !== undefined) throw inStreamError(target, part.error);
      const message = part.message ?? {};
      if (typeof message.thinking === "string" && message.thinking) {
        result.thought += message.thinking;
        size += message.thinking.length;
        request.onDelta({ type: "thought", text: message.thinking });
      }
      if (typeof message.content === "string" && message.content) {
        size += message.content.length;
        for (const p of split.push(message.content)) takePiece(p, result, request);
      }
      for (const tc of (message.tool_calls ?? []) as unknown[]) {
        const call = toolCall(tc, result.toolCalls.length);
        const index = result.toolCalls.push(call) - 1;
        size += call.arguments.length;
        request.onDelta({ type: "toolCall", index, name: call.name, arguments: call.arguments });
      }
      if (size > MAX_ANSWER) throw tooLarge(target, "an answer", MAX_ANSWER);
      if (part.done) {
        done = true;
        result.finishReason = result.toolCalls.length ? "tool_calls" : part.done_reason || "stop";
        const usage = ollamaUsage(part);
        if (usage) result.usage = usage;
      }
    }
  } catch (e) {
    if (request.signal.aborted) throw new StreamAborted();
    if (e instanceof ProviderError) throw e;
    if (e instanceof TooLarge) throw tooLarge(target, "a line", e.limit);
    throw dropped(target, causeText(e));
  }
  if (request.signal.aborted) throw new StreamAborted();
  if (!done) throw dropped(target, "the answer ended before it was done");
  for (const p of split.finish()) takePiece(p, result, request);
  return result;
}

/** The lines of an NDJSON body, as they come, trimmed; the empty ones left out. */
async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  for await (const raw of readLines(body, { max: MAX_STREAM_LINE })) {
    const line = raw.trim();
    if (line) yield line;
  }
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
