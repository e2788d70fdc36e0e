/**
 * The conversation's commands (`/new`, `/compact`, `/memory`, `/ask`, …), owned once for every front
 * end: how a typed line is read, what each command does to the conversation, its typed outcome, and
 * the texts the user reads of it. Line, window and editor mode parse a line, submit it and draw the
 * outcome; none of them knows a command's texts. docs/architecture.md, "Adding a command".
 */

import type { Config } from "../config/config.ts";
import { nearest } from "../nearest.ts";
import { ProviderError } from "../provider/errors.ts";
import { UserError } from "../presentation.ts";
import { SessionBusyError, SessionLockError } from "../session/lock.ts";
import { sessionsDir } from "../session/store.ts";
import { sessionDirs } from "../session/dirs.ts";
import { pickEntries, type PickEntry, pickLine } from "../session/list.ts";
import { COMPACT_WRAPPER, type Message, turnPrompts } from "../history.ts";
import type { AnyTool } from "../tool.ts";
import { versionLine } from "../version.ts";
import type { Agent } from "./agent.ts";
import type { AgentEvent } from "./events.ts";
import { CompactError } from "./fit.ts";
import { THINKING_FLAG, thinkingFlag } from "../config/overrides.ts";
import type { ThinkingChoice } from "../provider/chat.ts";
import {
  reportLines,
  takeBack,
  turnLine,
  type UndoReport,
  UndoStoreError,
} from "../undo/take_back.ts";
import { attachFiles, type Attachment, diskPorts, mentionsOf } from "./attach.ts";
import type { TurnOutcome } from "./texts.ts";
import { emptyCounters } from "./recap.ts";

/**
 * The prompt with the files its `@` mentions (and an editor's `linked` paths) name, read by hand
 * through `agent`'s gate as read_file shows them (lib/agent/attach.ts): every front end's way,
 * `mm -p`'s included. A missing path or one the gate refuses: nothing to send, and why.
 */
export async function attachMentions(
  agent: Agent,
  text: string,
  signal: AbortSignal,
  where: { cwd: string; maxOutput: number; linked?: string[] },
): Promise<Attachment> {
  const paths = [...new Set([...mentionsOf(text), ...(where.linked ?? [])])];
  return await attachFiles(text, paths, {
    cwd: where.cwd,
    maxOutput: where.maxOutput,
    read: async (path) => {
      const outcome = await agent.runCommand(
        "read_file",
        { path, numbered: true },
        signal,
        "attach",
      );
      if (outcome.kind === "refused") return { kind: "refused", text: outcome.text };
      return {
        kind: "read",
        output: outcome.result.output,
        failed: outcome.result.failed ?? false,
      };
    },
    ...diskPorts(where.cwd),
  });
}

/** A typed command: its name and the rest of the line. */
export interface SlashCommand {
  name: string;
  args: string;
}

/**
 * Splits `/name args`; undefined when the line is not a command. The name ends at a space or the
 * end: `/etc/hosts what is in it?` is a prompt, not `/etc`.
 */
export function parseCommand(line: string): SlashCommand | undefined {
  const bang = line.trim().match(/^!([\s\S]*)$/);
  if (bang) return { name: "!", args: bang[1].trim() };
  const m = line.trim().match(/^(\/[A-Za-z-]*)(?:\s+([\s\S]*))?$/);
  return m ? { name: m[1].toLowerCase(), args: (m[2] ?? "").trim() } : undefined;
}

/** How a command ended: what the front end draws (its text from {@linkcode outcomeLines}). */
export type CommandOutcome =
  /** A text of mm's own to show: a list, a search's result, a usage, why nothing was done. */
  | { kind: "said"; text: string }
  /** `/help`: the commands of this front end (a terminal adds its keys). */
  | { kind: "help"; text: string }
  /** `/new`: a new conversation, in session `session` (none when off or when `error` said why). */
  | { kind: "new"; session?: string; error?: string }
  /** `/compact`: `before` messages became a summary of `chars` characters. */
  | { kind: "compacted"; before: number; chars: number }
  /** `/ask`: drawn as a call of its own (its events); `answered` when its answer joined the history. */
  | { kind: "asked"; answered: boolean }
  /** Stopped by the front end's signal: the conversation is as it was. */
  | { kind: "cancelled"; command: string }
  /** It could not be done: one sentence. */
  | { kind: "failed"; text: string }
  /** `/quit`, `/exit`: the front end leaves (after the running turn). */
  | { kind: "quit" }
  /** `/undo`, `/rewind N`: turns taken back; their first prompt goes back into the input. */
  | { kind: "undone"; report: UndoReport; prompt: string }
  /** `/rewind`: the turns that may be taken back, oldest first (a line each). */
  | { kind: "turns"; turns: { turn: number; line: string }[] }
  /** `/resume`: this directory's sessions, newest first, to choose from (`/resume N` or an id). */
  | { kind: "sessions"; sessions: PickEntry[] }
  /** `/resume N`: the conversation is now session `session`, with `earlier` messages to replay. */
  | { kind: "resumed"; session: string; earlier: number };

