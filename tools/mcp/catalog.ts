/**
 * Catalog mode (docs/mcp.md): when the MCP tools' declarations would take too much of a small
 * window, two fixed tools stand for all of them — `mcp_tools`, which lists a server's tools or
 * shows one tool's parameters in a few lines, and `mcp_call`, which calls a tool by name with its
 * arguments (also flattened beside `server` and `tool`, the small model's near miss) and carries
 * the one-line catalog of every server in its description.
 */

import { mcpToolName } from "../../lib/config/mcp.ts";
import { echoSent } from "../../lib/tool_input.ts";
import type {
  AnyTool,
  McpServerPort,
  McpServerTools,
  McpToolInfo,
  Tool,
  ToolKind,
} from "../../lib/tool.ts";
import { checkArguments } from "./check.ts";
import { callOutput, notRunningText } from "./result.ts";
import { argumentsSummary, MCP_CALL, MCP_EMOJI, mcpKind, schemaParameters } from "./tool.ts";
import { serverOfName, unknownMcpToolText } from "./unknown.ts";

/** The name of the tool that lists a server's tools. */
export const MCP_TOOLS = "mcp_tools";

/** mcp_tools' description. */
export const MCP_TOOLS_DESCRIPTION =
  "List the tools of an MCP server, or show one tool's parameters, before calling it with mcp_call.";

/** mcp_call's description, before the catalog's lines. */
export const MCP_CALL_DESCRIPTION =
  "Call a tool of an MCP server: server, tool, and its arguments as an object. The servers and their tools:";

/** `server` of both tools. */
export const SERVER_DESCRIPTION = "The MCP server's name.";

/** `tool` of mcp_tools. */
export const TOOL_TO_SHOW_DESCRIPTION = "A tool of that server, to show its parameters.";

/** `tool` of mcp_call. */
export const TOOL_TO_CALL_DESCRIPTION = "The tool's name, as mcp_tools lists it.";

/** `arguments` of mcp_call. */
export const ARGUMENTS_DESCRIPTION = "The tool's arguments, as an object.";

/** The one-line catalog of a server: `fs: read_file, write_file (2 tools)`. */
export function catalogLine(entry: McpServerTools): string {
  const n = entry.tools.length;
  return `${entry.server.name}: ${
    entry.tools.map((t) => t.name).join(", ") || "no tools"
  } (${n} tool${n === 1 ? "" : "s"})`;
}

