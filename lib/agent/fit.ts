/**
 * Keeping a conversation inside the context window (docs/sessions.md, "When the context window
 * fills"): the effect of fit_decision.ts's decisions. Old tool outputs are shortened, an unread
 * step too big for the window is cut to fit, else the conversation is compacted as `/compact`
 * does (the summary asked here); an overflow the server reports is answered once the same way.
 */

import { COMPACT_REQUEST, type Message, withoutReasoning } from "../history.ts";
import type { ProviderError } from "../provider/errors.ts";
import {
  compactFailedText,
  type Cut,
  OVERFLOW_CUT_NOTICE,
  overflowAnsweredText,
  summaryRequest,
} from "./budget.ts";
import { decideAfterSummary, decideFit, type FitDecision } from "./fit_decision.ts";
import type { ModelCaller } from "./model_call.ts";
import { TurnStop } from "./texts.ts";

/** Why `/compact` (or compacting a full window) could not summarise. */
export class CompactError extends Error {
  /** Builds the error. */
  constructor(message: string) {
    super(message);
    this.name = "CompactError";
  }
}

/** The conversation being fitted: its history and the changes fitting may make to it. */
export interface FitTarget {
  /** The history as sent to the model, system prompt first. */
  readonly history: Message[];
  /** Where the current turn's prompt is in `history`. */
  promptAt(): number;
  /** The model calls of the conversation: its window's budget, its tools, the summary's call. */
  readonly model: ModelCaller;
  /** Shortens tool outputs as planned; the session file is saved. */
  applyCuts(cuts: Cut[]): Promise<void>;
  /** The history becomes the summary, its acknowledgement and `kept`; the prompt is in `kept`. */
  replaceBySummary(notes: string, kept: Message[]): Promise<void>;
  /** Tells the user what mm did on its own. */
  notice(message: string): void;
  /** Records a failure for the session file. */
  recordError(message: string): void;
}

/** The model's summary of `messages` (system prompt first), asked without tools, fitted. */
export async function summarise(
  model: ModelCaller,
  signal: AbortSignal,
  messages: Message[],
  all: boolean,
): Promise<string> {
  // The tools stay declared, none to be called: the request then starts as the conversation
  // did, and the server reuses what it cached of it instead of reading it all again.
  // Compaction drops the reasoning: the summary is asked of the messages without it.
  messages = messages.map(withoutReasoning);
  const request = summaryRequest(messages, COMPACT_REQUEST, model.budget(), all, model.schemas);
  if (!request) throw new CompactError("even its last exchange does not fit the context window");
  let notes: string;
  try {
    const result = await model.call(signal, request, { tools: true });
    notes = result.text.trim();
    if (!notes && result.toolCalls.length) {
      // A server that ignores tool_choice, a model that called a tool all the same: once more
      // without the tools.
      const bare = summaryRequest(messages, COMPACT_REQUEST, model.budget(), all) ?? request;
      notes = (await model.call(signal, bare, { tools: false })).text.trim();
    }
  } catch (e) {
    if (e instanceof TurnStop) throw new CompactError(e.message);
    throw e;
  }
  if (!notes) throw new CompactError("the model gave an empty summary — nothing was changed");
  return notes;
}

/**
 * Fits the history to the context window before a request, as {@linkcode decideFit} decides:
 * outputs shortened, or the conversation compacted as `/compact` does (the turn's prompt, and the
 * step the model has not read, put back after the summary). After an `overflow` the server
 * reported, the session's `errors` note how mm answered it. Throws {@linkcode TurnStop} with one
 * sentence when the prompt cannot fit, the server's `overflow` when mm has no answer to it.
 */
export async function fitWindow(
  t: FitTarget,
  signal: AbortSignal,
  overflow?: ProviderError,
): Promise<void> {
  const { history, model } = t;
  const budget = model.budget();
  const tools = model.schemas;
  const promptAt = t.promptAt();
  // What the request sends (the reasoning sendReasoning keeps) is what must fit.
  const sent = model.sent(history);
  const decision = decideFit({ history: sent, promptAt, tools, budget, overflow: !!overflow });
  await apply(t, decision, overflow);
  if (decision.kind !== "compact") return;
  t.notice(decision.notice);
  let notes: string;
  try {
    notes = await summarise(model, signal, history.slice(0, decision.summarised), !!overflow);
  } catch (e) {
    if (e instanceof CompactError) {
      throw new TurnStop(
        compactFailedText(budget?.window, e.message, budget?.toldWindow),
        "window",
      );
    }
    throw e;
  }
  if (overflow) t.recordError(overflowAnsweredText(overflowWords(overflow), true));
  const { keptFrom } = decision;
  const kept = [history[promptAt], ...(keptFrom === undefined ? [] : history.slice(keptFrom))]
    .map(withoutReasoning);
  await t.replaceBySummary(notes, kept);
  const after = {
    history: model.sent(history),
    promptAt: t.promptAt(),
    tools,
    budget: model.budget(),
  };
  await apply(t, decideAfterSummary(after, keptFrom !== undefined), overflow);
}

/** Applies a decision's cuts; a refusal then ends the turn. */
async function apply(t: FitTarget, d: FitDecision, overflow?: ProviderError): Promise<void> {
  if (d.kind === "nothing") return;
  if (d.kind === "cut" && d.headsOnly) {
    t.notice(OVERFLOW_CUT_NOTICE);
    t.recordError(overflowAnsweredText(overflowWords(overflow!), false));
  }
  await t.applyCuts(d.cuts);
  if (d.kind !== "refuse") return;
  if (d.text === undefined) throw overflow;
  throw new TurnStop(d.text, "window");
}

/** The server's own words of an overflow, or its whole sentence. */
function overflowWords(e: ProviderError): string {
  return e.serverMessage ?? e.message;
}
