/**
 * What every front end does before the first turn: the model, the session file, the chat client,
 * the tools, the system prompt, the language servers, and the agent made of them.
 */

import { Agent } from "../agent/agent.ts";
import type { AgentEvent } from "../agent/events.ts";
import { systemPrompt } from "../agent/prompt.ts";
import type { Config } from "../config/config.ts";
import { realContext } from "../context.ts";
import { LspPool } from "../lsp/pool.ts";
import { availableLspServers, type AvailableServers } from "../lsp/servers.ts";
import type { AskPermission } from "../permissions/prompt.ts";
import type { ChatClient } from "../provider/chat.ts";
import type { Message } from "../history.ts";
import type { Client } from "../provider/client.ts";
import { ProviderError } from "../provider/errors.ts";
import { resolveModel } from "../provider/models.ts";
import { SessionRecorder, SessionRequestError } from "../session/recorder.ts";
import type { AnyTool, AskUser } from "../tool.ts";
import { startupTools } from "../../tools/mod.ts";

/** What choosing a session needs. */
export interface SessionChoice {
  config: Config;
  cwd: string;
  /** `--continue`. */
  continueLatest?: boolean;
  /** `--session ID`. */
  sessionId?: string;
}

/** The session file of this run, when sessions are on or one is asked for. */
export async function openSession(
  opts: SessionChoice,
  model: string,
): Promise<SessionRecorder | undefined> {
  const asked = opts.continueLatest || opts.sessionId !== undefined;
  if (!opts.config.sessions.enabled) {
    if (!asked) return undefined;
    throw new SessionRequestError(
      "--continue and --session need sessions: set sessions.enabled: true in the agent file",
    );
  }
  return await SessionRecorder.open({
    dir: opts.config.sessions.dir,
    cwd: opts.cwd,
    provider: opts.config.provider,
    model,
    continueLatest: opts.continueLatest,
    id: opts.sessionId,
  });
}

/** The model to use, or undefined once `fail` was told the server's error. */
export async function modelOrFail(
  config: Config,
  fail: (message: string) => void,
): Promise<string | undefined> {
  try {
    return await resolveModel(config);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    fail(e.message);
    return undefined;
  }
}

/** The pieces of an agent that take time to start. */
export interface StartedPieces {
  /** The chat client, with its context-window plan. */
  chat: Client;
  /** The tools built for `cwd`. */
  tools: AnyTool[];
  /** The system prompt of `cwd` (with its AGENTS.md). */
  systemPrompt: string;
}

/**
 * Waits for `client` (started by the caller) while the tools (lsp for the `lspServers` found at
 * start-up) and system prompt of `cwd` start beside it. Failures come in that order, tools,
 * prompt, client, and only to whoever awaits.
 */
export function startPieces(
  config: Config,
  cwd: string,
  client: Promise<Client>,
  lspServers: AvailableServers,
): Promise<StartedPieces> {
  client.catch(() => {}); // awaited below
  const prompt = systemPrompt(config, cwd);
  prompt.catch(() => {}); // awaited below
  const pieces = (async () => {
    const tools = await startupTools(config, cwd, lspServers);
    return { tools, systemPrompt: await prompt, chat: await client };
  })();
  pieces.catch(() => {}); // awaited by the caller
  return pieces;
}

/**
 * The servers of `config` found on mm's PATH (a command with a slash from `cwd`): once, at start-up,
 * for the tools, the banner and the pools.
 */
export function lspServersOnPath(config: Config, cwd: string): AvailableServers {
  let env: Record<string, string> = {};
  try {
    env = Deno.env.toObject();
  } catch {
    // No env permission: only commands with a slash can be found.
  }
  return availableLspServers(config, env, cwd);
}

/** The language servers of `cwd`, each started on first use; none when none was found. */
export function lspPool(found: AvailableServers, cwd: string): LspPool | undefined {
  return found.servers.length ? new LspPool(found.servers, cwd) : undefined;
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
  /** The session file, saved after every step. */
  recorder?: SessionRecorder;
  /** The hooks' `session` when it is not the session file's own id (ACP names its sessions). */
  sessionId?: string;
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
}

/** The agent of a front end: the real tools' context, the session file saved after every step. */
export function frontEndAgent(
  parts: AgentParts,
  ways: FrontEndWays,
  earlier: { message: Message; turn: number }[] = parts.recorder?.earlier() ?? [],
): Agent {
  const { config, cwd, lsp, recorder } = parts;
  const agent: Agent = new Agent({
    config,
    chat: parts.chat,
    tools: parts.tools,
    systemPrompt: parts.systemPrompt,
    context: (signal) => ({
      ...realContext(config, cwd, signal, lsp),
      ...(ways.ask ? { ask: ways.ask } : {}),
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
  }, earlier);
  return agent;
}
