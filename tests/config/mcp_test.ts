/** The agent file's `mcpServers` and `mcp` keys (lib/config/mcp.ts). */

import type { McpServerConfig } from "../../lib/config/config.ts";
import { expandVars, mcpName, mcpToolName } from "../../lib/config/mcp.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fault, parse } from "../helpers/config.ts";

/** A server as read, the defaults with `over` on top. */
function server(over: Partial<McpServerConfig>): McpServerConfig {
  return {
    type: "stdio",
    command: [],
    env: {},
    headers: {},
    exclude: [],
    ask: true,
    startupTimeout: 30_000,
    timeout: 60_000,
    enabled: true,
    ...over,
  };
}

Deno.test("mcpServers: accepted", async (t) => {
  const rows: [string, string, Record<string, McpServerConfig>, Record<string, string>?][] = [
    [
      "the shape of every README: command, args, env",
      `mcpServers:
  fs:
    command: npx
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
    env: {DEBUG: "1", PORT: 3000, VERBOSE: true}`,
      {
        fs: server({
          command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
          env: { DEBUG: "1", PORT: "3000", VERBOSE: "true" },
        }),
      },
    ],
    [
      "command as mm's argv list, args after it, cwd",
      "mcpServers:\n  x: {command: [uvx, mcp-server-git], args: [--repository, .], cwd: sub}",
      { x: server({ command: ["uvx", "mcp-server-git", "--repository", "."], cwd: "sub" }) },
    ],
    [
      "url alone is Streamable HTTP; headers with ${VAR} and a default",
      `mcpServers:
  gh:
    url: https://api.example.com/mcp
    headers: {Authorization: "Bearer \${TOKEN}", X-Team: "\${TEAM:-core}"}`,
      {
        gh: server({
          type: "http",
          url: "https://api.example.com/mcp",
          headers: { Authorization: "Bearer t0k", "X-Team": "core" },
        }),
      },
      { TOKEN: "t0k" },
    ],
    [
      "type sse, and the other spellings of http",
      `mcpServers:
  a: {type: sse, url: "http://localhost:3001/sse"}
  b: {type: streamable-http, url: "http://localhost:3002/mcp"}
  c: {type: streamableHttp, url: "http://localhost:3003/mcp"}
  d: {type: stdio, command: server}`,
      {
        a: server({ type: "sse", url: "http://localhost:3001/sse" }),
        b: server({ type: "http", url: "http://localhost:3002/mcp" }),
        c: server({ type: "http", url: "http://localhost:3003/mcp" }),
        d: server({ command: ["server"] }),
      },
    ],
    [
      "mm's own keys",
      `mcpServers:
  fs:
    command: server
    tools: [read_*, list_directory]
    exclude: [read_media_file]
    ask: false
    startupTimeout: 2m
    timeout: 90s
    enabled: false`,
      {
        fs: server({
          command: ["server"],
          tools: ["read_*", "list_directory"],
          exclude: ["read_media_file"],
          ask: false,
          startupTimeout: 120_000,
          timeout: 90_000,
          enabled: false,
        }),
      },
    ],
    [
      "${VAR} in env, from mm's environment",
      "mcpServers:\n  gh: {command: server, env: {GITHUB_TOKEN: '${GH_TOKEN}'}}",
      { gh: server({ command: ["server"], env: { GITHUB_TOKEN: "ghp_1" } }) },
      { GH_TOKEN: "ghp_1" },
    ],
    [
      "an unset ${VAR} of a disabled server is no fault",
      "mcpServers:\n  gh: {command: server, env: {T: '${NOPE}'}, enabled: false}",
      { gh: server({ command: ["server"], env: { T: "" }, enabled: false }) },
    ],
    ["an empty mapping", "mcpServers: {}", {}],
  ];
  for (const [name, yaml, expected, env] of rows) {
    await t.step(name, () => assertEquals(parse(yaml, env).mcpServers, expected));
  }
});

