/**
 * What keeping the window asks for before a request (docs/sessions.md, "When the context window
 * fills"): nothing, outputs cut, the conversation compacted, or the request refused. A pure
 * function of the history, the window and whether the server already overflowed, built on the
 * estimates and plans of budget.ts; fit.ts applies the decision.
 */

import type { ToolSchema } from "../provider/chat.ts";
import { COMPACT_WRAPPER, type Message } from "../history.ts";
import {
  applyCuts,
  type Budget,
  compactFailedText,
  compactingNotice,
  type Cut,
  KEPT_HEAD,
  leastTokens,
  OVERFLOW_NOTICE,
  planCuts,
  planUnreadCuts,
  promptLimit,
  promptTokens,
  rawPromptTokens,
  sendLimit,
  shortenTo,
  STEP_TOO_BIG,
  tooBigText,
  unreadFrom,
} from "./budget.ts";

/** Why a compaction failed when even its summary leaves the prompt too big. */
export const SUMMARY_TOO_LONG = "the summary is too long for the window";

/** What the decision reads: the conversation, its window, and what the server already said. */
export interface FitState {
  /** The history as sent to the model, system prompt first. */
  history: readonly Message[];
  /** Where the current turn's prompt is in `history`. */
  promptAt: number;
  /** The declared tools, as sent. */
  tools: readonly ToolSchema[];
  /** The window's budget, when the window is known. */
  budget: Budget | undefined;
  /** The server reported an overflow of this very history: every read output goes short. */
  overflow: boolean;
}

/**
 * What to do before the request. Every kind but `nothing` applies its `cuts` first (tool outputs
 * shortened, by index in the history). `cut`: then send; with `headsOnly`, the server overflowed
 * and the step's unread outputs were cut to their heads (the user is told, the session's errors
 * note it). `compact`: then the first `summarised` messages are summarised (`notice` shown first),
 * and the history becomes the summary, the prompt and, from `keptFrom`, the step the model has
 * not read. `refuse`: the turn ends with `text`, or without it with the server's overflow error.
 */
export type FitDecision =
  | { kind: "nothing" }
  | { kind: "cut"; cuts: Cut[]; headsOnly?: true }
  | { kind: "compact"; cuts: Cut[]; summarised: number; keptFrom?: number; notice: string }
  | { kind: "refuse"; cuts: Cut[]; text?: string };

const NOTHING: FitDecision = { kind: "nothing" };

/**
 * The decision before a request: the oldest tool outputs the model has read are shortened; if that
 * is not enough and the outputs of the step the model has not read are too big for the window by
 * themselves (or there is nothing else to compact), they are cut to what fits; else the
 * conversation is compacted and the turn's prompt put back after the summary. After an overflow,
 * every read output is shortened and the conversation compacted (or, with nothing to compact, the
 * last step's outputs cut to their heads). Refused when the prompt cannot fit.
 */
export function decideFit(s: FitState): FitDecision {
  const { promptAt, tools, budget, overflow } = s;
  if (!budget && !overflow) return NOTHING;
  const unread = unreadFrom(s.history, promptAt);
  const plan = planCuts(s.history, tools, budget, unread, overflow);
  // The step the model has not read yet: its calls and their outputs.
  const step = unread > promptAt ? unread : undefined;
  // Cuts that leave little room: the window fills again in a step or two, and each cut changes
  // what the server has cached. Compacting now makes room for many steps (docs/performance.md).
  const brief = !overflow && plan.fits && plan.cuts.length > 0 && !plan.roomy &&
    isCompactable(s.history, promptAt, step ?? s.history.length);
  const cuts = brief ? [] : plan.cuts;
  if (!brief && plan.fits && !overflow) return cutOrNothing(cuts);
  // What follows reads the history as it is once `cuts` are applied.
  const history = applyCuts(s.history, cuts);
  const prompt = history[promptAt];
  // Refused only when it cannot fit whatever the real count: before the server has counted a
  // prompt, mm's estimate is high on purpose.
  const least = leastTokens(rawPromptTokens([history[0], prompt], tools), budget?.calibration);
  if (budget && least > sendLimit(budget)) {
    return { kind: "refuse", cuts, text: tooBigText(least, budget) };
  }
  const compactable = step === undefined || isCompactable(history, promptAt, step);
  if (step !== undefined && overflow && !compactable) {
    // Nothing to compact, and no window to trust: the outputs are cut to their heads.
    const heads = unreadOutputs(history, step).flatMap((i) => {
      const content = shortenTo(history[i].content as string, KEPT_HEAD, true);
      return content === undefined ? [] : [{ index: i, content }];
    });
    if (!heads.length) return { kind: "refuse", cuts };
    return { kind: "cut", cuts: [...cuts, ...heads], headsOnly: true };
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
        return cutOrNothing([...cuts, ...fit.cuts]);
      }
      if (!compactable) {
        const text = compactFailedText(budget.window, STEP_TOO_BIG, budget.toldWindow);
        return { kind: "refuse", cuts, text };
      }
    }
  }
  // The prompt is put back after the summary: not summarised when the model has not seen it yet.
  // So is the step the model has not read (its calls and their outputs): summarised, the model
  // would run those calls again — an edit twice, a commit twice.
  const keepStep = step !== undefined && !overflow;
  const summarised = keepStep
    ? step
    : promptAt === history.length - 1
    ? history.length - 1
    : history.length;
  if (summarised <= 1) {
    // Nothing but the prompt: it leaves the answer less room than mm likes, but the server can
    // still answer it (the check above holds it to what the server can take).
    if (brief) return cutOrNothing(plan.cuts);
    if (!overflow) return cutOrNothing(cuts);
    return { kind: "refuse", cuts };
  }
  return {
    kind: "compact",
    cuts,
    summarised,
    ...(keepStep ? { keptFrom: step } : {}),
    notice: overflow ? OVERFLOW_NOTICE : compactingNotice(budget!.window),
  };
}

/**
 * The decision once the history became the summary, the prompt and the step kept (`keptStep`):
 * nothing when it fits; the kept step's outputs cut to fit; else refused, the summary too long.
 */
export function decideAfterSummary(s: Omit<FitState, "overflow">, keptStep: boolean): FitDecision {
  const { history, tools, budget } = s;
  if (!budget || promptTokens(history, tools, budget.calibration) <= promptLimit(budget)) {
    return NOTHING;
  }
  // The step's outputs may still be too big beside the summary: cut them to fit.
  const fit = keptStep ? planUnreadCuts(history, tools, budget, s.promptAt + 2) : undefined;
  if (!fit?.fits) {
    const text = compactFailedText(budget.window, SUMMARY_TOO_LONG, budget.toldWindow);
    return { kind: "refuse", cuts: [], text };
  }
  return cutOrNothing(fit.cuts);
}

/** `cut` when there is something to cut. */
function cutOrNothing(cuts: Cut[]): FitDecision {
  return cuts.length ? { kind: "cut", cuts } : NOTHING;
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
