/** The answer to a name of an MCP server's that no declared tool has (tools/mcp/unknown.ts). */

import {
  serverOfName,
  unknownCatalogToolText,
  unknownMcpAnswer,
} from "../../../tools/mcp/unknown.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { FakeMcpServer } from "../../helpers/mcp/fake_server.ts";

Deno.test("serverOfName: the server a name's prefix says", async (t) => {
  const a = new FakeMcpServer("a");
  const ab = new FakeMcpServer("a.b");
  const gh = new FakeMcpServer("GitHub");
  const servers = [a, ab, gh];
  const rows: [string, FakeMcpServer | undefined][] = [
    ["a_x", a],
    ["a_b_x", ab],
    ["a-b-x", ab],
    ["github.create_issue", gh],
    ["GITHUB/create", gh],
    ["github", gh],
    ["githubx", undefined],
    ["bash", undefined],
  ];
  for (const [name, server] of rows) {
    await t.step(name, () => assertEquals(serverOfName(servers, name), server));
  }
});

Deno.test("unknownMcpAnswer", async (t) => {
  const fs = new FakeMcpServer("fs");
  const ghost = new FakeMcpServer("ghost");
  ghost.down = "did not start within 30s (startupTimeout)";
  const owners = new Map([["fs_read", "fs"], ["fs_list", "fs"]]);
  const declared = ["bash", "fs_read", "fs_list"];
  await t.step("a server that is not running: why", () => {
    assertEquals(
      unknownMcpAnswer([fs, ghost], owners, false)("ghost_anything", declared),
      "[ghost is not running: did not start within 30s (startupTimeout) — its tools cannot be used in this conversation]",
    );
  });
  await t.step("a running server: the tools it declares", () => {
    assertEquals(
      unknownMcpAnswer([fs, ghost], owners, false)("fs_write", declared),
      '[fs has no tool "fs_write" — its tools are: fs_read, fs_list]',
    );
    assertEquals(
      unknownMcpAnswer([fs], owners, false)("fs_write", ["bash", "fs_list"]),
      '[fs has no tool "fs_write" — its tools are: fs_list]',
      "a tool the core left out is not listed",
    );
  });
  await t.step("catalog mode: a tool's own name runs as mcp_call; another lists the tools", () => {
    const listed = new Map([["fs", ["read", "list"]]]);
    const answer = unknownMcpAnswer([fs, ghost], owners, true, listed);
    const redirect = answer("FS-read", declared);
    if (typeof redirect !== "object") throw new Error(`not a redirect: ${redirect}`);
    assertEquals(redirect.tool, "mcp_call");
    assertEquals(redirect.arguments({ path: "a" }), {
      server: "fs",
      tool: "read",
      arguments: { path: "a" },
    });
    // mcp_call's shape under the tool's own name is unwrapped.
    const shaped = { server: "fs", tool: "read", arguments: { path: "b" } };
    assertEquals(redirect.arguments(shaped), shaped);
    assertEquals(
      answer("fs_write", declared),
      unknownCatalogToolText("fs", "fs_write", ["read", "list"]),
    );
    assertEquals(
      unknownCatalogToolText("fs", "fs_write", ["read", "list"]),
      '[fs has no tool "fs_write" — its tools are: read, list — call them with mcp_call]',
    );
    const down = answer("ghost_x", declared);
    assertEquals(typeof down === "string" && down.startsWith("[ghost is not"), true);
  });
  await t.step("a name of no server", () => {
    assertEquals(unknownMcpAnswer([fs, ghost], owners, false)("web_fetch", declared), undefined);
  });
});
