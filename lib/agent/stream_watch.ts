/**
 * What a streamed model answer asks for, delta by delta (mm.md §4): the text to show (text-form
 * calls held back by the filter), the thinking, the calls being composed, the `progress` beats —
 * or why the stream must stop: the watchdog's silence, a runaway call, a model repeating itself.
 * No I/O and no timers: its caller feeds it the deltas and the clock, and does what it answers
 * (lib/agent/model_call.ts for a turn, lib/commands/doctor.ts for its tool-calling check).
 */

import type { Delta } from "../provider/chat.ts";
import type { AgentEvent } from "./events.ts";
import { isRunaway, runawayText } from "./loop_detector.ts";
import { repetitionText, RepetitionWatch } from "./repetition.ts";
import type { KnownTools } from "./text_calls/dialects.ts";
import { TextCallFilter } from "./text_calls/filter.ts";
import { watchdogText } from "./texts.ts";

/** The least time between two `progress` events of one model call. */
export const PROGRESS_MS = 250;

/** Why a stream must stop: the sentence the turn ends with, and its reason. */
export interface StreamStop {
  reason: "watchdog" | "runaway" | "repetition";
  message: string;
}

/** What one delta asks for: the events to show, in order, then a stop when the stream must end. */
export interface WatchVerdict {
  show: AgentEvent[];
  stop?: StreamStop;
}

/** How a stream is watched. */
export interface StreamWatchOptions {
  /** Milliseconds of silence after which the watchdog stops the stream (`watchdogTimeout`). */
  silence: number;
  /**
   * The declared tools, when the answer is shown and watched; without them (a summary) the stream
   * is only timed: nothing shown, nothing stopped but silence.
   */
  tools?: KnownTools;
  /** With structuredOutput the answer is JSON: a message of bare JSON is never a call. */
  jsonAnswer?: boolean;
}

/** Watches one streamed answer: fed its deltas and the clock, it answers what to show or why to stop. */
export class StreamWatch {
  #silence: number;
  #deadline: number;
  #stopped: StreamStop | undefined;
  /** The text-call filter, when the answer is shown. */
  #shown: TextCallFilter | undefined;
  /** The answer's text (or a call held in it) ran away: what it held is not shown. */
  #heldRanAway = false;
  #answerLoop = new RepetitionWatch();
  #thoughtLoop = new RepetitionWatch();
  /** The structured calls being composed, by index. */
  #composing = new Set<number>();
  #progressAt = -Infinity;

  /** A watch for a stream started at `now` (milliseconds). */
  constructor(opts: StreamWatchOptions, now: number) {
    this.#silence = opts.silence;
    this.#deadline = now + opts.silence;
    if (opts.tools) {
      this.#shown = new TextCallFilter(opts.tools, { jsonAnswer: opts.jsonAnswer === true });
    }
  }

  /** When the watchdog stops the stream if nothing arrives before: the time to tick at. */
  get deadline(): number {
    return this.#deadline;
  }

  /** Why the stream was stopped, once it was. */
  get stopped(): StreamStop | undefined {
    return this.#stopped;
  }

  /** The clock at `now`: the watchdog's stop once the stream has been silent too long. */
  tick(now: number): StreamStop | undefined {
    if (this.#stopped || now < this.#deadline) return undefined;
    return this.#stop({ reason: "watchdog", message: watchdogText(this.#silence) });
  }

  /** The server asked to wait `ms` from `now` (HTTP 429): that silence is not the model's. */
  wait(ms: number, now: number): void {
    this.#deadline = now + ms + this.#silence;
  }

  /** A delta arrived at `now`: it feeds the watchdog; what to show, or why to stop. */
  push(d: Delta, now: number): WatchVerdict {
    if (this.#stopped) return { show: [] };
    this.#deadline = now + this.#silence;
    const shown = this.#shown;
    if (!shown) return { show: [] };
    const show: AgentEvent[] = [];
    const verdict = (stop?: StreamStop): WatchVerdict =>
      stop ? { show, stop: this.#stop(stop) } : { show };
    if (d.type === "text") {
      // Deltas that show nothing (a call's arguments, text held as a possible call) still say the
      // model is alive, at most every PROGRESS_MS: an asking mm's watchdog waits on it (docs/acp.md).
      const text = shown.push(d.text);
      if (text) show.push({ type: "text", text });
      else this.#progress(now, show);
      // A model repeating itself inside what may be a text-form call runs away as well.
      const held = shown.heldRunaway();
      if (held !== undefined) {
        this.#heldRanAway = true;
        return verdict({ reason: "runaway", message: runawayText(held) });
      }
      // What is shown is watched; what is held as a possible call is the runaway rule's.
      const repeated = text ? this.#answerLoop.push(text) : undefined;
      if (repeated === undefined) return verdict();
      this.#heldRanAway = true;
      return verdict({ reason: "repetition", message: repetitionText(repeated, "answer") });
    }
    if (d.type === "thought") {
      show.push({ type: "thought", text: d.text });
      const repeated = this.#thoughtLoop.push(d.text);
      if (repeated === undefined) return verdict();
      return verdict({ reason: "repetition", message: repetitionText(repeated, "thinking") });
    }
    if (!this.#composing.has(d.index)) {
      this.#composing.add(d.index);
      show.push({ type: "composing", tool: d.name });
    } else this.#progress(now, show);
    return verdict(
      isRunaway(d.arguments) ? { reason: "runaway", message: runawayText(d.arguments) } : undefined,
    );
  }

  /**
   * The answer is complete: the held text left to show, without the text-form calls it held (they
   * run as calls) unless the answer had structured calls.
   */
  finish(structuredCalls: boolean): string {
    return this.#shown?.finish(!structuredCalls) ?? "";
  }

  /**
   * The stream was cancelled or failed mid-answer: the text held as a possible call is shown after
   * all, without a call it completed (a runaway's is not: its error shows its end).
   */
  abandon(): string {
    if (this.#heldRanAway) return "";
    return this.#shown?.finish(this.#composing.size === 0) ?? "";
  }

  #stop(stop: StreamStop): StreamStop {
    this.#stopped = stop;
    return stop;
  }

  /** A `progress` event into `show`, when the last was at least PROGRESS_MS before `now`. */
  #progress(now: number, show: AgentEvent[]): void {
    if (now - this.#progressAt < PROGRESS_MS) return;
    this.#progressAt = now;
    show.push({ type: "progress" });
  }
}
