/** Catalog mode's two tools, mcp_tools and mcp_call (tools/mcp/catalog.ts). */

import type { AnyTool } from "../../../lib/tool.ts";
import { catalogTools, readCallInput } from "../../../tools/mcp/catalog.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { fakeContext } from "../../helpers/fake_context.ts";
import { entry, FakeMcpServer, toolInfo } from "../../helpers/mcp/fake_server.ts";

const fs = new FakeMcpServer("fs");
const gh = new FakeMcpServer("gh", false);
const READ = toolInfo("read_file", "Read a file.", {
  type: "object",
  properties: {
    path: { type: "string", description: "The file." },
    mode: { type: "string", enum: ["text", "base64"] },
  },
  required: ["path"],
}, true);
const LIST = toolInfo("list_directory", "List a directory.", {
  type: "object",
  properties: { path: { type: "string" } },
  required: ["path"],
});
const ISSUE = toolInfo("create_issue", "Create an issue.", {
  type: "object",
  properties: { title: { type: "string" }, labels: { type: "array", items: { type: "string" } } },
  required: ["title"],
});
const [list, call] = catalogTools([entry(fs, [READ, LIST]), entry(gh, [ISSUE])]);

function run(tool: AnyTool, args: Record<string, unknown>) {
  const parsed = tool.parse ? tool.parse(args) : { ok: true as const, input: args };
  if (!parsed.ok) throw new Error("refused");
  return tool.run(parsed.input, fakeContext());
}

Deno.test("mcp_call: the catalog in its description", () => {
  assertEquals(call.name, "mcp_call");
  assertEquals(
    call.description,
    "Call a tool of an MCP server: server, tool, and its arguments as an object. The servers and their tools:\n" +
      "fs: read_file, list_directory (2 tools)\n" +
      "gh: create_issue (1 tool)",
  );
  assertEquals(Object.keys(call.parameters), ["server", "tool", "arguments"]);
});

Deno.test("mcp_call: calls, with the near misses forgiven", async (t) => {
  const rows: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ["as declared", { server: "fs", tool: "read_file", arguments: { path: "a" } }, "read_file", {
      path: "a",
    }],
    [
      "arguments flattened beside server and tool",
      { server: "fs", tool: "read_file", path: "b" },
      "read_file",
      { path: "b" },
    ],
    [
      "arguments as JSON text",
      { server: "fs", tool: "read_file", arguments: '{"path": "c"}' },
      "read_file",
      { path: "c" },
    ],
    [
      "args and name for arguments and tool",
      { server: "fs", name: "read_file", args: { path: "d" } },
      "read_file",
      { path: "d" },
    ],
    [
      "the server in the tool's name",
      { tool: "fs_read_file", arguments: { path: "e" } },
      "read_file",
      { path: "e" },
    ],
    ["fs.read_file", { tool: "fs.read_file", arguments: { path: "f" } }, "read_file", {
      path: "f",
    }],
    [
      "no server, one has the tool",
      { tool: "list_directory", arguments: { path: "g" } },
      "list_directory",
      { path: "g" },
    ],
    [
      "case and separators forgiven",
      { server: "FS", tool: "readFile", arguments: { path: "h", mode: "TEXT" } },
      "read_file",
      { path: "h", mode: "text" },
    ],
  ];
  for (const [name, args, tool, sent] of rows) {
    await t.step(name, async () => {
      fs.calls.length = 0;
      assertEquals(await run(call, args), { output: `${tool} ran` });
      assertEquals(fs.calls, [{ tool, args: sent }]);
    });
  }
});

Deno.test("mcp_call: what is wrong, in words", async (t) => {
  const rows: [string, Record<string, unknown>, string][] = [
    [
      "an unknown server",
      { server: "web", tool: "x" },
      '[mcp_call: no MCP server "web" — the servers are: fs, gh]',
    ],
    [
      "an unknown tool of a known server lists its tools",
      { server: "fs", tool: "write_file" },
      '[fs has no tool "write_file" — its tools are: read_file, list_directory]',
    ],
    [
      "no tool",
      { server: "fs" },
      '[mcp_call: name the tool — {"server": "…", "tool": "…", "arguments": {…}}]',
    ],
    [
      "a tool no server has",
      { tool: "delete_everything" },
      '[mcp_call: no MCP tool "delete_everything" — the servers are: fs, gh; mcp_tools lists their tools]',
    ],
    [
      "arguments that do not fit: nothing runs, the tool's parameters",
      { server: "fs", tool: "read_file", arguments: { mode: "zip" } },
      '[fs read_file: invalid call, nothing was run — mode: "zip" is not one of "text", "base64"; path is missing. You sent: {"mode":"zip"}. Expected arguments: path (string): The file; mode (string, optional). Call mcp_call again with {"server": "fs", "tool": "read_file", "arguments": {"path": …, "mode": …}}.]',
    ],
  ];
  for (const [name, args, text] of rows) {
    await t.step(name, async () => {
      fs.calls.length = 0;
      assertEquals(await run(call, args), { output: text, failed: true });
      assertEquals(fs.calls, []);
    });
  }
});

