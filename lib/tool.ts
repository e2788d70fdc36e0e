/** The shape of a tool and of the context it runs in: the context is a tool's only door to the world. */

import type { Diagnostic } from "npm:vscode-languageserver-protocol@3.18.5";
import type { Config, LspServerConfig } from "./config/config.ts";
import type { AskPermission } from "./permissions/prompt.ts";
import type { Message } from "./history.ts";

/** What an editor shows for a tool call (ACP tool kinds). */
export type ToolKind = "read" | "edit" | "execute" | "search" | "fetch" | "other";

/** Which recap counter a tool's responses count towards (tools.md, "Counters shown after a turn"). */
export type Counter = "commands" | "fileOps" | "skills" | "lsp";

/**
 * One parameter of a tool's input, as declared to the model. `array` is for a tool that declares
 * its own {@linkcode Tool.schema} and reads its input with {@linkcode Tool.parse}: the core's
 * coercion only checks that the value is a list (`object`: a mapping; an MCP tool's parameters).
 */
export interface Parameter {
  type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  description: string;
  /** Left out of `required`; the tool supplies its default. */
  optional?: boolean;
  /** Other names a small model uses for this field (`file` for `path`): accepted silently. */
  aliases?: string[];
  /** A file path: a value holding a control character or a line break is an invalid call (tool_input.ts). */
  path?: true;
}

/** What is at a path that is neither a regular file nor a directory, in the words a tool says it. */
export type SpecialFile = "named pipe" | "socket" | "character device" | "block device";

/** A file's metadata. */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  /** Set when the path is a FIFO, a socket or a device: a tool never opens one. */
  special?: SpecialFile;
  size: number;
  /** The permission bits (`0o644`), where the file system has them. */
  mode?: number;
  /** Set when the file may not be written by mm (no write permission for it): writes refuse it. */
  readOnly?: boolean;
}

/** The file system, with paths resolved against the context's working directory. */
export interface Files {
  /** The absolute path of `path`, resolved against the working directory. */
  resolve(path: string): string;
  /** The file's metadata, or undefined when nothing is there. */
  stat(path: string): Promise<FileInfo | undefined>;
  /**
   * The file's bytes, at most `limit` of them when given (never trusting the size it claims), or
   * undefined when it does not exist. Only a regular file is opened: anything else throws a
   * {@linkcode NotAFileError}, at once, whatever is (or is not) at its other end.
   */
  read(path: string, limit?: number): Promise<Uint8Array | undefined>;
  /**
   * The regular file's bytes in chunks, from its start, however large it is (read_file's line
   * ranges of a file above the read limit); a path that is not a regular file throws like `read`.
   * Absent where a file system cannot stream: such a file is then refused as too large.
   */
  readChunks?(path: string): AsyncIterable<Uint8Array>;
  /** Writes through a temporary file and a rename, creating missing parent directories. */
  writeAtomic(path: string, data: Uint8Array): Promise<void>;
  /**
   * Where `path` really leads: its absolute path with every symbolic link of it resolved (a tail
   * that does not exist yet kept as written), as a write or a read reaches it.
   */
  realPath?(path: string): Promise<string>;
}

/** Thrown by {@linkcode Files} for a path that is not a regular file (a FIFO, a socket, a device). */
export class NotAFileError extends Error {
  /** What the path is. */
  readonly kind: SpecialFile;

  /** The error for `path`, which is a `kind`. */
  constructor(path: string, kind: SpecialFile) {
    super(`${path} is a ${kind}, not a file`);
    this.name = "NotAFileError";
    this.kind = kind;
  }
}

/** A process to run: an argv, never a shell unless argv says `bash -c`. */
export interface ExecRequest {
  argv: string[];
  cwd: string;
  /** Milliseconds before the process is killed. */
  timeout: number;
  signal: AbortSignal;
}

/** How a process ended, with its merged stdout and stderr. */
export interface ExecResult {
  /** stdout and stderr merged; very large output is read back from both ends with a marker between. */
  output: string;
  /** Bytes of output dropped between the two ends (counted in the marker), when any were. */
  dropped?: number;
  /** The exit status, or undefined when a signal ended it. */
  code?: number;
  /** The signal that ended it (`SIGKILL`), when one did. */
  signal?: string;
  timedOut: boolean;
  cancelled: boolean;
  /** Set when the program could not be started at all: the reason. */
  startError?: string;
}