/** A name reduced to its lowercase letters and digits, as a model may misspell it. */
function key(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/** The one item of `items` named `name`: exactly, else alike but for case and separators. */
function byName<T>(items: readonly T[], name: string, nameOf: (item: T) => string): T | undefined {
  const exact = items.find((i) => nameOf(i) === name);
  if (exact) return exact;
  const alike = items.filter((i) => key(nameOf(i)) === key(name));
  return alike.length === 1 ? alike[0] : undefined;
}

/** The server and tool a call names, or the text that says what is wrong. */
type Resolved =
  | { ok: true; entry: McpServerTools; tool: McpToolInfo }
  | { ok: false; text: string };

/** The text when no server of that name is configured. */
export function unknownServerText(tool: string, name: string, servers: string[]): string {
  return `[${tool}: no MCP server "${name}" — the servers are: ${servers.join(", ")}]`;
}

/** The text when mcp_call names no tool. */
export const NO_TOOL_TEXT =
  '[mcp_call: name the tool — {"server": "…", "tool": "…", "arguments": {…}}]';

/** The answer when `server` names a server of `all` that is not running: why; else undefined. */
function downText(all: readonly McpServerPort[], server: McpServerPort | undefined) {
  const port = server && all.find((s) => s === server || s.name === server.name);
  const reason = port?.notRunning();
  return port && reason !== undefined ? notRunningText(port.name, reason) : undefined;
}

/**
 * The server and tool of a call: `server` forgiven its case and separators, or left out when the
 * tool's name says it (`fs_read_file`, `fs.read_file`, `fs/read_file`) or only one server has the
 * tool; the tool's name forgiven alike. A server of `all` that is not running answers why.
 */
function resolve(
  entries: McpServerTools[],
  all: readonly McpServerPort[],
  server: string,
  tool: string,
): Resolved {
  const servers = entries.map((e) => e.server.name);
  if (!tool) return { ok: false, text: NO_TOOL_TEXT };
  const entry = server ? byName(entries, server, (e) => e.server.name) : undefined;
  if (server && !entry) {
    const down = downText(all, byName(all, server, (s) => s.name));
    return { ok: false, text: down ?? unknownServerText(MCP_CALL, server, servers) };
  }
  const pairs = (entry ? [entry] : entries).flatMap((e) => e.tools.map((t) => ({ e, t })));
  // Its own name, or the name the per-tool mode gives it, with the server before it.
  const names = ({ e, t }: { e: McpServerTools; t: McpToolInfo }) => [
    t.name,
    mcpToolName(e.server.name, t.name),
    `${e.server.name}.${t.name}`,
    `${e.server.name}/${t.name}`,
  ];
  let found = pairs.filter((p) => names(p).includes(tool));
  if (found.length !== 1) found = pairs.filter((p) => names(p).some((n) => key(n) === key(tool)));
  if (found.length === 1) return { ok: true, entry: found[0].e, tool: found[0].t };
  if (entry) {
    return {
      ok: false,
      text: unknownMcpToolText(entry.server.name, tool, entry.tools.map((t) => t.name)),
    };
  }
  const down = found.length ? undefined : downText(all, serverOfName(all, tool));
  if (down) return { ok: false, text: down };
  return {
    ok: false,
    text: found.length
      ? `[mcp_call: name the server of "${tool}" — ${
        found.map((p) => p.e.server.name).join(" and ")
      } have it]`
      : `[mcp_call: no MCP tool "${tool}" — the servers are: ${
        servers.join(", ")
      }; mcp_tools lists their tools]`,
  };
}

/** mcp_call's input, after its own parsing. */
export interface McpCallInput {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

const ARGUMENT_KEYS = ["arguments", "args", "params", "parameters", "input"];

/** mcp_call's arguments read with forgiveness: aliases, a JSON text, fields flattened beside. */
export function readCallInput(args: Record<string, unknown>): McpCallInput {
  const text = (v: unknown) => typeof v === "string" ? v.trim() : "";
  const server = text(args.server ?? args.server_name ?? args.serverName);
  const tool = text(args.tool ?? args.name ?? args.tool_name ?? args.toolName);
  let given: unknown;
  for (const k of ARGUMENT_KEYS) if (args[k] !== undefined) given ??= args[k];
  if (typeof given === "string") {
    try {
      given = JSON.parse(given);
    } catch {
      // not JSON: flattened fields or nothing
    }
  }
  const taken = new Set([
    "server",
    "server_name",
    "serverName",
    "tool",
    "name",
    "tool_name",
    "toolName",
    ...ARGUMENT_KEYS,
  ]);
  const flat = Object.fromEntries(Object.entries(args).filter(([k]) => !taken.has(k)));
  const nested = typeof given === "object" && given !== null && !Array.isArray(given)
    ? given as Record<string, unknown>
    : {};
  return { server, tool, arguments: { ...flat, ...nested } };
}

/** How a call of `tool` reads: `fs read_file {"path":"a"}`. */
function callSummary(input: McpCallInput): string {
  const args = Object.keys(input.arguments).length ? ` ${argumentsSummary(input.arguments)}` : "";
  return `${input.server || "?"} ${input.tool}${args}`;
}

/** The call as the model should have written it, for the invalid-call text. */
function callExample(server: string, tool: McpToolInfo): string {
  const fields = Object.keys(schemaParameters(tool.schema));
  const args = fields.map((f) => `"${f}": …`).join(", ");
  return `{"server": "${server}", "tool": "${tool.name}", "arguments": {${args}}}`;
}

/** The text when the arguments do not fit the tool's schema: nothing ran. */
export function invalidMcpCallText(
  server: string,
  tool: McpToolInfo,
  faults: string[],
  sent: string,
): string {
  return `[${server} ${tool.name}: invalid call, nothing was run — ${
    faults.join("; ")
  }. You sent: ${echoSent(sent)}. Expected arguments: ${
    parameterList(tool)
  }. Call mcp_call again with ${callExample(server, tool)}.]`;
}

/** A tool's parameters on one line: `path (string): …; head (number, optional): …`. */
function parameterList(tool: McpToolInfo): string {
  const params = Object.entries(schemaParameters(tool.schema));
  if (!params.length) return "none";
  return params.map(([name, p]) =>
    `${name} (${p.type}${p.optional ? ", optional" : ""})${
      p.description ? `: ${p.description.trim().replace(/\.+$/, "")}` : ""
    }`
  ).join("; ");
}

/** One tool on one line: `read_file(path, head?) — Read a file.` */
export function toolLine(tool: McpToolInfo): string {
  const params = Object.entries(schemaParameters(tool.schema))
    .map(([name, p]) => p.optional ? `${name}?` : name);
  return `${tool.name}(${params.join(", ")})${tool.description ? ` — ${tool.description}` : ""}`;
}

/** One tool's parameters, a line each, and how to call it. */
export function toolDetail(server: string, tool: McpToolInfo): string {
  const lines = [`${server} ${tool.name}${tool.description ? ` — ${tool.description}` : ""}`];
  const props = (tool.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const params = Object.entries(schemaParameters(tool.schema));
  if (!params.length) lines.push("  (no parameters)");
  for (const [name, p] of params) {
    const values = Array.isArray(props[name]?.enum)
      ? `, one of: ${(props[name].enum as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`
      : "";
    const what = `${p.type}${p.optional ? "" : ", required"}${values}`;
    lines.push(`  ${name} (${what})${p.description ? ` — ${p.description}` : ""}`);
  }
  lines.push(`Call it: mcp_call ${callExample(server, tool)}`);
  return lines.join("\n");
}

/**
 * The two catalog tools for `entries` (the running servers' tools); `all` are every server of the
 * conversation, those that are not running included, whose calls answer why.
 */
export function catalogTools(
  entries: McpServerTools[],
  all: readonly McpServerPort[] = entries.map((e) => e.server),
): AnyTool[] {
  const servers = entries.map((e) => e.server.name);
  const list: Tool<{ server?: string; tool?: string }> = {
    name: MCP_TOOLS,
    kind: "other",
    emoji: MCP_EMOJI,
    asks: false,
    declared: () => true,
    description: MCP_TOOLS_DESCRIPTION,
    parameters: {
      server: { type: "string", description: SERVER_DESCRIPTION, optional: true },
      tool: { type: "string", description: TOOL_TO_SHOW_DESCRIPTION, optional: true },
    },
    summary: (input) => [input.server, input.tool].filter(Boolean).join(" ") || "all",
    run(input) {
      const name = input.server?.trim() ?? "";
      const shown = name
        ? [byName(entries, name, (e) => e.server.name)]
        : entries.length === 1 || !input.tool
        ? entries
        : entries.filter((e) => byName(e.tools, input.tool!, (t) => t.name));
      const down = shown.length === 1
        ? downText(all, shown[0]?.server ?? byName(all, name, (s) => s.name))
        : undefined;
      if (down || shown.some((e) => e === undefined)) {
        return Promise.resolve({
          output: down ?? unknownServerText(MCP_TOOLS, name, servers),
          failed: true,
        });
      }
      const found = shown as McpServerTools[];
      if (input.tool?.trim()) {
        const entry = found[0] ?? entries[0];
        const tool = byName(entry.tools, input.tool.trim(), (t) => t.name);
        if (!tool) {
          return Promise.resolve({
            output: unknownMcpToolText(
              entry.server.name,
              input.tool.trim(),
              entry.tools.map((t) => t.name),
            ),
            failed: true,
          });
        }
        return Promise.resolve({ output: toolDetail(entry.server.name, tool) });
      }
      const output = found.map((e) =>
        [`${e.server.name}:`, ...e.tools.map((t) => `  ${toolLine(t)}`)].join("\n")
      ).join("\n");
      return Promise.resolve({ output });
    },
  };
  const resolved = (input: McpCallInput) => resolve(entries, all, input.server, input.tool);
  const call: Tool<McpCallInput> = {
    name: MCP_CALL,
    kind: (input) => {
      const r = resolved(input);
      return r.ok ? mcpKind(r.tool) : "other" as ToolKind;
    },
    emoji: MCP_EMOJI,
    touches: () => "tree",
    // A call that names no known tool, or a server not running, runs nothing: it needs no permission.
    asks: (input) => {
      const r = resolved(input);
      return r.ok && r.entry.server.ask && r.entry.server.notRunning() === undefined;
    },
    mcpName: (input) => {
      const r = resolved(input);
      return r.ok ? mcpToolName(r.entry.server.name, r.tool.name) : undefined;
    },
    declared: () => true,
    description: [MCP_CALL_DESCRIPTION, ...entries.map((e) => catalogLine(e))].join("\n"),
    parameters: {
      server: { type: "string", description: SERVER_DESCRIPTION },
      tool: { type: "string", description: TOOL_TO_CALL_DESCRIPTION },
      arguments: { type: "object", description: ARGUMENTS_DESCRIPTION, optional: true },
    },
    parse: (args) => ({ ok: true, input: readCallInput(args) }),
    summary: callSummary,
    async run(input, ctx) {
      const r = resolved(input);
      if (!r.ok) return { output: r.text, failed: true };
      const { entry, tool } = r;
      const down = downText(all, entry.server);
      if (down) return { output: down, failed: true };
      const checked = checkArguments(tool.inputSchema, input.arguments);
      if (!checked.ok) {
        const sent = JSON.stringify(input.arguments);
        return {
          output: invalidMcpCallText(entry.server.name, tool, checked.faults, sent),
          failed: true,
        };
      }
      const outcome = await entry.server.call(tool.name, checked.value, ctx.signal);
      const name = `${entry.server.name} ${tool.name}`;
      return callOutput(entry.server.name, name, outcome, ctx.config.maxOutput);
    },
  };
  return [list, call];
}
