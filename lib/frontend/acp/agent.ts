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
import { LspPool } from "../../lsp/pool.ts";
import { type Client, createClient } from "../../provider/client.ts";
import { resolveModel } from "../../provider/models.ts";
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
import {
  closeMcp,
  openSession,
  type Run,
  runWarnings,
  startMcp,
  startPieces,
  startRun,
} from "../start.ts";
import { editorServers } from "./mcp_servers.ts";
import { AcpSession, type EditorPeer } from "./session.ts";
import { isPlanMode, modeState, unknownModeText } from "./modes.ts";

/** What editor mode needs. */
export interface AcpOptions {
  /** The agent file, found from the directory mm was started in. */
  config: Config;
  /**
   * Why the project's agent file is not trusted (docs/security.md): every session/new and
   * session/load is answered with it, an error, and `config` leaves the file's keys out.
   */
  refusal?: string;
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
  const run = startRun(opts.config, Deno.cwd(), mcpLog);
  for (const warning of runWarnings(run)) log(warning);
  return await new EditorAgent(opts.config, run, opts.refusal).serve();
}

/**
 * The agent an editor talks to: its sessions (one per thread, each its directory's tools, prompt
 * and servers), what they share (the model's client, the language servers of each directory), and
 * the answers to the protocol's requests.
 */
class EditorAgent {
  readonly #config: Config;
  readonly #run: Run;
  readonly #sessions = new Map<string, AcpSession>();
  /** The editor's MCP servers of each session: started with it, closed with it. */
  readonly #editorMcp = new Map<string, Promise<McpServers>>();
  /** Language servers start on first use, one set per directory, and stop when mm exits. */
  readonly #pools = new Map<string, LspPool>();
  #chat: Promise<Client> | undefined;
  #refusal: string | undefined;
  #model: Promise<string> | undefined;
  /** The editor shows forms (elicitation), for ask_user. */
  #forms = false;
  /** The editor shows notices. */
  #notices = false;

  constructor(config: Config, run: Run, refusal?: string) {
    this.#config = config;
    this.#run = run;
    this.#refusal = refusal;
  }

  /** An untrusted project file: the answer to every session/new and session/load. */
  #untrusted(): void {
    if (this.#refusal) throw new RequestError(-32603, this.#refusal, { reason: "untrusted" });
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
    this.#untrusted();
    try {
      const config = this.#config;
      const cwd = await sessionCwd(params.cwd);
      const recorder = await openSession({ config, cwd }, await this.#modelName());
      const id = recorder?.session.id ?? newSessionId();
      // An asking mm with nobody to ask says so (docs/acp.md, "Agents that ask agents").
      const askUser = mayAskUser(params);
      const session = await this.#startSession(
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
    this.#untrusted();
    try {
      const cwd = await sessionCwd(params.cwd);
      // The same session open here already: closed first, so that its lock is free.
      const earlier = this.#sessions.get(params.sessionId);
      if (earlier) {
        this.#sessions.delete(params.sessionId);
        await earlier.close();
      }
      const recorder = await openSession(
        { config: this.#config, cwd, sessionId: params.sessionId },
        await this.#modelName(),
      );
      const session = await this.#startSession(
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
   * A session in `cwd`: its tools, its system prompt (AGENTS.md of `cwd`), its language servers,
   * the MCP servers the editor `given` (beside the agent file's).
   */
  async #startSession(
    id: string,
    cwd: string,
    client: AgentContext,
    recorder: SessionRecorder | undefined,
    given: readonly McpServer[],
    askUser = true,
  ): Promise<AcpSession> {
    const run = this.#run;
    const name = await this.#modelName();
    await this.#closeEditorMcp(id); // a session loaded again starts its editor's servers again
    const own = given.length ? this.#startEditorMcp(id, cwd, given) : undefined;
    const mcp = [run.mcp, own].filter((m) => m !== undefined);
    let pieces;
    try {
      pieces = await startPieces(run, cwd, this.#chatFor(name));
    } catch (e) {
      await this.#closeEditorMcp(id);
      throw e;
    }
    const { chat, tools, systemPrompt } = pieces;
    for (const warning of pieces.warnings) log(warning);
    return new AcpSession({
      id,
      cwd,
      config: this.#config,
      model: name,
      chat,
      tools,
      systemPrompt,
      recorder,
      lsp: this.#poolFor(cwd),
      agents: run.agents,
      mcp,
      peer: peerOf(client),
      forms: this.#forms,
      notices: this.#notices,
      askUser,
      log,
    }, recorder?.earlier());
  }

  /**
   * One client for every session: a num_ctx raised for one is kept for all (Ollama reloads the
   * model when it changes), and the window is learnt once (again while it is unknown).
   */
  #chatFor(name: string): Promise<Client> {
    this.#chat ??= createClient(this.#config, name).then((c) => {
      if (c.plan.source === "unknown") this.#chat = undefined;
      return c;
    }, (e) => {
      this.#chat = undefined;
      throw e;
    });
    return this.#chat;
  }

  /**
   * The model's name, resolved on the first session, and again after a failure (the server may
   * have been started since).
   */
  #modelName(): Promise<string> {
    this.#model ??= resolveModel(this.#config).catch((e) => {
      this.#model = undefined;
      throw e;
    });
    return this.#model;
  }

  /** Starts the MCP servers the editor gave session `id`; undefined when none may start. */
  #startEditorMcp(
    id: string,
    cwd: string,
    servers: readonly McpServer[],
  ): Promise<McpServers> | undefined {
    const config = this.#config;
    const tools = [...BUILTIN_TOOLS, ...config.tools.map((t) => t.name)];
    const configs = editorServers(servers, Object.keys(config.mcpServers), tools, log);
    for (const c of Object.values(configs)) {
      addUrlSecrets(c.url);
      addServerSecrets(c);
    }
    if (!Object.keys(configs).length) return undefined;
    const started = startMcp(configs, cwd, this.#run.env, mcpLog);
    this.#editorMcp.set(id, started);
    return started;
  }

  /** Closes the MCP servers the editor gave session `id`. */
  async #closeEditorMcp(id: string): Promise<void> {
    const servers = this.#editorMcp.get(id);
    this.#editorMcp.delete(id);
    await closeMcp(servers);
  }

  /** The language servers of `cwd`, started on first use; undefined when none was found. */
  #poolFor(cwd: string): LspPool | undefined {
    const servers = this.#run.lspServers.servers;
    if (!servers.length) return undefined;
    let pool = this.#pools.get(cwd);
    if (!pool) this.#pools.set(cwd, pool = new LspPool(servers, cwd));
    return pool;
  }

  /** At the end: every session closed (and saved), then the servers of every kind. */
  async #closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((s) => s.close()));
    await Promise.all([
      ...[...this.#pools.values()].map((p) => p.close()),
      ...[...this.#editorMcp.keys()].map((id) => this.#closeEditorMcp(id)),
      closeMcp(this.#run.mcp),
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
