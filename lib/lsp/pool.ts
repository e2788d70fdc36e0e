/**
 * The language servers of a session, by file extension: each started on the first call for one of
 * its extensions, kept for the session, started again when it died, and stopped by
 * {@linkcode LspPool.close} (`shutdown`, `exit`, then the process) when mm exits.
 */

import { basename, resolve } from "node:path";
import type { LspServerConfig } from "../config/config.ts";
import { LspClient, type LspClientOptions, LspError } from "./client.ts";

/** An extension as configured (`go`, `.go`, `.GO`), as mm compares it: `.go`. */
export function normalizeExtension(ext: string): string {
  const e = ext.trim().toLowerCase();
  return e.startsWith(".") ? e : `.${e}`;
}

/** The first server of `servers` one of whose extensions ends the file name of `path`. */
export function serverForPath(
  servers: readonly LspServerConfig[],
  path: string,
): LspServerConfig | undefined {
  const name = basename(path).toLowerCase();
  return servers.find((s) =>
    s.extensions.some((e) => {
      const ext = normalizeExtension(e);
      return ext !== "." && name.endsWith(ext) && name.length > ext.length;
    })
  );
}

/** Why a call fails once the pool is closed. */
export const CLOSED = "mm is exiting";

/** How servers are started; see {@linkcode LspClientOptions}. */
export type LspPoolOptions = Omit<LspClientOptions, "root">;

/** The servers of one session, in one project root. */
export class LspPool {
  /** The project root: where servers run, and what paths in answers are relative to. */
  readonly root: string;
  /** The servers that may be started (the configured ones found on the PATH). */
  readonly servers: readonly LspServerConfig[];
  #options: LspPoolOptions;
  #clients = new Map<string, Promise<LspClient>>();
  #closed = false;

  /** A pool of `servers` for the project at `root`; nothing starts before the first call. */
  constructor(servers: readonly LspServerConfig[], root: string, options: LspPoolOptions = {}) {
    this.servers = servers;
    this.root = resolve(root);
    this.#options = options;
  }

  /** The server for the file at `path`, by its extension. */
  serverFor(path: string): LspServerConfig | undefined {
    return serverForPath(this.servers, path);
  }

  /**
   * The running client of `server`: started on first use, started again when it died. Throws an
   * {@linkcode LspError} when the server cannot be started, or once the pool is closed.
   */
  async client(server: LspServerConfig): Promise<LspClient> {
    if (this.#closed) throw new LspError(CLOSED);
    const current = this.#clients.get(server.name);
    if (current) {
      const client = await current.catch(() => undefined);
      if (client?.alive) return client;
      if (this.#clients.get(server.name) === current) {
        this.#clients.delete(server.name);
        if (client) await client.close(); // reap what is left of it
      }
      return this.client(server);
    }
    const started = LspClient.start(server, { ...this.#options, root: this.root });
    this.#clients.set(server.name, started);
    started.catch(() => {
      if (this.#clients.get(server.name) === started) this.#clients.delete(server.name);
    });
    const client = await started;
    if (this.#closed) {
      await client.close();
      throw new LspError(CLOSED);
    }
    return client;
  }

  /** The clients started and not yet stopped (for tests and `mm doctor`). */
  async running(): Promise<LspClient[]> {
    const all = await Promise.all(
      [...this.#clients.values()].map((p) => p.catch(() => undefined)),
    );
    return all.filter((c): c is LspClient => c !== undefined && c.alive);
  }

  /** Stops every server (also those still starting) and waits until each process is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map(async (p) => {
      const client = await p.catch(() => undefined);
      await client?.close();
    }));
  }
}

/** Language identifiers of the protocol by extension; others use the extension without its dot. */
const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".c": "c",
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".cs": "csharp",
  ".java": "java",
  ".kt": "kotlin",
  ".rb": "ruby",
  ".php": "php",
  ".lua": "lua",
  ".sh": "shellscript",
  ".bash": "shellscript",
  ".zig": "zig",
  ".swift": "swift",
  ".ex": "elixir",
  ".exs": "elixir",
  ".hs": "haskell",
  ".ml": "ocaml",
  ".dart": "dart",
  ".md": "markdown",
  ".json": "json",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".toml": "toml",
  ".html": "html",
  ".css": "css",
  ".vue": "vue",
  ".svelte": "svelte",
};

/** The protocol's language identifier of the file at `path` (`typescript`, `python`, `go`, …). */
export function languageId(path: string): string {
  const name = basename(path).toLowerCase();
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return "plaintext";
  const ext = name.slice(dot);
  return LANGUAGE_IDS[ext] ?? ext.slice(1);
}