/** What `/model` needs of the front end: the server's models, the current one, a switch. */
export interface ModelHost {
  /** The server's models (throws a ProviderError when it will not say). */
  list(signal: AbortSignal): Promise<string[]>;
  /** The model of the requests now. */
  current(): string;
  /** Makes `name` the model of the agents made from now on (its window discovered again). */
  switchTo(name: string): Promise<void>;
}

/** What a conversation needs of its front end. */
export interface ConversationHost {
  config: Config;
  cwd: string;
  /** The tools declared (`/ask` runs ask_agent among them). */
  tools: readonly AnyTool[];
  /** A new agent with the front end's ways: over the session's messages, or over `earlier`. */
  agent(earlier?: { message: Message; turn: number }[]): Agent;
  /**
   * `/new`'s session file: a fresh one, its id (undefined with sessions off). Throws a
   * SessionLockError or SessionBusyError when it cannot be held. Absent: `/new` is not offered.
   */
  newSession?(): Promise<string | undefined>;
  /** The id of the session file in use, if any (the picker leaves it out). */
  session?(): string | undefined;
  /**
   * `/resume`'s switch: session `id` opened (its lock held) in place of the one in use, which is
   * let go. Throws a SessionBusyError, SessionLockError or UserError when it cannot be; the one in
   * use is then kept. Absent: `/resume` is not offered.
   */
  resumeSession?(id: string): Promise<void>;
  /** Where a command that runs as a call (`/ask`) sends its events: the front end's renderer. */
  emit(event: AgentEvent): void;
  /** `/model`'s server; absent: `/model` says it cannot switch here. */
  models?: ModelHost;
}

/** What the spinner says while a command runs. */
export type CommandBusy = "Compacting";

/** One command: its name, its help, where it is offered, and what it does. */
export interface Command {
  /** `/name`. */
  name: string;
  /** `/name <args>` as `/help` lists it. */
  usage: string;
  /** Its one-line help. */
  help: string;
  /** Offered in editor mode too (as an ACP available command). */
  editor: boolean;
  /** The spinner's word while it runs; undefined for a command that answers at once. */
  busy?: CommandBusy;
  /** Runs it on `c`; `signal` is the front end's cancel (Esc, Ctrl-C, `session/cancel`). */
  run(c: Conversation, args: string, signal: AbortSignal): Promise<CommandOutcome>;
}

/** The call id of `/ask`'s events (`tool_call`, `nested`, `tool_result`). */
export const ASK_COMMAND_ID = "command";

/** What `/abort` says with no turn running. */
export const NOTHING_TO_ABORT = "no turn is running: nothing to abort";

/** What `/skip` says with no question waiting. */
export const NOTHING_TO_SKIP = "/skip answers a question; no question is waiting";

/** What `/memory` says with sessions off. */
export const MEMORY_NEEDS_SESSIONS =
  "/memory needs sessions: set sessions.enabled: true (and keep sessions.searchMemory: true)";

/** What `/ask` says when the agent file names no agents. */
export const ASK_NO_AGENTS = "/ask: the agent file names no agents (mmConfigs)";

/** What `/ask` says without an agent's name. */
export const ASK_USAGE = "/ask <agent> <prompt>: name an agent of mmConfigs, then the task";

/** What `!` says with no command after it. */
export const BANG_USAGE =
  "!<command>: runs it as bash would; it and its output go along with the next prompt";

