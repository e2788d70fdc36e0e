/**
 * The allow lists of MCP servers and what their conversations declare (lib/mcp/servers.ts); the
 * servers themselves: server_test.ts.
 */

import { mcpServerConfig } from "../../lib/config/mcp.ts";
import { declarable, globMatch, isAllowed } from "../../lib/mcp/servers.ts";
import { assertEquals } from "../helpers/assert.ts";

const base = mcpServerConfig({ command: ["x"] });

Deno.test("globMatch", () => {
  assertEquals(globMatch("read_*", "read_file"), true);
  assertEquals(globMatch("read_*", "xread_file"), false);
  assertEquals(globMatch("get-?um", "get-sum"), true);
  assertEquals(globMatch("a.b", "axb"), false, "a dot is a dot");
  assertEquals(globMatch("*", "anything"), true);
});

Deno.test("isAllowed: tools, then exclude", () => {
  const config = { ...base, tools: ["read_*", "list_directory"], exclude: ["read_media_*"] };
  const names = ["read_file", "read_media_file", "list_directory", "write_file"];
  assertEquals(names.filter((n) => isAllowed(config, n)), ["read_file", "list_directory"]);
  assertEquals(names.filter((n) => isAllowed({ ...base, exclude: ["write_*"] }, n)).length, 3);
  assertEquals(names.filter((n) => isAllowed(base, n)).length, 4);
});

Deno.test("declarable: the allow list, then one tool per name the model sees", () => {
  const tools = ["a.b", "a_b", "c", "d"].map((name) => ({ name }));
  const config = { ...base, exclude: ["d"] };
  assertEquals(declarable("fs", config, tools).map((t) => t.name), ["a.b", "c"]);
  assertEquals(declarable("fs", base, [{ name: "x" }]).length, 1);
});
