/** A model's arguments checked against an MCP tool's own schema (tools/mcp/check.ts). */

import { checkArguments } from "../../../tools/mcp/check.ts";
import { assertEquals } from "../../helpers/assert.ts";

const SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string" },
    count: { type: "integer" },
    ratio: { type: "number" },
    recursive: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    mode: { type: "string", enum: ["fast", "slow"] },
    options: {
      type: "object",
      properties: { depth: { type: "integer" } },
      required: ["depth"],
      additionalProperties: false,
    },
    id: { anyOf: [{ type: "integer" }, { type: "string", enum: ["latest"] }] },
    note: { type: ["string", "null"] },
  },
  required: ["path"],
};

Deno.test("checkArguments: what is forgiven", async (t) => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["exact values pass as they are", { path: "a", count: 3 }, { path: "a", count: 3 }],
    ['"3" for 3, "0.5" for 0.5', { path: "a", count: "3", ratio: "0.5" }, {
      path: "a",
      count: 3,
      ratio: 0.5,
    }],
    ['"TRUE" for true', { path: "a", recursive: "TRUE" }, { path: "a", recursive: true }],
    ["a number for a string", { path: 42 }, { path: "42" }],
    ["one value for a list of one", { path: "a", tags: "x" }, { path: "a", tags: ["x"] }],
    ["a list written as JSON text", { path: "a", tags: '["x","y"]' }, {
      path: "a",
      tags: ["x", "y"],
    }],
    ["an object written as JSON text", { path: "a", options: '{"depth": "2"}' }, {
      path: "a",
      options: { depth: 2 },
    }],
    ["an enum value in the wrong case", { path: "a", mode: "FAST" }, { path: "a", mode: "fast" }],
    ["null for a left-out optional field", { path: "a", count: null }, { path: "a" }],
    ["null kept where null is allowed", { path: "a", note: null }, { path: "a", note: null }],
    ["anyOf: the first branch that fits", { path: "a", id: "7" }, { path: "a", id: 7 }],
    ["anyOf: the other branch", { path: "a", id: "latest" }, { path: "a", id: "latest" }],
    ["an unknown field is left to the server", { path: "a", colour: "red" }, {
      path: "a",
      colour: "red",
    }],
  ];
  for (const [name, args, expected] of rows) {
    await t.step(
      name,
      () => assertEquals(checkArguments(SCHEMA, args), { ok: true, value: expected }),
    );
  }
});

Deno.test("checkArguments: faults in words the model can act on", async (t) => {
  const rows: [string, Record<string, unknown>, string[]][] = [
    ["a required field missing", {}, ["path is missing"]],
    ["not a number", { path: "a", count: "many" }, ['count: "many" is not an integer']],
    ["not an integer", { path: "a", count: 2.5 }, ["count: 2.5 is not an integer"]],
    ["not a boolean", { path: "a", recursive: "yes" }, ['recursive: "yes" is not a boolean']],
    ["not one of the enum", { path: "a", mode: "medium" }, [
      'mode: "medium" is not one of "fast", "slow"',
    ]],
    ["a nested field missing, a closed object's unknown field", {
      path: "a",
      options: { deep: 1 },
    }, ['"deep" is not a parameter of options', "options.depth is missing"]],
    ["a list item of the wrong type", { path: "a", tags: ["x", { y: 1 }] }, [
      'tags[1]: {"y":1} is not a string',
    ]],
    ["no anyOf branch fits", { path: "a", id: true }, ["id: true is not an integer or a string"]],
    ["every fault at once", { count: "x", mode: "m" }, [
      'count: "x" is not an integer',
      'mode: "m" is not one of "fast", "slow"',
      "path is missing",
    ]],
  ];
  for (const [name, args, faults] of rows) {
    await t.step(name, () => assertEquals(checkArguments(SCHEMA, args), { ok: false, faults }));
  }
  await t.step("a closed top level refuses an unknown field", () => {
    const closed = {
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: false,
    };
    assertEquals(checkArguments(closed, { b: 1 }), {
      ok: false,
      faults: ['"b" is not a parameter of this tool'],
    });
  });
  await t.step(
    "a required name without its property is not asked for (the model never saw it)",
    () => {
      const schema = {
        type: "object",
        properties: { x: { type: "number" } },
        required: ["x", "nope"],
      };
      assertEquals(checkArguments(schema, { x: "1" }), { ok: true, value: { x: 1 } });
      assertEquals(checkArguments(schema, {}), { ok: false, faults: ["x is missing"] });
    },
  );
  await t.step("a schema without properties takes anything", () => {
    assertEquals(checkArguments({ type: "object" }, { x: [1] }), { ok: true, value: { x: [1] } });
  });
});

Deno.test("checkArguments: a top level of oneOf/anyOf objects, against the branch that fits", async (t) => {
  const schema = {
    type: "object",
    properties: { verbose: { type: "boolean" } },
    oneOf: [
      { properties: { id: { type: "integer" } }, required: ["id"] },
      {
        type: "object",
        properties: { url: { type: "string" }, depth: { type: "integer" } },
        required: ["url"],
      },
    ],
  };
  await t.step("the first branch, coerced, the fields around it too", () => {
    assertEquals(checkArguments(schema, { id: "7", verbose: "true" }), {
      ok: true,
      value: { id: 7, verbose: true },
    });
  });
  await t.step("the other branch, coerced", () => {
    assertEquals(checkArguments(schema, { url: "u", depth: "2" }), {
      ok: true,
      value: { url: "u", depth: 2 },
    });
  });
  await t.step("none fits: the closest ones, as alternatives", () => {
    assertEquals(checkArguments(schema, { verbose: true }), {
      ok: false,
      faults: ["id is missing, or url is missing"],
    });
    assertEquals(checkArguments(schema, { id: "x" }), {
      ok: false,
      faults: ['id: "x" is not an integer'],
    });
  });
  await t.step("branches of required names only, over the properties around them", () => {
    const either = {
      type: "object",
      properties: { path: { type: "string" }, line: { type: "integer" } },
      anyOf: [{ required: ["path"] }, { required: ["line"] }],
    };
    assertEquals(checkArguments(either, { line: "3" }), { ok: true, value: { line: 3 } });
    assertEquals(checkArguments(either, {}), {
      ok: false,
      faults: ["path is missing, or line is missing"],
    });
  });
});
