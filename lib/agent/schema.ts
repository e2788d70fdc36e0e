/** Tool declarations as the model receives them. */

import type { ToolSchema } from "../provider/chat.ts";
import type { AnyTool } from "../tool.ts";

/** The JSON schema of one built-in tool: a property per parameter, the required ones listed. */
export function toolSchema(tool: AnyTool): ToolSchema {
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
      description: tool.description,
      parameters: { type: "object", properties, required },
    },
  };
}
