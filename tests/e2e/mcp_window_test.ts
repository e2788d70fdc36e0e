/** MCP servers in window mode: the real `mm -tui` in a terminal (tmux), typed at (docs/mcp.md). */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { allGone, faultPids, faultYaml } from "../helpers/mcp/servers.ts";
import { DENO_DIR, MAIN, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { boxTakesKeys, Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Starts `mm -tui` in a fresh directory whose agent file uses `model`, once its banner is drawn. */
async function mm(model: string, extra: string) {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, "-tui"],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR }, width: 120, height: 30 },
  );
  await term.waitFor("Ctrl-D quits.");
  return term;
}

Deno.test("MCP servers in window mode", async (t) => {
  await runCases(t, {
    "the servers' lines under the banner; a call asks in the permission box": async () => {
      server.script("w-mcp", [
        { toolCalls: [{ name: "fault_add", arguments: { a: 20, b: 22 } }] },
        { text: "it is 42" },
      ]);
      const term = await mm(
        "w-mcp",
        `yolo: false\nmcp: {catalog: false}\nmcpServers:\n  fault: ${faultYaml()}\n  ghost: {command: no-such-mcp-server}\n`,
      );
      try {
        let screen = await term.waitFor("🔌 fault · 10 tools");
        assertStringIncludes(screen, "[warning: MCP server ghost did not start:");
        await term.type("add");
        await term.keys("Enter");
        screen = await term.waitFor("╭─ 🔐 allow this call?");
        assertStringIncludes(screen, '│ fault_add: {"a":20,"b":22}');
        await boxTakesKeys();
        await term.type("a");
        await term.waitFor("it is 42");
        const tool = server.chats("w-mcp")[1].body.messages.at(-1);
        assertEquals(tool.content, "42");
      } finally {
        await term.kill();
      }
    },
    "SIGTERM: the window left, the servers' process groups killed": async () => {
      const pidFile = `${await tempDir()}/pids`;
      const term = await mm(
        "w-term",
        `mcpServers:\n  fault: ${faultYaml({ FAULT_STUBBORN: "1", FAULT_PID_FILE: pidFile })}\n`,
      );
      try {
        await term.waitFor("🔌 fault");
        const pids = await faultPids(pidFile);
        Deno.kill(await term.pid(), "SIGTERM");
        await term.waitFor("[exited 143]");
        assertEquals(await allGone(pids), true, "the server and its child are gone");
      } finally {
        await term.kill();
      }
    },
  });
});
