/**
 * Editor mode (`mm -acp`, mm.md §7): mm as an Agent Client Protocol agent on stdin and stdout.
 * `initialize`, `session/new`, `session/load` (with sessions on), `session/prompt`,
 * `session/cancel`; the updates, permission dialogs and forms of a turn come from
 * {@linkcode AcpSession}. stdout carries protocol messages only; logs go to stderr (docs/acp.md).
 */

import { isAbsolute } from "node:path";
import {
  agent,
  type AgentContext,
  type InitializeRequest,
  type InitializeResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type McpServer,
  methods,
  ndJsonStream,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptRequest,
  type PromptResponse,
  PROTOCOL_VERSION,
  RequestError,
  type SetSessionModeRequest,
  type SetSessionModeResponse,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { Config } from "../../config/config.ts";
import { BUILTIN_TOOLS } from "../../config/schema.ts";
import type { SessionRecorder } from "../../session/recorder.ts";
import { newSessionId } from "../../session/store.ts";
import { VERSION } from "../../version.ts";
import { UserError } from "../../presentation.ts";
import { ALIVE_METHOD, type AliveParams, mayAskUser, turnErrorMeta } from "../../acp/mm_ext.ts";
import { writeAll } from "../terminal/output.ts";
import type { McpEvent, McpServers } from "../../mcp/servers.ts";
import { eventLines } from "../../mcp/status.ts";
import { RunStop } from "../exit.ts";
import { addUrlSecrets, redact } from "../../secrets.ts";
import { addServerSecrets } from "../../mcp/env.ts";
import { closeMcp, openSession, startMcp, startPieces } from "../start.ts";
import { editorServers } from "./mcp_servers.ts";
import { AcpSession, type EditorPeer } from "./session.ts";
import { isPlanMode, modeState, unknownModeText } from "./modes.ts";
import { type Setup, Setups } from "./setups.ts";

/** The configuration of a folder: its agent files layered, the flags over them. */
export interface FolderConfig {
  /** Without the project file's keys that need trust when `refusal` is given. */
  config: Config;
  /** Why the folder's project file is not trusted (docs/security.md). */
  refusal?: string;
}

/** What editor mode needs. */
export interface AcpOptions {
  /** The agent files of the directory mm was started in: `initialize` answers from them. */
  config: Config;
  /** Why the project file of the directory mm was started in is not trusted. */
  refusal?: string;
  /**
   * The configuration of a session's folder, loaded at each session/new and session/load: a
   * refusal answers the request, an error (docs/acp.md); else the session runs with it.
   */
  load(cwd: string): Promise<FolderConfig>;
}

/** The `initialize` answer: what this build does, and the agent's name (`acp.title`). */
export function initializeResponse(config: Config): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: config.sessions.enabled,
      promptCapabilities: { image: false, audio: false, embeddedContext: false },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { close: {} },
    },
    agentInfo: { name: config.acp.title, title: config.acp.title, version: VERSION },
    authMethods: [],
  };
}

/**
 * The JSON-RPC error for a failure a user can fix: its one sentence is the message shown. Any
 * other is a bug: told on stderr (`log`) with its stack, since the editor only shows "Internal
 * error", then thrown on.
 */
function userError(e: unknown, log?: (line: string) => void): RequestError {
  if (e instanceof RequestError) return e;
  if (e instanceof UserError) return new RequestError(-32603, e.message, { reason: e.name });
  log?.(`mm: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  throw e;
}

/** The error for a session this process does not have. */
function unknownSession(id: string): RequestError {
  return new RequestError(
    -32002,
    `no session "${id}" in this mm process — start a new thread`,
    { sessionId: id },
  );
}

/** Checks a session's `cwd`: an absolute path to a directory. */
async function sessionCwd(cwd: string): Promise<string> {
  if (!isAbsolute(cwd)) {
    throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, got "${cwd}"`);
  }
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(cwd);
  } catch {
    throw RequestError.invalidParams({ cwd }, `cwd ${cwd} does not exist`);
  }
  if (!info.isDirectory) throw RequestError.invalidParams({ cwd }, `cwd ${cwd} is not a directory`);
  return cwd;
}

