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
  type InitializeResponse,
  type McpServer,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
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
import { closeMcp, openSession, runWarnings, startMcp, startPieces, startRun } from "../start.ts";
import { editorServers } from "./mcp_servers.ts";
import { AcpSession, type EditorPeer } from "./session.ts";

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

/** Serves one editor on stdin and stdout until it closes the connection; returns the exit code. */
export async function runAcpMode(opts: AcpOptions): Promise<number> {
  consoleToStderr();
  const { config } = opts;
  const log = (line: string) => writeAll(Deno.stderr, line.endsWith("\n") ? line : `${line}\n`);
  const mcpLog = (event: McpEvent) => {
    for (const l of eventLines(event)) log(l.text);
  };
  const run = startRun(config, Deno.cwd(), mcpLog);
  const { lspServers } = run;
  for (const warning of runWarnings(run)) log(warning);
  // One client for every session: a num_ctx raised for one is kept for all (Ollama reloads the
  // model when it changes), and the window is learnt once (again while it is unknown).
  let chat: Promise<Client> | undefined;
  const chatFor = (name: string) => {
    chat ??= createClient(config, name).then((c) => {
      if (c.plan.source === "unknown") chat = undefined;
      return c;
    }, (e) => {
      chat = undefined;
      throw e;
    });
    return chat;
  };
  let model: Promise<string> | undefined;
  // Resolved on the first session, and again after a failure (the server may have been started).
  const modelName = () => {
    model ??= resolveModel(config).catch((e) => {
      model = undefined;
      throw e;
    });
    return model;
  };
  const sessions = new Map<string, AcpSession>();
  // The editor's MCP servers of each session: started with it, closed with it.
  const editorMcp = new Map<string, Promise<McpServers>>();
  const startEditorMcp = (id: string, cwd: string, servers: readonly McpServer[]) => {
    const tools = [...BUILTIN_TOOLS, ...config.tools.map((t) => t.name)];
    const configs = editorServers(servers, Object.keys(config.mcpServers), tools, log);
    for (const c of Object.values(configs)) {
      addUrlSecrets(c.url);
      addServerSecrets(c);
    }
    if (!Object.keys(configs).length) return undefined;
    const started = startMcp(configs, cwd, run.env, mcpLog);
    editorMcp.set(id, started);
    return started;
  };
  const closeEditorMcp = async (id: string) => {
    const servers = editorMcp.get(id);
    editorMcp.delete(id);
    await closeMcp(servers);
  };
  // Language servers start on first use, one set per directory, and stop when mm exits.
  const pools = new Map<string, LspPool>();
  const poolFor = (cwd: string): LspPool | undefined => {
    if (!lspServers.servers.length) return undefined;
    let pool = pools.get(cwd);
    if (!pool) pools.set(cwd, pool = new LspPool(lspServers.servers, cwd));
    return pool;
  };
  let forms = false;
  let notices = false;

  const peerOf = (client: AgentContext): EditorPeer => ({
    update: (sessionId, update) =>
      client.notify(methods.client.session.update, { sessionId, update }),
    requestPermission: (params) => client.request(methods.client.session.requestPermission, params),
    elicit: (params) => client.request(methods.client.elicitation.create, params),
    // An extension notification: an editor ignores it, an asking mm feeds its watchdog with it.
    alive: (sessionId) => client.notify(ALIVE_METHOD, { sessionId } satisfies AliveParams),
  });

  /**
   * A session in `cwd`: its tools, its system prompt (AGENTS.md of `cwd`), its language servers,
   * the MCP servers the editor `given` (beside the agent file's).
   */
  const startSession = async (
    id: string,
    cwd: string,
    client: AgentContext,
    recorder: SessionRecorder | undefined,
    given: readonly McpServer[],
    askUser = true,
  ): Promise<AcpSession> => {
    const name = await modelName();
    await closeEditorMcp(id); // a session loaded again starts its editor's servers again
    const own = given.length ? startEditorMcp(id, cwd, given) : undefined;
    const mcp = [run.mcp, own].filter((m) => m !== undefined);
    let pieces;
    try {
      pieces = await startPieces(run, cwd, chatFor(name));
    } catch (e) {
      await closeEditorMcp(id);
      throw e;
    }
    const { chat, tools, systemPrompt } = pieces;
    for (const warning of pieces.warnings) log(warning);
    return new AcpSession({
      id,
      cwd,
      config,
      model: name,
      chat,
      tools,
      systemPrompt,
      recorder,
      lsp: poolFor(cwd),
      agents: run.agents,
      mcp,
      peer: peerOf(client),
      forms,
      notices,
      askUser,
      log,
    }, recorder?.earlier());
  };

  const app = agent({ name: "mm" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      const caps = params.clientCapabilities;
      forms = caps?.elicitation?.form !== undefined && caps.elicitation.form !== null;
      notices = caps?.session?.notices !== undefined && caps.session.notices !== null;
      return initializeResponse(config);
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      if (opts.refusal) throw new RequestError(-32603, opts.refusal, { reason: "untrusted" });
      try {
        const cwd = await sessionCwd(params.cwd);
        const recorder = await openSession({ config, cwd }, await modelName());
        const id = recorder?.session.id ?? newSessionId();
        // An asking mm with nobody to ask says so (docs/acp.md, "Agents that ask agents").
        const askUser = mayAskUser(params);
        const session = await startSession(
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
        sessions.set(id, session);
        session.offerCommands();
        return { sessionId: id };
      } catch (e) {
        throw userError(e, log);
      }
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = sessions.get(params.sessionId);
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
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw unknownSession(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      await closeEditorMcp(params.sessionId);
      return {};
    });

  if (config.sessions.enabled) {
    app.onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (opts.refusal) throw new RequestError(-32603, opts.refusal, { reason: "untrusted" });
      try {
        const cwd = await sessionCwd(params.cwd);
        // The same session open here already: closed first, so that its lock is free.
        const earlier = sessions.get(params.sessionId);
        if (earlier) {
          sessions.delete(params.sessionId);
          await earlier.close();
        }
        const recorder = await openSession(
          { config, cwd, sessionId: params.sessionId },
          await modelName(),
        );
        const session = await startSession(
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
        sessions.set(params.sessionId, session);
        await session.replay();
        session.offerCommands();
        return {};
      } catch (e) {
        if (e instanceof Error && e.name === "SessionRequestError") {
          throw new RequestError(-32002, e.message, { sessionId: params.sessionId });
        }
        throw userError(e, log);
      }
    });
  }

  const connection = app.connect(ndJsonStream(redactedStdout(), Deno.stdin.readable));
  // SIGINT, SIGTERM, SIGHUP: every turn cancelled (and saved), then 128 + the signal's number.
  const stop = new RunStop();
  stop.signal.addEventListener("abort", () => connection.close(), { once: true });
  try {
    await connection.closed.catch(() => {});
  } finally {
    stop.dispose();
    await Promise.all([...sessions.values()].map((s) => s.close()));
    await Promise.all([
      ...[...pools.values()].map((p) => p.close()),
      ...[...editorMcp.keys()].map(closeEditorMcp),
      closeMcp(run.mcp),
    ]);
  }
  return stop.exitCode ?? 0;
}
