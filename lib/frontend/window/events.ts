/**
 * The core's events as the window's blocks: streamed text and thinking, one block per tool call
 * (its status, time and output), an asked agent's steps nested under its call, notes, the recap.
 * Also what the status line says while a turn runs: the spinner's state, the turn's counters and
 * its requests' usage (the window's fill, the speed).
 */

import {
  addUsage,
  type AgentEvent,
  type Counters,
  emptyCounters,
  emptyUsage,
  recapLine,
  replay,
  tokenCount,
  type TurnUsage,
} from "../../agent/mod.ts";
import { errorLine } from "../../presentation.ts";
import type { Message } from "../../history.ts";
import type { AnyTool, Counter, NestedEvent } from "../../tool.ts";
import {
  AgentLabelBlock,
  type Block,
  type CallStatus,
  NoteBlock,
  type NoteKind,
  PromptBlock,
  TextBlock,
  type TextMarkdown,
  ThoughtBlock,
  ToolBlock,
} from "./blocks.ts";
import type { Conversation } from "./conversation.ts";

/** How far an asked agent's steps are drawn in under their call. */
export const NESTED_INDENT = 2;

/** Where a list of blocks streams into: the conversation, or a call's nested steps. */
interface Stream {
  add(block: Block): void;
  /** The open text or thought at the end, if any. */
  last(): Block | undefined;
  indent: number;
}

/** The spinner's states (tools.md, Loop detection; mm.md §4) and the window's own. */
export type BusyState =
  | "Thinking"
  | "Writing"
  | "Composing a tool call"
  | "Fetching"
  | "Running"
  | "Compacting";

/** Turns events into blocks of `conversation`. */
export class EventView {
  readonly #conversation: Conversation;
  readonly #counterOf: (tool: string) => Counter | undefined;
  readonly #titleOf: (agent: string) => string;
  readonly #now: () => number;
  readonly #markdown: TextMarkdown | undefined;
  readonly #calls = new Map<string, ToolBlock>();
  /** The counters of the running turn, as its calls end. */
  counters: Counters = emptyCounters();
  /** The running turn's requests' usage so far (the `usage` events), the last turn's after it. */
  usage: TurnUsage = emptyUsage();
  /** What the status line's spinner says; undefined when no turn runs. */
  busy: BusyState | undefined;
  /** The asked agent working now (its `mmConfigs` name), for the header. */
  asking: string | undefined;
  /** Called after every change. */
  onChange: () => void = () => {};

  /**
   * A view over `conversation`. `counterOf` gives a tool's recap counter; `titleOf` an asked
   * agent's title (`‣ mm <title>` over its answer).
   */
  constructor(
    conversation: Conversation,
    opts: {
      counterOf: (tool: string) => Counter | undefined;
      titleOf: (agent: string) => string;
      now?: () => number;
      /** The answer drawn as Markdown (the model's own; an asked agent's stays as it is). */
      markdown?: TextMarkdown;
    },
  ) {
    this.#conversation = conversation;
    this.#counterOf = opts.counterOf;
    this.#titleOf = opts.titleOf;
    this.#now = opts.now ?? Date.now;
    this.#markdown = opts.markdown;
  }

  /** The call of id `id` (the model's own or, with `nested`, an asked agent's). */
  call(id: string): ToolBlock | undefined {
    return this.#calls.get(id);
  }