/** stdout for the protocol, mm's secrets redacted from every message (lib/secrets.ts). */
function redactedStdout(): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const redacting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      out.enqueue(encoder.encode(redact(decoder.decode(chunk, { stream: true }))));
    },
  });
  redacting.readable.pipeTo(Deno.stdout.writable).catch(() => {});
  return redacting.writable;
}

/** In editor mode stdout belongs to the protocol: console output meant for it goes to stderr. */
function consoleToStderr(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dir = toStderr;
  console.table = toStderr;
}

/** mm's log in editor mode: stderr, one line at a time (stdout is the protocol's). */
function log(line: string): void {
  writeAll(Deno.stderr, line.endsWith("\n") ? line : `${line}\n`);
}

/** An MCP server's lines, logged. */
function mcpLog(event: McpEvent): void {
  for (const l of eventLines(event)) log(l.text);
}

/** Serves one editor on stdin and stdout until it closes the connection; returns the exit code. */
export async function runAcpMode(opts: AcpOptions): Promise<number> {
  consoleToStderr();
  const setups = new Setups(log, mcpLog);
  // The folder mm was started in, trusted: its MCP servers start at once, for its sessions.
  if (opts.refusal === undefined) setups.for(opts.config, Deno.cwd());
  return await new EditorAgent(opts.config, setups, opts.load).serve();
}

/**
 * The agent an editor talks to: its sessions (one per thread, each its directory's agent files,
 * tools, prompt and servers), what they share (per configuration: the run, the model's client,
 * the language servers of each directory), and the answers to the protocol's requests.
 */
class EditorAgent {
  /** The agent files of the directory mm was started in, for `initialize`. */
  readonly #config: Config;
  readonly #setups: Setups;
  readonly #folderConfig: (cwd: string) => Promise<FolderConfig>;
  readonly #sessions = new Map<string, AcpSession>();
  /** The editor's MCP servers of each session: started with it, closed with it. */
  readonly #editorMcp = new Map<string, Promise<McpServers>>();
  /** The editor shows forms (elicitation), for ask_user. */
  #forms = false;
  /** The editor shows notices. */
  #notices = false;

  constructor(config: Config, setups: Setups, load: (cwd: string) => Promise<FolderConfig>) {
    this.#config = config;
    this.#setups = setups;
    this.#folderConfig = load;
  }

