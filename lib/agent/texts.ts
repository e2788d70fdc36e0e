/** The turn's own texts (mm.md §4, tools.md), and how a turn ended: the front ends read these. */

import { formatDuration } from "../config/duration.ts";
import { nearest } from "../nearest.ts";
import type { Counters } from "./recap.ts";
import { warningText } from "../presentation.ts";

/**
 * Why a turn failed, so that no front end compares error strings: the server or the connection
 * (`provider`), a hook that blocked the prompt (`blocked`), the watchdog, a runaway generation,
 * the loop detector, `maxTurns`, a context window the prompt cannot fit (`window`), a tool that
 * ended the turn (`tool`: an asked agent that stayed silent), an empty answer (`empty`), a tool
 * call cut at `maxTokens` (`cut`), or a model repeating itself in its answer or its thinking.
 */
export type FailReason =
  | "provider"
  | "empty"
  | "cut"
  | "blocked"
  | "watchdog"
  | "runaway"
  | "repetition"
  | "loop"
  | "maxTurns"
  | "window"
  | "tool";

/** How a turn ended. */
export type TurnOutcome =
  | { status: "answered"; answer: string; counters: Counters }
  | { status: "failed"; error: string; reason: FailReason; counters: Counters }
  | { status: "cancelled"; counters: Counters };

/** Ends a turn with one sentence, and why. */
export class TurnStop extends Error {
  /** Why the turn stops. */
  readonly reason: FailReason;

  /** `message` is the sentence the user reads. */
  constructor(message: string, reason: FailReason) {
    super(message);
    this.name = "TurnStop";
    this.reason = reason;
  }
}

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

/** The answer to every call of a step after the one that stopped the turn (lib/history.ts). */

/** How long a tool may take to stop once its turn is cancelled before the turn goes on without it. */
export const CANCEL_GRACE = 1000;

/** The output of a call whose tool did not stop within {@linkcode CANCEL_GRACE} of the cancellation. */
export function abandonedText(tool: string): string {
  return `[error: cancelled: ${tool} did not stop within 1s of the cancellation and was left behind]`;
}

/** What a tool's crash tells the model: a thrown error inside a tool is a bug. */
export function crashText(tool: string, message: string): string {
  return `[error: ${tool} failed unexpectedly: ${message}]`;
}

/** What the model reads when a preToolCall hook denies a call. */
export function hookDeniedText(tool: string, reason: string): string {
  return `[${tool} denied by a hook: ${reason}]`;
}

/** The warning when a preToolCall hook's new input does not fit the tool. */
export function hookInputText(tool: string, faults: string[]): string {
  return `preToolCall hook gave ${tool} an input it cannot take (${
    faults.join("; ")
  }) — kept the input it had`;
}

/** How the server's length limit is named: `maxTokens (N)`, or the server's own limit. */
function lengthLimit(maxTokens: number | undefined): string {
  return maxTokens === undefined ? "the server's length limit" : `maxTokens (${maxTokens})`;
}

/** The warning after an answer the server cut at its length limit (`finish_reason: "length"`). */
export function answerCutText(maxTokens: number | undefined): string {
  return warningText(`the answer was cut at ${lengthLimit(maxTokens)}`);
}

/** The error that ends a turn whose tool call the server cut at its length limit. */
export function callCutText(maxTokens: number | undefined): string {
  const fix = maxTokens === undefined
    ? "set a larger maxTokens in the agent file (or raise the server's -n)"
    : "raise maxTokens in the agent file";
  return `[error: the model's tool call was cut at ${
    lengthLimit(maxTokens)
  } before it was complete — stopped; ${fix}, or ask for a smaller step]`;
}

/** What the model reads for each call of a step that was cut: nothing of it ran. */
export function notRunCutText(maxTokens: number | undefined): string {
  return `[error: not run: the call was cut at ${lengthLimit(maxTokens)}]`;
}

/** The error that ends a turn whose answer is empty: no text and no call. */
export function emptyAnswerText(maxTokens: number | undefined, cut: boolean): string {
  // With no maxTokens the limit is the server's own (llama-server's -n, its n_predict).
  const fix = maxTokens === undefined
    ? "raise the server's own limit on answers (llama-server's `-n`), or set maxTokens in the agent file"
    : "raise maxTokens in the agent file";
  return cut
    ? `[error: the model's answer was cut at ${
      lengthLimit(maxTokens)
    } before it wrote anything — ${fix}]`
    : "[error: the model gave an empty answer (no text, no tool call) — try again, or rephrase the request]";
}

/** Where a call written as text starts (docs/small-models.md): a cut answer holding one is a cut call. */
const CALL_START = /<tool_call>|<function=|\[TOOL_CALLS\]/;

/** What an answer of the model means for the turn, before its calls run. */
export type AnswerEnd =
  /** Calls to run. */
  | { kind: "calls" }
  /** The final answer, with a warning when the server cut it. */
  | { kind: "answer"; warning?: string }
  /** The turn fails: `notRun` answers each call of the step, which never runs. */
  | { kind: "failed"; error: string; reason: FailReason; notRun?: string };

/**
 * What an answer means: an answer or calls as usual; but a call the server cut at its length limit
 * (structured, or written as text) ends the turn, none of the step's calls run, and an empty
 * answer is a failure.
 */
export function answerEnd(
  result: { text: string; toolCalls: unknown[]; finishReason?: string },
  calls: unknown[],
  maxTokens: number | undefined,
): AnswerEnd {
  const cut = result.finishReason === "length";
  if (calls.length && cut && result.toolCalls.length) {
    return {
      kind: "failed",
      error: callCutText(maxTokens),
      reason: "cut",
      notRun: notRunCutText(maxTokens),
    };
  }
  if (calls.length) return { kind: "calls" };
  if (!result.text.trim()) {
    return { kind: "failed", error: emptyAnswerText(maxTokens, cut), reason: "empty" };
  }
  if (cut && CALL_START.test(result.text)) {
    return { kind: "failed", error: callCutText(maxTokens), reason: "cut" };
  }
  return cut ? { kind: "answer", warning: answerCutText(maxTokens) } : { kind: "answer" };
}
