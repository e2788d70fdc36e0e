/** MCP servers in line mode: the real `mm` in a terminal (tmux), typed at (docs/mcp.md). */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { alive, allGone, faultPids, faultYaml } from "../helpers/mcp/servers.ts";
import { DENO_DIR, MAIN, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Starts `mm` in a terminal, in a fresh directory whose agent file uses `model`. */
async function mm(model: string, extra: string) {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
  );
  await term.waitFor("Ctrl-D quits.");
  return { term, dir };
}

Deno.test("MCP servers in line mode", async (t) => {
  await runCases(t, {
    "the banner's line per server; a slow one shows above the prompt, the typing kept":
      async () => {
        server.script("banner", [{ text: "ok" }]);
        const { term } = await mm(
          "banner",
          `mcpServers:\n  quick: ${faultYaml({}, "tools: [add, env]")}\n  slow: ${
            faultYaml({ FAULT_START_DELAY_MS: "1500" })
          }\n  ghost: {command: no-such-mcp-server}\nmcp: {catalog: false}\n`,
        );
        try {
          await term.waitFor("🔌 quick · 2 of 10 tools");
          await term.type("half-typed");
          const screen = await term.waitFor("🔌 slow · 10 tools");
          assertStringIncludes(
            screen,
            "[warning: MCP server ghost did not start: no-such-mcp-server cannot be started: executable file not found in $PATH]",
          );
          assertStringIncludes(
            screen,
            "🔌 slow · 10 tools\n[warning: MCP server slow: tool #3 dropped: it has no name]\n› half-typed",
          );
          await term.type(" and done");
          await term.keys("Enter");
          await term.waitFor("\nok\n");
          const sent = server.chats("banner")[0].body.messages.at(-1).content;
          assertEquals(sent, "half-typed and done");
        } finally {
          await term.kill();
        }
      },
    "a call asks like bash when yolo is false; a trusted server's does not": async () => {
      server.script("ask", [
        {
          toolCalls: [
            { name: "fault_add", arguments: { a: 1, b: 1 } },
            { name: "trusted_add", arguments: { a: 2, b: 2 } },
          ],
        },
        { text: "added" },
      ]);
      const { term } = await mm(
        "ask",
        `yolo: false\nmcp: {catalog: false}\nmcpServers:\n  fault: ${faultYaml()}\n  trusted: ${
          faultYaml({}, "ask: false")
        }\n`,
      );
      try {
        await term.waitFor("🔌 trusted · 10 tools");
        await term.type("add");
        await term.keys("Enter");
        await term.waitFor('🔐 fault_add: {"a":1,"b":1}');
        await term.type("y");
        await term.keys("Enter");
        const screen = await term.waitFor("added");
        assertEquals(screen.includes("🔐 trusted_add"), false, screen);
        const outputs = server.chats("ask")[1].body.messages
          .filter((m: { role: string }) => m.role === "tool")
          .map((m: { content: string }) => m.content);
        assertEquals(outputs, ["2", "4"]);
      } finally {
        await term.kill();
      }
    },
    "a changed tool list is announced, and applies from /new": async () => {
      server.script("changed", [{ text: "first" }, { text: "second" }]);
      const { term } = await mm(
        "changed",
        `mcp: {catalog: false}\nmcpServers:\n  fault: ${
          faultYaml({ FAULT_CHANGE_AFTER_MS: "1500" })
        }\n`,
      );
      try {
        await term.waitFor("🔌 fault · 10 tools");
        await term.type("one");
        await term.keys("Enter");
        await term.waitFor("first");
        await term.waitFor(
          "🔌 fault changed its tools (11 now): the new list applies to the next conversation (/new)",
        );
        await term.type("/new");
        await term.keys("Enter");
        await term.type("two");
        await term.keys("Enter");
        await term.waitFor("second");
        const declared = (n: number) =>
          server.chats("changed")[n].body.tools.map((x: { function: { name: string } }) =>
            x.function.name
          );
        assertEquals([declared(0).includes("fault_late"), declared(1).includes("fault_late")], [
          false,
          true,
        ]);
      } finally {
        await term.kill();
      }
    },
    "Ctrl-C while the first turn waits: the turn cancelled, the next one waits again": async () => {
      server.script("ctrlc", [{ text: "declared" }]);
      const { term } = await mm(
        "ctrlc",
        `mcp: {catalog: false}\nmcpServers:\n  slow: ${
          faultYaml({ FAULT_START_DELAY_MS: "3000" })
        }\n`,
      );
      try {
        await term.type("first");
        await term.keys("Enter");
        await term.waitFor("🔌 waiting for MCP server slow to start (up to 30s)");
        await term.keys("C-c");
        await term.waitFor("⏹ turn cancelled");
        await term.waitFor("🔌 slow · 10 tools");
        await term.type("second");
        await term.keys("Enter");
        await term.waitFor("declared");
        const chats = server.chats("ctrlc");
        assertEquals(chats.length, 1, "the cancelled turn asked no model");
        assertEquals(
          chats[0].body.tools.some((x: { function: { name: string } }) =>
            x.function.name === "slow_add"
          ),
          true,
        );
      } finally {
        await term.kill();
      }
    },
    "after /new, the tools of a server that died answer that it is not running": async () => {
      server.script("renew", [
        { toolCalls: [{ name: "fault_crash", arguments: {} }] },
        { text: "crashed" },
        { toolCalls: [{ name: "fault_add", arguments: { a: 1, b: 2 } }] },
        { text: "second" },
      ]);
      const { term } = await mm(
        "renew",
        `mcp: {catalog: false}\nmcpServers:\n  fault: ${faultYaml()}\n`,
      );
      try {
        await term.waitFor("🔌 fault · 10 tools");
        await term.type("one");
        await term.keys("Enter");
        await term.waitFor("crashed");
        await term.type("/new");
        await term.keys("Enter");
        await term.type("two");
        await term.keys("Enter");
        await term.waitFor("second");
        const chat = server.chats("renew")[3].body;
        assertEquals(
          chat.tools.some((x: { function: { name: string } }) => x.function.name === "fault_add"),
          false,
          "a dead server's tools are not declared in the next conversation",
        );
        assertEquals(
          chat.messages.filter((m: { role: string }) => m.role === "tool").map((
            m: { content: string },
          ) => m.content),
          [
            "[fault is not running: exited with status 7: fault server: crashing on purpose — its tools cannot be used in this conversation]",
          ],
        );
      } finally {
        await term.kill();
      }
    },
    "the parent shell killed: mm closes its servers, no orphan is left": async () => {
      const pidFile = `${await tempDir()}/pids`;
      const { term } = await mm(
        "orphan",
        `mcpServers:\n  fault: ${faultYaml({ FAULT_STUBBORN: "1", FAULT_PID_FILE: pidFile })}\n`,
      );
      try {
        await term.waitFor("🔌 fault");
        const pids = await faultPids(pidFile);
        assertEquals(pids.map(alive), [true, true]);
        Deno.kill(await term.shellPid(), "SIGKILL");
        assertEquals(await allGone(pids), true, "the server and its child are gone");
      } finally {
        await term.kill();
      }
    },
  });
});
