/**
 * The agent file's `mcpServers` and `mcp` keys (docs/mcp.md): the servers in the shape every MCP
 * server's README gives (`command`/`args`/`env`/`cwd`, or `url`/`headers`), mm's own keys per
 * server, `${VAR}` expanded from mm's environment, and the names their tools take.
 */

import type { McpOptions, McpServerConfig, McpTransport } from "./config.ts";
import type { Entry, Reader, Slot } from "./reader.ts";
import { nearest } from "../nearest.ts";

/** Default time a server has to start (a cold `npx -y` takes 16–46 s). */
export const STARTUP_TIMEOUT = 30_000;

/** Default time one call may take. */
export const CALL_TIMEOUT = 60_000;

const SERVER_KEYS = [
  "type",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "tools",
  "exclude",
  "ask",
  "startupTimeout",
  "timeout",
  "enabled",
] as const;

const MCP_KEYS = ["catalog", "budget", "maxTools"] as const satisfies readonly (keyof McpOptions)[];

/** The `type` values, with the spellings other clients use for Streamable HTTP. */
const TYPES: Record<string, McpTransport> = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  sse: "sse",
};

/** Keys other clients' configurations have, and what mm says instead. */
const OTHER_CLIENTS: Record<string, string> = {
  disabled: "enabled: write enabled: false",
  autoApprove: "ask: write ask: false to trust the server",
  alwaysAllow: "ask: write ask: false to trust the server",
  httpUrl: "url: write url (Streamable HTTP is the default for a url)",
};

/** The keys only a stdio server takes, and those only an HTTP one takes. */
const STDIO_ONLY = ["command", "args", "env", "cwd"];
const HTTP_ONLY = ["url", "headers"];

/** What a server's name becomes in its tools' names: every character but `[A-Za-z0-9_-]` is `_`. */
export function mcpName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** Tool names every server accepts are at most this long. */
export const TOOL_NAME_MAX = 64;

/**
 * The name the model calls tool `tool` of server `server` by: `<server>_<tool>`, sanitised, at
 * most 64 characters (a longer one keeps its first 57 and a hash of the whole).
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `${mcpName(server)}_${mcpName(tool)}`;
  if (full.length <= TOOL_NAME_MAX) return full;
  let hash = 0x811c9dc5;
  for (let i = 0; i < full.length; i++) hash = Math.imul(hash ^ full.charCodeAt(i), 0x01000193);
  return `${full.slice(0, TOOL_NAME_MAX - 7)}_${(hash >>> 0).toString(36).padStart(6, "0")}`
    .slice(0, TOOL_NAME_MAX);
}

/** `${VAR}` and `${VAR:-default}` in `text`, from `env`; the names of the unset ones. */
export function expandVars(
  text: string,
  env: Record<string, string | undefined>,
): { text: string; unset: string[] } {
  const unset: string[] = [];
  const out = text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      unset.push(name);
      return "";
    },
  );
  return { text: out, unset };
}

/** Why a server's name cannot be used: what its tools' names would clash with. */
export type ServerNameFault =
  /** It has no letter or digit (its tools would be `_x`). */
  | { kind: "no letter" }
  /** Server `other` gives the same tool names (`my.fs` and `my_fs`: `my_fs_…`). */
  | { kind: "same tools"; other: string; prefix: string }
  /** `<server>_` begins another tool's name (`fetch_content`, `mcp_tools`). */
  | { kind: "tool"; tool: string };

/**
 * Why server `name` cannot be used beside the servers named `others` and the tools named `taken`
 * (the built-in and declared ones), or undefined when it can: the agent file's check and the
 * editor's (lib/frontend/acp/mcp_servers.ts).
 */
export function serverNameFault(
  name: string,
  others: readonly string[],
  taken: readonly string[],
): ServerNameFault | undefined {
  if (!/[A-Za-z0-9]/.test(name)) return { kind: "no letter" };
  const prefix = mcpName(name);
  const other = others.find((o) => mcpName(o) === prefix);
  if (other !== undefined) return { kind: "same tools", other, prefix };
  const tool = taken.find((t) => t.startsWith(`${prefix}_`));
  return tool === undefined ? undefined : { kind: "tool", tool };
}

/** Reads `mcpServers`: a mapping of name → server. */
export function readMcpServers(
  r: Reader,
  e: Entry,
  env: Record<string, string | undefined>,
): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of r.dict(e)) {
    const fault = serverNameFault(s.name, Object.keys(out), []);
    if (fault?.kind === "no letter") {
      r.fail(
        s.keyPos,
        s.key,
        `${s.key}: expected a server name with a letter or a digit, found ${
          JSON.stringify(s.name)
        }`,
      );
    }
    if (fault?.kind === "same tools") {
      r.fail(
        s.keyPos,
        s.key,
        `${s.key}: expected a name whose tools no other server's can take, found the same tool names as "${fault.other}" (${fault.prefix}_…)`,
      );
    }
    out[s.name] = readServer(r, s, env);
  }
  return out;
}

/**
 * A server with every default (a stdio server of no command yet, asked like bash, 30 s to start,
 * 60 s a call) and `over` on top: the agent file's and the editor's start from it.
 */
export function mcpServerConfig(over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    type: "stdio",
    command: [],
    env: {},
    headers: {},
    exclude: [],
    ask: true,
    startupTimeout: STARTUP_TIMEOUT,
    timeout: CALL_TIMEOUT,
    enabled: true,
    ...over,
  };
}

