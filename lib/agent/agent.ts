/** The agent core: one turn is model calls and tool calls until an answer (mm.md §4). */

import type { Config, HookEvent } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { nearest } from "../config/suggest.ts";
import { type HookPayload, type HookVerdict, runHooks, withHookContext } from "../hooks/run.ts";
import { type AskPermission, refusalWithReason, rejectedText } from "../permissions/prompt.ts";
import type { ChatClient, ChatResult, ToolSchema } from "../provider/chat.ts";
import type { Message, ToolCall } from "../history.ts";
import { ProviderError } from "../provider/errors.ts";
import type { AnyTool, Conversation, ToolContext, ToolResult } from "../tool.ts";
import { coerceInput, invalidCallText, parseToolArguments } from "../tool_input.ts";
import type { AgentEvent } from "./events.ts";
import {
  isRunaway,
  LOOP_DETECTED,
  LoopDetector,
  loopStoppedText,
  runawayText,
} from "./loop_detector.ts";
import { type Counters, emptyCounters } from "./recap.ts";
import { toolSchema } from "./schema.ts";
import { TextCallFilter } from "./text_calls/filter.ts";
import { textToolCalls } from "./text_calls/mod.ts";
import { matchToolName } from "./tool_name.ts";
import { COMPACT_ACK, COMPACT_REQUEST, COMPACT_WRAPPER } from "../history.ts";
import {
  answerReserve,
  type Budget,
  calibrate,
  calibrated,
  type Calibration,
  compactFailedText,
  compactingNotice,
  type Cut,
  KEPT_HEAD,
  OVERFLOW_CUT_NOTICE,
  OVERFLOW_NOTICE,
  overflowAnsweredText,
  planCuts,
  planUnreadCuts,
  promptLimit,
  promptTokens,
  rawPromptTokens,
  shortenTo,
  STEP_TOO_BIG,
  summaryRequest,
  tooBigText,
  unreadFrom,
} from "./budget.ts";

/** The least time between two `progress` events of one model call. */
export const PROGRESS_MS = 250;

/** What the core needs from the outside world. */
export interface AgentOptions {
  config: Config;
  chat: ChatClient;
  /** The declared tools. */
  tools: AnyTool[];
  systemPrompt: string;
  /** The tools' context for one turn. */
  context(signal: AbortSignal): ToolContext;
  askPermission: AskPermission;
  emit(event: AgentEvent): void;
  /** Called after every step (a message added to the history, an error recorded). */
  onStep?: () => Promise<void>;
  /** The session file's id when sessions are on: the hooks' `session` field. */
  sessionId?: () => string | undefined;
}

/** How a turn ended. */
export type TurnOutcome =
  | { status: "answered"; answer: string; counters: Counters }
  | { status: "failed"; error: string; counters: Counters }
  | { status: "cancelled"; counters: Counters };

/** The text a turn ends with when the watchdog fires. */
export function watchdogText(ms: number): string {
  const d = formatDuration(ms);
  return `[error: the model sent nothing for ${d} — turn stopped by the watchdog (watchdogTimeout: ${d}); the server may be overloaded or still loading the model: try again, or raise watchdogTimeout]`;
}

/** The text a turn ends with when a preGeneration hook blocks the prompt. */
export function blockedText(reason: string): string {
  return `[mm: the prompt was blocked by a hook: ${reason}]`;
}

/** The text a turn ends with when it reaches `maxTurns`. */
export function maxTurnsText(n: number): string {
  return `[error: the turn reached maxTurns (${n} model call${
    n === 1 ? "" : "s"
  }) without a final answer — stopped; ask for a smaller step, or raise maxTurns in the agent file]`;
}

/** The answer to a call of a tool that does not exist. */
export function unknownToolText(name: string, tools: string[]): string {
  const hint = nearest(name, tools);
  return `[unknown tool "${name}"${hint ? ` — did you mean "${hint}"?` : ""} — the tools are: ${
    tools.join(", ")
  }]`;
}

class Stop extends Error {}