Deno.test("mcpServers: faults", async (t) => {
  const rows: [string, string, string][] = [
    [
      "a misspelt key",
      "mcpServers:\n  fs:\n    comand: npx",
      'mm.yaml:3:5: unknown key "mcpServers.fs.comand" — did you mean "mcpServers.fs.command"?',
    ],
    [
      "Cline's disabled",
      "mcpServers:\n  fs:\n    command: npx\n    disabled: true",
      'mm.yaml:4:5: unknown key "mcpServers.fs.disabled" — mm\'s key is enabled: write enabled: false',
    ],
    [
      "Cline's autoApprove",
      "mcpServers:\n  fs: {command: npx, autoApprove: [read]}",
      'mm.yaml:2:22: unknown key "mcpServers.fs.autoApprove" — mm\'s key is ask: write ask: false to trust the server',
    ],
    [
      "a server that is not a mapping",
      "mcpServers:\n  fs: npx",
      'mm.yaml:2:7: mcpServers.fs: expected a mapping with a command (stdio) or a url (HTTP), found "npx"',
    ],
    [
      "neither command nor url",
      "mcpServers:\n  fs: {args: [x]}",
      'mm.yaml:2:7: mcpServers.fs.command: expected a program (a string or a list of strings), found no "command" key',
    ],
    [
      "both command and url",
      "mcpServers:\n  fs:\n    command: npx\n    url: http://localhost:1/mcp",
      "mm.yaml:4:5: mcpServers.fs.url: expected either a command (stdio) or a url (HTTP), found both (command is on line 3)",
    ],
    [
      "a stdio key on an HTTP server",
      "mcpServers:\n  web:\n    url: http://localhost:1/mcp\n    env: {A: b}",
      "mm.yaml:4:5: mcpServers.web.env: env is a stdio server's key, and this server is http",
    ],
    [
      "an HTTP key on a stdio server",
      "mcpServers:\n  fs:\n    command: npx\n    headers: {A: b}",
      "mm.yaml:4:5: mcpServers.fs.headers: headers is an HTTP server's key, and this server is stdio",
    ],
    [
      "type http without a url",
      "mcpServers:\n  web: {type: http}",
      'mm.yaml:2:8: mcpServers.web.url: expected an http:// or https:// URL, found no "url" key',
    ],
    [
      "an unknown type",
      "mcpServers:\n  web: {type: websocket, url: 'ws://x'}",
      'mm.yaml:2:15: mcpServers.web.type: expected one of stdio, http, sse, found "websocket"',
    ],
    [
      "a url that is not http",
      "mcpServers:\n  web: {url: 'ws://localhost:1'}",
      'mm.yaml:2:14: mcpServers.web.url: expected an http:// or https:// URL, found "ws://localhost:1"',
    ],
    [
      "an unset ${VAR}",
      "mcpServers:\n  gh:\n    url: https://x/mcp\n    headers: {Authorization: 'Bearer ${GH_TOKEN}'}",
      "mm.yaml:4:30: mcpServers.gh.headers.Authorization: ${GH_TOKEN} is not set in mm's environment — set it, or write ${GH_TOKEN:-default}",
    ],
    [
      "a duration without its unit",
      "mcpServers:\n  fs: {command: npx, timeout: 30}",
      "mm.yaml:2:31: mcpServers.fs.timeout: expected a duration like 30s, 2m or 1500ms, found the bare number 30 — write 30s",
    ],
    [
      "ask that is not a boolean",
      "mcpServers:\n  fs: {command: npx, ask: never}",
      'mm.yaml:2:27: mcpServers.fs.ask: expected true or false, found "never"',
    ],
    [
      "a name that would give a built-in tool's name",
      "mcpServers:\n  fetch: {command: uvx}",
      'mm.yaml:2:3: mcpServers.fetch: expected a server name whose tools cannot take the name of another tool, found "fetch" (fetch_… could be fetch_content) — rename the server, e.g. "fetch-mcp"',
    ],
    [
      "a name that would give a declared tool's name, the tool declared after it",
      "mcpServers:\n  gh: {command: x}\ntools:\n  - name: gh_issue\n    command: [gh, issue]",
      'mm.yaml:2:3: mcpServers.gh: expected a server name whose tools cannot take the name of another tool, found "gh" (gh_… could be gh_issue) — rename the server, e.g. "gh-mcp"',
    ],
    [
      "a name that would give a catalog tool's name",
      "mcpServers:\n  mcp: {command: x}",
      'mm.yaml:2:3: mcpServers.mcp: expected a server name whose tools cannot take the name of another tool, found "mcp" (mcp_… could be mcp_tools) — rename the server, e.g. "mcp-mcp"',
    ],
    [
      "two names whose tools read alike",
      "mcpServers:\n  my.fs: {command: a}\n  my_fs: {command: b}",
      'mm.yaml:3:3: mcpServers.my_fs: expected a name whose tools no other server\'s can take, found the same tool names as "my.fs" (my_fs_…)',
    ],
    [
      "a name without a letter or a digit",
      "mcpServers:\n  '--': {command: a}",
      'mm.yaml:2:3: mcpServers.--: expected a server name with a letter or a digit, found "--"',
    ],
    [
      "several faults: the first only, as for every key (docs/agent-file.md)",
      "mcpServers:\n  fs: {command: npx, ask: never, timeout: 30}\n  gh: {comand: x}",
      'mm.yaml:2:27: mcpServers.fs.ask: expected true or false, found "never"',
    ],
  ];
  for (const [name, yaml, message] of rows) {
    await t.step(name, () => assertEquals(fault(yaml), message));
  }
});

