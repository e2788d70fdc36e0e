/**
 * The answer to a call of a name no declared tool has but that is an MCP server's (docs/mcp.md,
 * "Never silent"): `<server>_…` is that server's, forgiven its case and separator, the longest
 * server name first. A server that is not running (it failed to start or died, whether it listed
 * its tools or not) answers why; a running one lists the tools it declares (outside catalog mode,
 * where mcp_call's own answers list them).
 */

import { mcpName, mcpToolName } from "../../lib/config/mcp.ts";
import type { McpServerPort, UnknownToolAnswer } from "../../lib/tool.ts";
import { notRunningText } from "./result.ts";
import { MCP_CALL } from "./tool.ts";

/** The text when a known server has no such tool: its tools. */
export function unknownMcpToolText(server: string, name: string, tools: string[]): string {
  return `[${server} has no tool "${name}" — its tools are: ${tools.join(", ") || "none"}]`;
}

/** A name as compared: lowercase, every separator a model writes (`-`, `.`, `/`) made `_`. */
function plainName(name: string): string {
  return name.toLowerCase().replace(/[-./]/g, "_");
}

/**
 * The server whose tool `name` is by its prefix (`<server>_…`, or the server's name alone), case
 * and separators forgiven; of two that fit (`a` and `a_b` for `a_b_c`), the longer.
 */
export function serverOfName<T extends McpServerPort>(
  servers: readonly T[],
  name: string,
): T | undefined {
  const plain = plainName(name);
  let best: T | undefined;
  let longest = 0;
  for (const server of servers) {
    const prefix = plainName(mcpName(server.name));
    if (!plain.startsWith(prefix) || prefix.length <= longest) continue;
    if (plain.length === prefix.length || plain[prefix.length] === "_") {
      best = server;
      longest = prefix.length;
    }
  }
  return best;
}

/** The text in catalog mode when a running server has no such tool: its tools, for mcp_call. */
export function unknownCatalogToolText(server: string, name: string, tools: string[]): string {
  return `[${server} has no tool "${name}" — its tools are: ${
    tools.join(", ") || "none"
  } — call them with ${MCP_CALL}]`;
}

/** Whether `args` are mcp_call's (`{"server": …, "tool": …, "arguments": {…}}`), not the tool's. */
function isCallShaped(args: Record<string, unknown>): args is { arguments: unknown } {
  const a = args.arguments;
  return "tool" in args && a !== null && typeof a === "object" && !Array.isArray(a) &&
    Object.keys(args).every((k) => k === "server" || k === "tool" || k === "arguments");
}

/**
 * The answer to the names of `servers` (every server of the conversation, running or not) that
 * are not declared; `owners` maps each declared tool's name to its server's. In catalog mode,
 * where `listed` holds each running server's own tool names, a tool's per-tool name (`fs_read_file`)
 * is forgiven: it runs as the mcp_call it stands for.
 */
export function unknownMcpAnswer(
  servers: readonly McpServerPort[],
  owners: ReadonlyMap<string, string>,
  catalog: boolean,
  listed: ReadonlyMap<string, readonly string[]> = new Map(),
): UnknownToolAnswer {
  return (name, declared) => {
    const server = serverOfName(servers, name);
    if (!server) return undefined;
    const reason = server.notRunning();
    if (reason !== undefined) return notRunningText(server.name, reason);
    if (catalog) {
      const own = listed.get(server.name) ?? [];
      const tool = own.find((t) => plainName(mcpToolName(server.name, t)) === plainName(name));
      if (tool === undefined) return unknownCatalogToolText(server.name, name, [...own]);
      return {
        tool: MCP_CALL,
        // The arguments, or mcp_call's own shape when the model wrote that under the tool's name.
        arguments: (args) => ({
          server: server.name,
          tool,
          arguments: isCallShaped(args) ? args.arguments : args,
        }),
      };
    }
    const tools = declared.filter((n) => owners.get(n) === server.name);
    return unknownMcpToolText(server.name, name, tools);
  };
}

/** The text for a tool name of a server the agent file turned off. */
export function disabledServerText(server: string): string {
  return `[${server} is turned off in the agent file (mcpServers.${server}.enabled: false) — its tools cannot be used]`;
}

/**
 * The answer to the names of the servers the agent file has but turned off (`enabled: false`):
 * why their tools cannot be used, rather than the core's unknown-tool text.
 */
export function disabledMcpAnswer(servers: readonly string[]): UnknownToolAnswer {
  const ports = servers.map((name) => ({ name }));
  return (name) => {
    const server = serverOfName(ports as unknown as McpServerPort[], name);
    return server ? disabledServerText(server.name) : undefined;
  };
}
