/**
 * One start-up for every front end (docs/architecture.md, "Adding a front end"): what a run finds
 * once (its environment, the language servers on the PATH, the agents of `mmConfigs`), the model,
 * the session file, the chat client, the tools, the system prompt, the language servers of a
 * working directory, and the agent made of them. A front end is then a renderer and an input loop.
 */

import { resolve } from "node:path";
import { Agent, type AgentEvent, type ModelHost, systemPrompt } from "../agent/mod.ts";
import type { Config, McpServerConfig } from "../config/config.ts";
import { ConfigError } from "../config/errors.ts";
import { errorReason } from "../files.ts";
import { readInstructions, readPromptFile } from "./instructions.ts";
import { realContext } from "../context.ts";
import type { Message } from "../history.ts";
import { LspPool } from "../lsp/pool.ts";
import type { McpEvent, McpServers } from "../mcp/servers.ts";
import { catalogText, waitingText } from "../mcp/status.ts";
import { availableLspServers, type AvailableServers } from "../lsp/servers.ts";
import type { AskPermission } from "../permissions/prompt.ts";
import type { ChatClient } from "../provider/chat.ts";
import { type Client, createClient } from "../provider/client.ts";
import { ProviderError } from "../provider/errors.ts";
import { listModels, resolveModel } from "../provider/models.ts";
import { warms, Warmup } from "../provider/warmup.ts";
import { SessionRecorder, SessionRequestError } from "../session/recorder.ts";
import { DEFAULT_SESSIONS_DIR, defaultSessionsDir } from "../session/dirs.ts";
import {
  agentFaultWarning,
  type AgentInfo,
  agentInfos,
  askDepth,
  Subagents,
} from "../subagent/ask.ts";
import type { AnyTool, AskUser, MoreTools, UnknownToolAnswer } from "../tool.ts";
import { settledBefore } from "../wait.ts";
import { disabledMcpAnswer, mcpTools, startupTools } from "../../tools/mod.ts";
import { warningText } from "../presentation.ts";
import { TurnKeeper } from "../undo/keeper.ts";
import { finishRestore } from "../undo/restore.ts";
import { undoDir, UndoStore } from "../undo/store.ts";
import { recoveredText } from "../undo/take_back.ts";

/** What a run of mm finds once, whatever its front end and however many directories it serves. */
export interface Run {
  config: Config;
  /** mm's environment, read once (empty without the env permission). */
  env: Record<string, string>;
  /** The configured language servers found on the PATH, and a warning for each one skipped. */
  lspServers: AvailableServers;
  /** The agents of `mmConfigs`, their files read once. */
  agentInfos: AgentInfo[];
  /** The tools' way to those agents; undefined when `mmConfigs` names none. */
  agents?: Subagents;
  /** The MCP servers of the agent file, started at once; undefined when it names none enabled. */
  mcp?: Promise<McpServers>;
}

/** The environment of this process, or an empty one without the env permission. */
function readEnv(): Record<string, string> {
  try {
    return Deno.env.toObject();
  } catch {
    // No env permission: only commands with a slash can be found.
    return {};
  }
}

/**
 * What this run finds once, from the directory mm was started in: the language servers on the
 * PATH (a command with a slash from `cwd`), the agents of `mmConfigs`; the MCP servers start
 * (`onMcp` is told what happens to them).
 */
export function startRun(config: Config, cwd: string, onMcp?: (event: McpEvent) => void): Run {
  const env = readEnv();
  const names = Object.keys(config.mmConfigs);
  const mcp = Object.values(config.mcpServers).some((s) => s.enabled)
    ? startMcp(config.mcpServers, cwd, env, onMcp)
    : undefined;
  return {
    config,
    env,
    lspServers: availableLspServers(config, env, cwd),
    agentInfos: names.length ? agentInfos(config, env, cwd) : [],
    agents: names.length ? new Subagents(config, askDepth(env)) : undefined,
    mcp,
  };
}