/** What `/model` says where the front end cannot switch. */
export const MODEL_UNAVAILABLE = "/model: this front end cannot switch models";

/** What `/model` says when the server lists none. */
export const MODEL_NONE = "/model: the server lists no model — load or pull one, then /model again";

/** The `/model` list: every model, the current one marked `*`. */
export function modelListText(models: string[], current: string): string {
  return ["Models (* the current one):", ...models.map((m) => `${m === current ? "*" : " "} ${m}`)]
    .join("\n");
}

/** What `/model NAME` says of a model the server does not have. */
export function unknownModelText(name: string, models: string[]): string {
  const near = nearest(name, models);
  return `/model: the server has no model ${name}${
    near ? ` — did you mean ${near}?` : ""
  } (/model lists them)`;
}

/** What `/model NAME` says once switched. */
export function modelSetText(name: string): string {
  return `model ${name} from the next request (the conversation is kept)`;
}

/**
 * What the conversation holds of a `!` command: the user message joined to the next prompt
 * (`I ran: <command>` then bash's output).
 */
export function ranText(command: string, output: string): string {
  return `I ran: ${command}\n${output}`;
}

/** What `/think` says without a value it knows. */
export const THINK_USAGE = `/think ${
  THINKING_FLAG.join("|")
}: whether the model thinks, and how hard`;

/** What `/think` says once set (`thinking on, effort high from the next request`). */
export function thinkSetText(choice: ThinkingChoice): string {
  const effort = choice.reasoningEffort ? `, effort ${choice.reasoningEffort}` : "";
  return `thinking ${choice.thinking}${effort} from the next request`;
}

/** What `/undo` and `/rewind` say with sessions off (the store lives beside the session file). */
export const UNDO_NEEDS_SESSIONS =
  "/undo needs sessions: set sessions.enabled: true (what a turn changes is kept beside its session file)";

/** What `/undo` says with no turn to take back. */
export const NOTHING_TO_UNDO = "/undo: there is no turn to take back";

/** What `/rewind N` says of a number that is not a turn of the conversation. */
export function rewindRangeText(last: number): string {
  return last
    ? `/rewind N: N is a turn from 1 to ${last} (/rewind lists them)`
    : "/rewind: there is no turn to take back";
}

/** What taking back a compacted turn says. */
export const UNDO_COMPACTED =
  "/undo: the conversation was compacted into a summary after that turn; it cannot be taken back";

/** The head of `/rewind`'s list. */
export const REWIND_HEAD = "Turns (/rewind N takes back turn N and every later one):";

/** What `/plan` (or Shift+Tab) says when plan mode comes on. */
export const PLAN_ON_TEXT =
  "plan mode on: only reading runs (files, searches, read-only commands); the model answers with a plan — /plan or Shift+Tab again to carry it out";

/** What `/plan` (or Shift+Tab) says when plan mode goes off. */
export const PLAN_OFF_TEXT =
  "plan mode off: the model may change files and run commands again (say go to carry out the plan)";

/** What `/plan` says with an argument it does not know. */
export const PLAN_USAGE = "/plan [on|off]: only reading runs while plan mode is on";

/** What `/resume` says when this directory has no other session. */
export const NO_SESSIONS_TEXT = "/resume: this directory has no earlier session";

/** What `/resume` says with sessions off. */
export const RESUME_NEEDS_SESSIONS =
  "/resume needs sessions: set sessions.enabled: true (they are on by default)";

/** What `mm -r` says at start with sessions turned off. */
export const RESUME_OFF_AT_START =
  "-r needs sessions (sessions.enabled: false in the agent file): a new conversation starts";

/** The head of `/resume`'s list. */
export const RESUME_HEAD = "Sessions of this directory, newest first (/resume N resumes one):";

/** What `/resume N` says of a number or id that is not in the list. */
export function resumeRangeText(count: number): string {
  return count
    ? `/resume N: N is a session from 1 to ${count} (/resume lists them)`
    : NO_SESSIONS_TEXT;
}

/** What `/resume` says of a session another mm holds. */
export function resumeBusyText(e: PickEntry): string {
  return `/resume: session ${e.id} is in use by another mm (${e.reason}) — it was not resumed`;
}

/** What `/resume` says of a file it cannot read. */
export function resumeUnreadableText(e: PickEntry): string {
  return `/resume: the session file ${e.id} cannot be read (${e.reason}) — it was left untouched`;
}