/** Runs processes with their output collected through a temporary file. */
export interface Exec {
  run(request: ExecRequest): Promise<ExecResult>;
}

/** HTTP for tools: the platform's fetch, so a test can hand in its own. */
export interface Http {
  /** Like the global fetch; callers pass `redirect: "manual"` to check every hop themselves. */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
}

/** What a server published for one document. */
export interface Publication {
  /** Order of arrival among all the server's publications. */
  seq: number;
  /** The document version the server says it looked at, when it says. */
  version?: number;
  diagnostics: Diagnostic[];
}

/** What {@linkcode LspConnection.sync} did. */
export interface SyncResult {
  /** `opened` (didOpen), `changed` (whole-document didChange) or `unchanged` (nothing sent). */
  sent: "opened" | "changed" | "unchanged";
  /** The version the server now has. */
  version: number;
  /** The publication counter when the content was last sent: a newer publication answers it. */
  sentAt: number;
}

/** The language servers of a session, as the lsp tool reaches them (lib/lsp/pool.ts is the real one). */
export interface Lsp {
  /** The project root: where servers run, and what paths in answers are relative to. */
  readonly root: string;
  /** The servers that may be started (the configured ones found on the PATH). */
  readonly servers: readonly LspServerConfig[];
  /** The server for the file at `path`, by its extension. */
  serverFor(path: string): LspServerConfig | undefined;
  /** The running connection to `server`, started on first use; throws when it cannot start. */
  client(server: LspServerConfig): Promise<LspConnection>;
}

/** One running language server, as the lsp tool uses it (lib/lsp/client.ts is the real one). */
export interface LspConnection {
  /** Whether the server is still there. */
  readonly alive: boolean;
  /** A request, answered or failed within the server's time. */
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R>;
  /** Tells the server a document's content (didOpen, didChange, or nothing when unchanged). */
  sync(path: string, languageId: string, text: string): SyncResult;
  /** The text the server was last told of the document at `path` (undefined: never told). */
  syncedText?(path: string): string | undefined;
  /** The server's last publication for the document at `path`, if any. */
  published(path: string): Publication | undefined;
  /** Waits up to `ms` for a publication that answers what `sync` sent. */
  waitForPublication(
    path: string,
    sync: SyncResult,
    ms: number,
    signal?: AbortSignal,
  ): Promise<Publication | undefined>;
}

/** Everything a tool may touch. Tests pass a fake one. */
export interface ToolContext {
  /** The working directory: the process directory in terminal mode, the session cwd in ACP. */
  cwd: string;
  config: Config;
  fs: Files;
  exec: Exec;
  http: Http;
  /** The turn's cancellation. */
  signal: AbortSignal;
  /** The conversation the call belongs to; set by the agent core for every call. */
  conversation?: Conversation;
  /** Puts questions to the user (ask_user); absent means nobody can be asked. */
  ask?: AskUser;
  /** The language servers of the session, when the front end started a pool (the lsp tool). */
  lsp?: Lsp;
  /** The front end's permission prompt (ask_agent's asked agent); absent means reject. */
  askPermission?: AskPermission;
  /** Shows a step of the call's own work as it happens (ask_agent's asked agent); absent: not shown. */
  emit?(event: NestedEvent): void;
  /** Records a failure of a hook the tool runs itself (preAsk, postAsk) and shows it as a warning. */
  hookFailure?(message: string): void;
  /** The session file's id when sessions are on: the `session` of the hooks a tool runs itself. */
  sessionId?: string;
  /** The agents of `mmConfigs` (ask_agent); absent when none can be asked. */
  agents?: Agents;
  /** A preview's run (the diff of a permission dialog): writes are kept back, nothing runs yet. */
  preview?: true;
}

/** One tool of an MCP server, as listed (lib/mcp/list.ts): what the tools of tools/mcp/ are built from. */
export interface McpToolInfo {
  /** The server's own name of the tool. */
  name: string;
  /** Its description, cut to a sentence or two. */
  description: string;
  /** The server's input schema, `$ref`s inlined: what arguments are checked against. */
  inputSchema: Record<string, unknown>;
  /** The schema declared to the model: sanitised for every provider (lib/mcp/sanitize.ts). */
  schema: Record<string, unknown>;
  /** The server says the tool only reads (`readOnlyHint`): the editor shows a read. */
  readOnly: boolean;
}