/** Why `/compact` could not summarise. */
export class CompactError extends Error {
  /** Builds the error. */
  constructor(message: string) {
    super(message);
    this.name = "CompactError";
  }
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
  readonly loop = new LoopDetector();
  #opts: AgentOptions;
  #allowed = new Set<string>();
  #turn = 0;
  #previousAnswer: string | undefined;
  /** Where the current turn's prompt is in `history`. */
  #promptAt = 0;
  /** The server's last count of a prompt, against our estimate of it. */
  #calibration: Calibration | undefined;

  /** Starts a conversation with the options' system prompt, after `earlier` messages if resumed. */
  constructor(opts: AgentOptions, earlier: { message: Message; turn: number }[] = []) {
    this.#opts = opts;
    this.history = [{ role: "system", content: opts.systemPrompt }];
    this.turns = [0];
    for (const { message, turn } of earlier) {
      this.history.push(message);
      this.turns.push(turn);
      this.#turn = Math.max(this.#turn, turn);
    }
  }

  /** Records a failure, for the session file. */
  recordError(where: RecordedError["where"], message: string): void {
    this.errors.push({ time: new Date().toISOString(), where, message });
  }

  /** Adds a message to the history and lets the session file catch up: one step is done. */
  async #push(message: Message): Promise<void> {
    this.history.push(message);
    this.turns.push(this.#turn);
    await this.#opts.onStep?.();
  }