/** The picker's numbered lines of `sessions` (`  1. 2026-12-02 15:06  3 turn(s)  …`). */
export function sessionLines(sessions: readonly PickEntry[]): string[] {
  return sessions.map((e, i) => `  ${String(i + 1).padStart(2)}. ${pickLine(e)}`);
}

/** What a command cancelled says (`/compact cancelled: the conversation is as it was`). */
export function cancelledText(command: string): string {
  return `${command} cancelled: the conversation is as it was`;
}

/** Every command, in the order `/help` lists them. */
export const COMMANDS: readonly Command[] = [
  {
    name: "/help",
    usage: "/help",
    help: "this list",
    editor: true,
    run: (c) => Promise.resolve({ kind: "help", text: helpText(c.editor) }),
  },
  {
    name: "/new",
    usage: "/new",
    help: "start a new conversation (and a new session file)",
    editor: false,
    run: (c) => c.newConversation(),
  },
  {
    name: "/compact",
    usage: "/compact",
    help: "replace the conversation by the model's summary of it",
    editor: true,
    busy: "Compacting",
    run: (c, _args, signal) => c.compact(signal),
  },
  {
    name: "/memory",
    usage: "/memory <words>",
    help: "search earlier conversations (sessions)",
    editor: true,
    run: (c, args) => c.memory(args),
  },
  {
    name: "/ask",
    usage: "/ask <agent> <prompt>",
    help: "hand a task to an agent of mmConfigs",
    editor: true,
    run: (c, args, signal) => c.ask(args, signal),
  },
  {
    name: "/version",
    usage: "/version",
    help: "the version of mm that runs this conversation",
    editor: true,
    run: () => Promise.resolve({ kind: "said", text: versionLine() }),
  },
  {
    name: "/think",
    usage: "/think on|off|low|high",
    help: "whether the model thinks, and how hard (for this conversation)",
    editor: true,
    run: (c, args) => Promise.resolve(c.think(args)),
  },
  {
    name: "/undo",
    usage: "/undo",
    help: "take back the last turn: its files and its messages",
    editor: true,
    run: (c) => c.undo(),
  },
  {
    name: "/rewind",
    usage: "/rewind [N]",
    help: "list the turns; take back turn N and every later one",
    editor: true,
    run: (c, args) => c.rewind(args),
  },
  {
    name: "/plan",
    usage: "/plan [on|off]",
    help: "plan mode: only reading runs, the model answers with a plan (Shift+Tab too)",
    editor: false,
    run: (c, args) => Promise.resolve(c.planCommand(args)),
  },
  {
    name: "/model",
    usage: "/model [name]",
    help: "list the server's models, or switch to one (the conversation is kept)",
    editor: false,
    run: (c, args, signal) => c.model(args, signal),
  },
  {
    name: "!",
    usage: "!<command>",
    help: "run a shell command; it and its output go along with the next prompt",
    editor: false,
    run: (c, args, signal) => c.shell(args, signal),
  },
  {
    name: "/resume",
    usage: "/resume [N]",
    help: "list this directory's sessions; switch to session N",
    editor: false,
    run: (c, args) => c.resume(args),
  },
  {
    name: "/abort",
    usage: "/abort",
    help: "stop the running turn (Esc and Ctrl-C do too)",
    editor: false,
    run: () => Promise.resolve({ kind: "said", text: NOTHING_TO_ABORT }),
  },
  {
    name: "/skip",
    usage: "/skip",
    help: "decline a question the model asked",
    editor: false,
    run: () => Promise.resolve({ kind: "said", text: NOTHING_TO_SKIP }),
  },
  {
    name: "/quit",
    usage: "/quit, /exit",
    help: "leave mm (Ctrl-D does too)",
    editor: false,
    run: () => Promise.resolve({ kind: "quit" }),
  },
  {
    name: "/exit",
    usage: "",
    help: "",
    editor: false,
    run: () => Promise.resolve({ kind: "quit" }),
  },
];

/** The commands of a front end: every one in a terminal, those with `editor` in editor mode. */
export function commandsOf(editor: boolean): Command[] {
  return COMMANDS.filter((c) => !editor || c.editor);
}

