/** What the agent core tells the front ends; they render these and nothing else. */

import type { FileDiff, NestedEvent, ToolKind } from "../tool.ts";
import type { Counters, RequestUsage, TurnUsage } from "./recap.ts";
import type { MessageKind } from "../presentation.ts";

/** One event of a turn, in the order it happens. `--json` writes each as one line. */
export type AgentEvent =
  | { type: "turn_start"; prompt: string; provider: string; model: string }
  | { type: "text"; text: string }
  | { type: "thought"; text: string }
  | { type: "composing"; tool: string }
  /** The model streams what shows nothing yet (a call's arguments); throttled, never in `--json`. */
  | { type: "progress" }
  | {
    type: "tool_call";
    id: string;
    name: string;
    kind: ToolKind;
    emoji: string;
    summary: string;
    input: unknown;
    /** The permission gate will ask about the call (its prompt names it); absent otherwise. */
    asks?: true;
  }
  /** A preToolCall hook gave the call a new input: what runs, with its display line's summary. */
  | { type: "tool_input"; id: string; name: string; summary: string; input: unknown }
  | {
    type: "tool_result";
    id: string;
    name: string;
    output: string;
    failed: boolean;
    diff?: FileDiff;
    /** False when the output is not to be echoed (read_skill). */
    preview?: boolean;
    /** Shown in place of `output` (ask_agent: `<agent> answered (N characters)`). */
    display?: string;
  }
  /** A step of the agent a running call asked (ask_agent), between its tool_call and tool_result. */
  | { type: "nested"; call: string; event: NestedEvent }
  | { type: "warning"; message: string }
  /** Something mm did on its own that the user should know of (compacting a full window). */
  | { type: "notice"; message: string }
  /** After every model request: what it cost (the server's count, or mm's estimate). */
  | { type: "usage"; usage: RequestUsage }
  /** The turn answered: its counters, and its requests' usage summed when it made any. */
  | { type: "recap"; counters: Counters; usage?: TurnUsage }
  | { type: "answer"; text: string }
  /**
   * The turn failed: `kind` says what `message` is (a provider's sentence, mm's own bracketed
   * text), which decides how it is shown (`errorLine`); `--json` leaves it out.
   */
  | {
    type: "error";
    message: string;
    kind: MessageKind;
    where: "generation" | "tool" | "hook" | "session";
  };
