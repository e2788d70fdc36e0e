/** The agent core: one turn is model calls and tool calls until an answer (mm.md §4). */

import type { Config } from "../config/config.ts";
import { withHookContext } from "../hooks/run.ts";
import {
  alternating,
  COMPACT_ACK,
  COMPACT_WRAPPER,
  type Message,
  NOT_RUN,
  resumable,
} from "../history.ts";
import type { AskPermission } from "../permissions/prompt.ts";
import type { ChatClient, ChatResult, ThinkingChoice } from "../provider/chat.ts";
import { ProviderError } from "../provider/errors.ts";
import type { Warmup } from "../provider/warmup.ts";
import type { AnyTool, MoreTools, ToolContext } from "../tool.ts";
import type { Cut } from "./budget.ts";
import { type CommandOutcome, conversationOf, Dispatcher, lastAnswer } from "./dispatch.ts";
import type { AgentEvent } from "./events.ts";
import { CompactError, type FitTarget, fitWindow, summarise } from "./fit.ts";
import { isGrammarRefusal } from "./grammar.ts";
import type { LoopDetector } from "./loop_detector.ts";
import { answerCalls, answerMessage, ModelCaller } from "./model_call.ts";
import { addUsage, emptyCounters, emptyUsage, type TurnUsage } from "./recap.ts";
import {
  answerEnd,
  blockedText,
  type FailReason,
  maxTurnsText,
  type TurnOutcome,
  TurnStop,
} from "./texts.ts";
import { Toolset } from "./toolset.ts";

/** What the core needs from the outside world. */
export interface AgentOptions {
  config: Config;
  chat: ChatClient;
  /** The declared tools. */
  tools: AnyTool[];
  /**
   * Tools known only once their servers have started (MCP): asked for once, by the first turn (or
   * command), and declared after `tools` for the rest of the conversation; their `unknown` answers
   * the names of theirs that are not declared. A wait the turn's `signal` interrupts (it resolves
   * at once) is asked for again by the next turn.
   */
  moreTools?: (signal: AbortSignal) => Promise<MoreTools>;
  systemPrompt: string;
  /** The tools' context for one turn. */
  context(signal: AbortSignal): ToolContext;
  askPermission: AskPermission;
  emit(event: AgentEvent): void;
  /** Called after every step (a message added to the history, an error recorded). */
  onStep?: () => Promise<void>;
  /** The session file's id when sessions are on: the hooks' `session` field. */
  sessionId?: () => string | undefined;
  /**
   * The warm-ups of the server's cache (line and window mode): the prompt's prefix is sent ahead
   * when the conversation starts, after `/compact` and after a command changed the tools; every
   * turn, command and `/compact` stops the one in flight first.
   */
  warmup?: Warmup;
}

/** A failure recorded for the session file's `errors` array. */
export interface RecordedError {
  time: string;
  where: "generation" | "tool" | "hook" | "session";
  message: string;
}

/** A conversation with the model: its history, its turn numbers, its errors, its loop detector. */
export class Agent {
  /** The history as sent to the model, system prompt first. */
  readonly history: Message[];
  /** The turn of each message of `history` (0 for the system prompt, 1 for the first question). */
  readonly turns: number[];
  /** Every failure that ended or marred a turn. */
  readonly errors: RecordedError[] = [];
  /** The thinking asked for over the configuration's (`/think`); undefined: the configuration's. */
  thinking: ThinkingChoice | undefined;
  #opts: AgentOptions;
  #toolset: Toolset;
  #model!: ModelCaller;
  #dispatch!: Dispatcher;
  #fit!: FitTarget;
  #turn = 0;
  #previousAnswer: string | undefined;
  /** Where the current turn's prompt is in `history`. */
  #promptAt = 0;
  /** The current turn's requests' usage, summed. */
  #usage: TurnUsage = emptyUsage();
  /** Whether a turn is running (no warm-up then: its requests are the real ones). */
  #busy = false;

  /** Starts a conversation with the options' system prompt, after `earlier` messages if resumed. */
  constructor(opts: AgentOptions, earlier: { message: Message; turn: number }[] = []) {
    this.#opts = opts;
    this.history = [{ role: "system", content: opts.systemPrompt }];
    this.turns = [0];
    // A resumed history never sends a call without its answer (a run killed mid-call left one).
    for (const { message, turn } of resumable(earlier)) {
      this.history.push(message);
      this.turns.push(turn);
      this.#turn = Math.max(this.#turn, turn);
    }
    this.#toolset = new Toolset(opts.tools, opts.moreTools);
    this.#declare();
    this.#warm();
  }

