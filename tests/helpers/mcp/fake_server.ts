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

/** A server that answers `answer(tool, args)` (a text result by default) and records each call. */
export class FakeMcpServer implements McpServerPort {
  readonly calls: FakeCall[] = [];
  constructor(
    readonly name: string,
    readonly ask = true,
    readonly answer: (tool: string, args: Record<string, unknown>) => McpCallOutcome = (tool) => ({
      kind: "result",
      result: { content: [{ type: "text", text: `${tool} ran` }], isError: false },
    }),
  ) {}

  /** Records the call, then answers it. */
  call(tool: string, args: Record<string, unknown>): Promise<McpCallOutcome> {
    this.calls.push({ tool, args });
    return Promise.resolve(this.answer(tool, args));
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
