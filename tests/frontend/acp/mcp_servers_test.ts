/** The editor's MCP servers as mm's, with the agent file's name checks (lib/frontend/acp/mcp_servers.ts). */

import { editorServers } from "../../../lib/frontend/acp/mcp_servers.ts";
import { assertEquals } from "../../helpers/assert.ts";

const stdio = (name: string) => ({ name, command: "srv", args: ["--x"], env: [] });

Deno.test("editorServers", async (t) => {
  const run = (names: string[]) => {
    const log: string[] = [];
    const out = editorServers(
      names.map(stdio),
      ["fs", "a_b"],
      ["bash", "fetch_content"],
      log.push.bind(log),
    );
    return { names: Object.keys(out), log };
  };
  await t.step("good names pass, with the defaults of an agent-file server", () => {
    const log: string[] = [];
    const out = editorServers([stdio("web")], [], [], log.push.bind(log));
    assertEquals(out.web.command, ["srv", "--x"]);
    assertEquals([out.web.ask, out.web.startupTimeout, out.web.timeout], [true, 30_000, 60_000]);
    assertEquals(log, []);
  });
  const rows: [string, string[], string[], string][] = [
    [
      "the agent file's name",
      ["fs", "web"],
      ["web"],
      "[warning: the editor's MCP server fs is left out: the agent file has a server of that name]",
    ],
    [
      "twice the same name",
      ["web", "web"],
      ["web"],
      "[warning: the editor's MCP server web is left out: the agent file has a server of that name]",
    ],
    [
      "no letter or digit",
      ["", "--"],
      [],
      `[warning: the editor's MCP server "" is left out: its name has no letter or digit]`,
    ],
    [
      "the same tool names as another server's",
      ["a.b"],
      [],
      `[warning: the editor's MCP server "a.b" is left out: its tools would have the names of server a_b's (a_b_…)]`,
    ],
    [
      "the same tool names as another of the editor's",
      ["my.x", "my_x"],
      ["my.x"],
      `[warning: the editor's MCP server "my_x" is left out: its tools would have the names of server my.x's (my_x_…)]`,
    ],
    [
      "a built-in tool's name",
      ["fetch"],
      [],
      `[warning: the editor's MCP server "fetch" is left out: its tools could take the name of fetch_content]`,
    ],
  ];
  for (const [name, given, kept, line] of rows) {
    await t.step(name, () => {
      const r = run(given);
      assertEquals(r.names, kept);
      assertEquals(r.log[0], line);
    });
  }
});
