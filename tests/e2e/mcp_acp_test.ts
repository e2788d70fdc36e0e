/** MCP servers in editor mode: the real `mm -acp` driven by the ACP SDK's client (docs/mcp.md). */

import {
  methods,
  type RequestPermissionRequest,
  type SessionUpdate,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { Editor, strayLines } from "../helpers/acp.ts";
import { runCases } from "../helpers/cases.ts";
import {
  alive,
  everythingOverHttp,
  FAULT_ARGV,
  faultPids,
  faultYaml,
} from "../helpers/mcp/servers.ts";
import { DENO_DIR, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

function toolOutputs(model: string, n = 1): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

/** The editor's stdio entry of the fault server. */
function faultEntry(name: string, env: Record<string, string> = {}) {
  const vars = { DENO_DIR, ...env };
  return {
    name,
    command: FAULT_ARGV[0],
    args: FAULT_ARGV.slice(1),
    env: Object.entries(vars).map(([k, v]) => ({ name: k, value: v })),
  };
}

function calls(updates: SessionUpdate[]) {
  return updates.filter((u) => u.sessionUpdate === "tool_call") as {
    title: string;
    kind: string;
  }[];
}

Deno.test("MCP servers in editor mode", async (t) => {
  const http = await everythingOverHttp("streamableHttp");
  try {
    await runCases(t, {
      "the editor's servers of session/new, stdio and http: calls, kinds, the dialog": async () => {
        server.script("editor", [
          {
            toolCalls: [
              { name: "mine_add", arguments: { a: 1, b: 2 } },
              { name: "web_echo", arguments: { message: "hi" } },
            ],
          },
          { text: "done" },
        ]);
        const dir = await workdir(
          `url: ${server.url}\nmodel: editor\nyolo: false\nmcp: {catalog: false}\n`,
        );
        const asked: RequestPermissionRequest[] = [];
        const editor = await Editor.start({
          cwd: dir,
          permission: (req) => {
            asked.push(req);
            return { outcome: { outcome: "selected", optionId: "allow_once" } };
          },
        });
        assertEquals(editor.initialized.agentCapabilities?.mcpCapabilities, {
          http: true,
          sse: true,
        });
        const id = await editor.newSession(dir, [
          faultEntry("mine"),
          { type: "http", name: "web", url: http.url, headers: [] },
        ]);
        assertEquals(await editor.prompt(id, "go"), "end_turn");
        assertEquals(toolOutputs("editor"), ["3", "Echo: hi"]);
        const started = calls(editor.updatesOf(id));
        assertEquals(started.map((c) => [c.title, c.kind]), [
          ['mine_add: {"a":1,"b":2}', "read"],
          ["web_echo: hi", "read"],
        ]);
        assertEquals(asked.map((r) => r.toolCall.title), [
          'mine_add: {"a":1,"b":2}',
          "web_echo: hi",
        ]);
        const done = await editor.close();
        assertEquals(strayLines(done.stdout), []);
        assertStringIncludes(done.stderr, "🔌 mine · 10 tools");
      },
      "the agent file's servers beside the editor's; a name taken is left out": async () => {
        server.script("both", [{ text: "ok" }]);
        const dir = await workdir(
          `url: ${server.url}\nmodel: both\nmcp: {catalog: false}\nmcpServers:\n  fault: ${faultYaml()}\n`,
        );
        const editor = await Editor.start({ cwd: dir });
        const id = await editor.newSession(dir, [faultEntry("fault"), faultEntry("extra")]);
        await editor.prompt(id, "x");
        const names = server.chats("both")[0].body.tools.map((x: { function: { name: string } }) =>
          x.function.name
        );
        assertEquals(names.includes("fault_add") && names.includes("extra_add"), true);
        const done = await editor.close();
        assertStringIncludes(
          done.stderr,
          "[warning: the editor's MCP server fault is left out: the agent file has a server of that name]",
        );
      },
      "the editor's servers get the agent file's name checks: each bad one left out, said":
        async () => {
          server.script("names", [{ text: "ok" }]);
          const dir = await workdir(
            `url: ${server.url}\nmodel: names\nmcp: {catalog: false}\nmcpServers:\n  a_b: ${
              faultYaml({}, "tools: [add]")
            }\n`,
          );
          const editor = await Editor.start({ cwd: dir });
          const id = await editor.newSession(dir, [
            faultEntry(""),
            faultEntry("mcp"),
            faultEntry("read"),
            faultEntry("a.b"),
            faultEntry("ok"),
          ]);
          assertEquals(await editor.prompt(id, "x"), "end_turn");
          const names = server.chats("names")[0].body.tools
            .map((x: { function: { name: string } }) => x.function.name)
            .filter((n: string) => n.endsWith("_add"));
          assertEquals(names, ["a_b_add", "ok_add"]);
          const done = await editor.close();
          for (
            const line of [
              `[warning: the editor's MCP server "" is left out: its name has no letter or digit]`,
              `[warning: the editor's MCP server "mcp" is left out: its tools could take the name of mcp_tools]`,
              `[warning: the editor's MCP server "read" is left out: its tools could take the name of read_file]`,
              `[warning: the editor's MCP server "a.b" is left out: its tools would have the names of server a_b's (a_b_…)]`,
            ]
          ) assertStringIncludes(done.stderr, line);
          assertEquals(done.stderr.includes("🔌 a.b"), false, done.stderr);
        },
      "the conversation's MCP lines: notices when the editor takes them, else only stderr":
        async () => {
          server.script("lines", [{ text: "the answer" }, { text: "the answer" }]);
          const dir = await workdir(
            `url: ${server.url}\nmodel: lines\nmcp: {catalog: true}\nmcpServers:\n  fault: ${
              faultYaml({ FAULT_CLASH: "1" }, "tools: [add, add.one, add_one]")
            }\n`,
          );
          const left =
            "[warning: MCP server fault: tool add_one left out — another tool is called fault_add_one]";
          const catalog =
            "🔌 catalog mode: mcp_tools and mcp_call stand for 2 MCP tools (mcp.catalog: true)";
          for (const notices of [false, true]) {
            const editor = await Editor.start({ cwd: dir, notices });
            const id = await editor.newSession(dir);
            assertEquals(await editor.prompt(id, "x"), "end_turn");
            const updates = editor.updatesOf(id);
            const chunks = updates.filter((u) => u.sessionUpdate === "agent_message_chunk")
              .map((u) => (u as { content: { text: string } }).content.text);
            assertEquals(chunks.join(""), "the answer", `notices: ${notices}`);
            // The first turn says it waits when the server is slow to start (a loaded machine).
            const shown = updates.filter((u) => u.sessionUpdate === "notice")
              .map((u) => [(u as { severity: string }).severity, (u as { title: string }).title])
              .filter(([, title]) => !title.startsWith("🔌 waiting for MCP server"));
            assertEquals(shown, notices ? [["warning", left], ["info", catalog]] : []);
            const done = await editor.close();
            assertStringIncludes(done.stderr, `${left}\n${catalog}\n`);
          }
        },
      "session/load starts the editor's servers of that session again": async () => {
        server.script("load", [
          { toolCalls: [{ name: "mine_add", arguments: { a: 1, b: 1 } }] },
          { text: "two" },
          { toolCalls: [{ name: "mine_add", arguments: { a: 2, b: 2 } }] },
          { text: "four" },
        ]);
        const dir = await workdir(
          `url: ${server.url}\nmodel: load\nmcp: {catalog: false}\nsessions: {enabled: true}\n`,
        );
        const first = await Editor.start({ cwd: dir });
        const id = await first.newSession(dir, [faultEntry("mine")]);
        assertEquals(await first.prompt(id, "1+1"), "end_turn");
        await first.close();
        const second = await Editor.start({ cwd: dir });
        try {
          await second.agent.request(methods.agent.session.load, {
            sessionId: id,
            cwd: dir,
            mcpServers: [faultEntry("mine")],
          });
        } catch (e) {
          // Seen once under load as a bare "Internal error": what mm wrote says why.
          const { stderr } = await second.close();
          throw new Error(`session/load failed: ${e}\nmm's stderr:\n${stderr}`);
        }
        assertEquals(await second.prompt(id, "2+2"), "end_turn");
        await second.close();
        assertEquals(toolOutputs("load", 3), ["2", "4"]);
      },
      "session/close stops the editor's servers of that session; the end of mm the rest":
        async () => {
          server.script("close", [{ text: "ok" }, { text: "ok" }]);
          const tmp = await tempDir();
          const dir = await workdir(`url: ${server.url}\nmodel: close\n`);
          const editor = await Editor.start({ cwd: dir });
          const a = await editor.newSession(dir, [faultEntry("a", { FAULT_PID_FILE: `${tmp}/a` })]);
          const b = await editor.newSession(dir, [
            faultEntry("b", { FAULT_PID_FILE: `${tmp}/b`, FAULT_STUBBORN: "1" }),
          ]);
          await editor.prompt(a, "x");
          await editor.prompt(b, "x");
          const pids = async (f: string) => await faultPids(`${tmp}/${f}`);
          const [pa, pb] = [await pids("a"), await pids("b")];
          await editor.closeSession(a);
          assertEquals([...pa.map(alive), ...pb.map(alive)], [false, false, true, true]);
          await editor.close();
          assertEquals(pb.map(alive), [false, false]);
        },
    });
  } finally {
    await http.close();
  }
});
