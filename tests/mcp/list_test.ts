/** A `tools/list` answer read leniently, tool by tool (lib/mcp/list.ts). */

import { readListing } from "../../lib/mcp/list.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("readListing", async (t) => {
  const { tools, notes } = readListing([
    { name: "good", description: "Good.", inputSchema: { type: "object", properties: {} } },
    { name: "untyped", inputSchema: { properties: { a: { type: "string" } } } },
    { name: "bare", description: "No schema." },
    { name: "scalar", inputSchema: { type: "string" } },
    { description: "no name", inputSchema: { type: "object" } },
    "junk",
    { name: "good", inputSchema: { type: "object" } },
    {
      name: "titled",
      title: "Only a title",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
    },
  ]);
  await t.step("good tools kept, repairable ones repaired", () => {
    assertEquals(tools.map((x) => x.name), ["good", "untyped", "bare", "titled"]);
    assertEquals(tools[1].inputSchema, { properties: { a: { type: "string" } }, type: "object" });
    assertEquals(tools[2].schema, { type: "object", properties: {} });
  });
  await t.step("one note per tool repaired or dropped", () => {
    assertEquals(notes, [
      'untyped: input schema without "type": "object" — repaired',
      "bare: no input schema — taken as one without parameters",
      'scalar dropped: its input schema is not an object\'s ("string")',
      "tool #5 dropped: it has no name",
      "tool #6 dropped: it has no name",
      "good dropped: listed twice",
    ]);
  });
  await t.step("a title stands in for a missing description; readOnlyHint read", () => {
    assertEquals([tools[3].description, tools[3].readOnly, tools[0].readOnly], [
      "Only a title",
      true,
      false,
    ]);
  });
});
