/** What each agent file keeps of Deno's permissions (lib/permissions/sandbox.ts). */

import { assertEquals } from "../helpers/assert.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { mcpServerConfig as mcpServer } from "../../lib/config/mcp.ts";
import { permissionNeeds } from "../../lib/permissions/sandbox.ts";

/** The defaults with `over` on top, and every tool that runs or writes off unless `over` says so. */
function bare(over: Partial<Config> = {}): Config {
  const c = defaultConfig();
  // Sessions are on by default (issue 26): off here, so each step adds one thing that writes.
  return {
    ...c,
    bashTool: false,
    editTools: false,
    sessions: { ...c.sessions, enabled: false },
    ...over,
  };
}

Deno.test("permission needs", async (t) => {
  await t.step(
    "the defaults keep run (bash) and write (bash's output file, the edit tools, sessions)",
    () => {
      assertEquals(permissionNeeds(defaultConfig(), "oneshot"), {
        run: ["bash"],
        write: ["bash", "write_file and edit_file", "session files"],
      });
    },
  );

  await t.step("no bash, no declared tools, no hooks, no LSP server: no run, no write", () => {
    assertEquals(permissionNeeds(bare(), "oneshot"), { run: [], write: [] });
  });

  await t.step("editor mode keeps run and write: the editor's MCP servers, other folders", () => {
    assertEquals(permissionNeeds(bare(), "acp"), {
      run: ["the editor's MCP servers"],
      write: ["the agent files of other folders"],
    });
  });

  await t.step("a stdio MCP server keeps run, also in mm doctor; an HTTP one does not", () => {
    const stdio = mcpServer({ type: "stdio", command: ["npx", "-y", "server"] });
    const http = mcpServer({ type: "http", url: "http://localhost:3001/mcp" });
    assertEquals(permissionNeeds(bare({ mcpServers: { fs: stdio } }), "oneshot"), {
      run: ["MCP servers"],
      write: [],
    });
    assertEquals(permissionNeeds(bare({ mcpServers: { fs: stdio } }), "acp").run, ["MCP servers"]);
    assertEquals(permissionNeeds(bare({ mcpServers: { fs: stdio } }), "doctor").run, [
      "MCP servers",
    ]);
    assertEquals(permissionNeeds(bare({ mcpServers: { web: http } }), "oneshot").run, []);
    const off = { ...stdio, enabled: false };
    assertEquals(permissionNeeds(bare({ mcpServers: { fs: off } }), "oneshot").run, []);
  });

  await t.step("each thing that starts a process keeps run", () => {
    const tool = { name: "t", command: ["echo"], parameters: {} };
    const server = { name: "deno", command: "deno", args: ["lsp"], extensions: [".ts"] };
    assertEquals(permissionNeeds(bare({ tools: [tool] }), "oneshot").run, ["declared tools"]);
    assertEquals(
      permissionNeeds(bare({ hooks: { preToolCall: [{ command: ["true"] }] } }), "oneshot").run,
      ["hooks"],
    );
    assertEquals(permissionNeeds(bare({ hooks: { preToolCall: [] } }), "oneshot").run, []);
    assertEquals(
      permissionNeeds(bare({ lsp: { servers: [server] } }), "oneshot").run,
      ["LSP servers"],
    );
    assertEquals(
      permissionNeeds(bare({ mmConfigs: { helper: { file: "h.yaml" } } }), "oneshot").run,
      ["mmConfigs"],
    );
  });

  await t.step("each thing that writes keeps write", () => {
    const c = defaultConfig();
    assertEquals(permissionNeeds(bare({ saveAnswerTool: true }), "oneshot").write, ["save_answer"]);
    assertEquals(permissionNeeds(bare({ fetchContentTool: true }), "oneshot").write, [
      "fetch_content",
    ]);
    assertEquals(
      permissionNeeds(bare({ sessions: { ...c.sessions, enabled: true } }), "oneshot").write,
      ["session files"],
    );
    assertEquals(permissionNeeds(bare(), "line").write, ["the prompt history"]);
  });

  await t.step("window mode keeps write (the history) and run (Ctrl-Z suspends mm)", () => {
    assertEquals(permissionNeeds(bare(), "window"), {
      run: ["suspending with Ctrl-Z"],
      write: ["the prompt history"],
    });
  });

  await t.step("mm doctor keeps run to try the sandbox, when it is on", () => {
    assertEquals(permissionNeeds(bare({ sandbox: "workspace" }), "doctor"), {
      run: ["the sandbox check"],
      write: [],
    });
    assertEquals(permissionNeeds(bare({ sandboxNetwork: false }), "doctor").run, []);
  });

  await t.step("mm doctor and mm sessions need neither, whatever else the agent file says", () => {
    assertEquals(permissionNeeds(defaultConfig(), "doctor"), { run: [], write: [] });
    assertEquals(permissionNeeds(defaultConfig(), "sessions"), { run: [], write: [] });
  });
});
