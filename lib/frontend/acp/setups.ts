/**
 * What editor mode's sessions share, per configuration: each session's folder has its own agent
 * files (its project file, trusted or not: docs/security.md), and the sessions whose folders give
 * the same configuration share one {@linkcode Setup} — its run (MCP servers, language servers on
 * the PATH, agents of `mmConfigs`), its model, its chat client and its language servers.
 */

import type { Config } from "../../config/config.ts";
import { LspPool } from "../../lsp/pool.ts";
import type { McpEvent } from "../../mcp/servers.ts";
import { type Client, createClient } from "../../provider/client.ts";
import { resolveModel } from "../../provider/models.ts";
import { closeMcp, type Run, runWarnings, startRun } from "../start.ts";

/** A configuration's run, model, chat client and language servers, started on first use. */
export class Setup {
  readonly config: Config;
  readonly run: Run;
  /** Language servers start on first use, one set per directory, and stop when mm exits. */
  readonly #pools = new Map<string, LspPool>();
  #chat: Promise<Client> | undefined;
  #model: Promise<string> | undefined;

  /** Starts the run of `config` from `cwd` (its MCP servers start now; `onMcp` hears of them). */
  constructor(config: Config, cwd: string, onMcp: (event: McpEvent) => void) {
    this.config = config;
    this.run = startRun(config, cwd, onMcp);
  }

  /**
   * One client for every session: a num_ctx raised for one is kept for all (Ollama reloads the
   * model when it changes), and the window is learnt once (again while it is unknown).
   */
  chatFor(name: string): Promise<Client> {
    this.#chat ??= createClient(this.config, name).then((c) => {
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
  modelName(): Promise<string> {
    this.#model ??= resolveModel(this.config).catch((e) => {
      this.#model = undefined;
      throw e;
    });
    return this.#model;
  }

  /** The language servers of `cwd`, started on first use; undefined when none was found. */
  poolFor(cwd: string): LspPool | undefined {
    const servers = this.run.lspServers.servers;
    if (!servers.length) return undefined;
    let pool = this.#pools.get(cwd);
    if (!pool) this.#pools.set(cwd, pool = new LspPool(servers, cwd));
    return pool;
  }

  /** Stops its language servers and MCP servers. */
  async close(): Promise<void> {
    await Promise.all([...[...this.#pools.values()].map((p) => p.close()), closeMcp(this.run.mcp)]);
  }
}

/** The setups of an editor's sessions: one per configuration, whatever folder gave it. */
export class Setups {
  readonly #byConfig = new Map<string, Setup>();
  readonly #log: (line: string) => void;
  readonly #onMcp: (event: McpEvent) => void;

  /** `log` hears each new run's warnings; `onMcp` what happens to its MCP servers. */
  constructor(log: (line: string) => void, onMcp: (event: McpEvent) => void) {
    this.#log = log;
    this.#onMcp = onMcp;
  }

  /** The setup of `config`: the one already started for it, else one started now from `cwd`. */
  for(config: Config, cwd: string): Setup {
    const key = JSON.stringify(config);
    let setup = this.#byConfig.get(key);
    if (!setup) {
      this.#byConfig.set(key, setup = new Setup(config, cwd, this.#onMcp));
      for (const warning of runWarnings(setup.run)) this.#log(warning);
    }
    return setup;
  }

  /** Stops every setup's servers. */
  async close(): Promise<void> {
    await Promise.all([...this.#byConfig.values()].map((s) => s.close()));
  }
}
