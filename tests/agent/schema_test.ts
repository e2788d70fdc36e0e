/** Tool schemas as sent: the one shape Ollama, llama.cpp, LM Studio and vLLM all accept. */

import { portableParameters, toolSchema } from "../../lib/agent/schema.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import type { AnyTool } from "../../lib/tool.ts";
import { declaredTool } from "../../tools/declared.ts";
import { BUILTIN_TOOLS } from "../../tools/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

/** A tool with the given parameters and nothing else of interest. */
function toolWith(parameters: AnyTool["parameters"], schema?: Record<string, unknown>): AnyTool {
  return {
    name: "t",
    kind: "other",
    emoji: "❔",
    asks: false,
    declared: () => true,
    description: "A tool.",
    parameters,
    ...(schema ? { schema } : {}),
    summary: () => "",
    run: () => Promise.resolve({ output: "" }),
  };
}

Deno.test("tool schemas every server accepts", async (t) => {
  await t.step("a tool without parameters: an object with empty properties, no required", () => {
    assertEquals(
      JSON.stringify(toolSchema(toolWith({})).function.parameters),
      '{"type":"object","properties":{}}',
    );
  });

  await t.step("only optional parameters: required is left out", () => {
    const schema = toolSchema(
      toolWith({ model: { type: "string", description: "m", optional: true } }),
    );
    assertEquals(schema.function.parameters, {
      type: "object",
      properties: { model: { type: "string", description: "m" } },
    });
  });

  await t.step("required parameters are listed", () => {
    const schema = toolSchema(toolWith({ command: { type: "string", description: "c" } }));
    assertEquals(schema.function.parameters.required, ["command"]);
  });

  await t.step("a tool's own schema is completed: type, properties, no empty required", () => {
    assertEquals(portableParameters({}), { type: "object", properties: {} });
    assertEquals(portableParameters({ properties: [], required: [] }), {
      type: "object",
      properties: {},
    });
    assertEquals(
      toolSchema(toolWith({}, { type: "object", required: [], additionalProperties: false }))
        .function.parameters,
      { type: "object", properties: {}, additionalProperties: false },
    );
  });

  await t.step("a declared tool without parameters", () => {
    const tool = declaredTool({ name: "greet", command: ["echo", "hi"], parameters: {} });
    assertEquals(toolSchema(tool).function.parameters, { type: "object", properties: {} });
  });

  await t.step(
    "every built-in tool: object, typed properties, required only when it names one",
    () => {
      const config = defaultConfig();
      for (const tool of BUILTIN_TOOLS) {
        const p = toolSchema(tool, config).function.parameters;
        const properties = p.properties as Record<string, { type?: unknown }>;
        assertEquals(p.type, "object", tool.name);
        assertEquals(typeof properties === "object" && !Array.isArray(properties), true, tool.name);
        for (const [name, prop] of Object.entries(properties)) {
          assertEquals(typeof prop.type, "string", `${tool.name}.${name}`);
        }
        if ("required" in p) {
          const required = p.required as string[];
          assertEquals(required.length > 0, true, tool.name);
          assertEquals(required.every((r) => r in properties), true, tool.name);
        }
      }
    },
  );
});
