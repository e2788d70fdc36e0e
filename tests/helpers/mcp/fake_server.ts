/** A fake MCP server port for the unit tests of tools/mcp/: it records calls and answers a script. */

import type {
  McpCallOutcome,
  McpServerPort,
  McpServerTools,
  McpToolInfo,
} from "../../../lib/tool.ts";
import { sanitizeSchema } from "../../../lib/mcp/sanitize.ts";

/** One call the fake server received. */
export interface FakeCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * A server that answers `answer(tool, args)` (a text result by default) and records each call;
 * `down` set, it is not running, for that reason.
 */
export class FakeMcpServer implements McpServerPort {
  readonly calls: FakeCall[] = [];
  down?: string;
  constructor(
    readonly name: string,
    readonly ask = true,
    readonly answer: (tool: string, args: Record<string, unknown>) => McpCallOutcome = (tool) => ({
      kind: "result",
      result: { content: [{ type: "text", text: `${tool} ran` }], isError: false },
    }),
  ) {}

  /** Records the call, then answers it (that it is down, when it is). */
  call(tool: string, args: Record<string, unknown>): Promise<McpCallOutcome> {
    this.calls.push({ tool, args });
    if (this.down !== undefined) return Promise.resolve({ kind: "down", reason: this.down });
    return Promise.resolve(this.answer(tool, args));
  }

  /** `down`. */
  notRunning(): string | undefined {
    return this.down;
  }
}

/** A listed tool: `schema` as the server declares it, sanitised for the model. */
export function toolInfo(
  name: string,
  description: string,
  schema: Record<string, unknown> = { type: "object", properties: {} },
  readOnly = false,
): McpToolInfo {
  return { name, description, inputSchema: schema, schema: sanitizeSchema(schema), readOnly };
}

/** A server's entry as the tools are built from it. */
export function entry(server: McpServerPort, tools: McpToolInfo[]): McpServerTools {
  return { server, tools, listed: tools.length };
}
