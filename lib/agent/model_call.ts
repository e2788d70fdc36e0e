/**
 * One streamed model call of a turn (mm.md §4): the watchdog, the `progress` beats, the runaway
 * detector and the filter that keeps text-form tool calls off the display; then the calls of the
 * answer, structured or written as text (docs/small-models.md).
 */

import type { Config } from "../config/config.ts";
import { alternating, type Message, sentReasoning, type ToolCall } from "../history.ts";
import type { ChatClient, ChatResult, ThinkingChoice, ToolSchema } from "../provider/chat.ts";
import type { WarmPrefix } from "../provider/warmup.ts";
import type { AnyTool } from "../tool.ts";
import { historyArguments } from "../tool_input.ts";
import {
  answerFloor,
  answerReserve,
  believable,
  type Budget,
  calibrate,
  calibrated,
  type Calibration,
  rawPromptTokens,
  textTokens,
} from "./budget.ts";
import type { AgentEvent } from "./events.ts";
import { type RequestUsage, roundedSpeed } from "./recap.ts";
import { toolSchema } from "./schema.ts";
import { type StreamStop, StreamWatch } from "./stream_watch.ts";
import { textToolCalls } from "./text_calls/mod.ts";
import { TurnStop } from "./texts.ts";

/** What a model call needs. */
export interface ModelCallOptions {
  config: Config;
  chat: ChatClient;
  /** The declared tools. */
  tools: AnyTool[];
  emit(event: AgentEvent): void;
  /** Told the usage of every request (also sent as a `usage` event). */
  onUsage?(usage: RequestUsage): void;
  /** The thinking the conversation asks for now (`/think`), over the configuration's. */
  thinking?(): ThinkingChoice | undefined;
}

/** The model calls of one conversation: its tool declarations and the server's count of its prompts. */
export class ModelCaller {
  /** The declared tools as the model receives them: the same bytes for the whole conversation. */
  readonly schemas: ToolSchema[];
  #opts: ModelCallOptions;
  /** The server's last count of a prompt, against our estimate of it. */
  #calibration: Calibration | undefined;

  /** The calls of a conversation with `opts.tools`. */
  constructor(opts: ModelCallOptions) {
    this.#opts = opts;
    this.schemas = opts.tools.map((t) => toolSchema(t, opts.config));
  }