Deno.test("mcp_call: asking and the editor's kind follow the tool called", () => {
  const input = (args: Record<string, unknown>) => readCallInput(args);
  const asks = call.asks as (i: unknown) => boolean;
  const kind = call.kind as (i: unknown) => string;
  assertEquals(asks(input({ server: "fs", tool: "read_file" })), true);
  assertEquals(asks(input({ server: "gh", tool: "create_issue" })), false, "gh has ask: false");
  assertEquals(asks(input({ server: "nope", tool: "x" })), false, "nothing would run");
  assertEquals(kind(input({ server: "fs", tool: "read_file" })), "read");
  assertEquals(kind(input({ server: "fs", tool: "list_directory" })), "other");
  assertEquals(
    call.summary(input({ server: "fs", tool: "read_file", path: "a" })),
    "fs read_file a",
  );
});

Deno.test("catalog mode: a server that is not running answers why", async (t) => {
  const ghost = new FakeMcpServer("ghost");
  ghost.down = "exited with status 3: no token";
  const dead = new FakeMcpServer("dead");
  const [list2, call2] = catalogTools([entry(fs, [READ]), entry(dead, [ISSUE])], [fs, ghost, dead]);
  const down = (name: string, reason: string) =>
    `[${name} is not running: ${reason} — its tools cannot be used in this conversation]`;
  await t.step("one that never started, named as the server or in the tool's name", async () => {
    for (const args of [{ server: "ghost", tool: "x" }, { tool: "ghost_x" }, { tool: "Ghost.x" }]) {
      assertEquals(await run(call2, args), {
        output: down("ghost", "exited with status 3: no token"),
        failed: true,
      });
    }
    assertEquals(await run(list2, { server: "ghost" }), {
      output: down("ghost", "exited with status 3: no token"),
      failed: true,
    });
  });
  await t.step(
    "one that died after its tools were declared: no question, nothing sent",
    async () => {
      dead.down = "exited with status 7";
      const input = readCallInput({ server: "dead", tool: "create_issue", title: "t" });
      assertEquals((call2.asks as (i: unknown) => boolean)(input), false);
      assertEquals(await call2.run(input, fakeContext()), {
        output: down("dead", "exited with status 7"),
        failed: true,
      });
      assertEquals(await run(list2, { server: "dead" }), {
        output: down("dead", "exited with status 7"),
        failed: true,
      });
      assertEquals(dead.calls, []);
    },
  );
  await t.step("an unknown server is still one", async () => {
    assertEquals(
      (await run(call2, { server: "web", tool: "x" })).output,
      '[mcp_call: no MCP server "web" — the servers are: fs, dead]',
    );
  });
});

Deno.test("mcp_tools: lists a server's tools, shows one tool's parameters", async (t) => {
  await t.step("one server's tools, a line each", async () => {
    assertEquals(
      (await run(list, { server: "fs" })).output,
      [
        "fs:",
        "  read_file(path, mode?) — Read a file.",
        "  list_directory(path) — List a directory.",
      ].join("\n"),
    );
  });
  await t.step("every server's, without a server", async () => {
    assertEquals((await run(list, {})).output.split("\n").length, 5);
  });
  await t.step("one tool's parameters and how to call it", async () => {
    assertEquals(
      (await run(list, { server: "fs", tool: "read_file" })).output,
      [
        "fs read_file — Read a file.",
        "  path (string, required) — The file.",
        '  mode (string, one of: "text", "base64")',
        'Call it: mcp_call {"server": "fs", "tool": "read_file", "arguments": {"path": …, "mode": …}}',
      ].join("\n"),
    );
  });
  await t.step("a tool without its server, when one server has it", async () => {
    assertEquals(
      (await run(list, { tool: "create_issue" })).output.split("\n")[0],
      "gh create_issue — Create an issue.",
    );
  });
  await t.step("unknown server, unknown tool", async () => {
    assertEquals(await run(list, { server: "web" }), {
      output: '[mcp_tools: no MCP server "web" — the servers are: fs, gh]',
      failed: true,
    });
    assertEquals(await run(list, { server: "gh", tool: "close" }), {
      output: '[gh has no tool "close" — its tools are: create_issue]',
      failed: true,
    });
  });
  await t.step("it never asks: it calls no server", () => assertEquals(list.asks, false));
});