/**
 * The warnings of what the run found: each language server not on the PATH, each agent of
 * `mmConfigs` whose file cannot start it.
 */
export function runWarnings(run: Run): string[] {
  return [
    ...run.lspServers.warnings,
    ...run.agentInfos.flatMap((a) => a.fault ? [agentFaultWarning(a.name, a.fault)] : []),
  ];
}

/**
 * Starts MCP servers in `cwd`, every one at once; the adapter (and the SDK) load only now, so a
 * run without MCP servers never loads them.
 */
export function startMcp(
  configs: Record<string, McpServerConfig>,
  cwd: string,
  env: Record<string, string>,
  onEvent?: (event: McpEvent) => void,
): Promise<McpServers> {
  const servers = import("../mcp/servers.ts").then((m) =>
    new m.McpServers(configs, { cwd, env, onEvent })
  );
  servers.catch(() => {}); // awaited by whoever uses them
  return servers;
}

/** The names of the MCP servers the agent file has but turned off (`enabled: false`). */
function disabledServers(config: Config): string[] {
  return Object.entries(config.mcpServers).filter(([, s]) => !s.enabled).map(([name]) => name);
}

/** Milliseconds the first turn waits for MCP servers before it says so. */
export const WAIT_NOTICE_MS = 1000;

/** Shows one of the MCP lines of a conversation (the wait, a tool left out, catalog mode). */
export type McpLine = (message: string, warning: boolean) => void;

/** The MCP lines as the core's events: what the terminal front ends and `-p` show. */
export function mcpLineEvents(emit: (event: AgentEvent) => void): McpLine {
  return (message, warning) => emit({ type: warning ? "warning" : "notice", message });
}

/**
 * The MCP tools of a new conversation (its first turn asks for them): every server waited for
 * (each up to its `startupTimeout`, with a notice while any is still starting), then one tool per
 * server tool or the two catalog tools; `tools` are the conversation's other tools. The turn's
 * `signal` ends the wait at once, with nothing (the servers go on starting: the next turn asks
 * again).
 */
export async function mcpToolsFor(
  sets: Promise<McpServers>[],
  tools: readonly AnyTool[],
  config: Config,
  line: McpLine,
  signal: AbortSignal,
): Promise<MoreTools> {
  const servers = await Promise.all(sets);
  const settled = Promise.all(servers.map((s) => s.whenSettled()));
  const timer = setTimeout(() => {
    const starting = servers.flatMap((s) => s.starting());
    if (!starting.length) return;
    const longest = Math.max(...starting.map((s) => s.config.startupTimeout));
    line(waitingText(starting.map((s) => s.name), longest), false);
  }, WAIT_NOTICE_MS);
  const waited = await settledBefore(settled, signal);
  clearTimeout(timer);
  if (!waited) return { tools: [] };
  const declared = mcpTools(
    servers.flatMap((s) => s.entries()),
    config.mcp,
    tools.map((t) => t.name),
    servers.flatMap((s) => s.servers),
  );
  for (const message of declared.dropped) line(message, true);
  if (declared.catalog) line(catalogText(declared.count, declared.size, config.mcp), false);
  return { tools: declared.tools, unknown: declared.unknown };
}

/** What choosing a session needs. */
export interface SessionChoice {
  config: Config;
  cwd: string;
  /** `--continue`. */
  continueLatest?: boolean;
  /** `--session ID`. */
  sessionId?: string;
  /** `--model` was given: it wins over a resumed session's model. */
  modelFlag?: boolean;
}

/** The warning of a default sessions folder that cannot be made: the run goes on, unsaved. */
export function noStateFolderText(dir: string | undefined, reason: string): string {
  return warningText(
    dir === undefined
      ? `sessions are not saved: there is no state folder (neither XDG_STATE_HOME nor HOME is set) — set sessions.dir in the agent file`
      : `sessions are not saved: ${dir} cannot be created (${reason}) — set sessions.dir in the agent file`,
  );
}