  /** Runs one turn for `prompt` until the model answers, fails or is cancelled. */
  async runTurn(prompt: string, signal: AbortSignal): Promise<TurnOutcome> {
    const { config, chat, emit } = this.#opts;
    const counters = emptyCounters();
    this.#turn++;
    this.#previousAnswer = lastAnswer(this.history);
    emit({ type: "turn_start", prompt, provider: config.provider, model: chat.target.model });
    const cwd = this.#opts.context(signal).cwd;
    const pre = await this.#hooks("preGeneration", { event: "preGeneration", prompt, cwd });
    if (pre.denied !== undefined) {
      const error = blockedText(pre.denied);
      emit({ type: "error", message: error, where: "hook" });
      return { status: "failed", error, counters };
    }
    await this.#push({ role: "user", content: withHookContext(prompt, pre.context) });
    this.#promptAt = this.history.length - 1;
    const fail = async (error: string): Promise<TurnOutcome> => {
      this.recordError("generation", error);
      await this.#opts.onStep?.();
      emit({ type: "error", message: error, where: "generation" });
      return { status: "failed", error, counters };
    };
    for (let step = 0; step < config.maxTurns; step++) {
      if (signal.aborted) return { status: "cancelled", counters };
      let result: ChatResult;
      try {
        result = await this.#nextStep(signal);
      } catch (e) {
        if (signal.aborted) return { status: "cancelled", counters };
        if (e instanceof Stop || e instanceof ProviderError) return await fail(e.message);
        throw e;
      }
      const { calls, content } = withTextCalls(result, this.#opts.tools, config);
      await this.#push({
        role: "assistant",
        content: content || (calls.length ? null : ""),
        ...(calls.length
          ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: "function" as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
          : {}),
      });
      if (calls.length === 0) {
        emit({ type: "recap", counters });
        emit({ type: "answer", text: result.text });
        return { status: "answered", answer: result.text, counters };
      }
      for (let i = 0; i < calls.length; i++) {
        const { output, stop } = await this.#runCall(calls[i], signal, counters);
        await this.#push({ role: "tool", tool_call_id: calls[i].id, content: output });
        if (stop || signal.aborted) {
          // Every call the model made needs an answer before the next request.
          for (const rest of calls.slice(i + 1)) {
            await this.#push({
              role: "tool",
              tool_call_id: rest.id,
              content: "[error: not run: the turn was stopped]",
            });
          }
          if (signal.aborted) return { status: "cancelled", counters };
          return await fail(stop!);
        }
      }
    }
    return await fail(maxTurnsText(config.maxTurns));
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
    const notes = await this.#summarise(signal, this.history, false);
    await this.#replaceBySummary(notes, []);
    return notes;
  }

  /** The model's summary of `messages` (system prompt first), asked without tools, fitted. */
  async #summarise(signal: AbortSignal, messages: Message[], all: boolean): Promise<string> {
    const request = summaryRequest(messages, COMPACT_REQUEST, this.#budget(), all);
    if (!request) throw new CompactError("even its last exchange does not fit the context window");
    let result: ChatResult;
    try {
      result = await this.#callModel(signal, request, false);
    } catch (e) {
      if (e instanceof Stop) throw new CompactError(e.message);
      throw e;
    }
    const notes = result.text.trim();
    if (!notes) throw new CompactError("the model gave an empty summary — nothing was changed");
    return notes;
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
    await this.#opts.onStep?.();
  }

  /**
   * The turn's next model call, the history fitted to the window first; an overflow the server
   * reports is answered once by compacting (or by cutting the last step's outputs short).
   */
  async #nextStep(signal: AbortSignal): Promise<ChatResult> {
    try {
      await this.#fit(signal);
      return await this.#callModel(signal);
    } catch (e) {
      if (!(e instanceof ProviderError) || e.kind !== "overflow" || signal.aborted) throw e;
      // No calibration from the refusal: the server's window may be smaller than the one mm was
      // told (a `contextSize` above what the server runs), and scaling every estimate by it would
      // make even the prompt alone look too big. Cutting every read output and compacting is the
      // answer; a second overflow is the server's sentence.
      await this.#fit(signal, e);
      return await this.#callModel(signal);
    }
  }

  /**
   * Fits the history to the context window before a request (docs/sessions.md): the oldest tool
   * outputs the model has read are shortened; if that is not enough and the outputs of the step
   * the model has not read are too big for the window by themselves (or there is nothing else to
   * compact), they are cut to what fits; else the conversation is compacted as `/compact` does and
   * the turn's prompt put back after the summary. After an `overflow` the server reported, every
   * read output is shortened and the conversation compacted (or, with nothing to compact, the last
   * step's outputs cut to their heads); the session's `errors` note it. Throws Stop with one
   * sentence when the prompt cannot fit.
   */
  async #fit(signal: AbortSignal, overflow?: ProviderError): Promise<void> {
    const budget = this.#budget();
    if (!budget && !overflow) return;
    const tools = this.#schemas();
    const unread = unreadFrom(this.history, this.#promptAt);
    const plan = planCuts(this.history, tools, budget, unread, overflow !== undefined);
    await this.#applyCuts(plan.cuts);
    if (plan.fits && !overflow) return;
    const prompt = this.history[this.#promptAt];
    const alone = promptTokens([this.history[0], prompt], tools, budget?.calibration);
    if (budget && alone > promptLimit(budget)) throw new Stop(tooBigText(alone, budget));
    // The step the model has not read yet: its calls and their outputs.
    const step = unread > this.#promptAt ? unread : undefined;
    const compactable = step === undefined || this.#compactable(step);
    if (step !== undefined && overflow && !compactable) {
      // Nothing to compact, and no window to trust: the outputs are cut to their heads.
      const cuts = this.#unreadOutputs(step).flatMap((i) => {
        const content = shortenTo(this.history[i].content as string, KEPT_HEAD, true);
        return content === undefined ? [] : [{ index: i, content }];
      });
      if (!cuts.length) throw overflow;
      this.#opts.emit({ type: "notice", message: OVERFLOW_CUT_NOTICE });
      this.recordError("generation", overflowAnsweredText(overflowWords(overflow), false));
      await this.#applyCuts(cuts);
      return;
    }
    if (step !== undefined && budget && !overflow) {
      const withStep = promptTokens(
        [this.history[0], prompt, ...this.history.slice(step)],
        tools,
        budget.calibration,
      );
      // Compacting cannot make room for outputs too big for the window by themselves.
      if (withStep > promptLimit(budget) || !compactable) {
        const fit = planUnreadCuts(this.history, tools, budget, step + 1);
        if (fit.fits && (fit.kept >= KEPT_HEAD || !compactable)) {
          await this.#applyCuts(fit.cuts);
          return;
        }
        if (!compactable) {
          throw new Stop(compactFailedText(budget.window, STEP_TOO_BIG));
        }
      }
    }
    // The prompt is put back after the summary: not summarised when the model has not seen it yet.
    // So is the step the model has not read (its calls and their outputs): summarised, the model
    // would run those calls again — an edit twice, a commit twice.
    const keepStep = step !== undefined && !overflow;
    const earlier = keepStep
      ? this.history.slice(0, step)
      : this.#promptAt === this.history.length - 1
      ? this.history.slice(0, -1)
      : this.history;
    if (earlier.length <= 1) throw overflow ?? new Stop(tooBigText(alone, budget!));
    this.#opts.emit({
      type: "notice",
      message: overflow ? OVERFLOW_NOTICE : compactingNotice(budget!.window),
    });
    let notes: string;
    try {
      notes = await this.#summarise(signal, earlier, overflow !== undefined);
    } catch (e) {
      if (e instanceof CompactError) throw new Stop(compactFailedText(budget?.window, e.message));
      throw e;
    }
    if (overflow) {
      this.recordError("generation", overflowAnsweredText(overflowWords(overflow), true));
    }
    const kept = keepStep ? [prompt, ...this.history.slice(step)] : [prompt];
    await this.#replaceBySummary(notes, kept);
    this.#promptAt = this.history.length - kept.length;
    const after = this.#budget();
    if (after && promptTokens(this.history, tools, after.calibration) > promptLimit(after)) {
      // The step's outputs may still be too big beside the summary: cut them to fit.
      const fit = keepStep
        ? planUnreadCuts(this.history, tools, after, this.#promptAt + 2)
        : undefined;
      if (!fit?.fits) {
        throw new Stop(compactFailedText(after.window, "the summary is too long for the window"));
      }
      await this.#applyCuts(fit.cuts);
    }
  }

  /** Shortens tool outputs of the history as planned; the session file is saved. */
  async #applyCuts(cuts: Cut[]): Promise<void> {
    for (const c of cuts) {
      this.history[c.index] = { ...this.history[c.index], content: c.content } as Message;
    }
    if (cuts.length) await this.#opts.onStep?.();
  }

  /** Where the outputs of the step whose calls are at `step` are in the history. */
  #unreadOutputs(step: number): number[] {
    const out: number[] = [];
    for (let i = step + 1; i < this.history.length; i++) {
      if (this.history[i].role === "tool") out.push(i);
    }
    return out;
  }

  /**
   * Whether compacting could make room before the step at `step`: something comes before it other
   * than the system prompt, the turn's prompt, and a summary with its acknowledgement.
   */
  #compactable(step: number): boolean {
    const before = this.history.slice(1, step).filter((_, i) => i + 1 !== this.#promptAt);
    const first = before[0];
    const summary = first?.role === "user" && first.content.startsWith(COMPACT_WRAPPER);
    return before.length > (summary ? 2 : 0);
  }

  /** The context window's budget, when the window is known. */
  #budget(): Budget | undefined {
    const { chat, config } = this.#opts;
    const window = chat.contextWindow ?? config.contextSize;
    if (!window) return undefined;
    return {
      window,
      reserve: answerReserve(window, config.maxTokens),
      calibration: this.#calibration,
    };
  }

  /** The declared tools as the model receives them. */
  #schemas(): ToolSchema[] {
    return this.#opts.tools.map((t) => toolSchema(t, this.#opts.config));
  }

  /** One model call, with the watchdog and the runaway detector watching its stream. */
  async #callModel(
    turnSignal: AbortSignal,
    messages: Message[] = this.history,
    withTools = true,
  ): Promise<ChatResult> {
    const { config, chat, tools, emit } = this.#opts;
    const controller = new AbortController();
    let stopReason: string | undefined;
    const stop = (reason: string) => {
      stopReason = reason;
      controller.abort();
    };
    const onTurnAbort = () => controller.abort();
    turnSignal.addEventListener("abort", onTurnAbort);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const feed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop(watchdogText(config.watchdogTimeout)), config.watchdogTimeout);
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
    const schemas = withTools ? this.#schemas() : [];
    const raw = rawPromptTokens(messages, schemas);
    try {
      const result = await chat.stream({
        messages,
        tools: schemas,
        promptTokens: calibrated(raw, this.#calibration),
        signal: controller.signal,
        onDelta: (d) => {
          if (stopReason) return;
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
              stop(runawayText(held));
            }
          } else if (d.type === "thought") emit({ type: "thought", text: d.text });
          else {
            if (!composing.has(d.index)) {
              composing.add(d.index);
              emit({ type: "composing", tool: d.name });
            } else progress();
            if (isRunaway(d.arguments)) stop(runawayText(d.arguments));
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
      if (stopReason && !turnSignal.aborted) throw new Stop(stopReason);
      throw e;
    } finally {
      clearTimeout(timer);
      turnSignal.removeEventListener("abort", onTurnAbort);
    }
  }

  /** Runs one tool call: parse, coerce, permission, run, loop detection. Never throws. */
  async #runCall(
    call: ToolCall,
    signal: AbortSignal,
    counters: Counters,
  ): Promise<{ output: string; stop?: string }> {
    const { tools, emit } = this.#opts;
    const prepared = prepareCall(tools, call);
    const { tool } = prepared;
    const name = tool?.name ?? call.name;
    emit({
      type: "tool_call",
      id: call.id,
      name,
      kind: !tool
        ? "other"
        : typeof tool.kind === "function"
        ? (prepared.ok ? tool.kind(prepared.input) : "other")
        : tool.kind,
      emoji: tool?.emoji ?? "❔",
      summary: prepared.ok ? tool!.summary(prepared.input, this.#conversation()) : call.arguments,
      input: prepared.ok ? prepared.input : call.arguments,
    });
    let result: ToolResult;
    if (!prepared.ok) result = { output: prepared.refusal, failed: true };
    else {
      const refusal = await this.#refusal(prepared.tool, prepared.input);
      result = refusal !== undefined
        ? { output: refusal, failed: true }
        : await this.#runWithHooks(prepared.tool, prepared.input, signal, call.id);
    }
    if (tool?.counter) counters[tool.counter]++;
    const verdict = this.loop.record(
      name,
      prepared.ok ? prepared.input : call.arguments,
      result.output,
    );
    if (verdict === "stop") {
      const error = loopStoppedText(name);
      emit({ type: "tool_result", id: call.id, name, output: error, failed: true });
      return { output: error, stop: error };
    }
    let output = result.output;
    if (verdict === "warn") {
      output += (output.endsWith("\n") || !output ? "" : "\n") + LOOP_DETECTED;
    }
    emit({
      type: "tool_result",
      id: call.id,
      name,
      output,
      failed: result.failed ?? false,
      diff: result.diff,
      ...(tool?.preview === false ? { preview: false } : {}),
      ...(result.display !== undefined ? { display: result.display } : {}),
    });
    return { output, stop: result.stop };
  }

  /** Runs a tool between its preToolCall and postToolCall hooks. */
  async #runWithHooks(
    tool: AnyTool,
    input: Record<string, unknown>,
    signal: AbortSignal,
    callId: string,
  ): Promise<ToolResult> {
    const sessionId = this.#opts.sessionId?.();
    const ctx: ToolContext = {
      askPermission: this.#opts.askPermission,
      ...this.#opts.context(signal),
      conversation: this.#conversation(),
      ...(sessionId ? { sessionId } : {}),
      emit: (event) => this.#opts.emit({ type: "nested", call: callId, event }),
      hookFailure: (message) => this.#hookFailure(message),
    };
    const base = { tool: tool.name, cwd: ctx.cwd };
    const pre = await this.#hooks("preToolCall", { event: "preToolCall", input, ...base });
    if (pre.denied !== undefined) {
      return { output: `[${tool.name} denied by a hook: ${pre.denied}]`, failed: true };
    }
    if (pre.input) {
      const coerced = tool.parse ? tool.parse(pre.input) : coerceInput(tool.parameters, pre.input);
      if (coerced.ok) input = coerced.input;
      else {
        this.#hookFailure(
          `preToolCall hook gave ${tool.name} an input it cannot take (${
            coerced.faults.join("; ")
          }) — kept the model's`,
        );
      }
    }
    const result = await runTool(tool, input, ctx, (m) => this.recordError("tool", m));
    const post = await this.#hooks("postToolCall", {
      event: "postToolCall",
      input,
      output: result.output,
      ...base,
    });
    const output = withHookContext(post.replace ?? result.output, post.context);
    return output === result.output ? result : { ...result, output };
  }

  /** Runs the hooks of an event; their failures are recorded and shown, never fatal. */
  async #hooks(event: HookEvent, payload: HookPayload): Promise<HookVerdict> {
    const hooks = this.#opts.config.hooks[event];
    if (!hooks?.length) return { context: [], failures: [] };
    const session = this.#opts.sessionId?.();
    const verdict = await runHooks(
      hooks,
      session ? { ...payload, session } : payload,
      this.#opts.config.bashTimeout,
    );
    for (const f of verdict.failures) this.#hookFailure(f);
    return verdict;
  }

  #hookFailure(message: string): void {
    this.recordError("hook", message);
    this.#opts.emit({ type: "warning", message: `[warning: ${message}]` });
  }

  /** The conversation as a tool sees it: the history, the calling message, the previous answer. */
  #conversation(): Conversation {
    const caller = this.history.findLast((m) => m.role === "assistant");
    return {
      history: this.history,
      callerText: typeof caller?.content === "string" ? caller.content : "",
      previousAnswer: this.#previousAnswer,
    };
  }

  /** Why the call may not run (the refusal the model reads), or undefined when it may. */
  async #refusal(tool: AnyTool, input: Record<string, unknown>): Promise<string | undefined> {
    const conversation = this.#conversation();
    const asks = typeof tool.asks === "function" ? tool.asks(input, conversation) : tool.asks;
    if (!asks || this.#opts.config.yolo || this.#allowed.has(tool.name)) return undefined;
    const answer = await this.#opts.askPermission(
      tool.name,
      tool.summary(input, conversation),
      input,
    );
    if (answer.kind === "allowAlways") this.#allowed.add(tool.name);
    if (answer.kind !== "reject") return undefined;
    return answer.reason ? refusalWithReason(tool.name, answer.reason) : rejectedText(tool.name);
  }
}

