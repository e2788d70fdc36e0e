/**
 * One question to an asked agent while it runs (lib/subagent/child.ts): its answer so far (the child's
 * own text after its own last tool call) and the watchdog that waits for its signs of life.
 */

import type { SessionUpdate } from "npm:@agentclientprotocol/sdk@2.4.0";
import type { AskUser, FileDiff } from "../tool.ts";
import { isErrorChunk, nestedAgent } from "../acp/mm_ext.ts";

/**
 * What a child's permission request for its call `id` is answered with: allowed or not; `change`
 * is the file change the call would make, when the request carries it.
 */
export type Decide = (
  title: string,
  signal: AbortSignal,
  id: string,
  change?: FileDiff,
) => Promise<boolean>;

/** How one question ended; `silent`: the watchdog stopped it after `ms` without an update. */
export type AskResult =
  | { kind: "answered"; answer: string }
  | { kind: "failed"; reason: string }
  | { kind: "stopped"; answer: string; reason: string }
  | { kind: "silent"; answer: string; ms: number };

/** How one question is asked. */
export interface AskOptions {
  /** The session's working directory. */
  cwd: string;
  /** Cancels the question (`session/cancel`). */
  signal: AbortSignal;
  /** Answers the child's permission requests. */
  decide: Decide;
  /**
   * Puts the child's ask_user questions (its forms, each prefixed `<agent> asks: `) to the asking
   * agent's user; absent: nobody can be asked, and the child is told so at `session/new`.
   */
  ask?: AskUser;
  /** Every `session/update` of the question's session, as it comes. */
  onUpdate?: (update: SessionUpdate) => void;
  /**
   * Milliseconds the child may stay silent (no update, no request) once the prompt is sent before
   * the question is cancelled: the asking agent's `watchdogTimeout`. Waiting for the user's answer
   * to a request of the child, and the child's own tool calls while they run, do not count.
   */
  watchdog?: number;
}

/**
 * The watchdog of one question: fires after `ms` without a beat, unless held (the user is being
 * asked, or one of the child's calls runs).
 */
export class Watchdog {
  #timer?: ReturnType<typeof setTimeout>;
  #holds = 0;
  #ms: number | undefined;
  #fire: (ms: number) => void;

  /** A watchdog that calls `fire` after `ms` of silence (never when `ms` is undefined or 0). */
  constructor(ms: number | undefined, fire: (ms: number) => void) {
    this.#ms = ms;
    this.#fire = fire;
  }

  /** A sign of life: the silence starts again. */
  beat(): void {
    clearTimeout(this.#timer);
    const ms = this.#ms;
    if (ms && this.#holds === 0) this.#timer = setTimeout(() => this.#fire(ms), ms);
  }

  /** Something that is not silence begins: the watchdog waits until `release`. */
  hold(): void {
    this.#holds++;
    clearTimeout(this.#timer);
  }

  /** What `hold` began has ended: the silence starts again. */
  release(): void {
    this.#holds--;
    this.beat();
  }

  /** The question is over. */
  stop(): void {
    clearTimeout(this.#timer);
  }
}

/** The state of one question's session, for the notification and request handlers. */
export class QuestionState {
  /** The child's own text since its last tool call: its answer so far. */
  text = "";
  readonly opts: AskOptions;
  readonly watchdog: Watchdog;
  /** The child's own calls that are pending or running. */
  #open = new Set<string>();

  /** The state of a question asked with `opts`, watched by `watchdog`. */
  constructor(opts: AskOptions, watchdog: Watchdog) {
    this.opts = opts;
    this.watchdog = watchdog;
  }

  /**
   * One update of the child. Only its own work counts for the answer: the updates of an agent it
   * asked in turn are marked `_meta.mm.nested` and only shown.
   */
  take(u: SessionUpdate): void {
    this.watchdog.beat();
    // The sentence of a failed turn is its failure, never part of its answer.
    if (nestedAgent(u) !== undefined || isErrorChunk(u)) return;
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
      this.text += u.content.text;
    } else if (u.sessionUpdate === "tool_call") {
      // Text written before a call is not the answer: the answer is the final message.
      this.text = "";
      if (u.status !== "completed" && u.status !== "failed") this.#opened(u.toolCallId);
    } else if (u.sessionUpdate === "tool_call_update") {
      if (u.status === "completed" || u.status === "failed") this.#closed(u.toolCallId);
    }
  }

  #opened(id: string): void {
    if (this.#open.has(id)) return;
    this.#open.add(id);
    this.watchdog.hold();
  }

  #closed(id: string): void {
    if (!this.#open.delete(id)) return;
    this.watchdog.release();
  }
}
