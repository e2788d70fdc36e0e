/**
 * One MCP server, against real processes (lib/mcp/server.ts): the fault server of the tests for
 * every fault, `@modelcontextprotocol/server-everything` over stdio, Streamable HTTP and SSE.
 */

import type { McpServerConfig } from "../../lib/config/config.ts";
import { McpServer } from "../../lib/mcp/server.ts";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import {
  alive,
  allGone,
  everythingOverHttp,
  faultConfig,
  faultPids,
  freePort,
  serverConfig,
} from "../helpers/mcp/servers.ts";
import { tempDir } from "../helpers/mm.ts";

const NEVER = new AbortController().signal;

/** A server started in a temporary directory, with its down events kept. */
function start(name: string, config: McpServerConfig, cwd = "/tmp") {
  const downs: string[] = [];
  const changed: string[] = [];
  const server = new McpServer(name, config, {
    cwd,
    env: Deno.env.toObject(),
    events: {
      down: (_s, reason, started) => downs.push(`${started ? "died" : "failed"}: ${reason}`),
      changed: (s) => changed.push(s.listing.tools.map((t) => t.name).join(",")),
    },
  });
  return { server, downs, changed };
}

async function lines(file: string): Promise<string[]> {
  return (await Deno.readTextFile(file).catch(() => "")).split("\n").filter(Boolean);
}