/**
 * Whether the default sessions folder of `cwd` (in the user's state folder) can be used; when it
 * cannot, `warn` is told once and the run goes on without saving.
 */
async function stateFolderUsable(cwd: string, warn: (message: string) => void): Promise<boolean> {
  const dir = defaultSessionsDir(cwd);
  if (dir === undefined) {
    warn(noStateFolderText(undefined, ""));
    return false;
  }
  try {
    await Deno.mkdir(dir, { recursive: true });
    return true;
  } catch (e) {
    warn(noStateFolderText(dir, errorReason(e)));
    return false;
  }
}

/**
 * The session file of this run, when sessions are on or one is asked for. Sessions are on by
 * default, in the user's state folder: when it cannot be made, `warn` says so and nothing is saved.
 */
export async function openSession(
  opts: SessionChoice,
  model: string,
  warn: (message: string) => void = () => {},
): Promise<SessionRecorder | undefined> {
  const asked = opts.continueLatest || opts.sessionId !== undefined;
  const { sessions } = opts.config;
  if (!sessions.enabled) {
    if (!asked) return undefined;
    throw new SessionRequestError(
      "--continue and --session need sessions: set sessions.enabled: true in the agent file",
    );
  }
  if (
    !asked && sessions.dir === DEFAULT_SESSIONS_DIR && !(await stateFolderUsable(opts.cwd, warn))
  ) {
    return undefined;
  }
  const recorder = await SessionRecorder.open({
    dir: sessions.dir,
    keep: sessions.keep,
    cwd: opts.cwd,
    provider: opts.config.provider,
    model,
    continueLatest: opts.continueLatest,
    id: opts.sessionId,
  });
  // An undo stopped half way (mm killed during it) is finished first, under the session's lock.
  const recovered = await finishRestore(
    undoStoreOf(recorder),
    (from) => recorder.dropTurnsFrom(from),
  ).catch(() => undefined);
  if (recovered) recorder.warnings.push(warningText(recoveredText(recovered)));
  return recorder;
}

/** The undo store beside a session file (lib/undo/store.ts). */
export function undoStoreOf(recorder: SessionRecorder): UndoStore {
  return new UndoStore(undoDir(recorder.dir, recorder.session.id));
}

/** The text of `config.systemFile` (relative to the agent file), or a ConfigError saying why not. */
async function readSystemFile(config: Config, cwd: string): Promise<string | undefined> {
  if (config.system !== undefined || config.systemFile === undefined) return config.system;
  const base = config.file ? resolve(config.file, "..") : cwd;
  const path = resolve(base, config.systemFile);
  const read = await readPromptFile(path);
  if (read !== undefined && "text" in read) return read.text;
  throw new ConfigError(
    config.file ?? path,
    0,
    0,
    "systemFile",
    `systemFile: ${path} cannot be read (${read?.reason ?? "no such file"})`,
  );
}

/** The system prompt of a working directory and the instructions files it holds. */
export interface ReadPrompt {
  prompt: string;
  /** The instructions files read into it, as the banner names them. */
  instructions: string[];
}

/**
 * The system prompt of `cwd`: its files read here (the agent file's `systemFile`, the instructions
 * of lib/frontend/instructions.ts), the prompt built by the core's pure function; an instructions
 * file that cannot be read is told to `warn`.
 */
export async function readSystemPrompt(
  config: Config,
  cwd: string,
  warn: (message: string) => void,
  env: Record<string, string | undefined> = readEnv(),
): Promise<ReadPrompt> {
  const [system, instructions] = await Promise.all([
    readSystemFile(config, cwd),
    readInstructions(cwd, env),
  ]);
  for (const w of instructions.warnings) warn(w);
  const agentsMd = instructions.text || undefined;
  return {
    prompt: systemPrompt({ system, cwd, os: Deno.build.os, agentsMd }),
    instructions: instructions.files,
  };
}

