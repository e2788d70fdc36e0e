/**
 * The MCP servers an editor passes in `session/new` and `session/load` (ACP's `mcpServers`: stdio,
 * `http` and `sse`), as mm's server configuration: the defaults of an agent-file server (asked
 * like bash when `yolo: false`, 30 s to start, 60 s a call). The agent file's name checks apply: a
 * name the agent file's servers already have (its server wins), a name without a letter or digit,
 * one whose tools another server's would take (`my.fs` beside `my_fs`), one whose `<server>_` could
 * begin another tool's name (`fetch`, `mcp`) — each is left out, with a line for the log.
 */

import type { McpServer } from "npm:@agentclientprotocol/sdk@2.4.0";
import type { McpServerConfig } from "../../config/config.ts";
import { mcpServerConfig, type ServerNameFault, serverNameFault } from "../../config/mcp.ts";
import { warningText } from "../../presentation.ts";

/** The log line of an editor's server left out for its name. */
export function sameNameText(name: string): string {
  return warningText(
    `the editor's MCP server ${name} is left out: the agent file has a server of that name`,
  );
}

/** The log line of an editor's server left out because its tools' names would clash. */
export function badNameText(name: string, fault: ServerNameFault): string {
  const why = fault.kind === "no letter"
    ? "its name has no letter or digit"
    : fault.kind === "same tools"
    ? `its tools would have the names of server ${fault.other}'s (${fault.prefix}_…)`
    : `its tools could take the name of ${fault.tool}`;
  return warningText(`the editor's MCP server ${JSON.stringify(name)} is left out: ${why}`);
}

/**
 * The editor's servers as mm's, without those whose names cannot be used beside the agent file's
 * servers (`servers`) and tools (`tools`: the built-in and declared ones); `log` gets a line per
 * one left out.
 */
export function editorServers(
  given: readonly McpServer[],
  servers: readonly string[],
  tools: readonly string[],
  log: (line: string) => void,
): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of given) {
    if (servers.includes(s.name) || s.name in out) {
      log(sameNameText(s.name));
      continue;
    }
    const fault = serverNameFault(s.name, [...servers, ...Object.keys(out)], tools);
    if (fault) {
      log(badNameText(s.name, fault));
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