/** The command of `name` in a front end, or undefined when it has none of that name. */
export function findCommand(name: string, editor = false): Command | undefined {
  return commandsOf(editor).find((c) => c.name === name);
}

/** Whether `name` is a command of the terminal's front ends. */
export function isCommand(name: string): boolean {
  return findCommand(name) !== undefined;
}

/** The answer to an unknown command: the nearest known one. */
export function unknownCommandText(name: string, editor = false): string {
  const near = nearest(name, commandsOf(editor).map((c) => c.name));
  return `unknown command ${name}${near ? ` — did you mean ${near}?` : ""} (/help lists them)`;
}

/** The `/help` lines: one per command, its usage then its help. */
export function helpLines(editor = false): string[] {
  return commandsOf(editor).filter((c) => c.usage).map((c) => `  ${c.usage.padEnd(24)}${c.help}`);
}

/** The `/help` text. */
export function helpText(editor = false): string {
  return ["Commands:", ...helpLines(editor)].join("\n");
}

/** What the user reads of an outcome, line by line (none for `/ask`, drawn as its call, or `/quit`). */
export function outcomeLines(outcome: CommandOutcome): string[] {
  switch (outcome.kind) {
    case "said":
    case "help":
    case "failed":
      return [outcome.text];
    case "new":
      return [
        ...(outcome.error ? [`[error: ${outcome.error}]`] : []),
        `new conversation${outcome.session ? ` (session ${outcome.session})` : ""}`,
      ];
    case "compacted":
      return [`compacted: ${outcome.before} message(s) → a summary of ${outcome.chars} characters`];
    case "cancelled":
      return [cancelledText(outcome.command)];
    case "undone":
      return reportLines(outcome.report);
    case "turns":
      return [REWIND_HEAD, ...outcome.turns.map((t) => t.line)];
    case "sessions":
      return [RESUME_HEAD, ...sessionLines(outcome.sessions)];
    case "resumed":
      return [`resumed session ${outcome.session} (${outcome.earlier} earlier message(s))`];
    case "asked":
    case "quit":
      return [];
  }
}

/**
 * One conversation and its commands: the agent a front end drives (`/new` replaces it) and the
 * operations on it, each ending in a {@linkcode CommandOutcome}.
 */
export class Conversation {
  /** The agent of the conversation now. */
  agent: Agent;
  /** Whether this is editor mode (its commands are those offered there). */
  readonly editor: boolean;
  readonly #host: ConversationHost;
  /** What `/think` asked, kept for the agents of `/new`. */
  #thinking: ThinkingChoice | undefined;
  /** Plan mode, kept for the agents of `/new`: the front end's mode, not one agent's. */
  #plan = false;
  /** What `!` commands ran since the last prompt: joined to the next one. */
  #ran: string[] = [];

  /** The conversation of `host`, over the session's earlier messages. */
  constructor(host: ConversationHost, opts: { editor?: boolean } = {}) {
    this.#host = host;
    this.editor = opts.editor ?? false;
    this.agent = host.agent();
  }

  /**
   * Runs a typed command; an unknown one (or one this front end does not offer) is answered with
   * the nearest known name. `signal` cancels a command that waits (the model, an asked agent).
   */
  async run(command: SlashCommand, signal: AbortSignal): Promise<CommandOutcome> {
    const found = findCommand(command.name, this.editor);
    if (!found) return { kind: "said", text: unknownCommandText(command.name, this.editor) };
    return await found.run(this, command.args, signal);
  }

