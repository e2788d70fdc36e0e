/**
 * MCP servers through the real `mm -p` (docs/mcp.md): the fault server of the tests, and
 * `@modelcontextprotocol/server-everything` and `server-filesystem` from npm.
 */

import { disabledServerText } from "../../tools/mcp/unknown.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { alive, everythingOverHttp, faultPids, faultYaml, logged } from "../helpers/mcp/servers.ts";
import { runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

function toolOutputs(model: string, n = 1): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

// deno-lint-ignore no-explicit-any
function declared(model: string): any[] {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[0].body.tools.map((t: any) => t.function);
}

function names(model: string): string[] {
  return declared(model).map((f) => f.name);
}

/** An agent file for `model` with `servers` as its `mcpServers` block and `extra` keys. */
function agentFile(model: string, servers: Record<string, string>, extra = ""): string {
  const block = Object.entries(servers).map(([name, s]) => `  ${name}: ${s}`).join("\n");
  return `url: ${server.url}\nmodel: ${model}\n${extra}mcpServers:\n${block}\n`;
}

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

Deno.test("MCP servers in mm -p", async (t) => {
  const http = await everythingOverHttp("streamableHttp");
  const sse = await everythingOverHttp("sse");
  try {
    await runCases(t, {
      "calls: coercion, a sanitised schema, images, structured content, isError": async () => {
        server.script("calls", [
          {
            toolCalls: [
              call("fault_add", { a: "2", b: 3 }),
              call("fault_nested", { ticket: { title: "Bug", priority: "HIGH", tags: "ui" } }),
              call("fault_image"),
              call("fault_structured"),
              call("fault_fail"),
              call("fault_add", { a: "two" }),
            ],
          },
          { text: "done" },
        ]);
        const dir = await workdir(agentFile("calls", { fault: faultYaml() }));
        const run = await runMM(["-p", "go"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, "done\n");
        const nested = declared("calls").find((f) => f.name === "fault_nested");
        assertEquals(nested, {
          name: "fault_nested",
          description: "Files a ticket.",
          parameters: {
            type: "object",
            properties: {
              ticket: {
                type: "object",
                properties: {
                  title: { type: "string" },
                  priority: { type: "string", enum: ["low", "high"] },
                  tags: { type: "array", items: { type: "string" } },
                },
                required: ["title"],
              },
              due: { type: "string" },
            },
            required: ["ticket"],
          },
        });
        assertEquals(
          declared("calls").find((f) => f.name === "fault_add").description,
          "Add two numbers. Returns their sum as text.",
        );
        assertEquals(toolOutputs("calls"), [
          "5",
          '{"ticket":{"title":"Bug","priority":"high","tags":["ui"]}}',
          "Here it is:\n[image/png, 34 KB, not shown to the model]",
          '{"temperature":21,"unit":"C"}',
          "[fault_fail failed: the disk is full]",
          '[fault_add: invalid call, nothing was run — a: "two" is not a number; b is missing. You sent: {"a":"two"}. Expected: a (number); b (number). Call fault_add again with each parameter as its own field.]',
        ]);
        assertStringIncludes(run.stderr, "🔌 fault · 10 tools\n");
        assertStringIncludes(
          run.stderr,
          "[warning: MCP server fault: tool #3 dropped: it has no name]\n",
        );
        assertStringIncludes(run.stderr, '🔌 fault_add: {"a":2,"b":3}\n');
      },
      "schemas repaired: a required name without its property, a top-level oneOf": async () => {
        server.script("schemas", [
          {
            toolCalls: [
              call("fault_ghostly", { x: "2" }),
              call("fault_either", { id: "7" }),
              call("fault_either", { url: "u", depth: "3" }),
              call("fault_either", {}),
            ],
          },
          { text: "done" },
        ]);
        const dir = await workdir(agentFile("schemas", {
          fault: faultYaml({ FAULT_SCHEMAS: "1" }, "tools: [ghostly, either]"),
        }));
        const run = await runMM(["-p", "go"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const shown = (name: string) => declared("schemas").find((f) => f.name === name).parameters;
        assertEquals(shown("fault_ghostly"), {
          type: "object",
          properties: { x: { type: "number" } },
          required: ["x"],
        });
        assertEquals(shown("fault_either"), {
          type: "object",
          properties: {
            id: { type: "integer" },
            url: { type: "string" },
            depth: { type: "integer" },
          },
        });
        assertEquals(toolOutputs("schemas"), [
          '{"x":2}',
          '{"id":7}',
          '{"url":"u","depth":3}',
          "[fault_either: invalid call, nothing was run — id is missing, or url is missing. You sent: {}. Expected: id (integer, optional); url (string, optional); depth (integer, optional). Call fault_either again with each parameter as its own field.]",
        ]);
      },
      "env hygiene: a minimal environment plus the server's env, never MM_API_KEY": async () => {
        server.script("env", [
          { toolCalls: [call("fault_env"), call("fault_env", { name: "MY_TOKEN" })] },
          { text: "ok" },
        ]);
        const dir = await workdir(
          agentFile("env", { fault: faultYaml({ MY_TOKEN: "${SECRET_FOR_FAULT}" }) }),
        );
        const run = await runMM(["-p", "x"], {
          cwd: dir,
          env: { MM_API_KEY: "sk-mm", OPENAI_API_KEY: "sk-o", SECRET_FOR_FAULT: "tok" },
        });
        assertEquals(run.code, 0, run.stderr);
        const [all, mine] = toolOutputs("env");
        assertEquals(all.split(" ").includes("MM_API_KEY"), false, all);
        assertEquals(all.split(" ").includes("OPENAI_API_KEY"), false, all);
        assertEquals(all.split(" ").includes("PATH"), true, all);
        assertEquals(mine, "tok");
      },
      "allow lists: tools and exclude globs; the banner's count": async () => {
        server.script("allow", [{ text: "ok" }]);
        const dir = await workdir(agentFile("allow", {
          ev:
            '{command: mcp-server-everything, tools: ["get-*", echo, ech], exclude: [get-env, zap*]}',
        }));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const mcp = names("allow").filter((n) => n.startsWith("ev_"));
        assertEquals(mcp.includes("ev_echo") && mcp.includes("ev_get-sum"), true, mcp.join());
        assertEquals(mcp.some((n) => n === "ev_get-env" || n.startsWith("ev_toggle")), false);
        assertMatch(run.stderr, new RegExp(`🔌 ev · ${mcp.length} of \\d+ tools\\n`));
        // A glob that matches nothing (a typo) is never silent.
        assertMatch(
          run.stderr,
          /\[warning: MCP server ev: tools entry "ech" matches none of its \d+ tools — did you mean "echo"\?\]\n/,
        );
        assertMatch(
          run.stderr,
          /\[warning: MCP server ev: exclude entry "zap\*" matches none of its \d+ tools\]\n/,
        );
        assertEquals(run.stderr.includes('"get-*" matches none'), false);
      },
      "a tool left out for its name: a warning, and the banner counts what is declared":
        async () => {
          server.script("clash", [{ text: "ok" }]);
          const dir = await workdir(agentFile("clash", {
            fault: faultYaml({ FAULT_CLASH: "1" }, "tools: [add, add.one, add_one]"),
          }));
          const run = await runMM(["-p", "x"], { cwd: dir });
          assertEquals(run.code, 0, run.stderr);
          assertEquals(names("clash").filter((n) => n.startsWith("fault_")), [
            "fault_add",
            "fault_add_one",
          ]);
          assertStringIncludes(run.stderr, "🔌 fault · 2 of 12 tools\n");
          assertStringIncludes(
            run.stderr,
            "[warning: MCP server fault: tool add_one left out — another tool is called fault_add_one]\n",
          );
        },
      "catalog mode: two tools, the catalog, calls flattened": async () => {
        server.script("catalog", [
          {
            toolCalls: [
              call("mcp_tools", { server: "fault", tool: "add" }),
              call("mcp_call", { server: "fault", tool: "add", a: 1, b: "2" }),
              call("mcp_call", { server: "fault", tool: "sub" }),
              call("mcp_call", { server: "fault", tool: "fail" }),
              // A small model calls a tool by its per-tool name: forgiven, it runs as mcp_call.
              call("fault_add", { a: 4, b: 5 }),
              call("fault_sub", { a: 4, b: 5 }),
            ],
          },
          { text: "ok" },
        ]);
        const dir = await workdir(agentFile("catalog", { fault: faultYaml({ FAULT_MANY: "20" }) }));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(names("catalog").slice(-2), ["mcp_tools", "mcp_call"]);
        assertEquals(names("catalog").some((n) => n.startsWith("fault_")), false);
        const mcpCall = declared("catalog").find((f) => f.name === "mcp_call");
        assertStringIncludes(
          mcpCall.description,
          "\nfault: add, untyped, nested, env, image, structured, fail, slow, hang, crash, extra_1,",
        );
        assertEquals(toolOutputs("catalog"), [
          [
            "fault add — Add two numbers. Returns their sum as text.",
            "  a (number, required)",
            "  b (number, required)",
            'Call it: mcp_call {"server": "fault", "tool": "add", "arguments": {"a": …, "b": …}}',
          ].join("\n"),
          "3",
          '[fault has no tool "sub" — its tools are: add, untyped, nested, env, image, structured, fail, slow, hang, crash, extra_1, extra_2, extra_3, extra_4, extra_5, extra_6, extra_7, extra_8, extra_9, extra_10, extra_11, extra_12, extra_13, extra_14, extra_15, extra_16, extra_17, extra_18, extra_19, extra_20]',
          "[fault fail failed: the disk is full]",
          "9",
          '[fault has no tool "fault_sub" — its tools are: add, untyped, nested, env, image, structured, fail, slow, hang, crash, extra_1, extra_2, extra_3, extra_4, extra_5, extra_6, extra_7, extra_8, extra_9, extra_10, extra_11, extra_12, extra_13, extra_14, extra_15, extra_16, extra_17, extra_18, extra_19, extra_20 — call them with mcp_call]',
        ]);
        assertStringIncludes(
          run.stderr,
          "🔌 catalog mode: mcp_tools and mcp_call stand for 30 MCP tools (30 tools, over mcp.maxTools 12)\n",
        );
      },
      "gating: yolo false rejects in -p, ask false trusts the server": async () => {
        server.script("gate", [
          { toolCalls: [call("fault_add", { a: 1, b: 1 }), call("trusted_add", { a: 2, b: 2 })] },
          { text: "ok" },
        ]);
        const dir = await workdir(agentFile(
          "gate",
          { fault: faultYaml(), trusted: faultYaml({}, "ask: false") },
          "yolo: false\nmcp: {catalog: false}\n",
        ));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("gate"), [
          "[fault_add rejected by the user]",
          "4",
        ]);
      },
      "hooks: preToolCall with the tool's name as matcher": async () => {
        server.script("hook", [{ toolCalls: [call("fault_add", { a: 1, b: 1 })] }, { text: "ok" }]);
        const dir = await workdir(agentFile(
          "hook",
          { fault: faultYaml() },
          'hooks:\n  preToolCall:\n    - matcher: fault_add\n      command: [sh, -c, "echo no adding >&2; exit 2"]\n',
        ));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("hook"), ["[fault_add denied by a hook: no adding]"]);
      },
      "a dead server: the call that killed it, then its tools say it is not running": async () => {
        server.script("dead", [
          { toolCalls: [call("fault_crash")] },
          { toolCalls: [call("fault_add", { a: 1, b: 1 })] },
          { text: "ok" },
        ]);
        const dir = await workdir(agentFile("dead", { fault: faultYaml() }));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const reason = "exited with status 7: fault server: crashing on purpose";
        const down =
          `[fault is not running: ${reason} — its tools cannot be used in this conversation]`;
        assertEquals(toolOutputs("dead", 1), [down]);
        assertEquals(toolOutputs("dead", 2), [down, down]);
        assertStringIncludes(
          run.stderr,
          `[warning: MCP server fault stopped: ${reason} — its tools now answer that it is not running]\n`,
        );
      },
      "a server that does not start: a warning, no tools, its names answer why": async () => {
        server.script("nostart", [
          { toolCalls: [call("fault_add", { a: 1, b: 2 }), call("Ghost-run"), call("ghost")] },
          { text: "ok" },
        ]);
        const dir = await workdir(agentFile("nostart", {
          fault: faultYaml({ FAULT_EXIT_AT_START: "GITHUB_TOKEN is not set" }),
          ghost: "{command: no-such-mcp-server}",
        }));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(names("nostart").some((n) => n.startsWith("fault_")), false);
        const ghost =
          "[ghost is not running: no-such-mcp-server cannot be started: executable file not found in $PATH — its tools cannot be used in this conversation]";
        assertEquals(toolOutputs("nostart"), [
          "[fault is not running: exited with status 3: GITHUB_TOKEN is not set — its tools cannot be used in this conversation]",
          ghost,
          ghost,
        ]);
        assertStringIncludes(
          run.stderr,
          "[warning: MCP server fault did not start: exited with status 3: GITHUB_TOKEN is not set]\n",
        );
        assertStringIncludes(
          run.stderr,
          "[warning: MCP server ghost did not start: no-such-mcp-server cannot be started: executable file not found in $PATH]\n",
        );
      },
      "a server that dies before the first turn: its names answer that it is not running":
        async () => {
          server.script("early", [
            { toolCalls: [call("early_add", { a: 1, b: 2 }), call("early_anything")] },
            { text: "ok" },
          ]);
          const dir = await workdir(agentFile("early", {
            early: faultYaml({ FAULT_EXIT_AFTER_MS: "100" }),
            late: faultYaml({ FAULT_START_DELAY_MS: "3000" }),
          }, "mcp: {catalog: false}\n"));
          const run = await runMM(["-p", "x"], { cwd: dir });
          assertEquals(run.code, 0, run.stderr);
          assertEquals(names("early").some((n) => n.startsWith("early_")), false);
          assertEquals(names("early").includes("late_add"), true);
          const reason = "exited with status 5: fault server: leaving on my own";
          assertStringIncludes(
            run.stderr,
            `[warning: MCP server early stopped: ${reason} — its tools now answer that it is not running]\n`,
          );
          const down =
            `[early is not running: ${reason} — its tools cannot be used in this conversation]`;
          assertEquals(toolOutputs("early"), [down, down]);
        },
      "an unknown tool of a running server lists that server's tools": async () => {
        server.script("unknown", [
          { toolCalls: [call("fault_sub", { a: 1 }), call("faults_add"), call("off_read")] },
          { text: "ok" },
        ]);
        const dir = await workdir(
          agentFile("unknown", {
            fault: faultYaml({}, "tools: [add, env]"),
            off: "{command: never-started, enabled: false}",
          }, "bashTool: false\n"),
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const [sub, other, off] = toolOutputs("unknown");
        // A server turned off says so, rather than the core's unknown-tool list.
        assertEquals(off, disabledServerText("off"));
        assertEquals(
          off,
          "[off is turned off in the agent file (mcpServers.off.enabled: false) — its tools cannot be used]",
        );
        // The same with no server running at all.
        server.script("only-off", [{ toolCalls: [call("off_read")] }, { text: "ok" }]);
        const alone = await workdir(
          agentFile("only-off", { off: "{command: never-started, enabled: false}" }),
        );
        assertEquals((await runMM(["-p", "x"], { cwd: alone })).code, 0);
        assertEquals(toolOutputs("only-off"), [disabledServerText("off")]);
        assertEquals(sub, '[fault has no tool "fault_sub" — its tools are: fault_add, fault_env]');
        assertMatch(
          other,
          /^\[unknown tool "faults_add" — did you mean "fault_add"\? — the tools are: /,
        );
      },
      "a slow start: the first turn waits for it, and says so": async () => {
        server.script("slow", [{ text: "ok" }]);
        const dir = await workdir(agentFile("slow", {
          fault: faultYaml({ FAULT_START_DELAY_MS: "2000" }),
        }));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(names("slow").includes("fault_add"), true);
        assertStringIncludes(run.stderr, "🔌 waiting for MCP server fault to start (up to 30s)\n");
      },
      "an interrupt while the first turn waits for a server: interrupted, not timed out":
        async () => {
          server.script("waitint", [{ text: "never asked" }]);
          for (
            const [signal, code, error] of [
              ["SIGINT", 130, "[error: interrupted]"],
              ["SIGTERM", 143, "[error: interrupted by SIGTERM]"],
            ] as const
          ) {
            const dir = await workdir(agentFile("waitint", {
              fault: faultYaml({ FAULT_START_DELAY_MS: "60000" }, "startupTimeout: 4s"),
            }));
            let sent = false;
            const run = await runMM(["-p", "x"], {
              cwd: dir,
              onStderr: (stderr, child) => {
                if (sent || !stderr.includes("🔌 waiting for MCP server fault")) return;
                sent = true;
                child.kill(signal);
              },
            });
            assertEquals(run.code, code, run.stderr);
            assertEquals(
              run.stderr,
              `🔌 waiting for MCP server fault to start (up to 4s)\n${error}\n`,
            );
          }
          assertEquals(server.chats("waitint").length, 0);
        },
      "no orphan after exit: the server and what it started are gone": async () => {
        server.script("orphans", [{ toolCalls: [call("fault_add", { a: 1, b: 1 })] }, {
          text: "ok",
        }]);
        const pids = `${await tempDir()}/pids`;
        const dir = await workdir(agentFile("orphans", {
          fault: faultYaml({ FAULT_STUBBORN: "1", FAULT_PID_FILE: pids }),
        }));
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const [pid, child] = await faultPids(pids);
        assertEquals([alive(pid), alive(child)], [false, false]);
      },
      "an interrupt during a call: notifications/cancelled, exit 130": async () => {
        server.script("int", [{ toolCalls: [call("fault_slow", { ms: 20_000 })] }]);
        const log = `${await tempDir()}/log`;
        const dir = await workdir(agentFile("int", { fault: faultYaml({ FAULT_LOG: log }) }));
        const run = await runMM(["-p", "x"], {
          cwd: dir,
          started: async (child) => {
            await logged(log, "tools/call slow");
            child.kill("SIGINT");
          },
        });
        assertEquals(run.code, 130, run.stderr);
        const lines = (await Deno.readTextFile(log)).split("\n");
        assertEquals(lines.some((l) => /^cancelled \d+$/.test(l)), true, lines.join("\n"));
      },
      "SIGTERM during a call: mm closes the servers, then exits 143": async () => {
        server.script("term", [{ toolCalls: [call("fault_hang")] }]);
        const tmp = await tempDir();
        const pids = `${tmp}/pids`;
        const log = `${tmp}/log`;
        const dir = await workdir(agentFile("term", {
          fault: faultYaml({ FAULT_STUBBORN: "1", FAULT_PID_FILE: pids, FAULT_LOG: log }),
        }));
        const run = await runMM(["-p", "x"], {
          cwd: dir,
          started: async (child) => {
            await logged(log, "tools/call hang");
            child.kill("SIGTERM");
          },
        });
        assertEquals(run.code, 143, run.stderr);
        const [pid, child] = await faultPids(pids);
        assertEquals([alive(pid), alive(child)], [false, false]);
      },
      "server-filesystem from npm reads a file of the working directory": async () => {
        const dir = await tempDir();
        const real = await Deno.realPath(dir);
        await Deno.writeTextFile(`${dir}/notes.txt`, "hello from a file\n");
        server.script("fs", [
          { toolCalls: [call("fs_read_text_file", { path: `${real}/notes.txt` })] },
          { text: "ok" },
        ]);
        const fs = `{command: mcp-server-filesystem, args: [${JSON.stringify(real)}]}`;
        await Deno.writeTextFile(
          `${dir}/mm.yaml`,
          agentFile("fs", { fs }, "mcp: {catalog: false}\n"),
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("fs"), ["hello from a file\n"]);
      },
      "server-everything over legacy SSE": async () => {
        server.script("sse", [{ toolCalls: [call("ev_echo", { message: "old" })] }, {
          text: "ok",
        }]);
        const dir = await workdir(
          agentFile("sse", { ev: `{type: sse, url: ${sse.url}}` }, "mcp: {catalog: false}\n"),
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("sse"), ["Echo: old"]);
      },
      "an SSE server's URL without type: sse: Streamable HTTP refused with a 4xx, SSE is tried":
        async () => {
          server.script("sse-guess", [{ toolCalls: [call("ev_echo", { message: "guessed" })] }, {
            text: "ok",
          }]);
          const missing = new URL("/nowhere", sse.url).href;
          const dir = await workdir(agentFile("sse-guess", {
            ev: `{url: ${sse.url}}`,
            gone: `{url: ${missing}}`,
          }, "mcp: {catalog: false}\n"));
          const run = await runMM(["-p", "x"], { cwd: dir });
          assertEquals(run.code, 0, run.stderr);
          assertEquals(toolOutputs("sse-guess"), ["Echo: guessed"]);
          assertMatch(
            run.stderr,
            /\[warning: MCP server gone did not start: HTTP 404 [^\]]*from http:[^ ]+\/nowhere \(nor does it answer as an SSE server: SSE error: [^\]]*from http:[^ ]+\/nowhere\)\]\n/,
          );
        },
      "server-everything over Streamable HTTP": async () => {
        server.script("http", [{ toolCalls: [call("ev_echo", { message: "hi" })] }, {
          text: "ok",
        }]);
        const dir = await workdir(
          agentFile("http", { ev: `{url: ${http.url}}` }, "mcp: {catalog: false}\n"),
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("http"), ["Echo: hi"]);
      },
      "--json: the servers' lines are notice and warning events": async () => {
        server.script("json", [{ text: "ok" }]);
        const dir = await workdir(agentFile("json", {
          fault: faultYaml(),
          ghost: "{command: no-such-mcp-server}",
        }));
        const run = await runMM(["-p", "x", "--json"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
        assertEquals(
          events.some((e) => e.type === "notice" && e.message === "🔌 fault · 10 tools"),
          true,
        );
        assertEquals(
          events.some((e) =>
            e.type === "warning" &&
            e.message.startsWith("[warning: MCP server ghost did not start:")
          ),
          true,
        );
      },
    });
  } finally {
    await Promise.all([http.close(), sse.close()]);
  }
});

Deno.test("mm doctor starts the MCP servers (the run permission kept for them)", async () => {
  const llama = ScriptedServer.start();
  try {
    llama.models = ["m"];
    llama.script("m", [{ toolCalls: [call("add", { a: 2, b: 3 })] }, { text: "OK" }]);
    const dir = await workdir(
      `provider: llamacpp\nurl: ${llama.url}\nmodel: m\nbashTool: false\nmcpServers:\n  fault: ${
        faultYaml({}, "tools: [add]")
      }\n`,
    );
    const run = await runMM(["doctor"], { cwd: dir });
    assertEquals(run.code, 0, run.stdout + run.stderr);
    assertMatch(
      run.stdout,
      /\n✔ MCP server fault: 1 tool \(of 10 listed\), \d+ characters of declarations\n {4}add · \d+ characters/,
    );
    assertStringIncludes(
      run.stdout,
      "\n✔ MCP tools on llama-server: it takes the grammar of the 1 declared\n",
    );
  } finally {
    await llama.close();
  }
});

Deno.test("mm doctor says what sanitising repaired, and counts what is declared", async () => {
  const dir = await workdir(
    `url: ${server.url}\nmodel: doctor\nmcpServers:\n  fault: ${
      faultYaml(
        { FAULT_SCHEMAS: "1", FAULT_CLASH: "1" },
        "tools: [ghostly, either, add.one, add_one]",
      )
    }\n`,
  );
  const run = await runMM(["doctor"], { cwd: dir });
  assertMatch(run.stdout, /\n✔ MCP server fault: 3 tools \(of 14 listed\), \d+ characters/);
  assertStringIncludes(
    run.stdout,
    "\n    [warning: MCP server fault: tool add_one left out — another tool is called fault_add_one]\n✔ MCP tools: 3 declared one by one,",
  );
  assertMatch(
    run.stdout,
    /\n {4}ghostly · \d+ characters · sanitised: required "nope" dropped \(no such property\)\n/,
  );
  assertMatch(
    run.stdout,
    /\n {4}either · \d+ characters · sanitised: oneOf of 2 objects merged, their properties optional\n/,
  );
});

Deno.test("a server that refuses a tool's grammar: the tool found once, left out, said", async () => {
  const llama = ScriptedServer.start();
  try {
    // deno-lint-ignore no-explicit-any
    const declares = (body: any, name: string) =>
      body.tools?.some((x: { function: { name: string } }) => x.function.name === name);
    llama.answer = (body) =>
      declares(body, "fault_nested")
        ? { status: 400, body: { error: { code: 400, message: "failed to parse grammar" } } }
        : body.messages.length === 1
        ? { text: "OK" } // a probe: one message
        : undefined;
    llama.script("g", [{ toolCalls: [call("fault_add", { a: 1, b: 2 })] }, { text: "done" }]);
    const dir = await workdir(
      `provider: llamacpp\nurl: ${llama.url}\nmodel: g\nmcp: {catalog: false}\nmcpServers:\n  fault: ${
        faultYaml({}, "tools: [add, nested, env]")
      }\n`,
    );
    const run = await runMM(["-p", "x"], { cwd: dir });
    assertEquals([run.code, run.stdout], [0, "done\n"], run.stderr);
    assertStringIncludes(
      run.stderr,
      "[warning: the server cannot parse the grammar of fault_nested: left out of this conversation — mm doctor names what to exclude]\n",
    );
    const turns = llama.chats("g").filter((r) => r.body.messages.length > 1);
    const names = turns.map((r) =>
      r.body.tools.map((x: { function: { name: string } }) => x.function.name)
        .filter((n: string) => n.startsWith("fault_"))
    );
    assertEquals(names, [["fault_add", "fault_nested", "fault_env"], ["fault_add", "fault_env"], [
      "fault_add",
      "fault_env",
    ]]);
  } finally {
    await llama.close();
  }
});