  /**
   * The setup of a session in `cwd`, from that folder's agent files read now; an untrusted project
   * file there answers the request with its refusal.
   */
  async #setupFor(cwd: string): Promise<Setup> {
    const { config, refusal } = await this.#folderConfig(cwd);
    if (refusal !== undefined) throw new RequestError(-32603, refusal, { reason: "untrusted" });
    return this.#setups.for(config, cwd);
  }

  /** Answers the editor until it closes the connection (or a signal stops mm); the exit code. */
  async serve(): Promise<number> {
    const connection = this.#app().connect(ndJsonStream(redactedStdout(), Deno.stdin.readable));
    // SIGINT, SIGTERM, SIGHUP: every turn cancelled (and saved), then 128 + the signal's number.
    const stop = new RunStop();
    stop.signal.addEventListener("abort", () => connection.close(), { once: true });
    try {
      await connection.closed.catch(() => {});
    } finally {
      stop.dispose();
      await this.#closeAll();
    }
    return stop.exitCode ?? 0;
  }

  /** The protocol's requests, each to its method (`session/load` with sessions on). */
  #app() {
    const app = agent({ name: "mm" })
      .onRequest(methods.agent.initialize, ({ params }) => this.#initialize(params))
      .onRequest(
        methods.agent.session.new,
        ({ params, client }) => this.#newSession(params, client),
      )
      .onRequest(methods.agent.session.prompt, ({ params }) => this.#prompt(params))
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        this.#sessions.get(params.sessionId)?.cancel();
      })
      .onRequest(methods.agent.session.close, ({ params }) => this.#close(params.sessionId))
      .onRequest(methods.agent.session.setMode, ({ params }) => this.#setMode(params));
    if (this.#config.sessions.enabled) {
      app.onRequest(methods.agent.session.load, ({ params, client }) => this.#load(params, client));
    }
    return app;
  }

  /** `initialize`: what the editor shows (forms, notices) is noted; what mm does is answered. */
  #initialize(params: InitializeRequest): InitializeResponse {
    const caps = params.clientCapabilities;
    this.#forms = caps?.elicitation?.form !== undefined && caps.elicitation.form !== null;
    this.#notices = caps?.session?.notices !== undefined && caps.session.notices !== null;
    return initializeResponse(this.#config);
  }

  /** `session/new`: a session in its directory, recorded when sessions are on. */
  async #newSession(params: NewSessionRequest, client: AgentContext): Promise<NewSessionResponse> {
    try {
      const cwd = await sessionCwd(params.cwd);
      const setup = await this.#setupFor(cwd);
      const recorder = await openSession({ config: setup.config, cwd }, await setup.modelName());
      const id = recorder?.session.id ?? newSessionId();
      // An asking mm with nobody to ask says so (docs/acp.md, "Agents that ask agents").
      const askUser = mayAskUser(params);
      const session = await this.#startSession(
        setup,
        id,
        cwd,
        client,
        recorder,
        params.mcpServers ?? [],
        askUser,
      ).catch(async (e) => {
        await recorder?.close();
        throw e;
      });
      this.#sessions.set(id, session);
      session.offerCommands();
      return { sessionId: id, modes: modeState(session.conversation.plan) };
    } catch (e) {
      throw userError(e, log);
    }
  }

  /** `session/load`: a recorded session opened again (closed first when open here), replayed. */
  async #load(params: LoadSessionRequest, client: AgentContext): Promise<LoadSessionResponse> {
    try {
      const cwd = await sessionCwd(params.cwd);
      const setup = await this.#setupFor(cwd);
      // The same session open here already: closed first, so that its lock is free.
      const earlier = this.#sessions.get(params.sessionId);
      if (earlier) {
        this.#sessions.delete(params.sessionId);
        await earlier.close();
      }
      const recorder = await openSession(
        { config: setup.config, cwd, sessionId: params.sessionId },
        await setup.modelName(),
      );
      const session = await this.#startSession(
        setup,
        params.sessionId,
        cwd,
        client,
        recorder,
        params.mcpServers ?? [],
      ).catch(
        async (e) => {
          await recorder?.close();
          throw e;
        },
      );
      this.#sessions.set(params.sessionId, session);
      await session.replay();
      session.offerCommands();
      // A session loaded starts in the default mode: the mode is not recorded (docs/acp.md).
      return { modes: modeState(session.conversation.plan) };
    } catch (e) {
      if (e instanceof Error && e.name === "SessionRequestError") {
        throw new RequestError(-32002, e.message, { sessionId: params.sessionId });
      }
      throw userError(e, log);
    }
  }

  /** `session/prompt`: one turn of a session that runs none. */
  async #prompt(params: PromptRequest): Promise<PromptResponse> {
    const session = this.#sessions.get(params.sessionId);
    if (!session) throw unknownSession(params.sessionId);
    if (session.running) {
      throw RequestError.invalidRequest(
        { sessionId: params.sessionId },
        "a turn is already running in this session — cancel it first",
      );
    }
    const { stopReason, error } = await session.prompt(params.prompt);
    // A failed turn is told to an asking mm (lib/subagent/child.ts); an editor ignores `_meta`.
    return { stopReason, ...(error ? { _meta: turnErrorMeta(error) } : {}) };
  }

  /** `session/set_mode`: plan mode on (`plan`) or off (`default`) from the next call on. */
  #setMode(params: SetSessionModeRequest): SetSessionModeResponse {
    const session = this.#sessions.get(params.sessionId);
    if (!session) throw unknownSession(params.sessionId);
    const plan = isPlanMode(params.modeId);
    if (plan === undefined) {
      throw RequestError.invalidParams({ modeId: params.modeId }, unknownModeText(params.modeId));
    }
    session.conversation.setPlan(plan);
    return {};
  }

  /** `session/close`: the session and the editor's MCP servers it started. */
  async #close(id: string): Promise<Record<string, never>> {
    const session = this.#sessions.get(id);
    if (!session) throw unknownSession(id);
    this.#sessions.delete(id);
    await session.close();
    await this.#closeEditorMcp(id);
    return {};
  }

  /**
   * A session in `cwd` with `setup` (the agent files of `cwd`): its tools, its system prompt
   * (AGENTS.md of `cwd`), its language servers, the MCP servers the editor `given` (beside the
   * agent file's).
   */
  async #startSession(
    setup: Setup,
    id: string,
    cwd: string,
    client: AgentContext,
    recorder: SessionRecorder | undefined,
    given: readonly McpServer[],
    askUser = true,
  ): Promise<AcpSession> {
    const run = setup.run;
    const name = await setup.modelName();
    await this.#closeEditorMcp(id); // a session loaded again starts its editor's servers again
    const own = given.length ? this.#startEditorMcp(setup, id, cwd, given) : undefined;
    const mcp = [run.mcp, own].filter((m) => m !== undefined);
    let pieces;
    try {
      pieces = await startPieces(run, cwd, setup.chatFor(name));
    } catch (e) {
      await this.#closeEditorMcp(id);
      throw e;
    }
    const { chat, tools, systemPrompt } = pieces;
    for (const warning of pieces.warnings) log(warning);
    return new AcpSession({
      id,
      cwd,
      config: setup.config,
      model: name,
      chat,
      tools,
      systemPrompt,
      recorder,
      lsp: setup.poolFor(cwd),
      agents: run.agents,
      mcp,
      peer: peerOf(client),
      forms: this.#forms,
      notices: this.#notices,
      askUser,
      log,
    }, recorder?.earlier());
  }

  /** Starts the MCP servers the editor gave session `id`; undefined when none may start. */
  #startEditorMcp(
    setup: Setup,
    id: string,
    cwd: string,
    servers: readonly McpServer[],
  ): Promise<McpServers> | undefined {
    const config = setup.config;
    const tools = [...BUILTIN_TOOLS, ...config.tools.map((t) => t.name)];
    const configs = editorServers(servers, Object.keys(config.mcpServers), tools, log);
    for (const c of Object.values(configs)) {
      addUrlSecrets(c.url);
      addServerSecrets(c);
    }
    if (!Object.keys(configs).length) return undefined;
    const started = startMcp(configs, cwd, setup.run.env, mcpLog);
    this.#editorMcp.set(id, started);
    return started;
  }

  /** Closes the MCP servers the editor gave session `id`. */
  async #closeEditorMcp(id: string): Promise<void> {
    const servers = this.#editorMcp.get(id);
    this.#editorMcp.delete(id);
    await closeMcp(servers);
  }

  /** At the end: every session closed (and saved), then the servers of every kind. */
  async #closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((s) => s.close()));
    await Promise.all([
      ...[...this.#editorMcp.keys()].map((id) => this.#closeEditorMcp(id)),
      this.#setups.close(),
    ]);
  }
}

/** How a session reaches the editor: its updates, permission dialogs, forms and alive beats. */
function peerOf(client: AgentContext): EditorPeer {
  return {
    update: (sessionId, update) =>
      client.notify(methods.client.session.update, { sessionId, update }),
    requestPermission: (params) => client.request(methods.client.session.requestPermission, params),
    elicit: (params) => client.request(methods.client.elicitation.create, params),
    // An extension notification: an editor ignores it, an asking mm feeds its watchdog with it.
    alive: (sessionId) => client.notify(ALIVE_METHOD, { sessionId } satisfies AliveParams),
  };
}
