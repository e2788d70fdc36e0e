/**
 * The conversation's record: its messages (the system prompt first), the turn of each, the turn
 * now, and where that turn's prompt is. Every change of it is one step, and the session file
 * catches up after each (`saved`).
 */

import { type Message, resumable, summaryMessages } from "../history.ts";

/** A shortening of one message of the record (lib/agent/budget.ts plans them). */
export interface MessageCut {
  index: number;
  content: string;
}

/** The messages of a conversation and their turns. */
export class Transcript {
  /** The history as sent to the model, system prompt first. */
  readonly messages: Message[];
  /** The turn of each message (0 for the system prompt, 1 for the first question). */
  readonly turns: number[];
  /** The current (or last) turn's number. */
  turn = 0;
  /** Where the current turn's prompt is in `messages`. */
  promptAt = 0;
  #saved: () => Promise<void>;

  /** A record with `system` first, after `earlier` messages if resumed; `saved` after each step. */
  constructor(
    system: string,
    earlier: { message: Message; turn: number }[],
    saved: () => Promise<void>,
  ) {
    this.messages = [{ role: "system", content: system }];
    this.turns = [0];
    this.#saved = saved;
    // A resumed history never sends a call without its answer (a run killed mid-call left one).
    for (const { message, turn } of resumable(earlier)) {
      this.messages.push(message);
      this.turns.push(turn);
      this.turn = Math.max(this.turn, turn);
    }
  }

  /** Adds a message of the current turn: one step is done. */
  async push(message: Message): Promise<void> {
    this.messages.push(message);
    this.turns.push(this.turn);
    await this.#saved();
  }

  /** Adds an exchange made outside a turn (`/ask`) as a turn of its own. */
  async addExchange(question: string, answer: string): Promise<void> {
    this.turn++;
    await this.push({ role: "user", content: question });
    await this.push({ role: "assistant", content: answer });
  }

  /** Removes turn `from` and every later one (undo); false when there was none. */
  async dropFrom(from: number): Promise<boolean> {
    const keep = this.turns.findIndex((t, i) => i > 0 && t >= from);
    if (keep === -1) return false;
    this.messages.splice(keep);
    this.turns.splice(keep);
    this.turn = Math.min(this.turn, from - 1);
    await this.#saved();
    return true;
  }

  /** The past becomes the summary of `notes`, its acknowledgement and `kept`, in this turn. */
  async compactInto(notes: string, kept: Message[]): Promise<void> {
    const turn = this.turn;
    this.messages.splice(1);
    this.turns.splice(1);
    this.messages.push(...summaryMessages(notes), ...kept);
    this.turns.push(turn, turn, ...kept.map(() => turn));
    this.promptAt = this.messages.length - kept.length;
    await this.#saved();
  }

  /** Shortens tool outputs as planned. */
  async applyCuts(cuts: readonly MessageCut[]): Promise<void> {
    for (const c of cuts) {
      this.messages[c.index] = { ...this.messages[c.index], content: c.content } as Message;
    }
    if (cuts.length) await this.#saved();
  }
}
