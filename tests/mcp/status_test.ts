/** What the user is told of the MCP servers (lib/mcp/status.ts). */

import {
  catalogText,
  changedText,
  eventLines,
  notStartedText,
  serverLine,
  stoppedText,
  unmatchedText,
  waitingText,
} from "../../lib/mcp/status.ts";
import { unmatchedGlobs } from "../../lib/mcp/servers.ts";
import type { McpServerConfig } from "../../lib/config/config.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("the servers' lines", () => {
  assertEquals(serverLine("fs", 3, 14), "🔌 fs · 3 of 14 tools");
  assertEquals(serverLine("fs", 14, 14), "🔌 fs · 14 tools");
  assertEquals(serverLine("one", 1, 1), "🔌 one · 1 tool");
  assertEquals(
    notStartedText("gh", "HTTP 401 Unauthorized from https://x/mcp"),
    "[warning: MCP server gh did not start: HTTP 401 Unauthorized from https://x/mcp]",
  );
  assertEquals(
    stoppedText("fs", "exited with status 7: crashing"),
    "[warning: MCP server fs stopped: exited with status 7: crashing — its tools now answer that it is not running]",
  );
  assertEquals(
    changedText("fs", 15),
    "🔌 fs changed its tools (15 now): the new list applies to the next conversation (/new)",
  );
  assertEquals(waitingText(["fs"], 30_000), "🔌 waiting for MCP server fs to start (up to 30s)");
  assertEquals(
    waitingText(["fs", "gh"], 120_000),
    "🔌 waiting for MCP servers fs, gh to start (up to 2m)",
  );
});

Deno.test("catalogText says why", () => {
  const auto = { catalog: "auto" as const, budget: 4000, maxTools: 12 };
  assertEquals(
    catalogText(41, 9000, auto),
    "🔌 catalog mode: mcp_tools and mcp_call stand for 41 MCP tools (41 tools, over mcp.maxTools 12)",
  );
  assertEquals(
    catalogText(5, 9000, auto),
    "🔌 catalog mode: mcp_tools and mcp_call stand for 5 MCP tools (9000 characters of declarations, over mcp.budget 4000)",
  );
  assertEquals(
    catalogText(2, 100, { ...auto, catalog: true }),
    "🔌 catalog mode: mcp_tools and mcp_call stand for 2 MCP tools (mcp.catalog: true)",
  );
});

Deno.test("eventLines", () => {
  assertEquals(
    eventLines({
      type: "ready",
      server: "fs",
      declared: 2,
      listed: 3,
      dropped: ["tool #3 dropped: it has no name"],
      unmatched: [{ key: "tools", glob: "raed_file", near: "read_file" }, {
        key: "exclude",
        glob: "write_*",
      }],
    }),
    [
      { text: "🔌 fs · 2 of 3 tools", warning: false },
      { text: "[warning: MCP server fs: tool #3 dropped: it has no name]", warning: true },
      {
        text:
          '[warning: MCP server fs: tools entry "raed_file" matches none of its 3 tools — did you mean "read_file"?]',
        warning: true,
      },
      {
        text: '[warning: MCP server fs: exclude entry "write_*" matches none of its 3 tools]',
        warning: true,
      },
    ],
  );
  assertEquals(eventLines({ type: "down", server: "fs", reason: "r", started: false }), [
    { text: "[warning: MCP server fs did not start: r]", warning: true },
  ]);
});

Deno.test("unmatchedGlobs: the allow and deny globs that match no tool", () => {
  const config = { tools: ["read_*", "ech", "list"], exclude: ["list", "zap*"] };
  const names = ["read_file", "echo", "list"];
  assertEquals(unmatchedGlobs(config as McpServerConfig, names), [
    { key: "tools", glob: "ech", near: "echo" },
    { key: "exclude", glob: "zap*" },
  ]);
  assertEquals(unmatchedGlobs({ exclude: [] } as unknown as McpServerConfig, names), []);
  // An empty allow list keeps nothing: said too.
  const none = unmatchedGlobs({ tools: [], exclude: [] } as unknown as McpServerConfig, names);
  assertEquals(none, [{ key: "tools" }]);
  assertEquals(
    unmatchedText("fs", none[0], 3),
    "[warning: MCP server fs: tools: [] keeps none of its 3 tools]",
  );
});
