/** ask_agent and `mm --ask`: the real `mm -p` asks a child `mm -acp`, both on the scripted server. */

import {
  ASK_AGENT_PARAGRAPH,
  emptyPromptText,
  noAnswerText,
  unknownAgentText,
} from "../../tools/ask_agent.ts";
import { Editor, select } from "../helpers/acp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server.ts";

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
        "🗣 ask_agent: helper (ollama/child-a) — What is 6 times 7?\n",
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
      const sent = server.chats("child-c")[0].body.messages.at(-1).content;
      assertStringIncludes(sent, "User: the question\n");
      assertStringIncludes(sent, "Assistant: Let me ask.\n");
      assertStringIncludes(sent, "Tool call: ask_agent ");
      assertStringIncludes(sent, "Your task:\nAnswer it.");
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
    "in the editor, the asked agent's permission requests reach the editor's user": async () => {
      server.script("main-acp", [
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "run" } }] },
        { toolCalls: [{ name: "ask_agent", arguments: { agent: "helper", prompt: "again" } }] },
        { text: "both done" },
      ]);
      server.script("child-acp", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo allowed-run" } }] },
        { text: "ran it" },
        { toolCalls: [{ name: "bash", arguments: { command: "echo refused-run" } }] },
        { text: "was refused" },
      ]);
      const dir = await dirFor("main-acp", "child-acp", { entry: "    yolo: false\n" });
      let n = 0;
      const editor = await Editor.start({
        cwd: dir,
        permission: () => select(n++ === 0 ? "allow_once" : "reject_once"),
      });
      try {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "go"), "end_turn");
        assertEquals(toolOutputs("main-acp", 2), ["ran it", "was refused"]);
        assertStringIncludes(toolOutputs("child-acp", 1)[0], "allowed-run");
        assertEquals(toolOutputs("child-acp", 3).at(-1), "[command rejected by the user]");
        assertEquals(editor.permissions.length, 2);
        assertStringIncludes(
          editor.permissions[0].options[1].name,
          "helper · bash: echo allowed-run",
        );
      } finally {
        await editor.close();
      }
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
      const run = await runMM(["--ask", "helper", "capital of France?"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "The capital is Paris.\n");
      assertEquals(server.chats("main-o").length, 0);
      assertEquals(server.chats("child-o")[0].body.messages.at(-1), {
        role: "user",
        content: "capital of France?",
      });
    },
    "an unknown name is a usage error listing the agents": async () => {
      const dir = await dirFor("main-u", "child-u");
      const run = await runMM(["--ask", "nobody", "hi"], { cwd: dir });
      assertEquals(run.code, 2);
      assertEquals(run.stdout, "");
      assertStringIncludes(run.stderr, 'unknown agent "nobody" — agents: helper');
    },
  });
});
