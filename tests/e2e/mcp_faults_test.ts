/**
 * MCP servers that misbehave, through the real `mm -p` (docs/mcp.md, "Servers that misbehave"):
 * a result of the wrong shape, a malformed `initialize` answer, a Node crash, a grandchild that
 * left the server's session.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { alive, allGone, faultYaml } from "../helpers/mcp/servers.ts";
import { runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

function toolOutputs(model: string, n = 1): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

function agentFile(model: string, fault: string): string {
  return `url: ${server.url}\nmodel: ${model}\nmcpServers:\n  fault: ${fault}\n`;
}

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

Deno.test("MCP servers that misbehave, in mm -p", async (t) => {
  await runCases(t, {
    "a result of the wrong shape: the model reads what was wrong": async () => {
      server.script("shapes", [
        {
          toolCalls: [
            call("fault_shapeless", { result: { content: "hello" } }),
            call("fault_shapeless", { result: "hi" }),
            call("fault_shapeless", { result: { content: [{ type: "text", text: "fine" }] } }),
          ],
        },
        { text: "done" },
      ]);
      const dir = await workdir(agentFile("shapes", faultYaml({ FAULT_SHAPES: "1" })));
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("shapes"), [
        '[error: fault answered fault_shapeless with a result mm cannot read: content is a string ("hello"), not an array]',
        '[error: fault answered fault_shapeless with a result mm cannot read: the result is a string ("hi"), not an object]',
        "fine",
      ]);
    },
    "initialize answered with a non-object: the server fails at once, the answer named":
      async () => {
        server.script("init", [{ text: "ok" }]);
        const fault = faultYaml({ FAULT_INIT_RESULT: '"ok"' }, "startupTimeout: 60s");
        const dir = await workdir(agentFile("init", fault));
        const began = performance.now();
        const run = await runMM(["-p", "go"], { cwd: dir });
        const seconds = (performance.now() - began) / 1000;
        assertEquals(run.code, 0, run.stderr);
        assertStringIncludes(
          run.stderr,
          '[warning: MCP server fault did not start: answered initialize with a string ("ok"), not an object]\n',
        );
        if (seconds > 30) throw new Error(`mm took ${seconds} s`);
      },
    "a Node server's crash: the warning names the error, not Node's banner": async () => {
      server.script("node", [{ toolCalls: [call("fault_crash")] }, { text: "ok" }]);
      const dir = await workdir(agentFile("node", faultYaml({ FAULT_NODE_CRASH: "1" })));
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(
        run.stderr,
        "[warning: MCP server fault stopped: exited with status 1: RangeError: Invalid array length, at f (/srv/fault/index.js:1:21) — its tools now answer that it is not running]\n",
      );
    },
    "a grandchild that left the server's session (setsid) is gone after mm exits": async () => {
      server.script("setsid", [{ toolCalls: [call("fault_add", { a: 1, b: 1 })] }, {
        text: "ok",
      }]);
      const pidFile = `${await tempDir()}/setsid.pid`;
      const dir = await workdir(
        agentFile("setsid", faultYaml({ FAULT_SETSID_PID_FILE: pidFile })),
      );
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const pid = Number(await Deno.readTextFile(pidFile));
      const gone = await allGone([pid], 2000);
      if (!gone) Deno.kill(pid, "SIGKILL");
      assertEquals([gone, alive(pid)], [true, false], `${pid} outlived mm`);
    },
  });
});
