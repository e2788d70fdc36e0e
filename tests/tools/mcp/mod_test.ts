/** Which MCP tools the model sees: one per server tool, or the catalog (tools/mcp/mod.ts). */

import { type McpOptions } from "../../../lib/config/config.ts";
import { declarationSize, mcpTools } from "../../../tools/mcp/mod.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { entry, FakeMcpServer, toolInfo } from "../../helpers/mcp/fake_server.ts";

const AUTO: McpOptions = { catalog: "auto", budget: 4000, maxTools: 12 };
const fs = new FakeMcpServer("fs");

function tools(n: number) {
  return Array.from({ length: n }, (_, i) => toolInfo(`t${i}`, `Tool ${i}.`));
}

Deno.test("mcpTools", async (t) => {
  await t.step("within the budget: one tool per server tool", () => {
    const d = mcpTools([entry(fs, tools(3))], AUTO, ["bash"]);
    assertEquals(d.tools.map((x) => x.name), ["fs_t0", "fs_t1", "fs_t2"]);
    assertEquals([d.catalog, d.count], [false, 3]);
    assertEquals(d.size, d.tools.reduce((n, x) => n + declarationSize(x), 0));
  });
  await t.step("more than maxTools: the catalog", () => {
    const d = mcpTools([entry(fs, tools(13))], AUTO, []);
    assertEquals(d.tools.map((x) => x.name), ["mcp_tools", "mcp_call"]);
    assertEquals([d.catalog, d.count], [true, 13]);
  });
  await t.step("more characters than the budget: the catalog", () => {
    const d = mcpTools([entry(fs, tools(3))], { ...AUTO, budget: 50 }, []);
    assertEquals(d.catalog, true);
  });
  await t.step("forced on, forced off", () => {
    assertEquals(mcpTools([entry(fs, tools(1))], { ...AUTO, catalog: true }, []).catalog, true);
    assertEquals(
      mcpTools([entry(fs, tools(40))], { ...AUTO, catalog: false }, []).tools.length,
      40,
    );
  });
  await t.step("no tools: nothing, not even the catalog", () => {
    assertEquals(mcpTools([entry(fs, [])], { ...AUTO, catalog: true }, []).tools, []);
  });
  await t.step("a name already taken is left out, with a warning", () => {
    const d = mcpTools([entry(fs, [toolInfo("a.b", "x"), toolInfo("a_b", "y")])], AUTO, ["fs_t0"]);
    assertEquals(d.tools.map((x) => x.name), ["fs_a_b"]);
    assertEquals(d.dropped, [
      "[warning: MCP server fs: tool a_b left out — another tool is called fs_a_b]",
    ]);
  });
  await t.step("a clash across servers names the other server", () => {
    const a = new FakeMcpServer("a");
    const ab = new FakeMcpServer("a_b");
    const d = mcpTools(
      [entry(a, [toolInfo("b_x", "x")]), entry(ab, [toolInfo("x", "y")])],
      AUTO,
      [],
    );
    assertEquals(d.dropped, [
      "[warning: MCP server a_b: tool x left out — a tool of MCP server a is called a_b_x]",
    ]);
  });
});
