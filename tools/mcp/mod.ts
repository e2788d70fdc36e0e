/**
 * The tools the model sees of the MCP servers (docs/mcp.md): one tool per server tool
 * (`<server>_<tool>`, tool.ts), or — when their declarations exceed `mcp.budget` characters or
 * `mcp.maxTools` tools, or `mcp.catalog: true` — the two catalog tools (catalog.ts). Built once
 * per conversation from the servers that run: the declared list never changes inside it.
 */

import type { McpOptions } from "../../lib/config/config.ts";
import type { AnyTool, McpServerPort, McpServerTools, UnknownToolAnswer } from "../../lib/tool.ts";
import { catalogTools } from "./catalog.ts";
import { mcpTool } from "./tool.ts";
import { unknownMcpAnswer } from "./unknown.ts";
import { warningText } from "../../lib/presentation.ts";

/** The MCP tools of a conversation, and how they were chosen. */
export interface McpDeclaration {
  tools: AnyTool[];
  /** The two catalog tools stand for the servers' tools. */
  catalog: boolean;
  /** The servers' tools. */
  count: number;
  /** Characters their own declarations take (name, description, parameters). */
  size: number;
  /** One warning per tool left out because its name is taken. */
  dropped: string[];
  /** The answer to a name of a server's that is not declared (tools/mcp/unknown.ts). */
  unknown: UnknownToolAnswer;
}

/** The characters one tool's declaration takes, as the chat request carries it. */
export function declarationSize(tool: AnyTool): number {
  const description = typeof tool.description === "string" ? tool.description : "";
  return JSON.stringify({ name: tool.name, description, parameters: tool.schema ?? {} }).length;
}

/**
 * The warning for a tool whose name another tool has; `owner` names the other MCP server when the
 * clash is across servers (`a`'s `b_x` and `a_b`'s `x` are both `a_b_x`).
 */
export function takenNameText(server: string, tool: string, name: string, owner?: string): string {
  const other = owner && owner !== server ? `a tool of MCP server ${owner}` : "another tool";
  return warningText(`MCP server ${server}: tool ${tool} left out — ${other} is called ${name}`);
}

/**
 * The MCP tools for `entries` (the running servers, their allow lists applied); `taken` holds the
 * names of the other tools of the conversation; `servers` are every server of the conversation,
 * running or not (the names of those that are not answer why).
 */
export function mcpTools(
  entries: McpServerTools[],
  options: McpOptions,
  taken: readonly string[],
  servers: readonly McpServerPort[] = entries.map((e) => e.server),
): McpDeclaration {
  const names = new Set(taken);
  const tools: AnyTool[] = [];
  const dropped: string[] = [];
  const owners = new Map<string, string>();
  for (const entry of entries) {
    for (const info of entry.tools) {
      const tool = mcpTool(entry.server, info);
      if (names.has(tool.name)) {
        dropped.push(takenNameText(entry.server.name, info.name, tool.name, owners.get(tool.name)));
        continue;
      }
      names.add(tool.name);
      owners.set(tool.name, entry.server.name);
      tools.push(tool);
    }
  }
  const size = tools.reduce((n, t) => n + declarationSize(t), 0);
  const over = tools.length > options.maxTools || size > options.budget;
  const catalog = tools.length > 0 &&
    (options.catalog === true || (options.catalog === "auto" && over));
  const count = tools.length;
  const listed = new Map(entries.map((e) => [e.server.name, e.tools.map((t) => t.name)]));
  const unknown = unknownMcpAnswer(servers, owners, catalog, listed);
  if (!catalog) return { tools, catalog, count, size, dropped, unknown };
  return { tools: catalogTools(entries, servers), catalog, count, size, dropped, unknown };
}
