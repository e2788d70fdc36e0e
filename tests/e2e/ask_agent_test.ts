/** ask_agent and `mm --ask`: the real `mm -p` asks a child `mm -acp`, both on the scripted server. */

import { ASK_AGENT_PARAGRAPH, emptyPromptText, unknownAgentText } from "../../tools/ask_agent.ts";
import { failedText, noAnswerText, stoppedText } from "../../lib/subagent/ask.ts";
import { NOBODY_TEXT } from "../../tools/ask_user.ts";
import { silenceReason, silenceText } from "../../lib/subagent/child.ts";
import { turnFailure } from "../../lib/acp/mm_ext.ts";
import { maxTurnsText } from "../../lib/agent/texts.ts";
import { chunks, Editor, select } from "../helpers/acp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, readSessions, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/**
 * A working directory whose agent file uses model `main` and names agent `helper` (its own file
 * `agents/helper.yaml` with model `child`), plus `extra` lines for the main file and the entry.
 */
async function dirFor(
  main: string,
  child: string,
  opts: { extra?: string; entry?: string; childExtra?: string } = {},
): Promise<string> {
  const dir = await workdir(
    `url: ${server.url}\nmodel: ${main}\n${opts.extra ?? ""}mmConfigs:\n  helper:\n` +
      `    file: agents/helper.yaml\n${opts.entry ?? "    description: answers questions\n"}`,
  );
  await Deno.mkdir(`${dir}/agents`);
  await Deno.writeTextFile(
    `${dir}/agents/helper.yaml`,
    `url: ${server.url}\nmodel: ${child}\n${opts.childExtra ?? ""}`,
  );
  return dir;
}

// deno-lint-ignore no-explicit-any
type Any = any;

/** A hook command (YAML flow list) that prints `answer` as JSON. */
function hookSays(answer: Record<string, unknown>): string {
  return JSON.stringify(["bash", "-c", `echo '${JSON.stringify(answer)}'`]);
}

/** The tool messages of the `n`th chat request for `model`. */
function toolOutputs(model: string, n: number): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: Any) => m.role === "tool")
    .map((m: Any) => m.content);
}

