/**
 * One ACP session: its working directory, its agent, its session file, its running turn, and the
 * `session/update` notifications that show it in the editor, sent in order.
 */

import type {
  ContentBlock,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  StopReason,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import {
  type Agent,
  type AgentEvent,
  commandsOf,
  Conversation,
  outcomeLines,
  parseCommand,
  replay,
  type SlashCommand,
} from "../../agent/mod.ts";
import { errorLine } from "../../presentation.ts";
import type { Config } from "../../config/config.ts";
import type { LspPool } from "../../lsp/pool.ts";
import type { McpServers } from "../../mcp/servers.ts";
import type { AskedBy, PermissionAnswer } from "../../permissions/prompt.ts";
import type { ChatClient } from "../../provider/chat.ts";
import type { Message } from "../../history.ts";
import type { SessionRecorder } from "../../session/recorder.ts";
import type { Subagents } from "../../subagent/ask.ts";
import type { AnyTool, FileDiff, NestedEvent, ToolKind } from "../../tool.ts";
import { frontEndAgent } from "../start.ts";
import { errorChunkMeta, usageMeta } from "../../acp/mm_ext.ts";
import { editorAsk } from "./elicitation.ts";
import { nestedCallStart, nestedCallUpdate, nestedChunk } from "./nested_updates.ts";
import { permissionAnswer, permissionOptions, untilAborted } from "./permission.ts";
import {
  changeContent,
  linkedPaths,
  promptText,
  textChunk,
  toolCallEnd,
  toolCallRunning,
  toolCallStart,
  toolTitle,
} from "./updates.ts";

/** What a session asks of the editor on the other end of the connection. */
export interface EditorPeer {
  /** Sends one `session/update` notification. */
  update(sessionId: string, update: SessionUpdate): Promise<void>;
  /** `session/request_permission`. */
  requestPermission(params: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  /** `elicitation/create`. */
  elicit(params: CreateElicitationRequest): Promise<CreateElicitationResponse>;
  /** `_mm/alive`: the model streams what no update shows yet (an asking mm's watchdog). */
  alive?(sessionId: string): Promise<void>;
}

/** Everything a session is made of. */
export interface SessionOptions {
  /** The ACP session id; the session file's id when sessions are on. */
  id: string;
  /** The session's `cwd`: where its tools run, its AGENTS.md, its sessions directory. */
  cwd: string;
  config: Config;
  model: string;
  chat: ChatClient;
  /** The tools built for this `cwd`. */
  tools: AnyTool[];
  systemPrompt: string;
  recorder?: SessionRecorder;
  /** The language servers of `cwd`, shared by the sessions of that directory. */
  lsp?: LspPool;
  /** The agents of `mmConfigs`, for ask_agent. */
  agents?: Subagents;
  /** The MCP servers whose tools the session declares: the agent file's, the editor's. */
  mcp?: Promise<McpServers>[];
  peer: EditorPeer;
  /** The client advertised `elicitation.form`. */
  forms: boolean;
  /** The client advertised `session.notices`. */
  notices: boolean;
  /** False when the client said nobody can be asked (`_meta.mm.askUser` of `session/new`). */
  askUser?: boolean;
  /** A line for stderr. */
  log(line: string): void;
}

/** The call being run: the core runs a session's calls one at a time. */
interface CurrentCall {
  coreId: string;
  acpId: string;
  title: string;
  kind: ToolKind;
  locations?: string[];
  /** The ACP ids of the calls of the agent this call asked (ask_agent), by that agent's own ids. */
  nested?: Map<string, string>;
}

/** A conversation driven by the editor. */
export class AcpSession {
  /** The ACP session id. */
  readonly id: string;
  /** The working directory of every tool of the session. */
  readonly cwd: string;
  /** The conversation and its commands (those editor mode offers). */
  readonly conversation: Conversation;
  #opts: SessionOptions;
  #turn?: { controller: AbortController; done: Promise<unknown> };
  #queue: Promise<void> = Promise.resolve();
  #ids = new Set<string>();
  #current?: CurrentCall;
  #wroteText = false;
  /** Whose text the message stream ends with: "" this agent's, else a call's asked agent's. */
  #textFrom?: string;
  /** The newlines that end the message stream so far (0 to 2). */
  #textNewlines = 0;

  /** A session that starts empty, or continues `earlier` messages (`session/load`). */
  constructor(opts: SessionOptions, earlier: { message: Message; turn: number }[] = []) {
    this.#opts = opts;
    this.id = opts.id;
    this.cwd = opts.cwd;
    const ask = editorAsk({
      sessionId: opts.id,
      toolCallId: () => this.#current?.acpId,
      forms: opts.forms,
      elicit: async (params) => {
        await this.flush();
        return await opts.peer.elicit(params);
      },
      requestPermission: async (params) => {
        await this.flush();
        return await opts.peer.requestPermission(params);
      },
      onError: (e) => this.#requestFailed(e),
    });
    this.conversation = new Conversation({
      config: opts.config,
      cwd: opts.cwd,
      tools: opts.tools,
      agent: (again) =>
        frontEndAgent({
          ...opts,
          track: (t) => this.#tracked(t),
          sessionId: opts.id,
        }, {
          askPermission: (tool, summary, _input, askedBy, change, always) =>
            this.#askPermission(
              tool,
              summary,
              askedBy && { ...askedBy, question: summary },
              change,
              always,
            ),
          emit: (e) => this.#onEvent(e),
          warn: (message) => this.#warn(message),
          mcpLine: (message, warning) => this.#mcpLine(message, warning),
          ask: opts.askUser === false ? undefined : ask,
        }, again ?? earlier),
      emit: (e) => this.#onEvent(e),
    }, { editor: true });
  }

  /** The conversation's agent. */
  get agent(): Agent {
    return this.conversation.agent;
  }

  /** Tells the editor the commands it may offer (`available_commands_update`). */
  offerCommands(): void {
    this.#send({
      sessionUpdate: "available_commands_update",
      availableCommands: commandsOf(true).map((c) => {
        const name = c.name.slice(1);
        const hint = c.usage.slice(c.name.length).trim();
        return { name, description: c.help, ...(hint ? { input: { hint } } : {}) };
      }),
    });
  }

  /** Whether a turn is running. */
  get running(): boolean {
    return this.#turn !== undefined;
  }

  /**
   * Runs one turn for an ACP prompt and says how it stopped: `end_turn` when it answered or failed
   * (the failure was sent as an agent message first), `max_turn_requests` at `maxTurns`, `cancelled`
   * after `session/cancel`; `error` is the sentence of a failed turn (for the response's `_meta`).
   * Every update of the turn is sent before this returns.
   */
  async prompt(blocks: ContentBlock[]): Promise<{ stopReason: StopReason; error?: string }> {
    const text = promptText(blocks, this.cwd).trim();
    if (text === "") return { stopReason: "end_turn" };
    const command = text.startsWith("/") ? parseCommand(text) : undefined;
    if (command) return await this.#command(command);
    const controller = new AbortController();
    const turn = { controller, done: Promise.resolve() as Promise<unknown> };
    this.#turn = turn;
    const run = this.conversation.prompt(text, controller.signal, linkedPaths(blocks, this.cwd));
    turn.done = run.catch(() => {});
    try {
      const outcome = await run;
      await this.flush();
      if (controller.signal.aborted || outcome.status === "cancelled") {
        return { stopReason: "cancelled" };
      }
      if (outcome.status !== "failed") return { stopReason: "end_turn" };
      // An empty answer is no answer to an asking mm (`<agent> gave no answer`), not a failure.
      const error = outcome.reason === "empty" ? undefined : outcome.error;
      return {
        stopReason: outcome.reason === "maxTurns" ? "max_turn_requests" : "end_turn",
        error,
      };
    } finally {
      this.#turn = undefined;
    }
  }

  /**
   * A command typed in the editor (one it was offered): run through the conversation, cancelled by
   * `session/cancel`; what it says comes as agent messages, `/ask` as its call.
   */
  async #command(command: SlashCommand): Promise<{ stopReason: StopReason }> {
    const controller = new AbortController();
    const run = this.conversation.run(command, controller.signal);
    this.#turn = { controller, done: run.catch(() => {}) };
    this.#wroteText = false;
    this.#textFrom = undefined;
    try {
      const outcome = await run;
      // One message of the outcome's lines, as the line front ends print them (docs/undo.md).
      const lines = outcomeLines(outcome);
      if (lines.length) this.#say(lines.join("\n"), outcome.kind === "failed");
      await this.flush();
      return { stopReason: outcome.kind === "cancelled" ? "cancelled" : "end_turn" };
    } finally {
      this.#turn = undefined;
    }
  }

  /** `session/cancel`: stops the generation and kills the running command; history keeps what ran. */
  cancel(): void {
    this.#turn?.controller.abort();
  }

  /**
   * Cancels the turn and waits a little (2 s at most) for it to wind down, then lets the session
   * file's lock go.
   */
  async close(): Promise<void> {
    const turn = this.#turn;
    this.cancel();
    if (turn) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([turn.done, new Promise((r) => timer = setTimeout(r, 2_000))]);
      clearTimeout(timer);
    }
    await this.#opts.recorder?.close();
  }

  /**
   * `session/load`: sends the whole history again, its replay (lib/agent/replay.ts) translated as
   * a live turn's events are; returns once every update is sent.
   */
  async replay(): Promise<void> {
    for (const e of replay(this.agent.history, this.#opts.tools)) {
      if (e.type !== "prompt") this.#onEvent(e);
      else if (e.text) {
        // A question of the history: the editor shows it as the user's, then the turn's updates.
        this.#onEvent({ type: "turn_start", prompt: e.text, provider: "", model: "" });
        this.#send(textChunk("user_message_chunk", e.text));
      }
    }
    await this.flush();
  }

  /** Resolves once every update queued so far has been written. */
  flush(): Promise<void> {
    return this.#queue;
  }

  #send(update: SessionUpdate): void {
    this.#queue = this.#queue
      .then(() => this.#opts.peer.update(this.id, update))
      .catch((e) => this.#opts.log(`mm: a session/update could not be sent: ${errorText(e)}`));
  }

  /** A tool-call id not used yet in this session (models reuse `call_0` from one step to the next). */
  #freshId(coreId: string): string {
    const base = coreId || "call";
    let id = base;
    for (let n = 2; this.#ids.has(id); n++) id = `${base}-${n}`;
    this.#ids.add(id);
    return id;
  }

  /** The tool as the agent sees it, telling the editor when it starts and what it touched. */
  #tracked(tool: AnyTool): AnyTool {
    return {
      ...tool,
      run: async (input, ctx) => {
        // A preview (a permission dialog's diff) is no start: the call still waits.
        const call = ctx.preview ? undefined : this.#current;
        if (call) this.#send(toolCallRunning(call.acpId));
        const result = await tool.run(input, ctx);
        if (call && result.locations?.length) call.locations = result.locations;
        return result;
      },
    };
  }

  #onEvent(e: AgentEvent): void {
    switch (e.type) {
      case "turn_start":
        this.#wroteText = false;
        this.#textFrom = undefined;
        break;
      case "text":
        this.#wroteText = true;
        this.#send(textChunk("agent_message_chunk", this.#textOf("", e.text)));
        break;
      case "composing":
      case "progress":
        this.#alive();
        break;
      case "thought":
        this.#send(textChunk("agent_thought_chunk", e.text));
        break;
      case "tool_call": {
        const acpId = this.#freshId(e.id);
        this.#current = {
          coreId: e.id,
          acpId,
          title: toolTitle(e.name, e.summary),
          kind: e.kind,
        };
        this.#send(toolCallStart(e, acpId));
        break;
      }
      case "tool_input":
        // A preToolCall hook's new input: the editor's title and rawInput say what runs.
        if (this.#current?.coreId === e.id) {
          this.#current.title = toolTitle(e.name, e.summary);
          this.#send({
            sessionUpdate: "tool_call_update",
            toolCallId: this.#current.acpId,
            title: this.#current.title,
            rawInput: e.input,
          });
        }
        break;
      case "tool_result": {
        const call = this.#current?.coreId === e.id ? this.#current : undefined;
        this.#current = undefined;
        const acpId = call?.acpId ?? this.#freshId(e.id);
        const shown = e.display !== undefined ? { ...e, output: e.display } : e;
        this.#send(toolCallEnd(shown, acpId, call?.title ?? e.name, call?.locations));
        break;
      }
      case "nested":
        if (this.#current?.coreId === e.call) this.#nested(this.#current, e.event);
        break;
      case "warning":
        this.#warn(e.message);
        break;
      case "notice":
        this.#warn(e.message, "info");
        break;
      case "error":
        this.#opts.log(errorLine(e.message, e.kind));
        this.#say(e.message, true);
        break;
      case "usage":
        // An empty chunk: the figures ride in its `_meta` (lib/acp/mm_ext.ts).
        this.#send({ ...textChunk("agent_message_chunk", ""), _meta: usageMeta(e.usage) });
        break;
      case "recap":
        if (e.usage) {
          this.#send({ ...textChunk("agent_message_chunk", ""), _meta: usageMeta(e.usage, true) });
        }
        break;
      default:
        // answer: the editor shows it through the other updates.
        break;
    }
  }

  /**
   * A step of the agent the current call asked (ask_agent): its text and thinking as chunks, its
   * calls as tool calls of their own (`<ask_agent call id>/<its id>`, made unique).
   */
  #nested(call: CurrentCall, e: NestedEvent): void {
    if (e.type === "text") {
      this.#wroteText = true;
      // Each call's asked agent is a source of its own: two answers never run together either.
      this.#send(nestedChunk({ ...e, text: this.#textOf(`${call.acpId} ${e.agent}`, e.text) }));
    } else if (e.type === "thought") {
      this.#send(nestedChunk(e));
    } else if (e.type === "tool_call") {
      const acpId = this.#freshId(`${call.acpId}/${e.id}`);
      (call.nested ??= new Map()).set(e.id, acpId);
      this.#send(nestedCallStart(e, acpId));
    } else {
      const acpId = call.nested?.get(e.id);
      if (acpId) this.#send(nestedCallUpdate(e, acpId));
    }
  }

  /**
   * `text` from `from` ("" this agent) as sent: after a paragraph break when the message stream
   * ends with another's text, so that an asked agent's answer never runs into the next text.
   */
  #textOf(from: string, text: string): string {
    if (text === "") return text;
    const other = this.#textFrom !== undefined && this.#textFrom !== from;
    const sent = other ? "\n".repeat(2 - this.#textNewlines) + text : text;
    this.#textFrom = from;
    const trailing = sent.length - sent.replace(/\n+$/, "").length;
    const before = trailing === sent.length ? this.#textNewlines : 0;
    this.#textNewlines = Math.min(2, before + trailing);
    return sent;
  }

  /** Tells an asking mm that the model is alive though nothing shows yet (docs/acp.md). */
  #alive(): void {
    const alive = this.#opts.peer.alive;
    if (!alive) return;
    this.#queue = this.#queue.then(() => alive(this.id)).catch(() => {});
  }

  /**
   * Text of mm's own in the conversation, as an agent message in a paragraph of its own; an error's
   * is marked `_meta.mm.error`, so that an asking mm does not show it twice (docs/acp.md).
   */
  #say(text: string, error = false): void {
    const chunk = textChunk("agent_message_chunk", `${this.#wroteText ? "\n\n" : ""}${text}\n`);
    this.#send(error ? { ...chunk, _meta: errorChunkMeta() } : chunk);
    this.#wroteText = true;
    this.#textFrom = "";
    this.#textNewlines = 1;
  }

  /** A warning or mm's notice: a notice when the editor takes them, else an agent message. */
  #warn(message: string, severity: "warning" | "info" = "warning"): void {
    if (!this.#notice(message, severity)) this.#say(message);
  }

  /**
   * An MCP line of the conversation (the wait, a tool left out, catalog mode): on stderr, and a
   * notice when the editor takes them — never an agent message, where it would read as the answer.
   */
  #mcpLine(message: string, warning: boolean): void {
    this.#notice(message, warning ? "warning" : "info");
  }

  /** `message` on stderr, and as a notice when the editor takes them: whether it does. */
  #notice(message: string, severity: "warning" | "info"): boolean {
    this.#opts.log(message);
    if (this.#opts.notices) this.#send({ sessionUpdate: "notice", severity, title: message });
    return this.#opts.notices;
  }

  #requestFailed(e: unknown): void {
    this.#opts.log(`mm: the editor did not answer a request: ${errorText(e)}`);
  }

  /**
   * The permission dialog for the current call, or for a call of the agent it asked (`askedBy`: on
   * that call, titled `<agent> asks: <title>`, without "Always allow", which the asked agent would
   * take as once); anything but an allow is a refusal. A file's `change` travels as a diff.
   */
  async #askPermission(
    tool: string,
    summary: string,
    askedBy?: AskedBy & { question: string },
    change?: FileDiff,
    always?: string,
  ): Promise<PermissionAnswer> {
    const call = this.#current;
    const signal = this.#turn?.controller.signal;
    if (!call || !signal) return { kind: "reject" };
    await this.flush();
    const options = permissionOptions(tool, always);
    const toolCall = {
      toolCallId: (askedBy && call.nested?.get(askedBy.callId)) ?? call.acpId,
      // The summary the core asks with names where a path really leads (a link's target).
      title: askedBy?.question ?? toolTitle(tool, summary),
      ...(askedBy ? {} : { kind: call.kind }),
      status: "pending" as const,
      ...(change ? { content: changeContent(change), locations: [{ path: change.path }] } : {}),
    };
    const response = await untilAborted(
      this.#opts.peer.requestPermission({
        sessionId: this.id,
        toolCall,
        options: askedBy ? options.filter((o) => o.kind !== "allow_always") : options,
      }),
      signal,
      (e) => this.#requestFailed(e),
    );
    return permissionAnswer(response);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