/** The pieces of an agent that take time to start. */
export interface StartedPieces {
  /** The chat client, with its context-window plan. */
  chat: Client;
  /** The tools built for `cwd`. */
  tools: AnyTool[];
  /** The system prompt of `cwd` (with its instructions, AGENTS.md). */
  systemPrompt: string;
  /** The instructions files read into it, as the banner names them. */
  instructions: string[];
  /** What could not be read into it (an AGENTS.md that is a named pipe), one warning each. */
  warnings: string[];
}

/**
 * Waits for `client` (started by the caller) while the tools and the system prompt of `cwd` start
 * beside it. Failures come in that order, tools, prompt, client, and only to whoever awaits.
 */
export function startPieces(
  run: Run,
  cwd: string,
  client: Promise<Client>,
): Promise<StartedPieces> {
  client.catch(() => {}); // awaited below
  const warnings: string[] = [];
  const prompt = readSystemPrompt(run.config, cwd, (w) => warnings.push(w), run.env);
  prompt.catch(() => {}); // awaited below
  const pieces = (async () => {
    const tools = await startupTools(run.config, cwd, {
      lspServers: run.lspServers,
      agents: run.agentInfos,
    });
    const read = await prompt;
    const chat = await client;
    return { tools, systemPrompt: read.prompt, instructions: read.instructions, chat, warnings };
  })();
  pieces.catch(() => {}); // awaited by the caller
  return pieces;
}

/** The language servers of `cwd`, each started on first use; none when none was found. */
export function lspPool(found: AvailableServers, cwd: string): LspPool | undefined {
  return found.servers.length ? new LspPool(found.servers, cwd) : undefined;
}

/** Closes MCP servers that may still be starting; resolves once every process is reaped. */
export async function closeMcp(servers: Promise<McpServers> | undefined): Promise<void> {
  const set = await servers?.catch(() => undefined);
  await set?.close();
}

/** What a front end's agent is made of. */
export interface AgentParts {
  config: Config;
  /** Where the tools run. */
  cwd: string;
  /** The model, written to the session file. */
  model: string;
  chat: ChatClient;
  tools: AnyTool[];
  systemPrompt: string;
  /** The language servers of `cwd`. */
  lsp?: LspPool;
  /** The agents of `mmConfigs`, for ask_agent. */
  agents?: Subagents;
  /** The session file, saved after every step. */
  recorder?: SessionRecorder;
  /** The hooks' `session` when it is not the session file's own id (ACP names its sessions). */
  sessionId?: string;
  /** The MCP servers whose tools the conversation declares (the run's, the editor's). */
  mcp?: Promise<McpServers>[];
  /** How the front end wraps each tool (the editor's updates), the MCP tools included. */
  track?: (tool: AnyTool) => AnyTool;
  /** The warm-ups of the server's cache, when the configuration warms it (lib/provider/warmup.ts). */
  warmup?: Warmup;
}

/** How a front end deals with its user: its own in each front end. */
export interface FrontEndWays {
  /** Asks before a call runs. */
  askPermission: AskPermission;
  /** Shows the agent's events. */
  emit(event: AgentEvent): void;
  /** Shows a warning from saving the session file. */
  warn(message: string): void;
  /** The tools' `ask` (ask_user) when someone can answer. */
  ask?: AskUser;
  /** Shows the MCP lines of a conversation; absent: as `warning` and `notice` events. */
  mcpLine?: McpLine;
  /** Whether the agent warms the server's cache ahead of the user (line and window mode). */
  warm?: boolean;
}