Deno.test("an MCP server over stdio: the fault server", async (t) => {
  await runCases(t, {
    "starts, lists leniently, calls; cancellation sends notifications/cancelled": async () => {
      const dir = await tempDir();
      const log = `${dir}/log`;
      const { server } = start("fault", faultConfig({ FAULT_LOG: log }));
      await server.started;
      assertEquals(server.state, { kind: "running" });
      assertEquals(server.listing.notes, [
        'untyped: input schema without "type": "object" — repaired',
        "tool #3 dropped: it has no name",
      ]);
      assertEquals(await server.call("add", { a: 2, b: 3 }, NEVER), {
        kind: "result",
        result: { content: [{ type: "text", text: "5" }], isError: false },
      });
      assertEquals(await server.call("structured", {}, NEVER), {
        kind: "result",
        result: { content: [], isError: false, structuredContent: { temperature: 21, unit: "C" } },
      });
      assertEquals(await server.call("nope", {}, NEVER), {
        kind: "error",
        message: "Tool nope not found",
      });
      const turn = new AbortController();
      const slow = server.call("slow", { ms: 10_000 }, turn.signal);
      setTimeout(() => turn.abort(), 200);
      assertEquals(await slow, { kind: "cancelled" });
      await server.close();
      const logged = await lines(log);
      assertEquals(logged.some((l) => /^cancelled \d+$/.test(l)), true, logged.join("\n"));
    },
    "a call past its timeout": async () => {
      const { server } = start("fault", faultConfig({}, { timeout: 300 }));
      assertEquals(await server.call("hang", {}, NEVER), { kind: "timeout", ms: 300 });
      await server.close();
    },
    "a 40 MB answer, its id first or last: an error the model reads, the server goes on":
      async () => {
        const { server } = start("fault", faultConfig({ FAULT_BIG: "1" }, { timeout: 60_000 }));
        const began = performance.now();
        const refused = {
          kind: "error",
          message:
            "its answer is larger than 32 MiB, more than mm reads, and was not read — ask for less (a narrower query, a smaller range)",
        };
        assertEquals(await server.call("big", { bytes: 40_000_000 }, NEVER), refused);
        assertEquals(await server.call("big", { bytes: 40_000_000, idLast: true }, NEVER), refused);
        const seconds = (performance.now() - began) / 1000;
        if (seconds > 30) throw new Error(`two 40 MB answers took ${seconds} s`);
        // Not wedged: the next answer, a large one within the limit, comes whole.
        const ok = await server.call("big", { bytes: 5_000_000 }, NEVER);
        assertEquals(
          ok.kind === "result" && (ok.result.content[0] as { text: string }).text.length,
          5_000_000,
        );
        assertEquals(server.state, { kind: "running" });
        await server.close();
      },
    "a crash during a call: the server is down, with its exit and last stderr line": async () => {
      const { server, downs } = start("fault", faultConfig());
      await server.started;
      const reason = "exited with status 7: fault server: crashing on purpose";
      assertEquals(await server.call("crash", {}, NEVER), { kind: "down", reason });
      assertEquals(downs, [`died: ${reason}`]);
      assertEquals(await server.call("add", { a: 1, b: 1 }, NEVER), { kind: "down", reason });
      await server.close();
    },
    "an exit at start: its status and the last line of its stderr": async () => {
      const { server, downs } = start("fault", faultConfig({ FAULT_EXIT_AT_START: "no token" }));
      await server.started;
      assertEquals(server.state, { kind: "failed", reason: "exited with status 3: no token" });
      assertEquals(downs, ["failed: exited with status 3: no token"]);
      await server.close();
    },
    "a slow start past startupTimeout": async () => {
      const config = faultConfig({ FAULT_START_DELAY_MS: "5000" }, { startupTimeout: 500 });
      const { server } = start("fault", config);
      await server.started;
      assertEquals(server.state, {
        kind: "failed",
        reason: "did not start within 500ms (startupTimeout)",
      });
      await server.close();
    },
    "a program that is not there": async () => {
      const { server } = start("ghost", serverConfig({ command: ["no-such-mcp-server"] }));
      await server.started;
      assertEquals(server.state, {
        kind: "failed",
        reason: "no-such-mcp-server cannot be started: executable file not found in $PATH",
      });
      await server.close();
    },
    "close kills a stubborn server and its whole process group": async () => {
      const dir = await tempDir();
      const pids = `${dir}/pids`;
      const { server } = start("fault", faultConfig({ FAULT_STUBBORN: "1", FAULT_PID_FILE: pids }));
      await server.started;
      const [pid, child] = await faultPids(pids);
      assertEquals([alive(pid), alive(child)], [true, true]);
      await server.close();
      assertEquals([alive(pid), alive(child)], [false, false]);
    },
    "initialize answered with a non-object: it fails at once, naming the answer": async () => {
      for (
        const [answer, what] of [
          ['"ok"', 'a string ("ok")'],
          ["[1,2]", "an array ([1,2])"],
          ["null", "null"],
        ]
      ) {
        const began = performance.now();
        const config = faultConfig({ FAULT_INIT_RESULT: answer }, { startupTimeout: 20_000 });
        const { server, downs } = start("fault", config);
        await server.started;
        const reason = `answered initialize with ${what}, not an object`;
        assertEquals(server.state, { kind: "failed", reason });
        assertEquals(downs, [`failed: ${reason}`]);
        const seconds = (performance.now() - began) / 1000;
        if (seconds > 10) throw new Error(`it took ${seconds} s to fail`);
        await server.close();
      }
    },
    "a result of the wrong shape: what was wrong, bounded": async () => {
      const { server } = start("fault", faultConfig({ FAULT_SHAPES: "1" }, { timeout: 20_000 }));
      const shapes: [unknown, string][] = [
        [{ content: "hello" }, 'content is a string ("hello"), not an array'],
        [{ content: { type: "text", text: "hi" } }, "content is an object, not an array"],
        [{ content: ["hello"] }, 'content[0] is a string ("hello"), not an object'],
        [{ content: [{ text: "hi" }] }, "content[0] has no type"],
        [{ content: [{ type: "text", text: 5 }] }, "content[0].text is a number (5), not a string"],
        [{}, "it has no content"],
        ["hi", 'the result is a string ("hi"), not an object'],
        [[1, 2], "the result is an array ([1,2]), not an object"],
        [
          { content: "x".repeat(10_000) },
          `content is a string ("${"x".repeat(60)}…), not an array`,
        ],
      ];
      for (const [result, problem] of shapes) {
        assertEquals(await server.call("shapeless", { result }, NEVER), {
          kind: "malformed",
          problem,
        });
      }
      // Shapes that are right stay results.
      assertEquals(await server.call("shapeless", { result: { content: [] } }, NEVER), {
        kind: "result",
        result: { content: [], isError: false },
      });
      assertEquals(server.state, { kind: "running" });
      await server.close();
    },
    "a storm of tools/list_changed: one notice, one tools/list a second, the last list":
      async () => {
        const dir = await tempDir();
        const log = `${dir}/log`;
        const config = faultConfig({ FAULT_STORM: "1", FAULT_LOG: log });
        const { server, changed } = start("fault", config);
        await server.started;
        const began = performance.now();
        assertEquals(await server.call("storm", { count: 200 }, NEVER), {
          kind: "result",
          result: { content: [{ type: "text", text: "stormed" }], isError: false },
        });
        const listed = async () => (await lines(log)).filter((l) => l === "tools/list").length;
        // The first change listed at once, the rest once a second has passed.
        for (let i = 0; i < 150 && (await listed() < 3 || !changed.length); i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        const seconds = (performance.now() - began) / 1000;
        assertEquals(changed.length, 1, `${changed.length} notices`);
        assertEquals(changed[0].endsWith(",storm_200"), true);
        assertEquals(server.listing.tools.at(-1)?.name, "storm_200");
        const count = await listed();
        if (count > 2 + Math.ceil(seconds)) throw new Error(`${count} tools/list in ${seconds} s`);
        await server.close();
      },
    "a Node server's crash: its error and first frame, not Node's banner": async () => {
      const { server, downs } = start("fault", faultConfig({ FAULT_NODE_CRASH: "1" }));
      await server.started;
      const reason =
        "exited with status 1: RangeError: Invalid array length, at f (/srv/fault/index.js:1:21)";
      assertEquals(await server.call("crash", {}, NEVER), { kind: "down", reason });
      assertEquals(downs, [`died: ${reason}`]);
      await server.close();
    },
    "close kills a grandchild that left the server's session (setsid)": async () => {
      const dir = await tempDir();
      const pidFile = `${dir}/setsid.pid`;
      const { server } = start("fault", faultConfig({ FAULT_SETSID_PID_FILE: pidFile }));
      await server.started;
      const pid = Number(await Deno.readTextFile(pidFile));
      assertEquals(alive(pid), true);
      await server.close();
      assertEquals(await allGone([pid], 2000), true, `${pid} survived`);
    },
    "a changed tool list is listed again": async () => {
      const { server, changed } = start("fault", faultConfig({ FAULT_CHANGE_AFTER_MS: "100" }));
      await server.started;
      for (let i = 0; i < 100 && !changed.length; i++) await new Promise((r) => setTimeout(r, 20));
      assertEquals(changed[0]?.endsWith(",late"), true, changed.join("|"));
      await server.close();
    },
  });
});

Deno.test("an MCP server from npm: server-everything over stdio, Streamable HTTP, SSE", async (t) => {
  const http = await everythingOverHttp("streamableHttp");
  const sse = await everythingOverHttp("sse");
  try {
    await runCases(t, {
      "stdio": async () => {
        const { server } = start("ev", serverConfig({ command: ["mcp-server-everything"] }));
        await server.started;
        assertEquals(server.state, { kind: "running" });
        assertEquals(server.listing.tools.some((x) => x.name === "get-sum"), true);
        assertEquals(await server.call("get-sum", { a: 1, b: 2 }, NEVER), {
          kind: "result",
          result: { content: [{ type: "text", text: "The sum of 1 and 2 is 3." }], isError: false },
        });
        await server.close();
      },
      "Streamable HTTP, with headers": async () => {
        const { server } = start(
          "ev",
          serverConfig({ type: "http", url: http.url, headers: { "X-Test": "1" } }),
        );
        await server.started;
        assertEquals(server.state, { kind: "running" });
        const echo = await server.call("echo", { message: "hi" }, NEVER);
        assertEquals(echo, {
          kind: "result",
          result: { content: [{ type: "text", text: "Echo: hi" }], isError: false },
        });
        await server.close();
      },
      "legacy SSE": async () => {
        const { server } = start("ev", serverConfig({ type: "sse", url: sse.url }));
        await server.started;
        assertEquals(server.state, { kind: "running" });
        const echo = await server.call("echo", { message: "hi" }, NEVER);
        assertEquals(echo.kind, "result");
        await server.close();
      },
      "HTTP: a server that went away answers as not running": async () => {
        const gone = await everythingOverHttp("streamableHttp");
        const { server } = start("web", serverConfig({ type: "http", url: gone.url }));
        await server.started;
        await gone.close();
        assertEquals(await server.call("echo", { message: "hi" }, NEVER), {
          kind: "down",
          reason: `cannot connect to ${gone.url} (connection refused)`,
        });
        await server.close();
      },
      "HTTP: nobody listening, a wrong path": async () => {
        const url = `http://127.0.0.1:${freePort()}/mcp`;
        const refused = start("web", serverConfig({ type: "http", url }));
        await refused.server.started;
        assertEquals(refused.server.state, {
          kind: "failed",
          reason: `cannot connect to ${url} (connection refused)`,
        });
        const wrong = http.url.replace(/\/mcp$/, "/nope");
        const missing = start("web", serverConfig({ type: "http", url: wrong }));
        await missing.server.started;
        const state = missing.server.state as { kind: string; reason: string };
        assertEquals(state.kind, "failed");
        // Streamable HTTP refused with a 404, then SSE at the same URL: both said.
        assertMatch(
          state.reason,
          /^HTTP 404 Not Found from (http:\/\/127\.0\.0\.1:\d+\/nope) \(nor does it answer as an SSE server: SSE error: Non-200 status code \(404\) from \1\)$/,
        );
      },
    });
  } finally {
    await Promise.all([http.close(), sse.close()]);
  }
});

Deno.test("a server closed at once starts no process", async () => {
  const dir = await tempDir();
  const pids = `${dir}/pids`;
  const { server } = start("fault", faultConfig({ FAULT_PID_FILE: pids }));
  await server.close();
  assertEquals(server.state, { kind: "closed" });
  assertEquals(await Deno.stat(pids).then(() => true, () => false), false);
});