Deno.test("ask_agent", async (t) => {
  await runCases(t, {
    "the main agent asks helper; its answer is the tool result": async () => {
      server.script("main-a", [
        {
          toolCalls: [{
            name: "ask_agent",
            arguments: { agent: "helper", prompt: "What is 6 times 7?\nJust the number." },
          }],
        },
        { text: "Helper says 42." },
      ]);
      server.script("child-a", [{ text: "42", chunkSize: 1 }]);
      const dir = await dirFor("main-a", "child-a");
      const run = await runMM(["-p", "ask helper"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "Helper says 42.\n");
      assertStringIncludes(
        run.stderr,
        "🗣 ask_agent: helper (ollama/child-a) — What is 6 times 7?\n" +
          "   42\n   helper answered (2 characters)\n",
      );
      assertEquals(toolOutputs("main-a", 1), ["42"]);
      const childBody = server.chats("child-a")[0].body;
      assertEquals(childBody.messages.at(-1), {
        role: "user",
        content: "What is 6 times 7?\nJust the number.",
      });
      const tool = server.chats("main-a")[0].body.tools
        .find((x: Any) => x.function.name === "ask_agent");
      assertEquals(
        tool.function.description,
        `${ASK_AGENT_PARAGRAPH}\n\nAgents:\n  helper — answers questions`,
      );
    },
    "with_context sends the conversation before the prompt": async () => {
      server.script("main-c", [
        {
          text: "Let me ask.",
          toolCalls: [{
            name: "ask_agent",
            arguments: { agent: "helper", prompt: "Answer it.", with_context: true },
          }],
        },
        { text: "done" },
      ]);
      server.script("child-c", [{ text: "ok" }]);
      const dir = await dirFor("main-c", "child-c");
      const run = await runMM(["-p", "the question"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      // Up to the turn's question: not what the turn did after it, never this call.
      assertEquals(
        server.chats("child-c")[0].body.messages.at(-1).content,
        "The conversation so far, for context:\nUser: the question\n\nYour task:\nAnswer it.",
      );
    },
    "unknown agent, empty prompt, no answer": async () => {
      server.script("main-e", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "nobody", prompt: "hi" } }] },
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "  " } }] },
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "say" } }] },
        { text: "gave up" },
      ]);
      server.script("child-e", [{ text: "" }]);
      const dir = await dirFor("main-e", "child-e", {
        entry: "  other:\n    file: agents/helper.yaml\n",
      });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("main-e", 3), [
        unknownAgentText("nobody", ["helper", "other"]),
        emptyPromptText("helper"),
        noAnswerText("helper"),
      ]);
      // Without a description or a title: `(no description)`.
      const tool = server.chats("main-e")[0].body.tools
        .find((x: Any) => x.function.name === "ask_agent");
      assertStringIncludes(tool.function.description, "  helper — (no description)\n");
    },
    "the asked agent's calls: refused in -p when its entry says yolo: false": async () => {
      server.script("main-p", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "run it" } }] },
        { text: "fine" },
      ]);
      server.script("child-p", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
        { text: "could not" },
      ]);
      const dir = await dirFor("main-p", "child-p", {
        entry: "    yolo: false\n",
        childExtra: "acp:\n  title: Runner\n",
      });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("main-p", 1), ["could not"]);
      assertEquals(toolOutputs("child-p", 1), ["[command rejected by the user]"]);
      const tool = server.chats("main-p")[0].body.tools
        .find((x: Any) => x.function.name === "ask_agent");
      assertStringIncludes(tool.function.description, "  helper — Runner");
    },
    "in the editor: the asked agent streams, its requests come as `helper asks: …`": async () => {
      server.script("main-acp", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "run" } }] },
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "pick" } }] },
        { text: "both done" },
      ]);
      server.script("child-acp", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo allowed-run" } }] },
        { thought: "it printed", text: "ran it" },
        {
          toolCalls: [{
            name: "ask_user",
            arguments: { question: "Which colour?", type: "choice", options: ["red", "blue"] },
          }],
        },
        { text: "you chose blue" },
      ]);
      const dir = await dirFor("main-acp", "child-acp", {
        entry: "    yolo: false\n",
        extra: `hooks:\n  postAsk:\n    - command: ${hookSays({ context: "noted by a hook" })}\n`,
      });
      const editor = await Editor.start({
        cwd: dir,
        permission: (req) =>
          select(req.toolCall.title === "helper asks: Which colour?" ? "option_2" : "allow_once"),
      });
      try {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "go"), "end_turn");
        const context = "\n[context added by a hook]\nnoted by a hook";
        assertEquals(toolOutputs("main-acp", 2), [`ran it${context}`, `you chose blue${context}`]);
        assertStringIncludes(toolOutputs("child-acp", 1)[0], "allowed-run");
        assertStringIncludes(toolOutputs("child-acp", 3)[0], "- Which colour? → blue");
        const updates = editor.updatesOf(id);
        // The asked agent's text and thinking are the session's own chunks; each answer is a
        // paragraph of its own.
        assertEquals(
          chunks(updates, "agent_message_chunk"),
          "ran it\n\nyou chose blue\n\nboth done",
        );
        assertEquals(chunks(updates, "agent_thought_chunk"), "it printed");
        // Its calls are tool calls of their own, titled `helper · <title>`.
        const calls = updates.filter((u: Any) => u.sessionUpdate === "tool_call");
        assertEquals(calls.map((u: Any) => [u.toolCallId, u.title, u.kind]), [
          ["call_0", "ask_agent: helper (ollama/child-acp) — run", "other"],
          ["call_0/call_0", "helper · bash: echo allowed-run", "execute"],
          ["call_0-2", "ask_agent: helper (ollama/child-acp) — pick", "other"],
          ["call_0-2/call_0", "helper · ask_user: 1 question(s)", "other"],
        ]);
        const ends = (id: string) =>
          updates.filter((u: Any) =>
            u.sessionUpdate === "tool_call_update" && u.toolCallId === id &&
            (u.status === "completed" || u.status === "failed")
          ).map((u: Any) => [u.status, u.content?.[0]?.content?.text]);
        assertEquals(ends("call_0/call_0"), [["completed", "allowed-run\n"]]);
        // The ask_agent call's own output: the answer has streamed already.
        assertEquals(ends("call_0"), [["completed", "helper answered (6 characters)"]]);
        assertEquals(ends("call_0-2"), [["completed", "helper answered (14 characters)"]]);
        // The requests: on the asked agent's call, `helper asks: `, no "Always allow".
        assertEquals(editor.permissions.map((p) => [p.toolCall.toolCallId, p.toolCall.title]), [
          ["call_0/call_0", "helper asks: bash: echo allowed-run"],
          ["call_0-2", "helper asks: Which colour?"],
        ]);
        assertEquals(editor.permissions[0].options.map((o) => o.optionId), [
          "allow_once",
          "reject_once",
        ]);
      } finally {
        await editor.close();
      }
    },
    "in the editor: an asked agent's file change comes with its diff": async () => {
      server.script("main-diff", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "edit" } }] },
        { text: "done" },
      ]);
      server.script("child-diff", [
        { toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: "NEW\n" } }] },
        { text: "refused" },
      ]);
      const dir = await dirFor("main-diff", "child-diff", { entry: "    yolo: false\n" });
      await Deno.writeTextFile(`${dir}/notes.txt`, "old\n");
      const editor = await Editor.start({ cwd: dir, permission: () => select("reject_once") });
      try {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "go"), "end_turn");
        const [asked] = editor.permissions;
        assertEquals(asked.toolCall.title, "helper asks: write_file: notes.txt");
        assertEquals(asked.toolCall.content, [{
          type: "diff",
          path: await Deno.realPath(`${dir}/notes.txt`),
          oldText: "old\n",
          newText: "NEW\n",
        }]);
        assertEquals(await Deno.readTextFile(`${dir}/notes.txt`), "old\n");
      } finally {
        await editor.close();
      }
    },
    "-p: the asked agent's own hook rewriting its call is shown under the call": async () => {
      server.script("main-hook", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "run" } }] },
        { text: "done" },
      ]);
      server.script("child-hook", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo original" } }] },
        { text: "ran" },
      ]);
      const rewrite = JSON.stringify({ input: { command: "echo rewritten" } });
      const dir = await dirFor("main-hook", "child-hook", {
        childExtra: `hooks:\n  preToolCall:\n    - command: ${
          JSON.stringify(["bash", "-c", `cat >/dev/null; echo '${rewrite}'`])
        }\n`,
      });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(
        run.stderr,
        "🛠️  helper · bash: echo original\n   ↳ preToolCall hook: helper · bash: echo rewritten\n",
      );
      assertStringIncludes(toolOutputs("child-hook", 1)[0], "rewritten");
    },
    "-p --json: nested events between the call and its result": async () => {
      server.script("main-j", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "count" } }] },
        { text: "done" },
      ]);
      server.script("child-j", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo from-child" } }] },
        { text: "three lines", chunkSize: 4 },
      ]);
      const dir = await dirFor("main-j", "child-j");
      const run = await runMM(["-p", "go", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const start = events.findIndex((e: Any) => e.type === "tool_call");
      const end = events.findIndex((e: Any) => e.type === "tool_result");
      const nested = events.filter((e: Any) => e.type === "nested");
      assertEquals(nested.every((e: Any) => e.call === "call_0"), true);
      assertEquals(events.slice(start + 1, end), nested);
      const steps = nested.map((e: Any) => e.event);
      assertEquals(steps[0], {
        agent: "helper",
        type: "tool_call",
        id: "call_0",
        title: "helper · bash: echo from-child",
        kind: "execute",
        emoji: "🛠️",
        input: { command: "echo from-child" },
      });
      assertEquals(
        steps.find((s: Any) => s.type === "tool_update" && s.status === "completed"),
        {
          agent: "helper",
          type: "tool_update",
          id: "call_0",
          status: "completed",
          title: "helper · bash: echo from-child",
          output: "from-child\n",
        },
      );
      assertEquals(
        steps.filter((s: Any) => s.type === "text").map((s: Any) => s.text).join(""),
        "three lines",
      );
      assertEquals(events[end], {
        type: "tool_result",
        id: "call_0",
        name: "ask_agent",
        output: "three lines",
        failed: false,
        display: "helper answered (11 characters)",
      });
    },
    "the asked agent's silence ends the turn by this agent's watchdog": async () => {
      server.script("main-w", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "wait" } }] },
      ]);
      server.script("child-w", [{ hang: true }]);
      const dir = await dirFor("main-w", "child-w", {
        extra: "watchdogTimeout: 2s\n",
        childExtra: "watchdogTimeout: 5m\n",
      });
      const started = Date.now();
      const run = await runMM(["-p", "go", "--json"], { cwd: dir });
      assertEquals(run.code, 1, run.stderr);
      assertEquals(Date.now() - started < 60_000, true);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const result = events.find((e: Any) => e.type === "tool_result");
      assertEquals(result.output, stoppedText("helper", silenceReason(2000)));
      assertEquals(result.failed, true);
      assertEquals(events.at(-1), {
        type: "error",
        message: silenceText("helper", 2000),
        where: "generation",
      });
    },
    "preAsk gets the session; it denies; a preAsk hook that crashes is a warning and an error":
      async () => {
        server.script("main-h", [
          { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
          { text: "ok" },
        ]);
        const dir = await dirFor("main-h", "child-h", {
          extra: "sessions:\n  enabled: true\nhooks:\n  preAsk:\n" +
            `    - command: ["bash", "-c", "cat > preask.json"]\n` +
            `    - command: ["bash", "-c", "exit 3"]\n` +
            `    - command: ${hookSays({ deny: true, reason: "no asking today" })}\n`,
        });
        const run = await runMM(["-p", "go"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("main-h", 1), ["[ask denied by a hook: no asking today]"]);
        assertEquals(server.chats("child-h").length, 0);
        assertStringIncludes(run.stderr, '[warning: preAsk hook "bash -c exit 3" ');
        const [session] = await readSessions(dir);
        assertEquals(session.errors.map((e: Any) => e.where), ["hook"]);
        assertStringIncludes(session.errors[0].message, 'preAsk hook "bash -c exit 3"');
        assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/preask.json`)), {
          event: "preAsk",
          agent: "helper",
          prompt: "x",
          cwd: dir,
          session: session.id,
        });
      },
    "SIGTERM during a preAsk hook: the hook's group killed, the agent never asked": async () => {
      server.script("main-pc", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("main-pc", "child-pc", {
        extra: "hooks:\n  preAsk:\n" +
          `    - command: ["bash", "-c", "sleep 71 & echo $! > sleep.pid; wait"]\n`,
      });
      const pidFile = `${dir}/sleep.pid`;
      const run = await runMM(["-p", "go", "--json"], {
        cwd: dir,
        started: (child) => {
          (async () => {
            while (!(await Deno.stat(pidFile).catch(() => undefined))) {
              await new Promise((r) => setTimeout(r, 20));
            }
            child.kill("SIGTERM");
          })();
        },
      });
      assertEquals(run.code, 143, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const result = events.find((e: Any) => e.type === "tool_result");
      assertEquals(result.output, "[ask_agent: helper stopped before finishing: cancelled]");
      assertEquals(server.chats("child-pc").length, 0, "the agent was asked after its hook");
      const pid = (await Deno.readTextFile(pidFile)).trim();
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => undefined);
      assertEquals(stat === undefined || /\) Z /.test(stat), true, `${pid} still runs`);
    },
    "postAsk replaces the answer and adds context; bad JSON is a warning": async () => {
      server.script("main-r", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
        { text: "ok" },
      ]);
      server.script("child-r", [{ text: "the secret is 1234" }]);
      const dir = await dirFor("main-r", "child-r", {
        extra: "hooks:\n  postAsk:\n" +
          `    - command: ["bash", "-c", "echo not json"]\n` +
          `    - command: ${hookSays({ replace: "[redacted]", context: "checked" })}\n`,
      });
      const run = await runMM(["-p", "go", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("main-r", 1), ["[redacted]\n[context added by a hook]\nchecked"]);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const result = events.find((e: Any) => e.type === "tool_result");
      assertEquals(result.display, "helper answered; a hook replaced the answer (10 characters)");
      const warning = events.find((e: Any) => e.type === "warning");
      assertStringIncludes(warning.message, '[warning: postAsk hook "bash -c echo not json" ');
    },
    "line mode: /ask streams, asks `helper asks: …`, and joins the conversation": async () => {
      server.script("child-l", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo child-ran" } }] },
        { toolCalls: [{ name: "ask_user", arguments: { question: "Which file?", type: "text" } }] },
        { text: "The number is 7." },
      ]);
      server.script("main-l", [{ text: "It said 7." }]);
      const dir = await dirFor("main-l", "child-l", { extra: "yolo: false\n" });
      const term = await Terminal.start(
        [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
        { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
      );
      try {
        await term.waitFor("Ctrl-D quits.");
        // An unknown agent is reported before any permission is asked.
        await term.type("/ask nobody hi");
        await term.keys("Enter");
        await term.waitFor('[ask_agent: unknown agent "nobody" — agents: helper]');
        await term.type("/ask helper say the number");
        await term.keys("Enter");
        const asked = await term.waitFor("🔐 ask_agent: helper (ollama/child-l) — say the number");
        // The 🔐 line stands for the command's call: no 🗣 line before it.
        assertStringIncludes(asked, "› /ask helper say the number\n🔐 ask_agent: helper");
        await term.type("y");
        await term.keys("Enter");
        await term.waitFor("🔐 helper asks: bash: echo child-ran");
        await term.type("y");
        await term.keys("Enter");
        // Its text question comes to this user, prefixed.
        await term.waitFor("❓ helper asks: Which file?");
        await term.type("main.ts");
        await term.keys("Enter");
        const screen = await term.waitFor("helper answered (16 characters)");
        assertStringIncludes(
          screen,
          "› /ask nobody hi\n🗣 ask: nobody — hi\n" +
            '   [ask_agent: unknown agent "nobody" — agents: helper]\n',
        );
        assertStringIncludes(
          screen,
          "🛠️  helper · bash: echo child-ran\n🔐 helper asks: bash: echo child-ran\n" +
            "   allow? [y]es · [n]o, or type why not: y\n",
        );
        assertStringIncludes(screen, "   The number is 7.\n   helper answered (16 characters)\n");
        assertEquals(
          toolOutputs("child-l", 2).at(-1),
          "The user answered:\n- Which file? → main.ts",
        );
        await term.type("what did helper say?");
        await term.keys("Enter");
        await term.waitFor("It said 7.");
        const messages = server.chats("main-l")[0].body.messages.slice(1);
        assertEquals(messages, [
          { role: "user", content: "/ask helper say the number" },
          { role: "assistant", content: "helper answered:\nThe number is 7." },
          { role: "user", content: "what did helper say?" },
        ]);
      } finally {
        await term.kill();
      }
    },
    "a failed turn of the asked agent is a failure, never an answer": async () => {
      server.script("main-f", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
        { text: "ok" },
      ]);
      // Model child-f has no script: the server answers 404, the child's turn fails.
      const dir = await dirFor("main-f", "child-f");
      const run = await runMM(["-p", "go", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const [output] = toolOutputs("main-f", 1);
      const failed =
        '[ask_agent: helper failed: the model "child-f" is not available on the ollama';
      assertStringIncludes(output, failed);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const result = events.find((e: Any) => e.type === "tool_result");
      assertEquals([result.failed, result.display], [true, undefined]);
      const once = await runMM(["--ask", "helper", "x"], { cwd: dir });
      assertEquals([once.code, once.stdout], [1, ""]);
      assertStringIncludes(once.stderr, failed);
    },
    "two levels: the answer is the asked agent's final message, not the deeper agent's text":
      async () => {
        server.script("main-2", [
          { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "q" } }] },
          { text: "done" },
        ]);
        server.script("mid-2", [
          {
            text: "Before.",
            toolCalls: [{ name: "ask_agent", arguments: { agent: "deep", prompt: "dig" } }],
          },
          { text: "The answer is 42." },
        ]);
        server.script("deep-2", [{ text: "deep text" }]);
        const dir = await dirFor("main-2", "mid-2", {
          childExtra: "mmConfigs:\n  deep:\n    file: deep.yaml\n",
        });
        await Deno.writeTextFile(`${dir}/agents/deep.yaml`, `url: ${server.url}\nmodel: deep-2\n`);
        const run = await runMM(["-p", "go", "--json"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("mid-2", 1), ["deep text"]);
        assertEquals(toolOutputs("main-2", 1), ["The answer is 42."]);
        // Everything streamed for display, the deeper agent's work included.
        const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
        const steps = events.filter((e: Any) => e.type === "nested").map((e: Any) => e.event);
        assertEquals(
          steps.filter((s: Any) => s.type === "text").map((s: Any) => s.text).join(""),
          // The asked agent's ACP stream puts a paragraph break between its text and the deeper's.
          "Before.\n\ndeep text\n\nThe answer is 42.",
        );
        assertEquals(
          steps.find((s: Any) => s.type === "tool_call").title,
          "helper · ask_agent: deep (ollama/deep-2) — dig",
        );
      },
    "the asked agent's running tool is not silence for the watchdog": async () => {
      server.script("main-t", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "wait" } }] },
        { text: "ok" },
      ]);
      server.script("child-t", [
        { toolCalls: [{ name: "bash", arguments: { command: "sleep 3; echo done" } }] },
        { text: "slept" },
      ]);
      const dir = await dirFor("main-t", "child-t", {
        extra: "watchdogTimeout: 2s\n",
        childExtra: "watchdogTimeout: 2s\n",
      });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("main-t", 1), ["slept"]);
    },
    "-p and mm --ask: the asked agent's questions find nobody to ask": async () => {
      const ask = (question: Record<string, unknown>) => ({
        toolCalls: [{ name: "ask_user", arguments: question }],
      });
      server.script("main-n", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
        { text: "ok" },
      ]);
      // Choice and confirm questions could be buttons: nobody is asked all the same.
      server.script("child-n", [
        ask({ question: "Which colour?", type: "choice", options: ["red", "blue"] }),
        { text: "assumed" },
        ask({ question: "Go on?", type: "confirm" }),
        { text: "assumed again" },
      ]);
      const dir = await dirFor("main-n", "child-n");
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("child-n", 1), [NOBODY_TEXT]);
      assertEquals(toolOutputs("main-n", 1), ["assumed"]);
      const once = await runMM(["--ask", "helper", "x"], { cwd: dir });
      assertEquals([once.code, once.stdout], [0, "assumed again\n"], once.stderr);
      assertEquals(toolOutputs("child-n", 3), [NOBODY_TEXT]);
    },
    "in the editor with forms: a text question of the asked agent is answered; locations":
      async () => {
        server.script("main-q", [
          { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "go" } }] },
          { text: "fine" },
        ]);
        server.script("child-q", [
          { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] },
          {
            toolCalls: [{
              name: "ask_user",
              arguments: { question: "Favourite colour?", type: "text" },
            }],
          },
          { text: "noted teal" },
        ]);
        const dir = await dirFor("main-q", "child-q");
        await Deno.writeTextFile(`${dir}/notes.txt`, "a note\n");
        const editor = await Editor.start({
          cwd: dir,
          elicit: () => ({ action: "accept", content: { q1: "teal" } }),
        });
        try {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "go"), "end_turn");
          assertEquals(editor.forms.map((f: Any) => [f.message, f.requestedSchema.properties]), [
            ["helper asks: Favourite colour?", {
              q1: { type: "string", title: "helper asks: Favourite colour?" },
            }],
          ]);
          assertEquals(
            toolOutputs("child-q", 2).at(-1),
            "The user answered:\n- Favourite colour? → teal",
          );
          assertEquals(toolOutputs("main-q", 1), ["noted teal"]);
          const updates = editor.updatesOf(id);
          const read = updates.find((u: Any) =>
            u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_0/call_0" &&
            u.status === "completed"
          ) as Any;
          assertEquals(read.locations, [{ path: `${dir}/notes.txt` }]);
          // The asked agent's work is marked as its own.
          const chunk = updates.find((u: Any) =>
            u.sessionUpdate === "agent_message_chunk" && u.content.text === "noted teal"
          ) as Any;
          assertEquals(chunk._meta, { mm: { nested: "helper" } });
        } finally {
          await editor.close();
        }
      },
    "a model streaming a call's arguments is alive for the asking agent's watchdog": async () => {
      server.script("main-al", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "write" } }] },
        { text: "ok" },
      ]);
      // About 3 s of arguments in pieces 300 ms apart: no session/update meanwhile.
      server.script("child-al", [
        {
          toolCalls: [{
            name: "write_file",
            arguments: { path: "out.txt", content: "a line of the file\n".repeat(8) },
          }],
          chunkSize: 20,
          gap: 300,
        },
        { text: "wrote it" },
      ]);
      const dir = await dirFor("main-al", "child-al", { extra: "watchdogTimeout: 1s\n" });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("main-al", 1), ["wrote it"]);
      assertEquals(await Deno.readTextFile(`${dir}/out.txt`), "a line of the file\n".repeat(8));
    },
    "an asked agent that reaches maxTurns failed, and says so once": async () => {
      server.script("main-mt", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "loop" } }] },
        { text: "ok" },
      ]);
      server.script("child-mt", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo again" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "echo again" } }] },
      ]);
      const dir = await dirFor("main-mt", "child-mt", { childExtra: "maxTurns: 1\n" });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const reason = turnFailure({ _meta: { mm: { error: maxTurnsText(1) } } })!;
      assertEquals(toolOutputs("main-mt", 1), [failedText("helper", reason)]);
      // Shown in the call's result only, not streamed as the asked agent's text first.
      assertEquals(run.stderr.split("the turn reached maxTurns").length, 2, run.stderr);
    },
    "in the editor: asked and asking agents' texts are paragraphs; a failure is not text":
      async () => {
        server.script("main-pa", [
          { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "a" } }] },
          { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "b" } }] },
          { text: "top done" },
        ]);
        server.script("child-pa", [
          { text: "Leaf answer 3." },
          { toolCalls: [{ name: "bash", arguments: { command: "echo x" } }] },
        ]);
        const dir = await dirFor("main-pa", "child-pa", { childExtra: "maxTurns: 1\n" });
        const editor = await Editor.start({ cwd: dir });
        try {
          const id = await editor.newSession(dir);
          assertEquals(await editor.prompt(id, "go"), "end_turn");
          const updates = editor.updatesOf(id);
          assertEquals(chunks(updates, "agent_message_chunk"), "Leaf answer 3.\n\ntop done");
          const [, second] = toolOutputs("main-pa", 2);
          assertStringIncludes(second, "[ask_agent: helper failed: the turn reached maxTurns");
        } finally {
          await editor.close();
        }
      },
    "-p: a postAsk hook's warning comes after the asked agent's text": async () => {
      server.script("main-wo", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
        { text: "ok" },
      ]);
      server.script("child-wo", [{ text: "orig answer" }]);
      const dir = await dirFor("main-wo", "child-wo", {
        extra: `hooks:\n  postAsk:\n    - command: ["bash", "-c", "echo not json"]\n`,
      });
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const at = (text: string) => run.stderr.indexOf(text);
      const order = [at("   orig answer\n"), at("[warning: postAsk hook"), at("helper answered")];
      assertEquals(order.every((n) => n >= 0), true, run.stderr);
      assertEquals([...order].sort((a, b) => a - b), order, run.stderr);
    },
    "depth: beyond two levels the call fails": async () => {
      server.script("main-d", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "x" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("main-d", "child-d");
      const run = await runMM(["-p", "go"], { cwd: dir, env: { MM_ASK_DEPTH: "2" } });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(toolOutputs("main-d", 1)[0], "[ask_agent: helper failed: ");
      assertEquals(server.chats("child-d").length, 0);
    },
  }, 3);
});

Deno.test("mm --ask", async (t) => {
  await runCases(t, {
    "prints the asked agent's answer": async () => {
      server.script("child-o", [{ text: "The capital is Paris." }]);
      const dir = await dirFor("main-o", "child-o");
      // The name's case is forgiven, as ask_agent forgives it.
      const run = await runMM(["--ask", "Helper", "capital of France?"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "The capital is Paris.\n");
      assertEquals(server.chats("main-o").length, 0);
      assertEquals(server.chats("child-o")[0].body.messages.at(-1), {
        role: "user",
        content: "capital of France?",
      });
    },
    "the agent's work shows on stderr, its answer alone on stdout": async () => {
      server.script("child-ow", [
        {
          text: "Let me look.",
          toolCalls: [{ name: "bash", arguments: { command: "echo seen" } }],
        },
        { text: "It says seen." },
      ]);
      const dir = await dirFor("main-ow", "child-ow");
      const run = await runMM(["--ask", "helper", "look"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "It says seen.\n");
      assertEquals(run.stderr, "   Let me look.\n🛠️  helper · bash: echo seen\n   seen\n");
    },
    "a hook's context is for a model: stdout is the answer alone, replaced or not": async () => {
      server.script("child-hc", [{ text: "the answer" }, { text: "the secret is 1234" }]);
      const dir = await dirFor("main-hc", "child-hc", {
        extra: `hooks:\n  postAsk:\n    - command: ${hookSays({ context: "checked" })}\n`,
      });
      const run = await runMM(["--ask", "helper", "x"], { cwd: dir });
      assertEquals([run.code, run.stdout], [0, "the answer\n"], run.stderr);
      await Deno.writeTextFile(
        `${dir}/mm.yaml`,
        `url: ${server.url}\nmodel: main-hc\nhooks:\n  postAsk:\n` +
          `    - command: ${hookSays({ replace: "[redacted]", context: "checked" })}\n` +
          "mmConfigs:\n  helper:\n    file: agents/helper.yaml\n",
      );
      const replaced = await runMM(["--ask", "helper", "x"], { cwd: dir });
      assertEquals([replaced.code, replaced.stdout], [0, "[redacted]\n"], replaced.stderr);
    },
    "-p with --ask is a usage error": async () => {
      const dir = await dirFor("main-up", "child-up");
      const run = await runMM(["--ask", "helper", "hi", "-p", "x"], { cwd: dir });
      assertEquals([run.code, run.stdout], [2, ""]);
      assertStringIncludes(run.stderr, "--ask helper takes its prompt after the name, not with -p");
      assertEquals(server.chats("child-up").length, 0);
    },
    "an unknown name is a usage error listing the agents": async () => {
      const dir = await dirFor("main-u", "child-u");
      const run = await runMM(["--ask", "nobody", "hi"], { cwd: dir });
      assertEquals(run.code, 2);
      assertEquals(run.stdout, "");
      assertEquals(
        run.stderr,
        'mm: --ask: unknown agent "nobody" — agents: helper — run mm --help for the flags\n',
      );
    },
    "an agent whose file cannot start it: a configuration error, said before it starts":
      async () => {
        const dir = await workdir(
          `url: ${server.url}\nmodel: main-s\nmmConfigs:\n  missing:\n    file: nothere.yaml\n` +
            "  broken:\n    file: b.yaml\n",
        );
        await Deno.writeTextFile(`${dir}/b.yaml`, "model: [x\nurl: y\n");
        const runs = await Promise.all(
          ["missing", "broken", "missing", "broken"].map((name) =>
            runMM(["--ask", name, "x"], { cwd: dir }).then((run) => ({ name, ...run }))
          ),
        );
        for (const run of runs) {
          assertEquals([run.code, run.stdout], [2, ""], run.stderr);
          assertStringIncludes(run.stderr, `mm: ${dir}/mm.yaml: mmConfigs.${run.name}.file: `);
        }
        assertStringIncludes(runs[0].stderr, `: ${dir}/nothere.yaml does not exist\n`);
        assertStringIncludes(runs[1].stderr, `: ${dir}/b.yaml:2:`);
      },
    "-p and doctor tell of an agent whose file cannot start it; ask_agent says why": async () => {
      server.script("main-ghost", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "ghost", prompt: "hi" } }] },
        { text: "done" },
      ]);
      const dir = await workdir(
        `url: ${server.url}\nmodel: main-ghost\nmmConfigs:\n  ghost:\n    file: ghost.yaml\n` +
          "  broken:\n    file: b.yaml\n",
      );
      await Deno.writeTextFile(`${dir}/b.yaml`, "yolo: maybe\n");
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(
        run.stderr,
        `[warning: agent broken of mmConfigs cannot be asked: ${dir}/b.yaml:1:7: yolo: expected true or false, found "maybe"]\n` +
          `[warning: agent ghost of mmConfigs cannot be asked: ${dir}/ghost.yaml does not exist]\n`,
      );
      assertEquals(toolOutputs("main-ghost", 1), [
        failedText("ghost", `${dir}/ghost.yaml does not exist`),
      ]);
      const doctor = await runMM(["doctor"], { cwd: dir });
      assertEquals(doctor.code, 1);
      assertStringIncludes(
        doctor.stdout,
        `✘ agent ghost: ${dir}/ghost.yaml does not exist — fix its agent file, or mmConfigs.ghost.file in ${dir}/mm.yaml\n`,
      );
      assertStringIncludes(doctor.stdout, `✘ agent broken: ${dir}/b.yaml:1:7: yolo: expected`);
    },
  });
});