  /** The latest call that is still running, nested calls included: the one a question is for. */
  runningCall(): ToolBlock | undefined {
    let found: ToolBlock | undefined;
    for (const block of this.#calls.values()) if (!block.ended) found = block;
    return found;
  }

  /** Sets a call's waiting status (permission, question) or back to running. */
  setStatus(block: ToolBlock | undefined, status: CallStatus): void {
    if (!block) return;
    block.wait(status);
    this.#touchParents(block);
    this.onChange();
  }

  /** Adds the user's prompt (or a command) as typed. */
  prompt(text: string): void {
    this.#closeOpen(this.#top());
    this.#conversation.add(new PromptBlock(text));
    this.onChange();
  }

  /** Adds a note of mm's own. */
  note(text: string, kind: NoteKind = "info"): void {
    this.#closeOpen(this.#top());
    this.#conversation.add(new NoteBlock(text, kind));
    this.onChange();
  }

  /** Starts a call drawn by the front end itself (`/ask`), under id `id`. */
  startCall(id: string, name: string, summary: string): ToolBlock {
    this.#closeOpen(this.#top());
    const block = new ToolBlock({ id, name, summary, kind: "other" }, this.#now());
    this.#calls.set(id, block);
    this.#conversation.add(block);
    this.onChange();
    return block;
  }

  /** Ends a call drawn by the front end itself. */
  endCall(id: string, output: string, failed: boolean): void {
    const block = this.#calls.get(id);
    if (!block) return;
    this.#closeOpen(this.#nestedStream(block));
    block.end(this.#now(), output, failed);
    this.#calls.delete(id);
    this.asking = undefined;
    this.onChange();
  }

  /** A turn ended (answered or not): nothing streams any more. */
  finish(): void {
    this.#closeOpen(this.#top());
    for (const block of this.#calls.values()) {
      if (!block.ended) block.end(this.#now(), undefined, true);
    }
    this.#calls.clear();
    this.busy = undefined;
    this.asking = undefined;
    this.onChange();
  }

  /**
   * Draws a resumed session's messages (`--continue`, `--session`) as they were drawn live, from
   * their replay (lib/agent/replay.ts): the prompts, the answers, one row per call with its output
   * (a cancelled or failed one failed), an asked agent's answer under its call, a compacted past as
   * one note.
   */
  replay(messages: readonly Message[], tools: readonly AnyTool[]): void {
    for (const e of replay(messages, tools)) {
      if (e.type !== "prompt") this.handle(e);
      else if (e.text) this.prompt(e.text);
    }
    this.finish();
  }

  /** Applies one event of the core. */
  handle(e: AgentEvent): void {
    const top = this.#top();
    switch (e.type) {
      case "turn_start":
        this.counters = emptyCounters();
        this.usage = emptyUsage();
        this.busy = "Thinking";
        break;
      case "thought":
        this.#think(top, e.text);
        this.busy = "Thinking";
        break;
      case "text":
        this.#write(top, e.text);
        // The answer streams: the model is not thinking any more (line mode stops its spinner).
        if (e.text.trim()) this.busy = "Writing";
        break;
      case "composing":
        this.#closeOpen(top);
        this.busy = "Composing a tool call";
        break;
      case "progress":
        break;
      case "tool_call": {
        this.#closeOpen(top);
        const block = new ToolBlock(e, this.#now());
        this.#calls.set(e.id, block);
        this.#conversation.add(block);
        this.busy = e.name === "fetch_content" ? "Fetching" : "Running";
        break;
      }
      case "tool_input":
        this.#calls.get(e.id)?.retitle(e.summary);
        break;
      case "tool_result": {
        const block = this.#calls.get(e.id);
        const counter = this.#counterOf(e.name);
        if (counter) this.counters[counter]++;
        if (block) {
          this.#closeOpen(this.#nestedStream(block));
          block.end(
            this.#now(),
            e.preview === false ? undefined : e.display ?? e.output,
            e.failed,
            e.diff,
          );
          this.#calls.delete(e.id);
        }
        this.asking = undefined;
        this.busy = "Thinking";
        break;
      }
      case "nested":
        this.#nested(e.call, e.event);
        break;
      case "warning":
        this.note(e.message, "warning");
        return;
      case "notice":
        this.note(e.message, "notice");
        return;
      case "error":
        this.note(errorLine(e.message, e.kind), "error");
        return;
      case "usage":
        this.usage = addUsage(this.usage, e.usage);
        break;
      case "recap": {
        this.#closeOpen(top);
        const line = recapLine(e.counters);
        if (line) this.#conversation.add(new NoteBlock(line, "recap"));
        break;
      }
      case "answer":
        this.#closeOpen(top);
        break;
    }
    this.onChange();
  }

  /** The conversation as a stream. */
  #top(): Stream {
    const c = this.#conversation;
    return { add: (b) => c.add(b), last: () => c.blocks.at(-1), indent: 0 };
  }

  /** A call's nested steps as a stream. */
  #nestedStream(call: ToolBlock): Stream {
    return {
      add: (b) => call.addNested(b),
      last: () => call.nested.at(-1),
      indent: NESTED_INDENT,
    };
  }

  #think(stream: Stream, text: string): void {
    const last = stream.last();
    if (last instanceof ThoughtBlock && !last.closed) last.append(text);
    else {
      const block = new ThoughtBlock(this.#now(), stream.indent);
      block.append(text);
      stream.add(block);
    }
  }

  #write(stream: Stream, text: string, label?: string): void {
    const last = stream.last();
    if (last instanceof ThoughtBlock) last.close(this.#now());
    if (last instanceof TextBlock) {
      last.append(text);
      return;
    }
    if (text.trim() === "") return;
    if (label) stream.add(new AgentLabelBlock(label, stream.indent));
    const block = new TextBlock(stream.indent, stream.indent === 0 ? this.#markdown : undefined);
    block.append(text);
    stream.add(block);
  }

  /** Closes the thought or text at the end of `stream` (the answer or a call began). */
  #closeOpen(stream: Stream): void {
    const last = stream.last();
    if (last instanceof ThoughtBlock) last.close(this.#now());
    if (last instanceof TextBlock) last.end();
  }

  /** A step of the agent that call `callId` asked. */
  #nested(callId: string, e: NestedEvent): void {
    const call = this.#calls.get(callId);
    if (!call) return;
    this.asking = e.agent;
    const stream = this.#nestedStream(call);
    const nestedId = `nested:${callId}:${e.type === "text" || e.type === "thought" ? "" : e.id}`;
    if (e.type === "thought") this.#think(stream, e.text);
    else if (e.type === "text") this.#write(stream, e.text, this.#titleOf(e.agent));
    else if (e.type === "tool_call") {
      this.#closeOpen(stream);
      const block = new ToolBlock(
        { id: nestedId, name: e.title, summary: "", kind: e.kind },
        this.#now(),
        stream.indent,
      );
      call.calls.set(e.id, block);
      this.#calls.set(nestedId, block);
      stream.add(block);
    } else {
      const block = call.calls.get(e.id);
      // A new title before its end: the asked agent's own hook changed what runs.
      if (block && e.title !== undefined && e.title !== block.name) block.rename(e.title);
      if (block && (e.status === "completed" || e.status === "failed")) {
        block.end(this.#now(), e.output, e.status === "failed", e.diff);
        this.#calls.delete(nestedId);
      } else if (block && e.status === "in_progress") block.wait("running");
    }
    call.changed();
  }

  /** Marks the calls around a nested call changed, so that they draw it again. */
  #touchParents(block: ToolBlock): void {
    for (const call of this.#calls.values()) {
      if ([...call.calls.values()].includes(block)) call.changed();
    }
  }
}

/**
 * The status line's figures of a turn, in the recap's numbers (lib/agent/recap.ts): the window's
 * fill and the speed, `ctx 3.1k/8k (39%) · 41 tok/s`; `~` before mm's own estimates. Empty before
 * the turn's first request ends.
 */
export function usageStatus(u: TurnUsage): string {
  if (!u.requests) return "";
  const est = u.estimated ? "~" : "";
  const used = tokenCount(u.contextTokens);
  const ctx = u.contextWindow
    ? `ctx ${est}${used}/${tokenCount(u.contextWindow)} (${
      Math.round(u.contextTokens / u.contextWindow * 100)
    }%)`
    : `ctx ${est}${used}`;
  return u.tokensPerSecond ? `${ctx} · ${est}${Math.round(u.tokensPerSecond)} tok/s` : ctx;
}
