/** The agent core: one turn is model calls and tool calls until an answer (mm.md §4). */

import { withHookContext } from "../hooks/run.ts";
import { type Message, NOT_RUN, type RecordedError } from "../history.ts";
import type { ChatResult, ThinkingChoice } from "../provider/chat.ts";
import { ProviderError } from "../provider/errors.ts";
import type { AnyTool } from "../tool.ts";
import { type CommandOutcome, conversationOf, Dispatcher, lastAnswer } from "./dispatch.ts";
import { CompactError, type FitTarget, fitWindow, summarise } from "./fit.ts";
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
import type { TurnKeeper } from "../undo/keeper.ts";
import type { AgentOptions } from "./options.ts";
import { Toolset } from "./toolset.ts";
import { Transcript } from "./transcript.ts";
import { planModePrompt } from "./prompt.ts";

export type { RecordedError } from "../history.ts";
export type { AgentOptions } from "./options.ts";

/** A conversation with the model: its history, its turn numbers, its errors, its loop detector. */
export class Agent {
  /** Every failure that ended or marred a turn. */
  readonly errors: RecordedError[] = [];
  /** The thinking asked for over the configuration's (`/think`); undefined: the configuration's. */
  thinking: ThinkingChoice | undefined;
  /** What each turn changes is kept here, for `/undo`; undefined when nothing is kept. */
  readonly keeper: TurnKeeper | undefined;
  #opts: AgentOptions;
  #toolset: Toolset;
  #model!: ModelCaller;
  #dispatch!: Dispatcher;
  #fit!: FitTarget;
  #t: Transcript;
  #plan = false;
  #previousAnswer: string | undefined;
  /** The current turn's requests' usage, summed. */
  #usage: TurnUsage = emptyUsage();
  /** Whether a turn is running (no warm-up then: its requests are the real ones). */
  #busy = false;

  /** Starts a conversation with the options' system prompt, after `earlier` messages if resumed. */
  constructor(opts: AgentOptions, earlier: { message: Message; turn: number }[] = []) {
    this.#opts = opts;
    this.keeper = opts.keeper;
    this.#t = new Transcript(opts.systemPrompt, earlier, async () => await opts.onStep?.());
    this.#toolset = new Toolset(opts.tools, opts.moreTools);
    this.#declare();
    this.#warm();
  }

  /** Sends the requests' prefix ahead to the server (when it warms), unless a turn is running. */
  #warm(): void {
    if (!this.#busy) this.#opts.warmup?.warm(this.#model.prefix(this.history[0], this.thinking));
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
      plan: () => this.#plan,
      recordError: (where, message) => this.recordError(where, message),
    });
    this.#fit = {
      history: this.history,
      promptAt: () => this.#t.promptAt,
      model: this.#model,
      applyCuts: (cuts) => this.#t.applyCuts(cuts),
      replaceBySummary: (notes, kept) => this.#t.compactInto(notes, kept),
      notice: (message) => opts.emit({ type: "notice", message }),
      recordError: (message) => this.recordError("generation", message),
    };
  }

  /** Plan mode: only calls that read run (lib/permissions/plan.ts). Off unless set. */
  get plan(): boolean {
    return this.#plan;
  }

  /**
   * Turns plan mode on or off, from the next call on; the system prompt says so while it is on
   * (and is the options' own, byte for byte, while it is off).
   */
  set plan(on: boolean) {
    this.#plan = on;
    const prompt = this.#opts.systemPrompt;
    this.history[0] = { role: "system", content: on ? planModePrompt(prompt) : prompt };
  }

  /** The history as sent to the model, system prompt first. */
  get history(): Message[] {
    return this.#t.messages;
  }

  /** The turn of each message of `history` (0 for the system prompt, 1 for the first question). */
  get turns(): readonly number[] {
    return this.#t.turns;
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

  /**
   * Removes turn `from` and every later one from the history (undo): the next request holds
   * nothing of them, the next turn takes number `from`; the session file is saved.
   */
  async dropTurnsFrom(from: number): Promise<void> {
    if (await this.#t.dropFrom(from)) this.#previousAnswer = undefined;
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
      await this.#opts.keeper?.end();
    }
  }

  /** The turn itself; {@linkcode runTurn} stops a warm-up first and closes its undo record. */
  async #runTurn(prompt: string, signal: AbortSignal): Promise<TurnOutcome> {
    const { config, chat, emit } = this.#opts;
    const counters = emptyCounters();
    this.#usage = emptyUsage();
    this.#t.turn++;
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
    await this.#t.push({ role: "user", content: withHookContext(prompt, pre.context) });
    this.#t.promptAt = this.history.length - 1;
    await this.#opts.keeper?.begin(this.#t.turn, prompt);
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
      await this.#t.push(answerMessage(calls, content, result.thought));
      const end = answerEnd(result, calls, config.maxTokens);
      if (end.kind === "failed") {
        // A cut step's calls never run; each is answered, so the history stays valid.
        for (const c of calls) {
          await this.#t.push({ role: "tool", tool_call_id: c.id, content: end.notRun! });
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
        await this.#t.push({ role: "tool", tool_call_id: calls[i].id, content: end.output });
        if (end.stop !== undefined || signal.aborted) {
          // Every call the model made needs an answer before the next request.
          for (const rest of calls.slice(i + 1)) {
            await this.#t.push({ role: "tool", tool_call_id: rest.id, content: NOT_RUN });
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
   * `nested` events. `announce` hears, before anything is asked, whether the gate will ask.
   */
  async runCommand(
    name: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
    id = "command",
    announce?: (asks: boolean) => void,
  ): Promise<CommandOutcome> {
    this.#opts.warmup?.stop();
    const changed = await this.#toolset.addMore(signal);
    if (changed) this.#declare();
    const outcome = await this.#dispatch.command(name, input, signal, id, announce);
    if (changed) this.#warm();
    return outcome;
  }

  /** Adds an exchange made outside a turn (line mode's `/ask`) as a turn of its own. */
  async addExchange(question: string, answer: string): Promise<void> {
    await this.#t.addExchange(question, answer);
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
    await this.#t.compactInto(notes, []);
    this.#warm();
    return notes;
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
      const { chat, emit } = this.#opts;
      const schemas = this.#model.schemas;
      const dropped = await this.#toolset.dropRefused(e, chat, schemas, this.history, signal);
      if (dropped) {
        this.#declare();
        emit({ type: "warning", message: dropped });
        return await this.#model.call(signal, this.history);
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
}