/** The agent of a front end: the real tools' context, the session file saved after every step. */
export function frontEndAgent(
  parts: AgentParts,
  ways: FrontEndWays,
  earlier: { message: Message; turn: number }[] = parts.recorder?.earlier() ?? [],
): Agent {
  const { config, cwd, lsp, recorder } = parts;
  const track = parts.track ?? ((tool: AnyTool) => tool);
  const tools = parts.tools.map(track);
  const agent: Agent = new Agent({
    config,
    chat: parts.chat,
    tools,
    moreTools: parts.mcp?.length || disabledServers(config).length
      ? async (signal) => {
        // A name of a server turned off says so; the running ones answer for theirs first.
        const off = disabledMcpAnswer(disabledServers(config));
        if (!parts.mcp?.length) return { tools: [], unknown: off };
        const line = ways.mcpLine ?? mcpLineEvents(ways.emit);
        const more = await mcpToolsFor(parts.mcp, tools, config, line, signal);
        const unknown: UnknownToolAnswer = (name, declared) =>
          more.unknown?.(name, declared) ?? off(name, declared);
        return { ...more, tools: more.tools.map(track), unknown };
      }
      : undefined,
    systemPrompt: parts.systemPrompt,
    context: (signal) => ({
      ...realContext(config, cwd, signal, lsp),
      ...(ways.ask ? { ask: ways.ask } : {}),
      ...(parts.agents ? { agents: parts.agents } : {}),
    }),
    askPermission: ways.askPermission,
    emit: ways.emit,
    onStep: recorder
      ? async () => {
        const warning = await recorder.save(agent, parts.model);
        if (warning) ways.warn(warning);
      }
      : undefined,
    sessionId: recorder ? () => parts.sessionId ?? recorder.session.id : undefined,
    keeper: recorder
      ? new TurnKeeper({ store: undoStoreOf(recorder), cwd, sessions: recorder.dir })
      : undefined,
    warmup: ways.warm ? parts.warmup : undefined,
  }, earlier);
  return agent;
}

/** What a front end of one working directory (one-shot, line, window) starts with. */
export interface StartOptions extends SessionChoice {
  /** A warning of the run's start-up: a configured language server not on the PATH. */
  runWarning(message: string): void;
  /** What happens to the MCP servers (lib/mcp/status.ts words it); absent: nothing is shown. */
  mcpEvent?(event: McpEvent): void;
  /** A warning of the session file (one it repaired or could not read whole). */
  sessionWarning(message: string): void;
}

/** A front end's start-up that could not reach a model: the server's sentence. */
export interface StartFailure {
  ok: false;
  error: string;
}

/** A front end of one working directory, ready for its first turn. */
export class Started {
  readonly ok = true;
  readonly run: Run;
  readonly cwd: string;
  /** The model of the requests (`/model` switches it). */
  model: string;
  /** The chat client of `model`. */
  chat: Client;
  readonly tools: AnyTool[];
  readonly systemPrompt: string;
  /** The instructions files read into the system prompt, for the banner. */
  readonly instructions: string[];
  /** The language servers of `cwd`, started on first use. */
  readonly lsp?: LspPool;
  /** The session file, when sessions are on. */
  recorder?: SessionRecorder;
  /** The warm-ups of the server's cache, when the configuration warms it. */
  warmup?: Warmup;

  /** What `start` found. */
  constructor(
    run: Run,
    cwd: string,
    model: string,
    pieces: StartedPieces,
    recorder: SessionRecorder | undefined,
  ) {
    this.run = run;
    this.cwd = cwd;
    this.model = model;
    this.chat = pieces.chat;
    this.tools = pieces.tools;
    this.systemPrompt = pieces.systemPrompt;
    this.instructions = pieces.instructions;
    this.recorder = recorder;
    this.lsp = lspPool(run.lspServers, cwd);
    if (warms(run.config)) this.warmup = new Warmup(pieces.chat);
  }

