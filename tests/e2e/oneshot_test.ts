/** The real `mm -p` running whole turns against the scripted server. */

import { LOOP_DETECTED } from "../../lib/agent/loop_detector.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** A working directory whose agent file points at the scripted server with `model`. */
function dirFor(model: string, extra = ""): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
// deno-lint-ignore no-explicit-any
function toolMessages(model: string, n: number): any[] {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[n].body.messages.filter((m: any) => m.role === "tool");
}

Deno.test("one-shot turns", async (t) => {
  await runCases(t, {
    "an answer alone on stdout": async () => {
      server.script("plain", [{ text: "The answer is 42.", chunkSize: 3 }]);
      const run = await runMM(["-p", "what is it?"], { cwd: await dirFor("plain") });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "The answer is 42.\n");
      assertEquals(run.stderr, "");
      const body = server.chats("plain")[0].body;
      assertEquals(body.messages.at(-1), { role: "user", content: "what is it?" });
      assertEquals(body.messages[0].role, "system");
      // deno-lint-ignore no-explicit-any
      assertEquals(body.tools.map((t: any) => t.function.name), [
        "bash",
        "read_file",
        "write_file",
        "edit_file",
        "ask_user",
        "unload_model",
      ]);
    },
    "a bash call streamed in 3-character chunks runs, and its output goes back": async () => {
      server.script("bash-split", [
        {
          text: "Let me look.",
          toolCalls: [{ name: "bash", arguments: { command: "echo hi; echo there >&2" } }],
          chunkSize: 3,
        },
        { text: "Done: it said hi." },
      ]);
      const dir = await dirFor("bash-split");
      const run = await runMM(["-p", "say hi"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "Done: it said hi.\n");
      assertEquals(
        run.stderr,
        "Let me look.\n🛠️  bash: echo hi; echo there >&2\n   hi\n   there\n⚙ 1 command(s)\n",
      );
      const [tool] = toolMessages("bash-split", 1);
      assertEquals(tool.content, "hi\nthere\n");
      assertEquals(tool.tool_call_id, "call_0");
      // deno-lint-ignore no-explicit-any
      const assistant = server.chats("bash-split")[1].body.messages.find((m: any) =>
        m.role === "assistant"
      );
      assertEquals(assistant.tool_calls[0].function, {
        name: "bash",
        arguments: '{"command":"echo hi; echo there >&2"}',
      });
    },
    "write_file then read_file, several calls in one message, run in order": async () => {
      server.script("files", [
        {
          toolCalls: [
            { name: "write_file", arguments: { path: "notes/a.txt", content: "one\ntwo\n" } },
            { name: "read_file", arguments: { path: "notes/a.txt", start: "2" } },
          ],
          chunkSize: 5,
        },
        { text: "Wrote and read it." },
      ]);
      const dir = await dirFor("files");
      const run = await runMM(["-p", "write it"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await Deno.readTextFile(`${dir}/notes/a.txt`), "one\ntwo\n");
      const [write, read] = toolMessages("files", 1);
      assertStringIncludes(write.content, "+two");
      assertEquals(read.content, "two\n");
      assertStringIncludes(run.stderr, "📝 2 file op(s)");
    },
    "tool-call deltas without index, split over chunks, are assembled by id": async () => {
      server.script("no-index", [
        {
          toolCalls: [
            { name: "bash", arguments: { command: "echo first" } },
            { name: "bash", arguments: { command: "echo second" } },
          ],
          chunkSize: 4,
          noIndex: true,
        },
        { text: "ok" },
      ]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("no-index") });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("no-index", 1).map((m) => m.content), ["first\n", "second\n"]);
    },
    "a command with no output shows (no output)": async () => {
      server.script("quiet", [{ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, {
        text: "ok",
      }]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("quiet") });
      assertStringIncludes(run.stderr, "🛠️  bash: true\n   (no output)\n");
    },
    "previewLines caps the preview": async () => {
      server.script("preview", [
        { toolCalls: [{ name: "bash", arguments: { command: "seq 1 10" } }] },
        { text: "ok" },
      ]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("preview", "previewLines: 2\n") });
      assertStringIncludes(run.stderr, "🛠️  bash: seq 1 10\n   1\n   2\n⚙ 1 command(s)\n");
      assertEquals(toolMessages("preview", 1)[0].content, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
    },
    "reasoning is shown as thinking, sent back as reasoning, never as the answer": async () => {
      server.script("thinker", [
        {
          thought: "hmm, let me think",
          thoughtField: "reasoning_content",
          toolCalls: [{ name: "bash", arguments: { command: "echo x" } }],
        },
        { thought: "ok then", thoughtField: "reasoning", text: "Final." },
      ]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("thinker") });
      assertEquals(run.stdout, "Final.\n");
      assertEquals(
        run.stderr.includes("hmm"),
        false,
        "thinking is not printed when stderr is not a terminal",
      );
      // deno-lint-ignore no-explicit-any
      const assistant = server.chats("thinker")[1].body.messages.find((m: any) =>
        m.role === "assistant"
      );
      // The call's reasoning goes back beside it (sendReasoning: auto), never in its content.
      assertEquals(assistant.reasoning_content, "hmm, let me think");
      assertEquals(JSON.stringify(assistant.content ?? "").includes("hmm"), false);
    },
    "--json writes one event per line on stdout": async () => {
      server.script("json", [
        { thought: "plan", toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
        { text: "Said hi.", chunkSize: 4 },
      ]);
      const run = await runMM(["-p", "x", "--json"], { cwd: await dirFor("json") });
      assertEquals(run.code, 0, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(events[0], {
        type: "turn_start",
        prompt: "x",
        provider: "ollama",
        model: "json",
        contextWindow: null,
        chatAPI: "openai",
      });
      const types = events.map((e) => e.type);
      assertEquals(types.filter((t) => t !== "text"), [
        "turn_start",
        "thought",
        "composing",
        "usage",
        "tool_call",
        "tool_result",
        "usage",
        "recap",
        "answer",
      ]);
      assertEquals(events.filter((e) => e.type === "text").map((e) => e.text).join(""), "Said hi.");
      const call = events.find((e) => e.type === "tool_call");
      assertEquals([call.name, call.kind, call.summary, call.input], [
        "bash",
        "execute",
        "echo hi",
        { command: "echo hi" },
      ]);
      assertEquals(events.find((e) => e.type === "tool_result").output, "hi\n");
      assertEquals(events.find((e) => e.type === "recap").counters, {
        commands: 1,
        fileOps: 0,
        skills: 0,
        lsp: 0,
      });
      assertEquals(events.at(-1), { type: "answer", text: "Said hi." });
      assertEquals(run.stderr, "");
    },
    "--json reports a failure as an error event": async () => {
      const run = await runMM(["-p", "x", "--json"], { cwd: await dirFor("json-missing") });
      assertEquals(run.code, 1);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(events.at(-1).type, "error");
      assertStringIncludes(events.at(-1).message, 'the model "json-missing" is not available');
    },
    "the prompt from stdin: -p -, -p alone, and a pipe without -p": async () => {
      server.script("stdin", [{ text: "a" }, { text: "b" }, { text: "c" }]);
      const dir = await dirFor("stdin");
      for (const args of [["-p", "-"], ["-p"], []]) {
        const run = await runMM(args, { cwd: dir, stdin: "from stdin\n" });
        assertEquals(run.code, 0, run.stderr);
      }
      const prompts = server.chats("stdin").map((r) => r.body.messages.at(-1).content);
      assertEquals(prompts, ["from stdin", "from stdin", "from stdin"]);
    },
    "yolo: false refuses calls that would ask, with the exact texts": async () => {
      server.script("careful", [
        {
          toolCalls: [
            { name: "bash", arguments: { command: "touch made-by-bash" } },
            { name: "write_file", arguments: { path: "made.txt", content: "x" } },
            { name: "read_file", arguments: { path: "mm.yaml" } },
          ],
        },
        { text: "I was not allowed." },
      ]);
      const dir = await dirFor("careful", "yolo: false\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const [bash, write, read] = toolMessages("careful", 1);
      assertEquals(bash.content, "[command rejected by the user]");
      assertEquals(write.content, "[write_file rejected by the user]");
      assertStringIncludes(read.content, "yolo: false");
      assertEquals(await exists(`${dir}/made-by-bash`), false);
      assertEquals(await exists(`${dir}/made.txt`), false);
    },
    "--yolo=false on the command line wins over the agent file": async () => {
      server.script("careful-flag", [
        { toolCalls: [{ name: "bash", arguments: { command: "touch nope" } }] },
        { text: "ok" },
      ]);
      const dir = await dirFor("careful-flag", "yolo: true\n");
      await runMM(["-p", "x", "--yolo=false"], { cwd: dir });
      assertEquals(toolMessages("careful-flag", 1)[0].content, "[command rejected by the user]");
    },
    "malformed arguments are repaired when unambiguous, else answered as an invalid call":
      async () => {
        server.script("repair", [
          {
            toolCalls: [
              { name: "bash", arguments: "{'command': 'echo repaired',}" },
              { name: "bash", arguments: '```json\n{"command": "echo fenced"}\n```' },
              { name: "bash", arguments: '{"command": "echo broken"' },
              { name: "read_file", arguments: { start: 1 } },
              { name: "bash", arguments: { command: ["ls"] } },
              { name: "write_file", arguments: { content: "x".repeat(33_000) } },
              { name: "bash", arguments: { command: { x: "q".repeat(30_000) } } },
            ],
          },
          { text: "ok" },
        ]);
        const run = await runMM(["-p", "x"], { cwd: await dirFor("repair") });
        assertEquals(run.code, 0, run.stderr);
        const [a, b, c, d, e, f, g] = toolMessages("repair", 1).map((m) => m.content);
        assertEquals(a, "repaired\n");
        assertEquals(b, "fenced\n");
        assertMatch(
          c,
          /^\[bash: invalid call, nothing was run — the arguments are not valid JSON \(.+\)\. You sent: \{"command": "echo broken"\. Expected: command \(string\): .+\. Call bash again with each parameter as its own field\.\]$/,
        );
        assertStringIncludes(
          d,
          '[read_file: invalid call, nothing was run — path is missing. You sent: {"start":1}.',
        );
        assertStringIncludes(
          e,
          '[bash: invalid call, nothing was run — command: ["ls"] is not a string.',
        );
        // A large value sent without its path is not repeated whole: the text stays small.
        assertStringIncludes(
          f,
          `You sent: {"content":"${"x".repeat(200)}… [32800 more characters]"}.`,
        );
        assertEquals(f.length < 1000, true, f);
        // A large value of the wrong type: its fault quotes 80 characters of it, the echo 200.
        assertStringIncludes(g, `command: {"x":"${"q".repeat(73)}… is not a string. You sent: `);
        assertEquals(g.length < 1000, true, g);
      },
    "an unknown tool is answered with the list of tools; a near miss of case is forgiven":
      async () => {
        server.script("unknown", [
          {
            toolCalls: [{ name: "run_shell", arguments: {} }, {
              name: "Bash",
              arguments: { command: "echo forgiven" },
            }],
          },
          { text: "ok" },
        ]);
        const run = await runMM(["-p", "x"], {
          cwd: await dirFor("unknown", "askUserTool: false\n"),
        });
        assertEquals(run.code, 0, run.stderr);
        const [unknown, forgiven] = toolMessages("unknown", 1).map((m) => m.content);
        assertEquals(
          unknown,
          '[unknown tool "run_shell" — the tools are: bash, read_file, write_file, edit_file, unload_model]',
        );
        assertEquals(forgiven, "forgiven\n");
      },
    "the tools follow bashTool and editTools": async () => {
      server.script("no-tools", [{ text: "a" }]);
      server.script("no-edit", [{ text: "b" }]);
      await runMM(["-p", "x"], {
        cwd: await dirFor(
          "no-tools",
          "bashTool: false\neditTools: false\naskUserTool: false\nunloadModels: false\n",
        ),
      });
      await runMM(["-p", "x"], {
        cwd: await dirFor("no-edit", "editTools: false\naskUserTool: false\nunloadModels: false\n"),
      });
      assertEquals(server.chats("no-tools")[0].body.tools, undefined);
      // deno-lint-ignore no-explicit-any
      assertEquals(server.chats("no-edit")[0].body.tools.map((t: any) => t.function.name), [
        "bash",
      ]);
    },
    "the loop detector: LOOP_DETECTED from the 3rd identical call, stopped at the 6th":
      async () => {
        const call = { toolCalls: [{ name: "bash", arguments: { command: "echo same; exit 1" } }] };
        server.script("looper", Array.from({ length: 7 }, () => call));
        const run = await runMM(["-p", "x"], { cwd: await dirFor("looper") });
        assertEquals(run.code, 1);
        assertEquals(server.chats("looper").length, 6);
        const outputs = [1, 2, 3, 4, 5].map((n) => toolMessages("looper", n).at(-1).content);
        assertEquals(outputs[0], "same\n[exit code: exit status 1]");
        assertEquals(outputs[1], "same\n[exit code: exit status 1]");
        assertEquals(outputs[2], `same\n[exit code: exit status 1]\n${LOOP_DETECTED}`);
        assertEquals(outputs[4], `same\n[exit code: exit status 1]\n${LOOP_DETECTED}`);
        assertStringIncludes(
          run.stderr,
          "[error: the model repeated the same bash call 6 times in a row with the same failing result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]\n",
        );
      },
    "the runaway detector stops a tool call that repeats a pattern": async () => {
      server.script("runaway", [{ runaway: "la la ", name: "write_file" }]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("runaway") });
      assertEquals(run.code, 1);
      assertMatch(
        run.stderr,
        /\[error: the model's tool call ran away: its arguments repeat the same pattern \(\d+ characters so far: …[la ]+\) — generation stopped; rephrase the request, or try another model\]\n$/,
      );
    },
    "the watchdog ends a turn after watchdogTimeout of silence": async () => {
      server.script("silent", [{ hang: true }]);
      const run = await runMM(["-p", "x"], {
        cwd: await dirFor("silent", "watchdogTimeout: 400ms\n"),
      });
      assertEquals(run.code, 1);
      assertStringIncludes(
        run.stderr,
        "[error: the model sent nothing for 400ms — turn stopped by the watchdog (watchdogTimeout: 400ms); the server may be overloaded or still loading the model: try again, or raise watchdogTimeout]",
      );
    },
    "a slow first token within watchdogTimeout is fine, and deltas feed the watchdog": async () => {
      server.script("slow", [{ delay: 300, text: "slow but steady", chunkSize: 2, gap: 60 }]);
      const run = await runMM(["-p", "x"], {
        cwd: await dirFor("slow", "watchdogTimeout: 500ms\n"),
      });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "slow but steady\n");
    },
    "maxTurns bounds the model calls of a turn": async () => {
      server.script("busy", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo 1" } }] },
        { toolCalls: [{ name: "bash", arguments: { command: "echo 2" } }] },
        { text: "never reached" },
      ]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("busy", "maxTurns: 2\n") });
      assertEquals(run.code, 1);
      assertEquals(server.chats("busy").length, 2);
      assertStringIncludes(
        run.stderr,
        "[error: the turn reached maxTurns (2 model calls) without a final answer — stopped; ask for a smaller step, or raise maxTurns in the agent file]",
      );
    },
    "AGENTS.md is appended to the system prompt; system replaces the built-in one": async () => {
      server.script("agents-md", [{ text: "a" }]);
      server.script("own-system", [{ text: "b" }]);
      const dir = await dirFor("agents-md");
      await Deno.writeTextFile(`${dir}/AGENTS.md`, "Always run deno fmt.\n");
      await runMM(["-p", "x"], { cwd: dir });
      const system = server.chats("agents-md")[0].body.messages[0].content;
      assertStringIncludes(system, "You are mm");
      assertStringIncludes(system, "Always run deno fmt.");
      await runMM(["-p", "x"], { cwd: await dirFor("own-system", "system: You are terse.\n") });
      assertEquals(server.chats("own-system")[0].body.messages[0].content, "You are terse.");
    },
    "Ctrl-C during a command kills it and exits 130": async () => {
      server.script("interrupted", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo $$ > pid; sleep 30" } }] },
      ]);
      const dir = await dirFor("interrupted");
      const run = await runMM(["-p", "x"], {
        cwd: dir,
        started: (child) => {
          (async () => {
            while (!(await exists(`${dir}/pid`))) await new Promise((r) => setTimeout(r, 20));
            child.kill("SIGINT");
          })();
        },
      });
      assertEquals(run.code, 130, run.stderr);
      const pid = (await Deno.readTextFile(`${dir}/pid`)).trim();
      assertEquals(await exists(`/proc/${pid}`), false);
    },
  });
  await server.close();
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