  /** `/new`: a fresh session file (its lock failing, the conversation goes on without one), an empty agent. */
  async newConversation(): Promise<CommandOutcome> {
    let error: string | undefined;
    let session: string | undefined;
    try {
      session = await this.#host.newSession?.();
    } catch (e) {
      if (!(e instanceof SessionLockError || e instanceof SessionBusyError)) throw e;
      error = e.message;
    }
    this.agent = this.#host.agent([]);
    this.agent.thinking = this.#thinking;
    this.#ran = [];
    if (this.#plan) this.agent.plan = true;
    return { kind: "new", ...(session ? { session } : {}), ...(error ? { error } : {}) };
  }

  /** Whether plan mode is on (the line's prompt and the window's status line say `plan`). */
  get plan(): boolean {
    return this.#plan;
  }

  /**
   * Plan mode on or off for this conversation (and the next of `/new`): only calls that read run
   * while it is on (lib/permissions/plan.ts). The history is kept: after a plan, plan mode off and
   * "go" carries it out. Its text says which.
   */
  setPlan(on: boolean): CommandOutcome {
    this.#plan = on;
    this.agent.plan = on;
    return { kind: "said", text: on ? PLAN_ON_TEXT : PLAN_OFF_TEXT };
  }

  /** `/plan [on|off]`: plan mode toggled, or set; its usage for another argument. */
  planCommand(args: string): CommandOutcome {
    const value = args.trim().toLowerCase();
    if (value === "") return this.setPlan(!this.#plan);
    if (value === "on" || value === "off") return this.setPlan(value === "on");
    return { kind: "said", text: PLAN_USAGE };
  }

  /**
   * A prompt's turn: the `!` commands run since the last one go first, the files it `@`-mentions
   * (and `linked`, an editor's resource links) are attached below it (lib/agent/attach.ts), each
   * said as a `📎` notice. A missing file or a refused one sends nothing: an error says why.
   */
  async prompt(text: string, signal: AbortSignal, linked: string[] = []): Promise<TurnOutcome> {
    const { cwd, config } = this.#host;
    const attached = await attachMentions(this.agent, text, signal, {
      cwd,
      maxOutput: config.maxOutput,
      linked,
    });
    if (!attached.ok) {
      this.#host.emit({
        type: "error",
        message: attached.text,
        kind: "sentence",
        where: "generation",
      });
      return {
        status: "failed",
        error: attached.text,
        reason: "blocked",
        counters: emptyCounters(),
      };
    }
    for (const line of attached.lines) this.#host.emit({ type: "notice", message: line });
    const ran = this.#ran.length ? `${this.#ran.join("\n\n")}\n\n` : "";
    this.#ran = [];
    return await this.agent.runTurn(ran + attached.prompt, signal);
  }

  /**
   * `!<command>`: bash run by hand through the agent's gate (Agent.runCommand: its timeout,
   * sandbox, permission rules and cancel), drawn as a call of its own; no model request. The
   * command and its output go along with the next prompt ({@linkcode ranText}).
   */
  async shell(command: string, signal: AbortSignal): Promise<CommandOutcome> {
    if (!command) return { kind: "said", text: BANG_USAGE };
    const input = { command };
    const emit = (e: AgentEvent) => this.#host.emit(e);
    // Drawn once the gate has decided: a command that will ask says so (`asks`).
    let announced = false;
    const announce = (asks: boolean) => {
      announced = true;
      emit({
        type: "tool_call",
        id: ASK_COMMAND_ID,
        name: "bash",
        kind: "execute",
        emoji: "🛠️",
        summary: command,
        input,
        ...(asks ? { asks: true as const } : {}),
      });
    };
    const outcome = await this.agent.runCommand("bash", input, signal, ASK_COMMAND_ID, announce);
    if (!announced) announce(false);
    const output = outcome.kind === "refused" ? outcome.text : outcome.result.output;
    const failed = outcome.kind === "refused" || (outcome.result.failed ?? false);
    emit({ type: "tool_result", id: ASK_COMMAND_ID, name: "bash", output, failed });
    if (signal.aborted) return { kind: "cancelled", command: "!" };
    if (outcome.kind === "ran") this.#ran.push(ranText(command, output));
    return { kind: "asked", answered: outcome.kind === "ran" };
  }

