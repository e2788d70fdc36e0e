/** MCP schemas made portable, descriptions cut short (lib/mcp/sanitize.ts). */

import {
  changesText,
  inlineRefs,
  sanitizeSchema,
  shortDescription,
} from "../../lib/mcp/sanitize.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("sanitizeSchema", async (t) => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    [
      "a plain schema is kept",
      {
        type: "object",
        properties: { path: { type: "string", description: "The file." } },
        required: ["path"],
      },
      {
        type: "object",
        properties: { path: { type: "string", description: "The file." } },
        required: ["path"],
      },
      "",
    ],
    [
      "$schema, title, examples, format, pattern, default, additionalProperties dropped",
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        title: "Args",
        additionalProperties: false,
        properties: {
          url: { type: "string", format: "uri", examples: ["https://x"] },
          id: { type: "string", pattern: "^[a-z]+$", default: "abc" },
        },
      },
      { type: "object", properties: { url: { type: "string" }, id: { type: "string" } } },
      "format dropped, examples dropped, pattern dropped, default dropped, $schema dropped, title dropped, additionalProperties dropped",
    ],
    [
      "a large maxLength or maxItems dropped, a small one kept, bounds of numbers kept",
      {
        type: "object",
        properties: {
          text: { type: "string", maxLength: 1_000_000 },
          code: { type: "string", minLength: 2, maxLength: 8 },
          list: { type: "array", items: { type: "string" }, maxItems: 5000 },
          n: { type: "integer", minimum: 1, maximum: 10 },
        },
      },
      {
        type: "object",
        properties: {
          text: { type: "string" },
          code: { type: "string", minLength: 2, maxLength: 8 },
          list: { type: "array", items: { type: "string" } },
          n: { type: "integer", minimum: 1, maximum: 10 },
        },
      },
      "large maxLength dropped, large maxItems dropped",
    ],
    [
      "$ref and $defs inlined",
      {
        type: "object",
        properties: {
          item: { $ref: "#/$defs/Item" },
          all: { type: "array", items: { $ref: "#/definitions/Item" } },
        },
        $defs: {
          Item: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
        },
        definitions: {
          Item: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
        },
      },
      {
        type: "object",
        properties: {
          item: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
          all: {
            type: "array",
            items: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
          },
        },
      },
      "$ref inlined ×2",
    ],
    [
      "a recursive $ref stops: the inner one is a plain value",
      {
        type: "object",
        properties: { node: { $ref: "#/$defs/Node" } },
        $defs: {
          Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" } } },
        },
      },
      {
        type: "object",
        properties: {
          node: { type: "object", properties: { child: { type: "string" } } },
        },
      },
      "$ref inlined, $ref unresolved, missing type inferred",
    ],
    [
      "missing types inferred, type: object at the top among them",
      {
        properties: {
          tags: { items: { type: "string" } },
          mode: { enum: ["fast", "slow"] },
          level: { enum: [1, 2, 3] },
          opts: { properties: { x: { type: "boolean" } } },
          anything: {},
        },
      },
      {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string" } },
          mode: { type: "string", enum: ["fast", "slow"] },
          level: { type: "integer", enum: [1, 2, 3] },
          opts: { type: "object", properties: { x: { type: "boolean" } } },
          anything: { type: "string" },
        },
      },
      "missing type inferred ×6",
    ],
    [
      "pydantic's Optional: anyOf with null becomes the one type; a type list its first",
      {
        type: "object",
        properties: {
          limit: { anyOf: [{ type: "integer" }, { type: "null" }], default: null, title: "Limit" },
          name: { type: ["string", "null"] },
        },
      },
      { type: "object", properties: { limit: { type: "integer" }, name: { type: "string" } } },
      "anyOf of one type merged, default dropped, title dropped, type list made one type",
    ],
    [
      "anyOf of two types kept, oneOf made anyOf, const an enum, allOf merged",
      {
        type: "object",
        properties: {
          id: { oneOf: [{ type: "string" }, { type: "integer" }] },
          kind: { const: "file" },
          both: {
            allOf: [
              { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
              { properties: { b: { type: "number" } } },
            ],
          },
        },
      },
      {
        type: "object",
        properties: {
          id: { anyOf: [{ type: "string" }, { type: "integer" }] },
          kind: { type: "string", enum: ["file"] },
          both: {
            type: "object",
            properties: { a: { type: "string" }, b: { type: "number" } },
            required: ["a"],
          },
        },
      },
      "oneOf made anyOf, missing type inferred, const made an enum, allOf merged",
    ],
    [
      "required names only properties that exist; a schema without properties gets {}",
      { type: "object", required: ["ghost"] },
      { type: "object", properties: {} },
      'required "ghost" dropped (no such property)',
    ],
    [
      "a required name without its property dropped beside the others, and said",
      { type: "object", properties: { x: { type: "number" } }, required: ["x", "nope"] },
      { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
      'required "nope" dropped (no such property)',
    ],
    [
      "a top-level oneOf of objects: their properties merged, optional, typed where they agree",
      {
        type: "object",
        properties: { verbose: { type: "boolean" } },
        oneOf: [
          {
            properties: { id: { type: "integer" }, repo: { type: "string" } },
            required: ["id", "repo"],
          },
          {
            type: "object",
            properties: {
              url: { type: "string" },
              id: { type: "string" },
              repo: { type: "string" },
            },
            required: ["url", "repo"],
          },
        ],
      },
      {
        type: "object",
        properties: {
          verbose: { type: "boolean" },
          id: { anyOf: [{ type: "integer" }, { type: "string" }] },
          repo: { type: "string" },
          url: { type: "string" },
        },
        required: ["repo"],
      },
      "oneOf of 2 objects merged, their properties optional",
    ],
    [
      "a top-level anyOf of required names only: the properties around it, optional",
      {
        type: "object",
        properties: { path: { type: "string" }, uri: { type: "string" } },
        anyOf: [{ required: ["path"] }, { required: ["uri"] }],
      },
      { type: "object", properties: { path: { type: "string" }, uri: { type: "string" } } },
      "anyOf of 2 objects merged, their properties optional",
    ],
    [
      "long property descriptions cut to a sentence or two",
      {
        type: "object",
        properties: {
          q: {
            type: "string",
            description:
              "The search query to run against the index, in the query language of the service. Supports AND, OR and NOT. See the docs for more.",
          },
        },
      },
      {
        type: "object",
        properties: {
          q: {
            type: "string",
            description:
              "The search query to run against the index, in the query language of the service.",
          },
        },
      },
      "description shortened",
    ],
  ];
  for (const [name, input, expected, changes] of rows) {
    await t.step(name, () => {
      const seen = new Map<string, number>();
      assertEquals(sanitizeSchema(input, seen), expected);
      assertEquals(changesText(seen), changes);
    });
  }
});

