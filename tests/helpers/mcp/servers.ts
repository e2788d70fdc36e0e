/**
 * MCP servers for the tests: the fault server of tests/helpers/mcp/fault_server.ts, and the
 * reference servers from npm (`@modelcontextprotocol/server-everything`,
 * `@modelcontextprotocol/server-filesystem`, installed by .ci/run) over stdio, Streamable HTTP and
 * SSE.
 */

import { fileURLToPath } from "node:url";
import type { McpServerConfig } from "../../../lib/config/config.ts";
import { mcpServerConfig } from "../../../lib/config/mcp.ts";
import { DENO_DIR } from "../mm.ts";

/** The fault server's path. */
export const FAULT_SERVER = fileURLToPath(new URL("./fault_server.ts", import.meta.url));

/** The argv that starts the fault server. */
export const FAULT_ARGV = [
  Deno.execPath(),
  "run",
  "--allow-all",
  "--no-config",
  "--quiet",
  FAULT_SERVER,
];

/** A server configuration with the defaults of the agent file and `over` on top. */
export const serverConfig = mcpServerConfig;

/** The fault server's configuration, `env` added to what it needs (its Deno cache). */
export function faultConfig(env: Record<string, string> = {}, over: Partial<McpServerConfig> = {}) {
  return serverConfig({ command: FAULT_ARGV, env: { DENO_DIR, ...env }, ...over });
}

/** The fault server as an agent file's `mcpServers` entry (YAML flow mapping). */
export function faultYaml(env: Record<string, string> = {}, extra = ""): string {
  const vars = Object.entries({ DENO_DIR, ...env }).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `{command: ${JSON.stringify(FAULT_ARGV)}, env: {${vars.join(", ")}}${
    extra ? `, ${extra}` : ""
  }}`;
}

/** A free TCP port on the loopback interface. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A reference server from npm listening over HTTP, until `close`. */
export interface HttpServer {
  /** Its endpoint: `/mcp` (Streamable HTTP) or `/sse`. */
  url: string;
  close(): Promise<void>;
}

/** Starts `mcp-server-everything` over Streamable HTTP or SSE and waits until it listens. */
export async function everythingOverHttp(kind: "streamableHttp" | "sse"): Promise<HttpServer> {
  const port = freePort();
  const child = new Deno.Command("mcp-server-everything", {
    args: [kind],
    env: { PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 200; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url: `http://127.0.0.1:${port}/${kind === "sse" ? "sse" : "mcp"}`,
    close: async () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // gone already
      }
      await child.status;
    },
  };
}

/** Waits until every process of `pids` is gone (at most `ms`); whether they all are. */
export async function allGone(pids: number[], ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (pids.every((p) => !alive(p))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** The pids the fault server wrote to its `FAULT_PID_FILE`: its own, then its child's. */
export async function faultPids(file: string): Promise<number[]> {
  return (await Deno.readTextFile(file)).split(" ").map(Number);
}

/** Waits until the fault server's `FAULT_LOG` has a line with `text` (at most 10 s). */
export async function logged(file: string, text: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await Deno.readTextFile(file).catch(() => "")).includes(text)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether process `pid` is still there (a zombie counts as gone: it is only waiting to be reaped). */
export function alive(pid: number): boolean {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}
