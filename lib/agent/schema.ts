/** Tool declarations as the model receives them. */

import { type Config, defaultConfig } from "../config/config.ts";
import type { ToolSchema } from "../provider/chat.ts";
import type { AnyTool } from "../tool.ts";

/**
 * The JSON schema of one built-in tool: the tool's own `schema` when it has one, else a property
 * per parameter, the required ones listed.
 */
export function toolSchema(tool: AnyTool, config: Config = defaultConfig()): ToolSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(tool.parameters)) {
    properties[name] = { type: p.type, description: p.description };
    if (!p.optional) required.push(name);
  }
  return {
    type: "function",
    function: {
      name: tool.name,
      description: typeof tool.description === "function"
        ? tool.description(config)
        : tool.description,
      parameters: tool.schema ?? { type: "object", properties, required },
    },
  };
}