/** A `tools/call` result as the server sent it, read leniently. */
export interface McpResult {
  /** The content blocks (text, image, audio, resource…), as sent. */
  content: unknown[];
  structuredContent?: unknown;
  isError: boolean;
}

/** How a call of an MCP tool ended. */
export type McpCallOutcome =
  | { kind: "result"; result: McpResult }
  /** The server is not running (it failed to start, or died): why. */
  | { kind: "down"; reason: string }
  | { kind: "timeout"; ms: number }
  | { kind: "cancelled" }
  /** The server answered with a JSON-RPC error: its message. */
  | { kind: "error"; message: string }
  /** The server answered with a result of the wrong shape: what was wrong, in a few words. */
  | { kind: "malformed"; problem: string };

/** One MCP server as its tools reach it (lib/mcp/server.ts is the real one). */
export interface McpServerPort {
  /** The server's name in `mcpServers` (or the editor's). */
  readonly name: string;
  /** Whether its calls ask for permission when `yolo: false`. */
  readonly ask: boolean;
  /** Calls tool `tool` (the server's own name) with `args`; never throws. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallOutcome>;
  /** Why the server is not running (it failed to start, died, or mm is exiting); undefined while it runs. */
  notRunning(): string | undefined;
}

/** A running MCP server with the tools it declares (its allow list applied). */
export interface McpServerTools {
  server: McpServerPort;
  tools: McpToolInfo[];
  /** How many tools it listed, before its allow list. */
  listed: number;
}

/** A question to an agent of `mmConfigs` (ask_agent, `/ask`, `mm --ask`). */
export interface AgentQuestion {
  /** The agent's `mmConfigs` name. */
  agent: string;
  /** The prompt as the asking side wrote it: what the preAsk and postAsk hooks see. */
  prompt: string;
  /** What the agent receives (the prompt, after the conversation with `with_context`). */
  message: string;
  /** The answer is cut to this many characters. */
  maxOutput: number;
}

/** How a question to an agent ended. */
export interface AgentAnswer {
  /** What the model reads (the answer with any hook's context), or the failure. */
  result: ToolResult;
  /** The answer alone (a postAsk hook's replacement when there is one); absent when it failed. */
  answer?: string;
}

/** The part of a tool's context that asking an agent uses. */
export type AskingContext = Pick<
  ToolContext,
  "cwd" | "config" | "signal" | "ask" | "askPermission" | "emit" | "hookFailure" | "sessionId"
>;

/** The agents a tool may ask (lib/subagent/ask.ts is the real one). */
export interface Agents {
  /** Asks one agent, with its hooks; never throws. */
  ask(question: AgentQuestion, ctx: AskingContext): Promise<AgentAnswer>;
}

/**
 * One step of an asked agent's work while ask_agent waits for it (tools.md, `ask_agent`, Display):
 * its text, its thinking, its tool calls (titled `<agent> · <title>`) and their progress.
 */
export type NestedEvent =
  | { agent: string; type: "text"; text: string }
  | { agent: string; type: "thought"; text: string }
  | {
    agent: string;
    type: "tool_call";
    /** The asked agent's own id of the call. */
    id: string;
    /** `<agent> · <the call's title>`. */
    title: string;
    kind: ToolKind;
    emoji: string;
    input?: unknown;
  }
  | {
    agent: string;
    type: "tool_update";
    id: string;
    status?: "pending" | "in_progress" | "completed" | "failed";
    /** `<agent> · <the call's title>`, when it changed. */
    title?: string;
    /** The call's output, once it has one. */
    output?: string;
    diff?: FileDiff;
    /** Absolute paths the call touched, once it ended. */
    locations?: string[];
  };

/** One question as ask_user cleaned it. */
export interface Question {
  question: string;
  type: "choice" | "multi" | "text" | "confirm";
  /** For `choice` and `multi`: at least two, trimmed, without duplicates. */
  options: string[];
  default?: string;
}

/** How a set of questions ended: one answer per question (options of a `multi` joined by `, `). */
export type AskOutcome =
  | { kind: "answered"; answers: string[] }
  | { kind: "declined" }
  | { kind: "cancelled" }
  | { kind: "nobody" };

/** A front end's way of asking the user; `signal` aborts when the turn stops. */
export type AskUser = (questions: Question[], signal: AbortSignal) => Promise<AskOutcome>;

