/** Tool declarations as the model receives them, in the one shape every server accepts. */

import { type Config, defaultConfig } from "../config/config.ts";
import type { ToolSchema } from "../provider/chat.ts";
import type { AnyTool } from "../tool.ts";

/**
 * The JSON schema of one tool: the tool's own `schema` when it has one, else a property per
 * parameter, the required ones listed; either way made portable by {@linkcode portableParameters}.
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
      parameters: portableParameters(tool.schema ?? { type: "object", properties, required }),
    },
  };
}

/**
 * A tool's parameters as every server takes them (docs/small-models.md, "Tool schemas"): always
 * `type: "object"` and a `properties` object, `{}` for a tool without parameters (llama.cpp refuses
 * a tool without `parameters`, Ollama turns `parameters: {}` into an untyped schema its templates
 * reject); `required` only when it names something.
 */
export function portableParameters(schema: Record<string, unknown>): Record<string, unknown> {
  const { type: _, properties, required, ...rest } = schema;
  const portable: Record<string, unknown> = {
    type: "object",
    properties: isObject(properties) ? properties : {},
    ...rest,
  };
  if (Array.isArray(required) && required.length) portable.required = required;
  return portable;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