Deno.test("mcp: how the tools are declared", async (t) => {
  await t.step("the defaults: catalog when over 4000 characters or 12 tools", () => {
    assertEquals(parse("").mcp, { catalog: "auto", budget: 4000, maxTools: 12 });
  });
  await t.step("forced on, forced off, the budget", () => {
    assertEquals(parse("mcp: {catalog: true}").mcp.catalog, true);
    assertEquals(parse("mcp: {catalog: false}").mcp.catalog, false);
    assertEquals(parse("mcp: {catalog: auto, budget: 8000, maxTools: 20}").mcp, {
      catalog: "auto",
      budget: 8000,
      maxTools: 20,
    });
  });
  await t.step("faults", () => {
    assertEquals(
      fault("mcp: {catalog: yes}"),
      'mm.yaml:1:16: mcp.catalog: expected auto, true or false, found "yes"',
    );
    assertEquals(
      fault("mcp: {budget: 0}"),
      "mm.yaml:1:15: mcp.budget: expected an integer ≥ 1, found 0",
    );
    assertEquals(
      fault("mcp: {maxtools: 3}"),
      'mm.yaml:1:7: unknown key "mcp.maxtools" — did you mean "mcp.maxTools"?',
    );
  });
});

Deno.test("MCP tool names", async (t) => {
  await t.step("<server>_<tool>, sanitised to [A-Za-z0-9_-]", () => {
    assertEquals(mcpToolName("fs", "read_file"), "fs_read_file");
    assertEquals(mcpToolName("everything", "get-sum"), "everything_get-sum");
    assertEquals(mcpToolName("my server", "files.read/all"), "my_server_files_read_all");
    assertEquals(mcpName("café"), "caf_");
  });
  await t.step("at most 64 characters, a hash keeping long ones apart", () => {
    const a = mcpToolName("server", "a".repeat(70));
    const b = mcpToolName("server", "a".repeat(71));
    assertEquals([a.length, b.length], [64, 64]);
    assertEquals(a.startsWith("server_aaaa"), true);
    assertEquals(a === b, false);
    assertEquals(mcpToolName("server", "a".repeat(57)), `server_${"a".repeat(57)}`);
  });
});

Deno.test("expandVars: ${VAR} and ${VAR:-default}", () => {
  assertEquals(expandVars("Bearer ${T}", { T: "x" }), { text: "Bearer x", unset: [] });
  assertEquals(expandVars("${A:-one}/${B:-}", {}), { text: "one/", unset: [] });
  assertEquals(expandVars("${A}${B}", { B: "" }), { text: "", unset: ["A", "B"] });
  assertEquals(expandVars("$A ${} $", {}), { text: "$A ${} $", unset: [] });
});