  /**
   * `/model`: the server's models, the current one marked; `/model NAME` switches to one the server
   * has (its window found again), the history kept: it is fitted to the new window on the next
   * request (lib/agent/fit.ts), compacted there when it no longer fits.
   */
  async model(args: string, signal: AbortSignal): Promise<CommandOutcome> {
    const host = this.#host.models;
    if (!host) return { kind: "said", text: MODEL_UNAVAILABLE };
    let models: string[];
    try {
      models = await host.list(signal);
    } catch (e) {
      if (signal.aborted) return { kind: "cancelled", command: "/model" };
      if (e instanceof ProviderError) return { kind: "failed", text: `/model: ${e.message}` };
      throw e;
    }
    if (models.length === 0) return { kind: "failed", text: MODEL_NONE };
    const name = args.trim();
    if (!name) return { kind: "said", text: modelListText(models, host.current()) };
    if (!models.includes(name)) return { kind: "failed", text: unknownModelText(name, models) };
    await host.switchTo(name);
    const earlier = this.agent.history.slice(1).map((message, i) => ({
      message,
      turn: this.agent.turns[i + 1],
    }));
    this.agent = this.#host.agent(earlier);
    this.agent.thinking = this.#thinking;
    if (this.#plan) this.agent.plan = true;
    return { kind: "said", text: modelSetText(name) };
  }

  /** `/think <value>`: the thinking of the requests from now on, or its usage. */
  think(args: string): CommandOutcome {
    const value = args.trim().toLowerCase();
    if (!(THINKING_FLAG as readonly string[]).includes(value)) {
      return { kind: "said", text: THINK_USAGE };
    }
    this.#thinking = thinkingFlag(value);
    this.agent.thinking = this.#thinking;
    return { kind: "said", text: thinkSetText(this.#thinking) };
  }

  /** `/compact`: the model's summary replaces the history; cancelled or failed, it is untouched. */
  async compact(signal: AbortSignal): Promise<CommandOutcome> {
    const before = this.agent.history.length - 1;
    try {
      const notes = await this.agent.compact(signal);
      return { kind: "compacted", before, chars: notes.length };
    } catch (e) {
      if (signal.aborted) return { kind: "cancelled", command: "/compact" };
      if (e instanceof CompactError || e instanceof ProviderError) {
        return { kind: "failed", text: `/compact: ${e.message}` };
      }
      throw e;
    }
  }

  /** `/memory <words>`: earlier conversations searched as search_memory does, or why it cannot be. */
  async memory(words: string): Promise<CommandOutcome> {
    const { config, cwd } = this.#host;
    if (!config.sessions.enabled || !config.sessions.searchMemory) {
      return { kind: "said", text: MEMORY_NEEDS_SESSIONS };
    }
    const { searchSessions } = await import("../session/search.ts");
    const text = await searchSessions({
      dir: sessionsDir(cwd, config.sessions.dir),
      query: words,
      exclude: this.agent.history,
      maxOutput: config.maxOutput,
    });
    return { kind: "said", text };
  }

  /** `/undo`: the last turn taken back, its files and its messages. */
  async undo(): Promise<CommandOutcome> {
    if (!this.#host.config.sessions.enabled) return { kind: "said", text: UNDO_NEEDS_SESSIONS };
    const turns = turnPrompts(this.agent.history, this.agent.turns);
    if (!turns.length) return { kind: "said", text: NOTHING_TO_UNDO };
    return await this.#takeBack(turns.at(-1)!.turn);
  }

  /** `/rewind`: the turns listed; `/rewind N`: turn N and every later one taken back. */
  async rewind(args: string): Promise<CommandOutcome> {
    if (!this.#host.config.sessions.enabled) return { kind: "said", text: UNDO_NEEDS_SESSIONS };
    const turns = turnPrompts(this.agent.history, this.agent.turns);
    const last = turns.at(-1)?.turn ?? 0;
    if (!args.trim()) {
      if (!turns.length) return { kind: "said", text: NOTHING_TO_UNDO };
      const store = this.agent.keeper?.store;
      const lines = await Promise.all(
        turns.map(async (t) => ({
          turn: t.turn,
          line: turnLine(t, await store?.record(t.turn), this.#host.cwd),
        })),
      );
      return { kind: "turns", turns: lines };
    }
    const n = Number(args.trim());
    if (!Number.isInteger(n) || !turns.some((t) => t.turn === n)) {
      return { kind: "said", text: rewindRangeText(last) };
    }
    return await this.#takeBack(n);
  }

  /** This directory's sessions for `/resume`, the one in use left out. */
  async sessions(): Promise<PickEntry[]> {
    const { config, cwd } = this.#host;
    return await pickEntries(sessionDirs(cwd, config.sessions.dir), cwd, this.#host.session?.());
  }

  /** `/resume`: the sessions listed; `/resume N` (or an id): the conversation switched to it. */
  async resume(args: string): Promise<CommandOutcome> {
    if (!this.#host.config.sessions.enabled || !this.#host.resumeSession) {
      return { kind: "said", text: RESUME_NEEDS_SESSIONS };
    }
    const sessions = await this.sessions();
    const wanted = args.trim();
    if (!wanted) {
      if (!sessions.length) return { kind: "said", text: NO_SESSIONS_TEXT };
      return { kind: "sessions", sessions };
    }
    const n = Number(wanted);
    const entry = /^\d+$/.test(wanted) ? sessions[n - 1] : sessions.find((e) => e.id === wanted);
    if (!entry) return { kind: "said", text: resumeRangeText(sessions.length) };
    if (entry.state === "unreadable") return { kind: "failed", text: resumeUnreadableText(entry) };
    if (entry.state === "busy") return { kind: "failed", text: resumeBusyText(entry) };
    try {
      await this.#host.resumeSession(entry.id);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      return { kind: "failed", text: `/resume: ${e.message}` };
    }
    this.agent = this.#host.agent();
    this.agent.thinking = this.#thinking;
    return { kind: "resumed", session: entry.id, earlier: this.agent.history.length - 1 };
  }

  /** Takes back turn `from` and every later one, files first, then the messages. */
  async #takeBack(from: number): Promise<CommandOutcome> {
    const keeper = this.agent.keeper;
    if (!keeper) return { kind: "said", text: UNDO_NEEDS_SESSIONS };
    const turns = turnPrompts(this.agent.history, this.agent.turns).filter((t) => t.turn >= from);
    if (turns.some((t) => t.prompt.startsWith(COMPACT_WRAPPER))) {
      return { kind: "failed", text: UNDO_COMPACTED };
    }
    try {
      const report = await takeBack(
        keeper.store,
        turns,
        this.#host.cwd,
        () => this.agent.dropTurnsFrom(from),
      );
      return { kind: "undone", report, prompt: report.prompt };
    } catch (e) {
      if (e instanceof UndoStoreError) return { kind: "failed", text: `/undo: ${e.message}` };
      throw e;
    }
  }

  /**
   * `/ask <agent> <prompt>`: the ask_agent tool run by hand, through the agent's own gate, hooks
   * and context (`Agent.runCommand`), drawn as call {@linkcode ASK_COMMAND_ID} (`tool_call`, the
   * asked agent's `nested` steps, `tool_result`). An answer joins the history as the exchange
   * docs/line-mode.md describes: the command as typed, and `<agent> answered:` then the answer.
   */
  async ask(args: string, signal: AbortSignal): Promise<CommandOutcome> {
    const tool = this.#host.tools.find((t) => t.name === "ask_agent");
    const name = args.trim().split(/\s+/)[0] ?? "";
    if (!tool) return { kind: "said", text: ASK_NO_AGENTS };
    if (!name) return { kind: "said", text: ASK_USAGE };
    const prompt = args.trim().slice(name.length).trim();
    const input = { agent: name, prompt };
    const emit = (e: AgentEvent) => this.#host.emit(e);
    const summary = tool.summary(input);
    // Drawn once the gate has decided: a command that will ask says so (`asks`).
    let announced = false;
    const announce = (asks: boolean) => {
      announced = true;
      emit({
        type: "tool_call",
        id: ASK_COMMAND_ID,
        name: "ask",
        kind: "other",
        emoji: "🗣",
        summary,
        input,
        ...(asks ? { asks: true as const } : {}),
      });
    };
    const outcome = await this.agent.runCommand(
      "ask_agent",
      input,
      signal,
      ASK_COMMAND_ID,
      announce,
    );
    if (!announced) announce(false);
    if (outcome.kind === "refused") {
      emit({
        type: "tool_result",
        id: ASK_COMMAND_ID,
        name: "ask",
        output: outcome.text,
        failed: true,
      });
      return { kind: "asked", answered: false };
    }
    const { result } = outcome;
    const shown = result.display ?? result.output;
    emit({
      type: "tool_result",
      id: ASK_COMMAND_ID,
      name: "ask",
      output: result.output,
      failed: result.failed ?? false,
      display: result.stop ? `${shown}\n${result.stop}` : shown,
    });
    if (result.failed) return { kind: "asked", answered: false };
    await this.agent.addExchange(`/ask ${name} ${prompt}`, `${name} answered:\n${result.output}`);
    return { kind: "asked", answered: true };
  }
}
