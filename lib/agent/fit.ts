/**
 * Keeping a conversation inside the context window (docs/sessions.md, "When the context window
 * fills"): the "apply" side of budget.ts. Old tool outputs are shortened, an unread step too big
 * for the window is cut to fit, else the conversation is compacted as `/compact` does; an overflow
 * the server reports is answered once the same way.
 */

import { COMPACT_REQUEST, COMPACT_WRAPPER, type Message } from "../history.ts";
import { ProviderError } from "../provider/errors.ts";
import {
  compactFailedText,
  compactingNotice,
  type Cut,
  KEPT_HEAD,
  leastTokens,
  OVERFLOW_CUT_NOTICE,
  OVERFLOW_NOTICE,
  overflowAnsweredText,
  planCuts,
  planUnreadCuts,
  promptLimit,
  promptTokens,
  rawPromptTokens,
  sendLimit,
  shortenTo,
  STEP_TOO_BIG,
  summaryRequest,
  tooBigText,
  unreadFrom,
} from "./budget.ts";
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
 * Fits the history to the context window before a request: the oldest tool outputs the model has
 * read are shortened; if that is not enough and the outputs of the step the model has not read are
 * too big for the window by themselves (or there is nothing else to compact), they are cut to what
 * fits; else the conversation is compacted as `/compact` does and the turn's prompt put back after
 * the summary. After an `overflow` the server reported, every read output is shortened and the
 * conversation compacted (or, with nothing to compact, the last step's outputs cut to their
 * heads); the session's `errors` note it. Throws {@linkcode TurnStop} with one sentence when the
 * prompt cannot fit.
 */
export async function fitWindow(
  t: FitTarget,
  signal: AbortSignal,
  overflow?: ProviderError,
): Promise<void> {
  const { history, model } = t;
  const budget = model.budget();
  if (!budget && !overflow) return;
  const tools = model.schemas;
  const promptAt = t.promptAt();
  const unread = unreadFrom(history, promptAt);
  const plan = planCuts(history, tools, budget, unread, overflow !== undefined);
  // Cuts that leave little room: the window fills again in a step or two, and each cut changes
  // what the server has cached. Compacting now makes room for many steps (docs/performance.md).
  const step0 = unread > promptAt ? unread : undefined;
  const brief = !overflow && plan.fits && plan.cuts.length > 0 && !plan.roomy &&
    isCompactable(history, promptAt, step0 ?? history.length);
  if (!brief) {
    await t.applyCuts(plan.cuts);
    if (plan.fits && !overflow) return;
  }
  const prompt = history[promptAt];
  // Refused only when it cannot fit whatever the real count: before the server has counted a
  // prompt, mm's estimate is high on purpose.
  const least = leastTokens(rawPromptTokens([history[0], prompt], tools), budget?.calibration);
  if (budget && least > sendLimit(budget)) {
    throw new TurnStop(tooBigText(least, budget), "window");
  }
  // The step the model has not read yet: its calls and their outputs.
  const step = step0;
  const compactable = step === undefined || isCompactable(history, promptAt, step);
  if (step !== undefined && overflow && !compactable) {
    // Nothing to compact, and no window to trust: the outputs are cut to their heads.
    const cuts = unreadOutputs(history, step).flatMap((i) => {
      const content = shortenTo(history[i].content as string, KEPT_HEAD, true);
      return content === undefined ? [] : [{ index: i, content }];
    });
    if (!cuts.length) throw overflow;
    t.notice(OVERFLOW_CUT_NOTICE);
    t.recordError(overflowAnsweredText(overflowWords(overflow), false));
    await t.applyCuts(cuts);
    return;
  }
  if (step !== undefined && budget && !overflow) {
    const withStep = promptTokens(
      [history[0], prompt, ...history.slice(step)],
      tools,
      budget.calibration,
    );
    // Compacting cannot make room for outputs too big for the window by themselves.
    if (withStep > promptLimit(budget) || !compactable) {
      const fit = planUnreadCuts(history, tools, budget, step + 1);
      if (fit.fits && (fit.kept >= KEPT_HEAD || !compactable)) {
        await t.applyCuts(fit.cuts);
        return;
      }
      if (!compactable) {
        throw new TurnStop(
          compactFailedText(budget.window, STEP_TOO_BIG, budget.toldWindow),
          "window",
        );
      }
    }
  }
  // The prompt is put back after the summary: not summarised when the model has not seen it yet.
  // So is the step the model has not read (its calls and their outputs): summarised, the model
  // would run those calls again — an edit twice, a commit twice.
  const keepStep = step !== undefined && !overflow;
  const earlier = keepStep
    ? history.slice(0, step)
    : promptAt === history.length - 1
    ? history.slice(0, -1)
    : history;
  if (earlier.length <= 1) {
    // Nothing but the prompt: it leaves the answer less room than mm likes, but the server can
    // still answer it (the check above holds it to what the server can take).
    if (brief) return await t.applyCuts(plan.cuts);
    if (!overflow && budget && least <= sendLimit(budget)) return;
    if (overflow) throw overflow;
    // Name what is too big: the step's outputs when there is one, else the prompt itself.
    throw new TurnStop(
      step !== undefined
        ? compactFailedText(budget!.window, STEP_TOO_BIG, budget!.toldWindow)
        : tooBigText(least, budget!),
      "window",
    );
  }
  t.notice(overflow ? OVERFLOW_NOTICE : compactingNotice(budget!.window));
  let notes: string;
  try {
    notes = await summarise(model, signal, earlier, overflow !== undefined);
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
  const kept = keepStep ? [prompt, ...history.slice(step)] : [prompt];
  await t.replaceBySummary(notes, kept);
  const after = model.budget();
  if (after && promptTokens(history, tools, after.calibration) > promptLimit(after)) {
    // The step's outputs may still be too big beside the summary: cut them to fit.
    const fit = keepStep ? planUnreadCuts(history, tools, after, t.promptAt() + 2) : undefined;
    if (!fit?.fits) {
      throw new TurnStop(
        compactFailedText(
          after.window,
          "the summary is too long for the window",
          after.toldWindow,
        ),
        "window",
      );
    }
    await t.applyCuts(fit.cuts);
  }
}

/** The server's own words of an overflow, or its whole sentence. */
function overflowWords(e: ProviderError): string {
  return e.serverMessage ?? e.message;
}

/** Where the outputs of the step whose calls are at `step` are in the history. */
function unreadOutputs(history: readonly Message[], step: number): number[] {
  const out: number[] = [];
  for (let i = step + 1; i < history.length; i++) {
    if (history[i].role === "tool") out.push(i);
  }
  return out;
}

/**
 * Whether compacting could make room before the step at `step`: something comes before it other
 * than the system prompt, the turn's prompt, and a summary with its acknowledgement.
 */
function isCompactable(history: readonly Message[], promptAt: number, step: number): boolean {
  const before = history.slice(1, step).filter((_, i) => i + 1 !== promptAt);
  const first = before[0];
  const summary = first?.role === "user" && first.content.startsWith(COMPACT_WRAPPER);
  return before.length > (summary ? 2 : 0);
}
