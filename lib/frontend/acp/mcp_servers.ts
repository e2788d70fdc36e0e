/**
 * The MCP servers an editor passes in `session/new` and `session/load` (ACP's `mcpServers`: stdio,
 * `http` and `sse`), as mm's server configuration: the defaults of an agent-file server (asked
 * like bash when `yolo: false`, 30 s to start, 60 s a call). A name the agent file's servers
 * already have is left out, with a line for the log: the agent file's server wins.
 */

import type { McpServer } from "npm:@agentclientprotocol/sdk@2.4.0";
import type { McpServerConfig } from "../../config/config.ts";
import { mcpServerConfig } from "../../config/mcp.ts";

/** The log line of an editor's server left out for its name. */
export function sameNameText(name: string): string {
  return `[warning: the editor's MCP server ${name} is left out: the agent file has a server of that name]`;
}

/** The editor's servers as mm's, without the names in `taken`; `log` gets a line per one left out. */
export function editorServers(
  servers: readonly McpServer[],
  taken: readonly string[],
  log: (line: string) => void,
): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of servers) {
    if (taken.includes(s.name) || s.name in out) {
      log(sameNameText(s.name));
      continue;
    }
    if ("type" in s && (s.type === "http" || s.type === "sse")) {
      const headers = Object.fromEntries(s.headers.map((h) => [h.name, h.value]));
      out[s.name] = mcpServerConfig({ type: s.type, url: s.url, headers });
    } else if ("command" in s) {
      const env = Object.fromEntries(s.env.map((v) => [v.name, v.value]));
      out[s.name] = mcpServerConfig({ command: [s.command, ...s.args], env });
    }
  }
  return out;
}