/** What a tool may know of the conversation it is called from. */
export interface Conversation {
  /** The history as sent to the model, system prompt first, up to the calling message. */
  history: readonly Message[];
  /** The text of the model message that made the call ("" when it had none). */
  callerText: string;
  /** The last answer of the conversation as it stood when the turn started, if any. */
  previousAnswer?: string;
}

/** A file change, for the editor's diff view. */
export interface FileDiff {
  path: string;
  /** The text replaced; absent for a new file, or when `replaces` says what was there. */
  oldText?: string;
  newText: string;
  /** What the change replaces that is not shown as text: `a binary file of 3000 bytes`. */
  replaces?: string;
}

/** What a tool hands back: the text the model reads, and what the front ends may show. */
export interface ToolResult {
  output: string;
  /** The call failed (an editor shows it as failed); the model still reads `output`. */
  failed?: boolean;
  diff?: FileDiff;
  /** Absolute paths the call touched. */
  locations?: string[];
  /** What the front ends show in place of `output` (ask_agent: the answer has streamed already). */
  display?: string;
  /** Ends the turn after this call, with this error (ask_agent's watchdog). */
  stop?: string;
}

/** A built-in tool: its declaration, and one function of its input and the context. */
export interface Tool<I = Record<string, unknown>> {
  name: string;
  /** The call's kind; a function when it depends on the input (lsp `rename` is `edit`). */
  kind: ToolKind | ((input: I) => ToolKind);
  /** The display's emoji, as the "Terminal display" row gives it. */
  emoji: string;
  /** Whether a call asks for permission when `yolo: false`; a function when it depends on the input. */
  asks: boolean | ((input: I, conversation?: Conversation) => boolean);
  /** Whether a call also asks when `yolo: false` and a path of it leads out of the project (read_file). */
  asksOutside?: boolean;
  /** The MCP tool a call runs (`<server>_<tool>`): what the permission rules `mcp(…)` match. */
  mcpName?(input: I): string | undefined;
  counter?: Counter;
  /** False when the front ends must not echo the output (read_skill's content). */
  preview?: boolean;
  /**
   * True when the run changes files through `ctx.fs.writeAtomic` alone and returns the change as
   * `diff`: run with its writes kept back, it shows the permission dialog what it would change.
   */
  previewsChange?: boolean;
  /**
   * What a call will change, for undo (docs/undo.md): the paths it writes (kept before it runs), or
   * `"tree"` when it runs a command whose effects are unknown (the git work tree is kept). Absent:
   * it changes no file (one it writes as it goes is kept at its write).
   */
  touches?(input: I): string[] | "tree";
  /** Whether this configuration declares the tool. */
  declared(config: Config): boolean;
  /** What the model reads; a function when it depends on the configuration (lsp names its servers). */
  description: string | ((config: Config) => string);
  parameters: Record<string, Parameter>;
  /** A raw JSON schema declared instead of the one built from `parameters`. */
  schema?: Record<string, unknown>;
  /** Custom input parsing, used instead of coercing to `parameters`. */
  parse?(args: Record<string, unknown>): { ok: true; input: I } | { ok: false; faults: string[] };
  /** The argument shown after `<name>: ` in the display line. */
  summary(input: I, conversation?: Conversation): string;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** Any tool, whatever its input. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any>;

/**
 * The declared call that a call of an undeclared name stands for: catalog mode's `fs_read_file`
 * is mcp_call's `{"server": "fs", "tool": "read_file", "arguments": …}`.
 */
export interface ToolRedirect {
  /** The declared tool that runs the call. */
  tool: string;
  /** Its arguments, from the ones the model gave the undeclared name. */
  arguments(args: Record<string, unknown>): Record<string, unknown>;
}

/**
 * The answer to a call of `name`, which no declared tool has, from the tools that claim such names
 * (an MCP server's `<server>_…`); `declared` holds the names declared now: the text the model
 * reads, or the declared call the name stands for. Undefined when the name is not theirs: the
 * core's unknown-tool text answers.
 */
export type UnknownToolAnswer = (
  name: string,
  declared: readonly string[],
) => string | ToolRedirect | undefined;

/** Tools a conversation adds once they are known (MCP), and the answer to names of theirs not declared. */
export interface MoreTools {
  tools: AnyTool[];
  unknown?: UnknownToolAnswer;
}