  /** The agent of this front end: the session's earlier messages unless `earlier` says otherwise. */
  agent(ways: FrontEndWays, earlier?: { message: Message; turn: number }[]): Agent {
    return frontEndAgent(
      {
        config: this.run.config,
        cwd: this.cwd,
        model: this.model,
        chat: this.chat,
        tools: this.tools,
        systemPrompt: this.systemPrompt,
        lsp: this.lsp,
        agents: this.run.agents,
        recorder: this.recorder,
        mcp: this.run.mcp ? [this.run.mcp] : undefined,
        warmup: this.warmup,
      },
      ways,
      earlier ?? this.recorder?.earlier() ?? [],
    );
  }

  /**
   * `/model`'s server: its list (kept for Tab's completion once asked), the model now, and the
   * switch: a client for the new model, its window discovered again; the agents made after it
   * use it, and the session file records it with their next step.
   */
  models(): ModelHost & { cached(): Promise<string[]> } {
    let known: Promise<string[]> | undefined;
    const list = (signal?: AbortSignal) => {
      const got = listModels(this.run.config, signal);
      known = got.catch(() => []);
      return got;
    };
    return {
      list: (signal) => list(signal),
      cached: () => known ?? list().catch(() => []),
      current: () => this.model,
      switchTo: async (name) => {
        this.chat = await createClient(this.run.config, name);
        this.model = name;
        // The next agent warms the new model's cache through the new client, not the old one's.
        if (this.warmup) {
          this.warmup.stop();
          this.warmup = new Warmup(this.chat);
        }
      },
    };
  }

  /** `/new`: a fresh session file (when sessions are on); the next agent starts empty. */
  async newSession(): Promise<void> {
    await this.recorder?.close();
    this.recorder = undefined; // until the new one is open: its lock may fail
    this.recorder = await openSession({ config: this.run.config, cwd: this.cwd }, this.model);
  }

  /**
   * `/resume` and `mm -r`: session `id` of this directory opened (its lock held) in place of the
   * one in use, which is let go; when it cannot be opened, the one in use is kept and the error
   * thrown. The next agent starts from its messages. Its warnings (an undo finished) are returned.
   */
  async resumeSession(id: string): Promise<string[]> {
    const next = await openSession(
      { config: this.run.config, cwd: this.cwd, sessionId: id },
      this.model,
    );
    await this.recorder?.close();
    this.recorder = next;
    return next?.warnings ?? [];
  }

  /** Stops what was started: the language and MCP servers; lets the session file's lock go. */
  async close(): Promise<void> {
    this.warmup?.stop();
    await Promise.all([this.lsp?.close(), closeMcp(this.run.mcp)]);
    await this.recorder?.close();
  }
}

/**
 * Starts a front end of one working directory: what the run finds once, the session file (its
 * errors thrown before any request), the model (its server's error returned), then the chat
 * client, the tools and the system prompt side by side. Warnings are told as they come.
 */
export async function start(opts: StartOptions): Promise<Started | StartFailure> {
  const { config, cwd } = opts;
  const run = startRun(config, cwd, opts.mcpEvent);
  let recorder: SessionRecorder | undefined;
  try {
    for (const warning of runWarnings(run)) opts.runWarning(warning);
    recorder = await openSession(opts, config.model ?? "", opts.sessionWarning);
    for (const warning of recorder?.warnings ?? []) opts.sessionWarning(warning);
    // A resumed session goes on with the model it recorded (`/model`'s), unless --model says.
    const resumed = opts.continueLatest || opts.sessionId !== undefined;
    const recorded = resumed && !opts.modelFlag ? recorder?.session.model : undefined;
    const chosen = recorded ? { ...config, model: recorded } : config;
    let model: string;
    try {
      model = await resolveModel(chosen);
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      await recorder?.close();
      await closeMcp(run.mcp);
      return { ok: false, error: e.message };
    }
    const pieces = await startPieces(run, cwd, createClient(chosen, model));
    for (const warning of pieces.warnings) opts.runWarning(warning);
    return new Started(run, cwd, model, pieces, recorder);
  } catch (e) {
    // No front end to close them: the servers stop here.
    await recorder?.close();
    await closeMcp(run.mcp);
    throw e;
  }
}