Deno.test("inlineRefs keeps everything else, and properties named $ref", () => {
  assertEquals(
    inlineRefs({
      type: "object",
      properties: {
        $ref: { type: "string", pattern: "x" },
        a: { $ref: "#/$defs/A", description: "mine" },
      },
      $defs: { A: { type: "integer", description: "theirs" } },
    }),
    {
      type: "object",
      properties: {
        $ref: { type: "string", pattern: "x" },
        a: { type: "integer", description: "mine" },
      },
    },
  );
});

Deno.test("shortDescription: the first sentence, or two when the first is short", async (t) => {
  const rows: [string, string, string][] = [
    ["one sentence", "Read a file.", "Read a file."],
    [
      "a short first sentence takes the second",
      "Read a file. Returns its lines with numbers. Fails on binary files.",
      "Read a file. Returns its lines with numbers.",
    ],
    [
      "a long first sentence alone",
      "Read the complete contents of a file from the file system as text, handling encodings. Use it for one file.",
      "Read the complete contents of a file from the file system as text, handling encodings.",
    ],
    [
      "white space flattened",
      "Lists\n  files   in a\tdirectory.\n\nMore.",
      "Lists files in a directory. More.",
    ],
    ["no sentence end", "get the weather", "get the weather"],
    [
      "dots inside words stay",
      "Reads package.json and v1.2 files. Then stops.",
      "Reads package.json and v1.2 files. Then stops.",
    ],
    ["at most 300 characters", "x".repeat(400), `${"x".repeat(299)}…`],
  ];
  for (const [name, input, expected] of rows) {
    await t.step(name, () => assertEquals(shortDescription(input), expected));
  }
});
