/**
 * One MCP tool declared to the model as a tool of its own: `<server>_<tool>`, the server's
 * description cut short, the sanitised schema; its arguments checked against the server's own
 * schema (check.ts), its call made through the server's port (lib/tool.ts), its result read by
 * result.ts.
 */

import { mcpToolName } from "../../lib/config/mcp.ts";
import type {
  AnyTool,
  McpServerPort,
  McpToolInfo,
  Parameter,
  Tool,
  ToolKind,
} from "../../lib/tool.ts";
import { checkArguments } from "./check.ts";
import { callOutput } from "./result.ts";

/** The name of catalog mode's tool that calls a server's tool. */
export const MCP_CALL = "mcp_call";

/** The emoji of every MCP call in the terminal. */
export const MCP_EMOJI = "🔌";

/** The editor's kind of a tool: a read when the server says it only reads, else other. */
export function mcpKind(tool: McpToolInfo): ToolKind {
  return tool.readOnly ? "read" : "other";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const PARAMETER_TYPES: Parameter["type"][] = [
  "string",
  "integer",
  "number",
  "boolean",
  "array",
  "object",
];

/** The top-level fields of a schema as mm's parameters: what an invalid call's text lists. */
export function schemaParameters(schema: Record<string, unknown>): Record<string, Parameter> {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, Parameter> = {};
  for (const [name, p] of Object.entries(props)) {
    const node = isObject(p) ? p : {};
    const type = PARAMETER_TYPES.find((t) => t === node.type) ?? "string";
    const description = typeof node.description === "string" ? node.description : "";
    out[name] = { type, description, ...(required.includes(name) ? {} : { optional: true }) };
  }
  return out;
}

/** How a call shows after `<name>: `: a lone string field's value, else the arguments as JSON. */
export function argumentsSummary(input: Record<string, unknown>): string {
  const values = Object.values(input);
  if (values.length === 1 && typeof values[0] === "string") return values[0];
  return JSON.stringify(input);
}

/** The tool of `tool` of `server`. */
export function mcpTool(server: McpServerPort, tool: McpToolInfo): AnyTool {
  const parameters = schemaParameters(tool.schema);
  const wrapper: Tool<Record<string, unknown>> = {
    name: mcpToolName(server.name, tool.name),
    kind: mcpKind(tool),
    emoji: MCP_EMOJI,
    // A server that is not running runs nothing: its answer needs no permission.
    asks: () => server.ask && server.notRunning() === undefined,
    mcpName: () => wrapper.name,
    touches: () => "tree",
    declared: () => true,
    description: tool.description,
    parameters,
    schema: tool.schema,
    parse(args) {
      const checked = checkArguments(tool.inputSchema, args);
      return checked.ok ? { ok: true, input: checked.value } : checked;
    },
    summary: argumentsSummary,
    async run(input, ctx) {
      const outcome = await server.call(tool.name, input, ctx.signal);
      return callOutput(server.name, wrapper.name, outcome, ctx.config.maxOutput);
    },
  };
  return wrapper;
}
