/**
 * One streamed model call of a turn (mm.md §4): the watchdog, the `progress` beats, the runaway
 * detector and the filter that keeps text-form tool calls off the display; then the calls of the
 * answer, structured or written as text (docs/small-models.md).
 */

import type { Config } from "../config/config.ts";
import { alternating, type Message, type ToolCall } from "../history.ts";
import type { ChatClient, ChatResult, ToolSchema } from "../provider/chat.ts";
import type { AnyTool } from "../tool.ts";
import { historyArguments } from "../tool_input.ts";
import {
  answerFloor,
  answerReserve,
  type Budget,
  calibrate,
  calibrated,
  type Calibration,
  rawPromptTokens,
} from "./budget.ts";
import type { AgentEvent } from "./events.ts";
import { isRunaway, runawayText } from "./loop_detector.ts";
import { repetitionText, RepetitionWatch } from "./repetition.ts";
import { toolSchema } from "./schema.ts";
import { TextCallFilter } from "./text_calls/filter.ts";
import { textToolCalls } from "./text_calls/mod.ts";
import { TurnStop, watchdogText } from "./texts.ts";

/** The least time between two `progress` events of one model call. */
export const PROGRESS_MS = 250;

/** What a model call needs. */
export interface ModelCallOptions {
  config: Config;
  chat: ChatClient;
  /** The declared tools. */
  tools: AnyTool[];
  emit(event: AgentEvent): void;
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
    const stopWith = (message: string, reason: "watchdog" | "runaway" | "repetition") => {
      stop = new TurnStop(message, reason);
      controller.abort();
    };
    const onTurnAbort = () => controller.abort();
    turnSignal.addEventListener("abort", onTurnAbort);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const feed = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => stopWith(watchdogText(config.watchdogTimeout), "watchdog"),
        config.watchdogTimeout,
      );
    };
    feed();
    const composing = new Set<number>();
    // Deltas that show nothing (a call's arguments, text held as a possible call) still say the
    // model is alive, at most every PROGRESS_MS: an asking mm's watchdog waits on it (docs/acp.md).
    let progressAt = 0;
    const progress = () => {
      if (Date.now() - progressAt < PROGRESS_MS) return;
      progressAt = Date.now();
      emit({ type: "progress" });
    };
    // With structuredOutput the answer is JSON: a message of bare JSON is never a call.
    const shown = new TextCallFilter(tools, { jsonAnswer: config.structuredOutput !== undefined });
    let heldRanAway = false;
    const answerLoop = new RepetitionWatch();
    const thoughtLoop = new RepetitionWatch();
    const schemas = withTools || summary?.tools ? this.schemas : [];
    const raw = rawPromptTokens(messages, schemas);
    try {
      const result = await chat.stream({
        messages: alternating(messages),
        tools: schemas,
        promptTokens: calibrated(raw, this.#calibration),
        ...(summary?.tools ? { toolChoice: "none" as const } : {}),
        signal: controller.signal,
        // The server asked mm to wait (HTTP 429): that silence is not the model's.
        onWait: (ms) => {
          clearTimeout(timer);
          timer = setTimeout(
            () => stopWith(watchdogText(config.watchdogTimeout), "watchdog"),
            ms + config.watchdogTimeout,
          );
        },
        onDelta: (d) => {
          if (stop) return;
          feed();
          if (!withTools) return;
          if (d.type === "text") {
            const text = shown.push(d.text);
            if (text) emit({ type: "text", text });
            else progress();
            // A model repeating itself inside what may be a text-form call runs away as well.
            const held = shown.heldRunaway();
            if (held !== undefined) {
              heldRanAway = true;
              stopWith(runawayText(held), "runaway");
              return;
            }
            // What is shown is watched; what is held as a possible call is the runaway rule's.
            const repeated = text ? answerLoop.push(text) : undefined;
            if (repeated !== undefined) {
              heldRanAway = true;
              stopWith(repetitionText(repeated, "answer"), "repetition");
            }
          } else if (d.type === "thought") {
            emit({ type: "thought", text: d.text });
            const repeated = thoughtLoop.push(d.text);
            if (repeated !== undefined) {
              stopWith(repetitionText(repeated, "thinking"), "repetition");
            }
          } else {
            if (!composing.has(d.index)) {
              composing.add(d.index);
              emit({ type: "composing", tool: d.name });
            } else progress();
            if (isRunaway(d.arguments)) stopWith(runawayText(d.arguments), "runaway");
          }
        },
      });
      this.#calibration = calibrate(raw, result.usage?.promptTokens) ?? this.#calibration;
      // The held text, without the text-form calls it held (they run as calls, not as an answer).
      const rest = withTools ? shown.finish(result.toolCalls.length === 0) : "";
      if (rest) emit({ type: "text", text: rest });
      return result;
    } catch (e) {
      // Cancelled or failed mid-answer: the text held as a possible call is shown after all,
      // without a call it completed (a runaway's is not: its error shows its end).
      const rest = withTools && !heldRanAway ? shown.finish(composing.size === 0) : "";
      if (rest) emit({ type: "text", text: rest });
      if (stop && !turnSignal.aborted) throw stop;
      throw e;
    } finally {
      clearTimeout(timer);
      turnSignal.removeEventListener("abort", onTurnAbort);
    }
  }
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
 * The assistant message the history keeps of an answer: its text, and its calls with arguments
 * every server can read back (a JSON object: lib/tool_input.ts, `historyArguments`).
 */
export function answerMessage(calls: ToolCall[], content: string): Message {
  if (!calls.length) return { role: "assistant", content };
  return {
    role: "assistant",
    content: content || null,
    tool_calls: calls.map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: historyArguments(c.arguments) },
    })),
  };
}

/** An id for a call written as text: 9 letters and digits, the only form Mistral templates accept. */
function textCallId(): string {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => chars[b % chars.length])
    .join("");
}