/** One server. */
function readServer(
  r: Reader,
  s: Entry,
  env: Record<string, string | undefined>,
): McpServerConfig {
  const server = mcpServerConfig();
  if (!r.isMapping(s)) r.expected(s, "a mapping with a command (stdio) or a url (HTTP)");
  const given = new Map<string, Entry>();
  let type: Entry | undefined;
  let program: string[] = [];
  let args: string[] = [];
  const vars: { slot: Slot; unset: string[] }[] = [];
  const expanded = (slot: Slot): string => {
    const value = r.scalar(slot);
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      return r.expected(slot, "a string");
    }
    const result = expandVars(String(value), env);
    if (result.unset.length) vars.push({ slot, unset: result.unset });
    return result.text;
  };
  for (const x of r.dict(s)) {
    const ours = OTHER_CLIENTS[x.name];
    if (ours) r.fail(x.keyPos, x.key, `unknown key "${x.key}" — mm's key is ${ours}`);
  }
  for (const x of r.entries(s, SERVER_KEYS)) {
    given.set(x.name, x);
    switch (x.name) {
      case "type": {
        type = x;
        const value = r.string(x, true);
        const known = TYPES[value];
        if (!known) {
          const near = nearest(value, Object.keys(TYPES));
          r.expected(x, "one of stdio, http, sse", near ? ` — did you mean "${near}"?` : "");
        }
        server.type = known;
        break;
      }
      case "command":
        program = r.isList(x) ? r.argv(x) : [r.string(x, true)];
        break;
      case "args":
        args = r.strings(x);
        break;
      case "env":
        for (const v of r.dict(x)) server.env[v.name] = expanded(v);
        break;
      case "cwd":
        server.cwd = r.string(x, true);
        break;
      case "url":
        server.url = httpUrl(r, x);
        break;
      case "headers":
        for (const h of r.dict(x)) server.headers[h.name] = expanded(h);
        break;
      case "tools":
        server.tools = r.strings(x);
        break;
      case "exclude":
        server.exclude = r.strings(x);
        break;
      case "ask":
        server.ask = r.boolean(x);
        break;
      case "startupTimeout":
        server.startupTimeout = r.duration(x);
        break;
      case "timeout":
        server.timeout = r.duration(x);
        break;
      case "enabled":
        server.enabled = r.boolean(x);
        break;
    }
  }
  const command = given.get("command");
  const url = given.get("url");
  if (command && url) {
    r.fail(
      url.keyPos,
      url.key,
      `${url.key}: expected either a command (stdio) or a url (HTTP), found both (command is on line ${
        r.line(command.keyPos)
      })`,
    );
  }
  if (!type) server.type = url ? "http" : "stdio";
  const wrong = server.type === "stdio" ? HTTP_ONLY : STDIO_ONLY;
  for (const name of wrong) {
    const x = given.get(name);
    if (!x) continue;
    const what = server.type === "stdio" ? "an HTTP server's" : "a stdio server's";
    r.fail(
      x.keyPos,
      x.key,
      `${x.key}: ${name} is ${what} key, and this server is ${server.type}${
        type ? ` (type: ${server.type})` : ""
      }`,
    );
  }
  if (server.type === "stdio") {
    if (!command) r.missing(s, "command", "a program (a string or a list of strings)");
    server.command = [...program, ...args];
  } else if (!url) r.missing(s, "url", "an http:// or https:// URL");
  if (server.enabled) {
    for (const { slot, unset } of vars) {
      r.fail(
        slot.pos,
        slot.key,
        `${slot.key}: \${${unset[0]}} is not set in mm's environment — set it, or write \${${
          unset[0]
        }:-default}`,
      );
    }
  }
  return server;
}

/** An http:// or https:// URL, kept as written. */
function httpUrl(r: Reader, s: Slot): string {
  const value = r.string(s, true);
  try {
    const u = new URL(value);
    if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "") return value;
  } catch {
    // not a URL: the fault below
  }
  return r.expected(s, "an http:// or https:// URL");
}

/** Reads `mcp`: how the servers' tools are declared. */
export function readMcpOptions(r: Reader, e: Entry, current: McpOptions): McpOptions {
  const out = { ...current };
  for (const x of r.entries(e, MCP_KEYS, true)) {
    if (x.name === "catalog") {
      const v = r.scalar(x);
      if (typeof v === "boolean" || v === "auto") out.catalog = v;
      else r.expected(x, "auto, true or false");
    } else if (x.name === "budget") out.budget = r.integer(x, 1);
    else out.maxTools = r.integer(x, 1);
  }
  return out;
}

/**
 * Checks that no server's tools can take the name of a built-in or declared tool: `<server>_`
 * must begin none of `taken`. Run once every key is read (the `tools:` block may come later).
 */
export function checkMcpNames(r: Reader, e: Entry, taken: readonly string[]): void {
  for (const s of r.dict(e)) {
    const fault = serverNameFault(s.name, [], taken);
    if (fault?.kind !== "tool") continue;
    r.fail(
      s.keyPos,
      s.key,
      `${s.key}: expected a server name whose tools cannot take the name of another tool, found "${s.name}" (${s.name}_… could be ${fault.tool}) — rename the server, e.g. "${s.name}-mcp"`,
    );
  }
}