/** The server's own words of an overflow, or its whole sentence. */
function overflowWords(e: ProviderError): string {
  return e.serverMessage ?? e.message;
}

/** The text of the last answer in `history`: an assistant message without tool calls. */
function lastAnswer(history: readonly Message[]): string | undefined {
  const m = history.findLast((m) => m.role === "assistant" && !m.tool_calls?.length);
  return m && typeof m.content === "string" && m.content.trim() ? m.content : undefined;
}

/** A call ready to run, or the text that refuses it (unknown tool, bad JSON, bad fields). */
type PreparedCall =
  | { ok: true; tool: AnyTool; input: Record<string, unknown> }
  | { ok: false; tool?: AnyTool; refusal: string };

/** Finds the tool, repairs the arguments and coerces them to the tool's parameters. */
function prepareCall(tools: AnyTool[], call: ToolCall): PreparedCall {
  const tool = findTool(tools, call.name);
  if (!tool) return { ok: false, refusal: unknownToolText(call.name, tools.map((t) => t.name)) };
  const parsed = parseToolArguments(call.arguments);
  const coerced = !parsed.ok
    ? undefined
    : tool.parse
    ? tool.parse(parsed.value)
    : coerceInput(tool.parameters, parsed.value);
  if (coerced?.ok) return { ok: true, tool, input: coerced.input };
  const faults = parsed.ok ? (coerced as { faults: string[] }).faults : [parsed.reason];
  const sent = call.arguments.trim() || "{}";
  return { ok: false, tool, refusal: invalidCallText(tool.name, faults, sent, tool.parameters) };
}

/**
 * The tool a model named, forgiving case and separators (`Read_File`, `read-file`, `readFile` are
 * `read_file`) when exactly one declared tool reads alike.
 */
function findTool(tools: AnyTool[], name: string): AnyTool | undefined {
  const match = matchToolName(name.trim(), tools.map((t) => t.name));
  return tools.find((t) => t.name === match);
}

/**
 * The calls of a model answer and the text kept as its content: its structured calls, else the
 * calls it wrote as text (docs/small-models.md), with only the prose around them as content.
 */
function withTextCalls(
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

/** An id for a call written as text: 9 letters and digits, the only form Mistral templates accept. */
function textCallId(): string {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => chars[b % chars.length])
    .join("");
}

/** Runs a tool; a throw is a bug in the tool, told to the model in one line. */
async function runTool(
  tool: AnyTool,
  input: Record<string, unknown>,
  ctx: ToolContext,
  onCrash: (message: string) => void,
): Promise<ToolResult> {
  try {
    return await tool.run(input, ctx);
  } catch (e) {
    const output = `[error: ${tool.name} failed unexpectedly: ${(e as Error).message ?? e}]`;
    onCrash(output);
    return { output, failed: true };
  }
}
