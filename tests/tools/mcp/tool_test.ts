/** One MCP tool as a tool of its own (tools/mcp/tool.ts). */

import type { AnyTool } from "../../../lib/tool.ts";
import { mcpTool, schemaParameters } from "../../../tools/mcp/tool.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { fakeContext } from "../../helpers/fake_context.ts";
import { FakeMcpServer, toolInfo } from "../../helpers/mcp/fake_server.ts";

const READ = toolInfo("read_file", "Read a file.", {
  type: "object",
  properties: {
    path: { type: "string", description: "The file.", format: "path" },
    head: { type: "integer", description: "Only the first lines." },
  },
  required: ["path"],
}, true);

Deno.test("an MCP tool", async (t) => {
  const fs = new FakeMcpServer("fs");
  const tool = mcpTool(fs, READ);
  await t.step("its declaration: <server>_<tool>, the description, the sanitised schema", () => {
    assertEquals([tool.name, tool.description, tool.emoji, tool.kind, asks(tool)], [
      "fs_read_file",
      "Read a file.",
      "🔌",
      "read",
      true,
    ]);
    assertEquals(tool.schema, {
      type: "object",
      properties: {
        path: { type: "string", description: "The file." },
        head: { type: "integer", description: "Only the first lines." },
      },
      required: ["path"],
    });
  });
  await t.step("its parameters, for the invalid-call text", () => {
    assertEquals(schemaParameters(tool.schema!), {
      path: { type: "string", description: "The file." },
      head: { type: "integer", description: "Only the first lines.", optional: true },
    });
  });
  await t.step("arguments checked against the server's schema, coerced", () => {
    assertEquals(tool.parse!({ path: "a.txt", head: "3" }), {
      ok: true,
      input: { path: "a.txt", head: 3 },
    });
    assertEquals(tool.parse!({ head: "x" }), {
      ok: false,
      faults: ['head: "x" is not an integer', "path is missing"],
    });
  });
  await t.step("a call goes through the server's port; the display summary", async () => {
    const result = await tool.run({ path: "a.txt" }, fakeContext());
    assertEquals(result, { output: "read_file ran" });
    assertEquals(fs.calls, [{ tool: "read_file", args: { path: "a.txt" } }]);
    assertEquals(tool.summary({ path: "a.txt" }), "a.txt");
    assertEquals(tool.summary({ path: "a.txt", head: 3 }), '{"path":"a.txt","head":3}');
  });
  await t.step("a trusted server's tools do not ask; a tool that may write is `other`", () => {
    const t2 = mcpTool(
      new FakeMcpServer("gh", false),
      toolInfo("create_issue", "Create an issue."),
    );
    assertEquals([asks(t2), t2.kind], [false, "other"]);
  });
  await t.step("a server that is not running: no question, its reason", async () => {
    const dead = new FakeMcpServer("fs");
    dead.down = "exited with status 7";
    const t3 = mcpTool(dead, READ);
    assertEquals(asks(t3), false);
    assertEquals(await t3.run({ path: "a" }, fakeContext()), {
      output:
        "[fs is not running: exited with status 7 — its tools cannot be used in this conversation]",
      failed: true,
    });
  });
});

/** Whether a call of `tool` asks (an MCP tool's `asks` depends on its server). */
function asks(tool: AnyTool): boolean {
  return typeof tool.asks === "function" ? tool.asks({}) : tool.asks;
}