  /** Sends the requests' prefix ahead to the server (when it warms), unless a turn is running. */
  #warm(): void {
    if (!this.#opts.warmup || this.#busy) return;
    this.#opts.warmup.warm({
      messages: alternating(this.#model.sent(this.history.slice(0, 1))),
      tools: this.#model.schemas,
      ...(this.thinking ? { thinking: this.thinking } : {}),
    });
  }

  /** The model calls, the dispatcher and fitting, built for the tools declared now. */
  #declare(): void {
    const opts = { ...this.#opts, tools: this.#toolset.tools };
    this.#model = new ModelCaller({
      ...opts,
      onUsage: (u) => this.#usage = addUsage(this.#usage, u),
      thinking: () => this.thinking,
    });
    this.#dispatch = new Dispatcher({
      ...opts,
      unknownTool: this.#toolset.unknown,
      conversation: () => conversationOf(this.history, this.#previousAnswer),
      recordError: (where, message) => this.recordError(where, message),
    });
    this.#fit = {
      history: this.history,
      promptAt: () => this.#promptAt,
      model: this.#model,
      applyCuts: (cuts) => this.#applyCuts(cuts),
      replaceBySummary: (notes, kept) => this.#replaceBySummary(notes, kept),
      notice: (message) => opts.emit({ type: "notice", message }),
      recordError: (message) => this.recordError("generation", message),
    };
  }

  /** The tools declared to the model (those of `moreTools` once the first turn asked for them). */
  get tools(): readonly AnyTool[] {
    return this.#toolset.tools;
  }

  /** The loop detector: `/new` makes a new conversation, `/compact` keeps it. */
  get loop(): LoopDetector {
    return this.#dispatch.loop;
  }

  /** Records a failure, for the session file. */
  recordError(where: RecordedError["where"], message: string): void {
    this.errors.push({ time: new Date().toISOString(), where, message });
  }

  /** Runs one turn for `prompt` until the model answers, fails or is cancelled. */
  async runTurn(prompt: string, signal: AbortSignal): Promise<TurnOutcome> {
    // The user came first: a warm-up in flight would hold the server's slot.
    this.#opts.warmup?.stop();
    this.#busy = true;
    try {
      return await this.#runTurn(prompt, signal);
    } finally {
      this.#busy = false;
    }
  }

  async #runTurn(prompt: string, signal: AbortSignal): Promise<TurnOutcome> {
    const { config, chat, emit } = this.#opts;
    const counters = emptyCounters();
    this.#usage = emptyUsage();
    this.#turn++;
    this.#previousAnswer = lastAnswer(this.history);
    emit({ type: "turn_start", prompt, provider: config.provider, model: chat.target.model });
    if (await this.#toolset.addMore(signal)) this.#declare();
    const cwd = this.#opts.context(signal).cwd;
    const pre = await this.#dispatch.hooks("preGeneration", {
      event: "preGeneration",
      prompt,
      cwd,
    }, signal);
    if (pre.denied !== undefined) {
      const error = blockedText(pre.denied);
      emit({ type: "error", message: error, kind: "bracketed", where: "hook" });
      return { status: "failed", error, reason: "blocked", counters };
    }
    await this.#push({ role: "user", content: withHookContext(prompt, pre.context) });
    this.#promptAt = this.history.length - 1;
    const fail = async (error: string, reason: FailReason): Promise<TurnOutcome> => {
      this.recordError("generation", error);
      await this.#opts.onStep?.();
      // Only the server's own failures are sentences; every other is mm's bracketed text.
      const kind = reason === "provider" ? "sentence" : "bracketed";
      emit({ type: "error", message: error, kind, where: "generation" });
      return { status: "failed", error, reason, counters };
    };
    for (let step = 0; step < config.maxTurns; step++) {
      if (signal.aborted) return { status: "cancelled", counters };
      let result: ChatResult;
      try {
        result = await this.#nextStep(signal);
      } catch (e) {
        if (signal.aborted) return { status: "cancelled", counters };
        if (e instanceof TurnStop) return await fail(e.message, e.reason);
        if (e instanceof ProviderError) return await fail(e.message, "provider");
        throw e;
      }
      const { calls, content } = answerCalls(result, this.#toolset.tools, config);
      await this.#push(answerMessage(calls, content, result.thought));
      const end = answerEnd(result, calls, config.maxTokens);
      if (end.kind === "failed") {
        // A cut step's calls never run; each is answered, so the history stays valid.
        for (const c of calls) {
          await this.#push({ role: "tool", tool_call_id: c.id, content: end.notRun! });
        }
        return await fail(end.error, end.reason);
      }
      if (end.kind === "answer") {
        if (end.warning) emit({ type: "warning", message: end.warning });
        emit({ type: "recap", counters, ...(this.#usage.requests ? { usage: this.#usage } : {}) });
        emit({ type: "answer", text: result.text });
        return { status: "answered", answer: result.text, counters };
      }
      for (let i = 0; i < calls.length; i++) {
        const end = await this.#dispatch.run(calls[i], signal, counters);
        await this.#push({ role: "tool", tool_call_id: calls[i].id, content: end.output });
        if (end.stop !== undefined || signal.aborted) {
          // Every call the model made needs an answer before the next request.
          for (const rest of calls.slice(i + 1)) {
            await this.#push({ role: "tool", tool_call_id: rest.id, content: NOT_RUN });
          }
          if (signal.aborted) return { status: "cancelled", counters };
          return await fail(end.stop!, end.reason!);
        }
      }
    }
    return await fail(maxTurnsText(config.maxTurns), "maxTurns");
  }

  /**
   * Runs tool `name` with `input` as a command of the front end (line mode's `/ask`), through the
   * same permission gate, hooks and context as a call the model makes; call `id` names its
   * `nested` events.
   */
  async runCommand(
    name: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    id = "command",
  ): Promise<CommandOutcome> {
    this.#opts.warmup?.stop();
    const changed = await this.#toolset.addMore(signal);
    if (changed) this.#declare();
    const outcome = await this.#dispatch.command(name, input, signal, id);
    if (changed) this.#warm();
    return outcome;
  }

  /** Adds an exchange made outside a turn (line mode's `/ask`) as a turn of its own. */
  async addExchange(question: string, answer: string): Promise<void> {
    this.#turn++;
    await this.#push({ role: "user", content: question });
    await this.#push({ role: "assistant", content: answer });
  }

  /**
   * `/compact`: the model summarises the conversation, and the history becomes that summary (under
   * its wrapper line) and an acknowledgement. The loop detector is kept. Returns the summary's
   * notes, or throws a ProviderError or CompactError; the history is untouched when it fails.
   */
  async compact(signal: AbortSignal): Promise<string> {
    if (this.history.length <= 1) throw new CompactError("there is nothing to compact yet");
    this.#opts.warmup?.stop();
    const notes = await summarise(this.#model, signal, this.history, false);
    await this.#replaceBySummary(notes, []);
    this.#warm();
    return notes;
  }

  /** Adds a message to the history and lets the session file catch up: one step is done. */
  async #push(message: Message): Promise<void> {
    this.history.push(message);
    this.turns.push(this.#turn);
    await this.#opts.onStep?.();
  }

  /**
   * The turn's next model call, the history fitted to the window first; an overflow the server
   * reports is answered once by compacting (or by cutting the last step's outputs short).
   */
  async #nextStep(signal: AbortSignal): Promise<ChatResult> {
    try {
      await fitWindow(this.#fit, signal);
      return await this.#model.call(signal, this.history);
    } catch (e) {
      if (isGrammarRefusal(e) && !signal.aborted) {
        const answered = this.history.some((m) => m.role === "assistant");
        const dropped = await this.#toolset.dropRefused(
          this.#opts.chat,
          this.#model.schemas,
          answered,
          signal,
        );
        if (dropped) {
          this.#declare();
          this.#opts.emit({ type: "warning", message: dropped });
          return await this.#model.call(signal, this.history);
        }
      }
      if (!(e instanceof ProviderError) || e.kind !== "overflow" || signal.aborted) throw e;
      // No calibration from the refusal: the server's window may be smaller than the one mm was
      // told (a `contextSize` above what the server runs), and scaling every estimate by it would
      // make even the prompt alone look too big. Cutting every read output and compacting is the
      // answer; a second overflow is the server's sentence.
      await fitWindow(this.#fit, signal, e);
      return await this.#model.call(signal, this.history);
    }
  }

  /** The history becomes the summary, its acknowledgement and `kept`; the session file is saved. */
  async #replaceBySummary(notes: string, kept: Message[]): Promise<void> {
    const turn = this.#turn;
    this.history.splice(1);
    this.turns.splice(1);
    this.history.push(
      { role: "user", content: `${COMPACT_WRAPPER}\n${notes}` },
      { role: "assistant", content: COMPACT_ACK },
      ...kept,
    );
    this.turns.push(turn, turn, ...kept.map(() => turn));
    this.#promptAt = this.history.length - kept.length;
    await this.#opts.onStep?.();
  }

  /** Shortens tool outputs of the history as planned; the session file is saved. */
  async #applyCuts(cuts: Cut[]): Promise<void> {
    for (const c of cuts) {
      this.history[c.index] = { ...this.history[c.index], content: c.content } as Message;
    }
    if (cuts.length) await this.#opts.onStep?.();
  }
}