  /** `messages` as the requests send them: the reasoning `sendReasoning` keeps (lib/history.ts). */
  sent(messages: Message[]): Message[] {
    return sentReasoning(messages, this.#opts.config.sendReasoning);
  }

  /**
   * What a warm-up sends of the requests (lib/provider/warmup.ts): their `system` message and tool
   * declarations, byte for byte as a real request renders them, with the thinking asked for.
   */
  prefix(system: Message, thinking?: ThinkingChoice): WarmPrefix {
    return {
      messages: alternating(this.sent([system])),
      tools: this.schemas,
      ...(thinking ? { thinking } : {}),
    };
  }

  /** The context window's budget, when the window is known. */
  budget(): Budget | undefined {
    const { chat, config } = this.#opts;
    const window = chat.contextWindow ?? config.contextSize;
    if (!window) return undefined;
    return {
      window,
      reserve: answerReserve(window, config.maxTokens),
      floor: answerFloor(window, config.maxTokens),
      calibration: this.#calibration,
      toldWindow: config.provider === "ollama" || config.provider === "llmman",
    };
  }

  /**
   * One model call of `messages`, with the watchdog and the runaway detector watching its stream.
   * A `summary` shows nothing; its tools are declared but none may be called (the prompt keeps the
   * bytes the server cached), or left out with `tools: false`. Throws {@linkcode TurnStop} when the
   * watchdog or the runaway detector stopped it, the provider's error when the server failed.
   */
  async call(
    turnSignal: AbortSignal,
    messages: Message[],
    summary?: { tools: boolean },
  ): Promise<ChatResult> {
    const withTools = summary === undefined;
    const { config, chat, tools, emit } = this.#opts;
    const controller = new AbortController();
    let stop: TurnStop | undefined;
    const stopWith = (why: StreamStop) => {
      stop = new TurnStop(why.message, why.reason);
      controller.abort();
    };
    const onTurnAbort = () => controller.abort();
    turnSignal.addEventListener("abort", onTurnAbort);
    // With structuredOutput the answer is JSON: a message of bare JSON is never a call.
    const jsonAnswer = config.structuredOutput !== undefined;
    const watch = new StreamWatch(
      { silence: config.watchdogTimeout, ...(withTools ? { tools, jsonAnswer } : {}) },
      Date.now(),
    );
    const clear = watchdogTimer(watch, stopWith);
    const schemas = withTools || summary?.tools ? this.schemas : [];
    const sent = this.sent(messages);
    const raw = rawPromptTokens(sent, schemas);
    const estimate = calibrated(raw, this.#calibration);
    const started = Date.now();
    let firstDelta: number | undefined;
    try {
      const result = await chat.stream({
        messages: alternating(sent),
        tools: schemas,
        promptTokens: estimate,
        ...(this.#opts.thinking?.() ? { thinking: this.#opts.thinking() } : {}),
        ...(summary?.tools ? { toolChoice: "none" as const } : {}),
        signal: controller.signal,
        // The server asked mm to wait (HTTP 429): that silence is not the model's.
        onWait: (ms) => watch.wait(ms, Date.now()),
        onDelta: (d) => {
          firstDelta ??= Date.now();
          const verdict = watch.push(d, Date.now());
          for (const event of verdict.show) emit(event);
          if (verdict.stop) stopWith(verdict.stop);
        },
      });
      const window = chat.contextWindow ?? config.contextSize;
      // A count that cannot be this prompt's is ignored: the estimate is shown (marked) instead.
      const counted = result.usage && !believable(raw, result.usage.promptTokens, window)
        ? { ...result, usage: undefined }
        : result;
      this.#calibration = calibrate(raw, counted.usage?.promptTokens) ?? this.#calibration;
      const usage = requestUsage(counted, estimate, (Date.now() - (firstDelta ?? started)) / 1000);
      if (window) usage.contextWindow = window;
      emit({ type: "usage", usage });
      this.#opts.onUsage?.(usage);
      // The held text, without the text-form calls it held (they run as calls, not as an answer).
      const rest = watch.finish(result.toolCalls.length > 0);
      if (rest) emit({ type: "text", text: rest });
      return result;
    } catch (e) {
      // Cancelled or failed mid-answer: the held text is shown after all (lib/agent/stream_watch.ts).
      const rest = watch.abandon();
      if (rest) emit({ type: "text", text: rest });
      if (stop && !turnSignal.aborted) throw stop;
      throw e;
    } finally {
      clear();
      turnSignal.removeEventListener("abort", onTurnAbort);
    }
  }
}

/**
 * The usage of a request: the server's count, else mm's estimate of the prompt (`estimate`) and
 * of the answer; the speed is the server's, else the answer's tokens over `seconds` of generation.
 */
export function requestUsage(result: ChatResult, estimate: number, seconds: number): RequestUsage {
  const server = result.usage;
  const answer = result.text + result.thought +
    result.toolCalls.map((c) => c.name + c.arguments).join("");
  const usage: RequestUsage = server
    ? {
      promptTokens: server.promptTokens,
      completionTokens: server.completionTokens,
      estimated: false,
    }
    : { promptTokens: estimate, completionTokens: textTokens(answer), estimated: true };
  if (server?.cachedTokens !== undefined) usage.cachedTokens = server.cachedTokens;
  const tps = server?.tokensPerSecond ??
    (seconds > 0 && usage.completionTokens > 0 ? usage.completionTokens / seconds : undefined);
  if (tps !== undefined) usage.tokensPerSecond = roundedSpeed(tps);
  return usage;
}

/**
 * Asks `watch` the time at its deadline, with one timer at a time (deltas move the deadline on, so
 * it is asked again there), and calls `onStop` when the watchdog stops the stream. Returns the
 * function that clears the timer.
 */
export function watchdogTimer(watch: StreamWatch, onStop: (why: StreamStop) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    timer = setTimeout(() => {
      const why = watch.tick(Date.now());
      if (why) onStop(why);
      else if (!watch.stopped) arm();
    }, Math.max(0, watch.deadline - Date.now()));
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * The calls of a model answer and the text kept as its content: its structured calls, else the
 * calls it wrote as text (docs/small-models.md), with only the prose around them as content.
 */
export function answerCalls(
  result: ChatResult,
  tools: AnyTool[],
  config: Config,
): { calls: ToolCall[]; content: string } {
  if (result.toolCalls.length) return { calls: result.toolCalls, content: result.text };
  const jsonAnswer = config.structuredOutput !== undefined;
  const found = textToolCalls(result.text, tools, { jsonAnswer });
  if (!found) return { calls: [], content: result.text };
  const calls = found.calls.map((c) => ({
    id: textCallId(),
    name: c.name,
    arguments: c.arguments,
  }));
  return { calls, content: found.text };
}

/**
 * The assistant message the history keeps of an answer: its text, its reasoning (sent back as
 * `sendReasoning` says), and its calls with arguments every server can read back (a JSON object:
 * lib/tool_input.ts, `historyArguments`).
 */
export function answerMessage(calls: ToolCall[], content: string, reasoning = ""): Message {
  const thought = reasoning ? { reasoning_content: reasoning } : {};
  if (!calls.length) return { role: "assistant", content, ...thought };
  return {
    role: "assistant",
    content: content || null,
    tool_calls: calls.map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: historyArguments(c.arguments) },
    })),
    ...thought,
  };
}

/** An id for a call written as text: 9 letters and digits, the only form Mistral templates accept. */
function textCallId(): string {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => chars[b % chars.length])
    .join("");
}
