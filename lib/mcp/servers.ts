/**
 * The MCP servers of a run (the agent file's `mcpServers`) or of an editor's session (the
 * `mcpServers` of `session/new`): all started at once, side by side, without waiting for any;
 * their tools filtered by each server's `tools` and `exclude` globs; what happens to them told as
 * events; all closed together, on every exit path (docs/mcp.md, "Lifecycle").
 */

import type { McpServerConfig } from "../config/config.ts";
import { mcpToolName } from "../config/mcp.ts";
import { nearest } from "../nearest.ts";
import type { McpServerTools } from "../tool.ts";
import { McpServer } from "./server.ts";

/** What happens to the servers, for the front ends to show (lib/mcp/status.ts words it). */
export type McpEvent =
  /** It runs: how many tools it declares of those it listed, and the tools the listing dropped. */
  | {
    type: "ready";
    server: string;
    declared: number;
    listed: number;
    dropped: string[];
    /** The globs of its `tools` and `exclude` that match none of the tools it listed. */
    unmatched: UnmatchedGlob[];
  }
  /** It failed to start (`started` false) or died. */
  | { type: "down"; server: string; reason: string; started: boolean }
  /** It changed its tools: the new list is for the next conversation. */
  | { type: "changed"; server: string; listed: number };

/** How the servers are started. */
export interface McpServersOptions {
  /** The working directory: where stdio servers run unless their `cwd` says otherwise. */
  cwd: string;
  /** mm's environment: what the servers' minimal environment is taken from. */
  env: Record<string, string>;
  /** Told of every event, as it happens. */
  onEvent?(event: McpEvent): void;
}

/** Whether `name` matches glob `pattern` (`*` any run of characters, `?` one). */
export function globMatch(pattern: string, name: string): boolean {
  const re = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${re}$`).test(name);
}

/** Whether a server's tool `name` is declared: in its `tools` globs (when given), in no `exclude` glob. */
export function isAllowed(config: McpServerConfig, name: string): boolean {
  if (config.tools && !config.tools.some((g) => globMatch(g, name))) return false;
  return !config.exclude.some((g) => globMatch(g, name));
}

/**
 * A glob of a server's `tools` or `exclude` that matches none of its tools, and the nearest name;
 * or (`glob` absent) a `tools: []` that keeps none of them.
 */
export interface UnmatchedGlob {
  key: "tools" | "exclude";
  glob?: string;
  near?: string;
}

/**
 * The globs of `config`'s `tools` and `exclude` that match none of `names` (a typo, a rename), and
 * an empty `tools` list, which keeps none.
 */
export function unmatchedGlobs(config: McpServerConfig, names: readonly string[]): UnmatchedGlob[] {
  const out: UnmatchedGlob[] = [];
  if (config.tools?.length === 0 && names.length) out.push({ key: "tools" });
  const lists = [["tools", config.tools ?? []], ["exclude", config.exclude]] as const;
  for (const [key, globs] of lists) {
    for (const glob of globs) {
      if (names.some((n) => globMatch(glob, n))) continue;
      const near = /[*?]/.test(glob) ? undefined : nearest(glob, names);
      out.push({ key, glob, ...(near ? { near } : {}) });
    }
  }
  return out;
}

/**
 * The tools of server `name` its conversations declare: those its allow list keeps, less those
 * whose name (`<server>_<tool>`, sanitised) an earlier one of them takes (`a.b` and `a_b`; the
 * declaration warns of each), so that the banner counts what is declared.
 */
export function declarable<T extends { name: string }>(
  name: string,
  config: McpServerConfig,
  tools: readonly T[],
): T[] {
  const names = new Set<string>();
  return tools.filter((t) => {
    if (!isAllowed(config, t.name)) return false;
    const full = mcpToolName(name, t.name);
    if (names.has(full)) return false;
    names.add(full);
    return true;
  });
}

/** A set of servers, started together. */
export class McpServers {
  /** Every server of the set, enabled ones only, in the order of the configuration. */
  readonly servers: McpServer[];
  #settled: Promise<void>;

  /** Starts every enabled server of `configs` at once. */
  constructor(configs: Record<string, McpServerConfig>, opts: McpServersOptions) {
    const emit = (e: McpEvent) => opts.onEvent?.(e);
    this.servers = Object.entries(configs).filter(([, c]) => c.enabled).map(([name, config]) =>
      new McpServer(name, config, {
        cwd: opts.cwd,
        env: opts.env,
        events: {
          down: (s, reason, started) => emit({ type: "down", server: s.name, reason, started }),
          changed: (s) => emit({ type: "changed", server: s.name, listed: s.listing.tools.length }),
        },
      })
    );
    for (const server of this.servers) {
      server.started.then(() => {
        if (server.state.kind !== "running") return;
        const { tools, notes } = server.listing;
        emit({
          type: "ready",
          server: server.name,
          declared: declarable(server.name, server.config, tools).length,
          listed: tools.length,
          dropped: notes.filter((n) => n.includes(" dropped")),
          unmatched: unmatchedGlobs(server.config, tools.map((t) => t.name)),
        });
      });
    }
    this.#settled = Promise.all(this.servers.map((s) => s.started)).then(() => {});
  }

  /** Whether every server has started or failed. */
  get settled(): boolean {
    return this.servers.every((s) => s.state.kind !== "starting");
  }

  /** The servers still starting. */
  starting(): McpServer[] {
    return this.servers.filter((s) => s.state.kind === "starting");
  }

  /** Waits until every server has started or failed (each within its `startupTimeout`). */
  whenSettled(): Promise<void> {
    return this.#settled;
  }

  /** The running servers with the tools their allow lists keep now. */
  entries(): McpServerTools[] {
    return this.servers.filter((s) => s.state.kind === "running").map((server) => {
      const { tools } = server.listing;
      const allowed = tools.filter((t) => isAllowed(server.config, t.name));
      return { server, tools: allowed, listed: tools.length };
    });
  }

  /**
   * Closes every server; resolves once each process is reaped. A set not closed when mm exits
   * (a second signal, any `Deno.exit`) is killed by the one registry (lib/exec/registry.ts).
   */
  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close()));
  }
}
