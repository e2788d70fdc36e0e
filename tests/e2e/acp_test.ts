/** Editor mode: the real `mm -acp`, driven by the ACP SDK's client, against the scripted server. */

import { methods, RequestError } from "npm:@agentclientprotocol/sdk@2.4.0";
import { maxTurnsText } from "../../lib/agent/texts.ts";
import { VERSION } from "../../lib/version.ts";
import { DECLINED_TEXT, NOBODY_TEXT } from "../../tools/ask_user.ts";
import { chunks, Editor, type EditorOptions, select, strayLines } from "../helpers/acp.ts";
import {
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { usageOf } from "../../lib/acp/mm_ext.ts";
import { sessionsOf, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** A working directory whose agent file points at the scripted server with `model`. */
function dirFor(model: string, extra = ""): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** The tool messages of the `n`th chat request for `model`. */
function toolOutputs(model: string, n: number): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

/** Runs `body` with an editor on a fresh `mm -acp`, then checks the process left stdout clean. */
async function withEditor(
  opts: EditorOptions,
  body: (editor: Editor) => Promise<void>,
): Promise<{ stderr: string }> {
  const editor = await Editor.start(opts);
  let finished;
  try {
    await body(editor);
  } finally {
    finished = await editor.close();
  }
  assertEquals(finished.code, 0, finished.stderr);
  assertEquals(strayLines(finished.stdout), [], "stdout holds protocol messages only");
  return { stderr: finished.stderr };
}

// deno-lint-ignore no-explicit-any
type Any = any;

/** The update of `kind` for a tool call, the last one when there are several. */
function toolUpdate(updates: Any[], toolCallId: string, kind = "tool_call_update"): Any {
  return updates.findLast((u) => u.sessionUpdate === kind && u.toolCallId === toolCallId);
}

/** Whether process `pid` is still running (a zombie is not). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch (e) {
    if (e instanceof Deno.errors.NotFound && Deno.build.os === "linux") return false;
  }
  try {
    Deno.kill(pid, "SIGCONT");
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check` holds, polling every 20 ms, at most `ms`; returns whether it held. */
async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return await check();
}

Deno.test("editor mode (ACP)", async (t) => {
  await runCases(t, {
    "initialize: the capabilities of this build and the agent's name": async () => {
      // Sessions are on by default (issue 26): loadSession is offered unless they are turned off.
      const plain = await dirFor("init-plain", "sessions:\n  enabled: false\n");
      await withEditor({ cwd: plain }, async (editor) => {
        assertEquals(editor.initialized, {
          protocolVersion: 1,
          agentCapabilities: {
            loadSession: false,
            promptCapabilities: { image: false, audio: false, embeddedContext: false },
            mcpCapabilities: { http: true, sse: true },
            sessionCapabilities: { close: {} },
          },
          agentInfo: { name: "mm", title: "mm", version: VERSION },
          authMethods: [],
        });
        const e = await assertRejects(() =>
          editor.agent.request(methods.agent.session.load, {
            sessionId: "x",
            cwd: plain,
            mcpServers: [],
          }), RequestError);
        assertEquals(e.code, -32601);
      });
      const titled = await dirFor(
        "init-titled",
        "acp:\n  title: Local coder\n",
      );
      await withEditor({ cwd: titled }, (editor) => {
        assertEquals(editor.initialized.agentCapabilities?.loadSession, true);
        assertEquals(editor.initialized.agentInfo, {
          name: "Local coder",
          title: "Local coder",
          version: VERSION,
        });
        return Promise.resolve();
      });
    },

    "two sessions in one process, each with its own cwd and AGENTS.md": async () => {
      server.script("two-cwd", [
        { toolCalls: [{ name: "bash", arguments: { command: "pwd" } }] },
        { text: "in A" },
        { toolCalls: [{ name: "bash", arguments: { command: "pwd; cat AGENTS.md" } }] },
        { text: "in B" },
      ]);
      const a = await dirFor("two-cwd");
      const b = await tempDir("mm-e2e-b-");
      await Deno.writeTextFile(`${a}/AGENTS.md`, "Rule A: be brief.\n");
      await Deno.writeTextFile(`${b}/AGENTS.md`, "Rule B: be thorough.\n");
      // Each session runs with its own folder's agent files (docs/acp.md): B has its own.
      await Deno.copyFile(`${a}/mm.yaml`, `${b}/mm.yaml`);
      await withEditor({ cwd: a }, async (editor) => {
        const sa = await editor.newSession(a);
        const sb = await editor.newSession(b);
        assertEquals(sa === sb, false);
        assertEquals(await editor.prompt(sa, "where are you?"), "end_turn");
        assertEquals(await editor.prompt(sb, "where are you?"), "end_turn");
        const outA = toolUpdate(editor.updatesOf(sa), "call_0").content[0].content.text;
        const outB = toolUpdate(editor.updatesOf(sb), "call_0").content[0].content.text;
        assertEquals(outA, `${await Deno.realPath(a)}\n`);
        assertEquals(outB, `${await Deno.realPath(b)}\nRule B: be thorough.\n`);
        assertEquals(chunks(editor.updatesOf(sa), "agent_message_chunk"), "in A");
        assertEquals(chunks(editor.updatesOf(sb), "agent_message_chunk"), "in B");
        const [systemA, systemB] = [0, 2].map((n) =>
          server.chats("two-cwd")[n].body.messages[0].content as string
        );
        assertStringIncludes(systemA, "Rule A: be brief.");
        assertStringIncludes(systemA, a);
        assertEquals(systemA.includes("Rule B"), false);
        assertStringIncludes(systemB, "Rule B: be thorough.");
        assertStringIncludes(systemB, b);
        // session/close forgets a session; the other one lives on.
        assertEquals(
          await editor.agent.request(methods.agent.session.close, { sessionId: sa }),
          {},
        );
        const gone = await assertRejects(() => editor.prompt(sa, "still there?"), RequestError);
        assertEquals(gone.code, -32002);
        assertEquals(editor.updatesOf(sb).length > 0, true);
      });
    },

    "a prompt streams thought, text, and a bash call with its kind, title, statuses and output":
      async () => {
        server.script("stream", [
          {
            thought: "The user wants a greeting.",
            text: "Let me look.",
            toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }],
            chunkSize: 4,
          },
          { text: "Said hi." },
        ]);
        const dir = await dirFor("stream");
        await withEditor({ cwd: dir }, async (editor) => {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "say hi"), "end_turn");
          const updates: Any[] = editor.updatesOf(id);
          assertEquals(chunks(updates, "agent_thought_chunk"), "The user wants a greeting.");
          assertEquals(chunks(updates, "agent_message_chunk"), "Let me look.Said hi.");
          const calls = updates.filter((u) => u.sessionUpdate.startsWith("tool_call"));
          assertEquals(calls, [
            {
              sessionUpdate: "tool_call",
              toolCallId: "call_0",
              title: "bash: echo hi",
              kind: "execute",
              status: "pending",
              rawInput: { command: "echo hi" },
            },
            { sessionUpdate: "tool_call_update", toolCallId: "call_0", status: "in_progress" },
            {
              sessionUpdate: "tool_call_update",
              toolCallId: "call_0",
              title: "bash: echo hi",
              status: "completed",
              content: [{ type: "content", content: { type: "text", text: "hi\n" } }],
              rawOutput: { output: "hi\n" },
            },
          ]);
          // The order: thought, text, the call, then the answer.
          const kinds = updates.map((u) => u.sessionUpdate).filter((k, i, all) => k !== all[i - 1]);
          assertEquals(kinds, [
            "agent_thought_chunk",
            "agent_message_chunk",
            "tool_call",
            "tool_call_update",
            "agent_message_chunk",
          ]);
          assertEquals(toolOutputs("stream", 1), ["hi\n"]);
        });
      },

    "write_file sends a diff (no oldText for a new file); file tools give absolute locations":
      async () => {
        server.script("diff", [
          {
            toolCalls: [
              { name: "write_file", arguments: { path: "notes/new.txt", content: "one\n" } },
              { name: "write_file", arguments: { path: "old.txt", content: "new\n" } },
              { name: "read_file", arguments: { path: "old.txt" } },
            ],
          },
          { text: "ok" },
        ]);
        const dir = await dirFor("diff");
        await Deno.writeTextFile(`${dir}/old.txt`, "old\n");
        await withEditor({ cwd: dir }, async (editor) => {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "write"), "end_turn");
          const updates: Any[] = editor.updatesOf(id);
          const created = toolUpdate(updates, "call_0");
          assertEquals(toolUpdate(updates, "call_0", "tool_call").kind, "edit");
          assertEquals(
            toolUpdate(updates, "call_0", "tool_call").title,
            "write_file: notes/new.txt",
          );
          assertEquals(created.status, "completed");
          assertEquals(created.content[0], {
            type: "diff",
            path: `${dir}/notes/new.txt`,
            newText: "one\n",
          });
          assertEquals("oldText" in created.content[0], false);
          assertEquals(created.content[1].type, "content");
          assertStringIncludes(created.content[1].content.text, "+one");
          assertEquals(created.locations, [{ path: `${dir}/notes/new.txt` }]);
          const replaced = toolUpdate(updates, "call_1");
          assertEquals(replaced.content[0], {
            type: "diff",
            path: `${dir}/old.txt`,
            oldText: "old\n",
            newText: "new\n",
          });
          const read = toolUpdate(updates, "call_2");
          assertEquals(toolUpdate(updates, "call_2", "tool_call").kind, "read");
          assertEquals(read.locations, [{ path: `${dir}/old.txt` }]);
          assertEquals(read.content, [{
            type: "content",
            content: { type: "text", text: "new\n" },
          }]);
        });
      },

    "yolo: false: allow once, always (for the rest of the session), reject, a cancelled dialog":
      async () => {
        server.script("perm", [
          { toolCalls: [{ name: "bash", arguments: { command: "echo one" } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "echo two" } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "echo three" } }] },
          { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "x" } }] },
          { text: "done" },
          { toolCalls: [{ name: "bash", arguments: { command: "echo four" } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "echo five" } }] },
          { text: "ok" },
        ]);
        const dir = await dirFor("perm", "yolo: false\n");
        const answers = [
          select("allow_once"),
          select("allow_always"),
          select("reject_once"),
          select("reject_once"),
          { outcome: { outcome: "cancelled" as const } },
        ];
        await withEditor({ cwd: dir, permission: () => answers.shift()! }, async (editor) => {
          const first = await editor.newSession(dir);
          assertEquals(await editor.prompt(first, "go"), "end_turn");
          // echo three ran without asking: allow_always holds for bash in this session.
          assertEquals(editor.permissions.length, 3);
          const [asked] = editor.permissions;
          assertEquals(asked.sessionId, first);
          assertEquals(asked.toolCall, {
            toolCallId: "call_0",
            title: "bash: echo one",
            kind: "execute",
            status: "pending",
          });
          assertEquals(asked.options, [
            { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
            { optionId: "allow_always", name: "Always allow bash", kind: "allow_always" },
            { optionId: "reject_once", name: "Reject", kind: "reject_once" },
          ]);
          assertEquals(editor.permissions[2].toolCall.title, "write_file: a.txt");
          // The change travels as a diff: a new file's has no oldText.
          const created = await Deno.realPath(dir).then((d) => `${d}/a.txt`);
          assertEquals(editor.permissions[2].toolCall.content, [
            { type: "diff", path: created, newText: "x" },
          ]);
          assertEquals(editor.permissions[2].toolCall.locations, [{ path: created }]);
          assertEquals(toolOutputs("perm", 4), [
            "one\n",
            "two\n",
            "three\n",
            "[write_file rejected by the user]",
          ]);
          const refused = toolUpdate(editor.updatesOf(first), "call_0-4");
          assertEquals(refused.status, "failed");
          assertEquals(refused.content[0].content.text, "[write_file rejected by the user]");
          assertEquals(await Deno.stat(`${dir}/a.txt`).then(() => true, () => false), false);

          // A new session asks again: "always" was for the other one.
          const second = await editor.newSession(dir);
          assertEquals(await editor.prompt(second, "go on"), "end_turn");
          assertEquals(editor.permissions.length, 5);
          assertEquals(toolOutputs("perm", 7), [
            "[command rejected by the user]",
            "[command rejected by the user]",
          ]);
          const statuses = editor.updatesOf(second).filter((u: Any) => u.status === "failed");
          assertEquals(statuses.length, 2);
        });
      },

    "a preToolCall hook's new input: the call's title and rawInput say what runs": async () => {
      server.script("acp-hook", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo original" } }] },
        { text: "done" },
      ]);
      const dir = await dirFor(
        "acp-hook",
        `hooks:\n  preToolCall:\n    - command: ["bash", "-c", "echo '{\\"input\\": {\\"command\\": \\"echo rewritten\\"}}'"]\n`,
      );
      await withEditor({ cwd: dir }, async (editor) => {
        const session = await editor.newSession(dir);
        assertEquals(await editor.prompt(session, "go"), "end_turn");
        const updates: Any[] = editor.updatesOf(session).filter((u: Any) =>
          u.toolCallId === "call_0"
        );
        assertEquals(updates[0].title, "bash: echo original");
        const changed = updates.find((u: Any) => u.rawInput?.command === "echo rewritten");
        assertEquals(changed?.title, "bash: echo rewritten");
        const end = toolUpdate(updates, "call_0");
        assertEquals([end.status, end.title], ["completed", "bash: echo rewritten"]);
        assertEquals(toolOutputs("acp-hook", 1), ["rewritten\n"]);
      });
    },

    "the dialog of an edit shows its diff before anything is written": async () => {
      server.script("perm-edit", [
        {
          toolCalls: [{
            name: "edit_file",
            arguments: { path: "b.txt", edits: [{ old_text: "two", new_text: "TWO" }] },
          }],
        },
        { toolCalls: [{ name: "write_file", arguments: { path: "c.bin", content: "text\n" } }] },
        {
          toolCalls: [{
            name: "edit_file",
            arguments: { path: "b.txt", edits: [{ old_text: "absent", new_text: "x" }] },
          }],
        },
        { text: "done" },
      ]);
      const dir = await dirFor("perm-edit", "yolo: false\n");
      await Deno.writeTextFile(`${dir}/b.txt`, "one\ntwo\n");
      await Deno.writeFile(`${dir}/c.bin`, new Uint8Array([1, 0, 2]));
      let seen: string | undefined;
      const permission = async () => {
        seen = await Deno.readTextFile(`${dir}/b.txt`);
        return select("reject_once");
      };
      await withEditor({ cwd: dir, permission }, async (editor) => {
        const session = await editor.newSession(dir);
        assertEquals(await editor.prompt(session, "go"), "end_turn");
        const path = await Deno.realPath(`${dir}/b.txt`);
        assertEquals(editor.permissions[0].toolCall.content, [
          { type: "diff", path, oldText: "one\ntwo\n", newText: "one\nTWO\n" },
        ]);
        assertEquals(seen, "one\ntwo\n");
        assertEquals(await Deno.readTextFile(`${dir}/b.txt`), "one\ntwo\n");
        // The preview is no start: a refused call never shows as running.
        const statuses = editor.updatesOf(session)
          .filter((u: Any) => u.toolCallId === "call_0" && u.status).map((u: Any) => u.status);
        assertEquals(statuses, ["pending", "failed"]);
        assertEquals(toolOutputs("perm-edit", 1), ["[edit_file rejected by the user]"]);
        // An edit that would fail writes nothing: no dialog, the model reads why.
        assertEquals(editor.permissions.length, 2);
        assertStringIncludes(toolOutputs("perm-edit", 3).at(-1)!, "absent");
        // A binary file replaced is said so: the dialog is not a new file's.
        assertEquals(editor.permissions[1].toolCall.content, [
          { type: "content", content: { type: "text", text: "replaces a binary file of 3 bytes" } },
          { type: "diff", path: await Deno.realPath(`${dir}/c.bin`), newText: "text\n" },
        ]);
      });
    },

    "session/cancel during sleep 30: the command is killed, the prompt answers cancelled":
      async () => {
        server.script("cancel", [
          {
            toolCalls: [{
              name: "bash",
              arguments: { command: "sleep 30 & echo $! > sleep.pid; wait" },
            }],
          },
          { text: "after" },
        ]);
        const dir = await dirFor("cancel");
        await withEditor({ cwd: dir }, async (editor) => {
          const id = await editor.newSession(dir);
          const started = Date.now();
          const stopped = editor.prompt(id, "wait");
          await editor.waitFor((n) =>
            n.sessionId === id && (n.update as Any).status === "in_progress"
          );
          let pid = 0;
          await eventually(async () => {
            const text = await Deno.readTextFile(`${dir}/sleep.pid`).catch(() => "");
            pid = Number(text.trim());
            return pid > 0;
          });
          assertEquals(await alive(pid), true);
          await editor.agent.notify(methods.agent.session.cancel, { sessionId: id });
          assertEquals(await stopped, "cancelled");
          assertEquals(Date.now() - started < 15_000, true);
          assertEquals(await eventually(async () => !(await alive(pid))), true, "sleep killed");
          const ended = toolUpdate(editor.updatesOf(id), "call_0");
          assertEquals(ended.status, "failed");
          assertStringIncludes(ended.content[0].content.text, "[error: cancelled]");
          // The conversation goes on, and the history kept what ran.
          assertEquals(await editor.prompt(id, "and now?"), "end_turn");
          assertEquals(toolOutputs("cancel", 1), ["[error: cancelled]"]);
        });
      },

    "each request's usage rides in _meta.mm.usage, the turn's sums in _meta.mm.turnUsage":
      async () => {
        server.script("acp-usage", [{
          text: "hello",
          usage: { prompt_tokens: 500, completion_tokens: 7 },
          timings: { predicted_per_second: 30 },
        }]);
        const dir = await dirFor("acp-usage");
        await withEditor({ cwd: dir }, async (editor) => {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "hi"), "end_turn");
          const metas = editor.updatesOf(id).flatMap((u: Any) => u._meta?.mm ? [u._meta.mm] : []);
          assertEquals(usageOf({ _meta: { mm: metas[0] } }), {
            promptTokens: 500,
            completionTokens: 7,
            tokensPerSecond: 30,
            estimated: false,
          });
          assertEquals(metas[1].turnUsage.requests, 1);
          assertEquals(metas[1].turnUsage.promptTokens, 500);
        });
      },

    "the conversation's commands are offered, and run as the terminals run them": async () => {
      server.script("acp-commands", [{ text: "hello" }, { text: "the notes" }]);
      const dir = await dirFor("acp-commands");
      await withEditor({ cwd: dir }, async (editor) => {
        const id = await editor.newSession(dir);
        await editor.waitFor((n) =>
          n.sessionId === id && n.update.sessionUpdate === "available_commands_update"
        );
        assertEquals(editor.commandsOf(id), [
          "help",
          "compact",
          "memory",
          "ask",
          "version",
          "think",
          "undo",
          "rewind",
        ]);
        const offer = editor.updates.find((n) =>
          n.update.sessionUpdate === "available_commands_update"
        )!.update as Any;
        assertEquals(offer.availableCommands[2], {
          name: "memory",
          description: "search earlier conversations (sessions)",
          input: { hint: "<words>" },
        });
        assertEquals(await editor.prompt(id, "hi"), "end_turn");
        const before = editor.updatesOf(id).length;
        assertEquals(await editor.prompt(id, "/compact"), "end_turn");
        // The summary's request has its usage chunk too; the rest is the command's answer.
        assertEquals(editor.updatesOf(id).slice(before).filter((u) => !usageOf(u)), [{
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: "compacted: 2 message(s) → a summary of 9 characters\n" },
        }]);
        // A command the editor is not offered is unknown there; nothing goes to the model.
        assertEquals(await editor.prompt(id, "/new"), "end_turn");
        assertStringIncludes(
          JSON.stringify(editor.updatesOf(id).at(-1)),
          "unknown command /new",
        );
        assertEquals(server.chats("acp-commands").length, 2);
      });
    },

    "/undo's outcome is one agent message, its lines as docs/undo.md lays them out": async () => {
      server.script("acp-undo", [
        { toolCalls: [{ name: "write_file", arguments: { path: "w.txt", content: "w\n" } }] },
        { text: "written" },
      ]);
      const dir = await dirFor("acp-undo", "yolo: true\nsessions:\n  enabled: true\n");
      await withEditor({ cwd: dir }, async (editor) => {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "go"), "end_turn");
        const before = editor.updatesOf(id).length;
        assertEquals(await editor.prompt(id, "/undo"), "end_turn");
        assertEquals(editor.updatesOf(id).slice(before).filter((u) => !usageOf(u)), [{
          sessionUpdate: "agent_message_chunk",
          content: {
            type: "text",
            text:
              'took back turn 1 ("go"): 1 file(s) restored\n  removed w.txt (the turn made it)\n',
          },
        }]);
      });
    },
    "session/load replays the history as updates, then the conversation goes on": async () => {
      server.script("load", [
        {
          text: "Let me check.",
          toolCalls: [{ name: "bash", arguments: { command: "echo 7" } }],
        },
        { text: "It is 7." },
        { text: "14." },
      ]);
      const dir = await dirFor("load", "sessions:\n  enabled: true\n");
      let id = "";
      await withEditor({ cwd: dir }, async (editor) => {
        id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "what is the number?"), "end_turn");
      });
      const file = JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${id}.json`));
      assertEquals(file.id, id);
      assertEquals(file.messages.length, 4);
      await withEditor({ cwd: dir }, async (editor) => {
        const loaded = await editor.agent.request(methods.agent.session.load, {
          sessionId: id,
          cwd: dir,
          mcpServers: [],
        });
        // A loaded session starts in the default mode (docs/acp.md, "session/set_mode").
        assertEquals(loaded.modes?.currentModeId, "default");
        assertEquals(loaded.modes?.availableModes.map((m) => m.id), ["default", "plan"]);
        assertEquals(editor.updatesOf(id), [
          {
            sessionUpdate: "user_message_chunk",
            content: { type: "text", text: "what is the number?" },
          },
          {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: "Let me check." },
          },
          {
            sessionUpdate: "tool_call",
            toolCallId: "call_0",
            title: "bash: echo 7",
            kind: "execute",
            status: "pending",
            rawInput: { command: "echo 7" },
          },
          {
            sessionUpdate: "tool_call_update",
            toolCallId: "call_0",
            title: "bash: echo 7",
            status: "completed",
            content: [{ type: "content", content: { type: "text", text: "7\n" } }],
            rawOutput: { output: "7\n" },
          },
          { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "It is 7." } },
        ]);
        assertEquals(await editor.prompt(id, "and doubled?"), "end_turn");
        const sent = server.chats("load")[2].body.messages;
        assertEquals(sent.map((m: { role: string }) => m.role), [
          "system",
          "user",
          "assistant",
          "tool",
          "assistant",
          "user",
        ]);
        assertEquals(sent.at(-1).content, "and doubled?");
        const missing = await assertRejects(() =>
          editor.agent.request(methods.agent.session.load, {
            sessionId: "20990101-000000-abcdef",
            cwd: dir,
            mcpServers: [],
          }), RequestError);
        assertEquals(missing.code, -32002);
        assertStringIncludes(missing.message, "no session");
      });
      const after = JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${id}.json`));
      assertEquals(after.messages.length, 6);
    },

    "ask_user through a form when the editor advertises elicitation.form": async () => {
      server.script("ask-form", [
        {
          toolCalls: [{
            name: "ask_user",
            arguments: {
              questions: [
                { question: "Which branch?", type: "choice", options: ["main", "dev"] },
                { question: "Deploy now?", type: "yesno", default: "no" },
                { question: "Which checks?", type: "multi", options: ["lint", "test", "e2e"] },
                { question: "Any notes?" },
              ],
            },
          }],
        },
        { toolCalls: [{ name: "ask_user", arguments: { question: "Go on?", type: "confirm" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("ask-form");
      const replies = [
        {
          action: "accept" as const,
          content: { q1: "dev", q2: true, q3: ["lint", "e2e"], q4: "ship it" },
        },
        { action: "decline" as const },
      ];
      await withEditor({ cwd: dir, elicit: () => replies.shift()! }, async (editor) => {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "deploy"), "end_turn");
        assertEquals(editor.permissions.length, 0);
        assertEquals(editor.forms.length, 2);
        assertEquals(editor.forms[0], {
          mode: "form",
          sessionId: id,
          toolCallId: "call_0",
          message: "Please answer these 4 questions.",
          requestedSchema: {
            type: "object",
            properties: {
              q1: { type: "string", title: "Which branch?", enum: ["main", "dev"] },
              q2: { type: "boolean", title: "Deploy now?", default: false },
              q3: {
                type: "array",
                title: "Which checks?",
                items: { type: "string", enum: ["lint", "test", "e2e"] },
                minItems: 1,
              },
              q4: { type: "string", title: "Any notes?" },
            },
            required: ["q1", "q2", "q3", "q4"],
          },
        });
        assertEquals((editor.forms[1] as Any).message, "Go on?");
        assertEquals(toolOutputs("ask-form", 2), [
          "The user answered:\n- Which branch? → dev\n- Deploy now? → yes\n" +
          "- Which checks? → lint, e2e\n- Any notes? → ship it",
          DECLINED_TEXT,
        ]);
        const updates = editor.updatesOf(id);
        assertEquals(toolUpdate(updates, "call_0").status, "completed");
        assertEquals(toolUpdate(updates, "call_0").title, "ask_user: 4 question(s)");
        assertEquals(toolUpdate(updates, "call_0-2").status, "failed");
      });
    },

    "ask_user through permission dialogs without forms: choice and confirm only": async () => {
      server.script("ask-dialog", [
        {
          toolCalls: [{
            name: "ask_user",
            arguments: {
              questions: [
                { question: "Which branch?", options: ["main", "dev"] },
                { question: "Deploy now?", type: "confirm" },
              ],
            },
          }],
        },
        { toolCalls: [{ name: "ask_user", arguments: { question: "Your name?" } }] },
        { toolCalls: [{ name: "ask_user", arguments: { question: "Sure?", type: "confirm" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("ask-dialog");
      const answers = [select("option_2"), select("yes"), select("decline")];
      await withEditor({ cwd: dir, permission: () => answers.shift()! }, async (editor) => {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "deploy"), "end_turn");
        assertEquals(editor.permissions.length, 3);
        const [branch, deploy, sure] = editor.permissions;
        assertEquals(branch.toolCall, { toolCallId: "call_0", title: "Which branch? (1/2)" });
        assertEquals(branch.options, [
          { optionId: "option_1", name: "main", kind: "allow_once" },
          { optionId: "option_2", name: "dev", kind: "allow_once" },
          { optionId: "decline", name: "Decline", kind: "reject_once" },
        ]);
        assertEquals(deploy.toolCall.title, "Deploy now? (2/2)");
        assertEquals(deploy.options, [
          { optionId: "yes", name: "Yes", kind: "allow_once" },
          { optionId: "no", name: "No", kind: "allow_once" },
          { optionId: "decline", name: "Decline", kind: "reject_once" },
        ]);
        assertEquals(sure.toolCall, { toolCallId: "call_0-3", title: "Sure?" });
        assertEquals(toolOutputs("ask-dialog", 3), [
          "The user answered:\n- Which branch? → dev\n- Deploy now? → yes",
          NOBODY_TEXT,
          DECLINED_TEXT,
        ]);
        const updates = editor.updatesOf(id);
        assertEquals(toolUpdate(updates, "call_0").title, "ask_user: 2 question(s)");
        assertEquals(toolUpdate(updates, "call_0-2").status, "failed");
      });
    },

    "a failed turn is an agent message then end_turn; maxTurns stops with max_turn_requests":
      async () => {
        server.script("fail", [
          { status: 500, body: { error: { message: "out of memory" } } },
          { toolCalls: [{ name: "bash", arguments: { command: "echo x" } }] },
        ]);
        const dir = await dirFor("fail", "maxTurns: 1\n");
        const { stderr } = await withEditor({ cwd: dir }, async (editor) => {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "first"), "end_turn");
          const error = chunks(editor.updatesOf(id), "agent_message_chunk");
          assertMatch(error, /HTTP 500.*out of memory/);
          assertEquals(await editor.prompt(id, "second"), "max_turn_requests");
          assertStringIncludes(
            chunks(editor.updatesOf(id), "agent_message_chunk"),
            `${maxTurnsText(1)}\n`,
          );
        });
        assertStringIncludes(stderr, "out of memory");
      },

    "stdout holds protocol only: warnings go to stderr and, when the editor takes them, notices":
      async () => {
        server.script("noisy", [
          { toolCalls: [{ name: "bash", arguments: { command: "echo x" } }] },
          { text: "ok" },
        ]);
        const dir = await dirFor(
          "noisy",
          "lsp:\n  servers:\n    - name: nols\n      command: no-such-ls\n      extensions: [.x]\n" +
            'hooks:\n  postToolCall:\n    - command: ["bash", "-c", "echo oops >&2; exit 1"]\n',
        );
        const { stderr } = await withEditor({ cwd: dir, notices: true }, async (editor) => {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "go"), "end_turn");
          const notices = editor.updatesOf(id).filter((u) => u.sessionUpdate === "notice");
          assertEquals(notices.length, 1);
          assertEquals((notices[0] as Any).severity, "warning");
          assertStringIncludes((notices[0] as Any).title, "[warning:");
          assertEquals(chunks(editor.updatesOf(id), "agent_message_chunk"), "ok");
        });
        assertStringIncludes(
          stderr,
          "[warning: lsp server nols (no-such-ls) not found on the PATH — skipped]",
        );
        assertStringIncludes(stderr, "postToolCall");
      },
  });
  await server.close();
});
