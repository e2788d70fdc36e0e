/** Hooks through the real `mm -p`: small scripts that deny, rewrite, add context, crash, hang, babble. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, gone, readSessions, runMM, sessionsOf, until, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";
import { hookInputText } from "../../lib/agent/texts.ts";
import { INPUT_CHANGED } from "../../lib/agent/dispatch.ts";

const server = ScriptedServer.start();

/** A directory with an agent file whose `hooks:` block is `hooks` (YAML, indented by two). */
async function dirWithHooks(model: string, hooks: string, extra = ""): Promise<string> {
  return await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}hooks:\n${hooks}`);
}

/** The tool messages of the `n`th request for `model`. */
function toolOutputs(model: string, n: number): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

const bashCall = (command: string) => ({
  toolCalls: [{ name: "bash", arguments: { command } }],
});

Deno.test("hooks", async (t) => {
  await runCases(t, {
    "a preToolCall hook that forbids git push (exit code 2, stderr as the reason)": async () => {
      server.script("no-push", [bashCall("git push origin main"), bashCall("echo fine"), {
        text: "ok",
      }]);
      const dir = await dirWithHooks(
        "no-push",
        `  preToolCall:
    - matcher: bash
      command: ["bash", "-c", "grep -q 'git push' && { echo 'pushing is not allowed here' >&2; exit 2; }; exit 0"]
`,
      );
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("no-push", 1), [
        "[bash denied by a hook: pushing is not allowed here]",
      ]);
      assertEquals(toolOutputs("no-push", 2).at(-1), "fine\n");
    },
    "preToolCall gives a new input; postToolCall replaces the output and adds context":
      async () => {
        server.script("rewrite", [bashCall("echo original"), { text: "ok" }]);
        const dir = await dirWithHooks(
          "rewrite",
          `  preToolCall:
    - command: ["bash", "-c", "echo '{\\"input\\": {\\"command\\": \\"echo rewritten\\"}}'"]
  postToolCall:
    - matcher: "ba.*"
      command: ["bash", "-c", "grep -q rewritten && echo '{\\"context\\": \\"checked by the hook\\"}'"]
`,
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("rewrite", 1), [
          "rewritten\n[context added by a hook]\nchecked by the hook",
        ]);
        // What runs is shown under the call the model made.
        assertStringIncludes(
          run.stderr,
          "🛠️  bash: echo original\n   ↳ preToolCall hook: bash: echo rewritten\n",
        );
        server.script("rewrite-json", [bashCall("echo original"), { text: "ok" }]);
        const jsonDir = await dirWithHooks(
          "rewrite-json",
          `  preToolCall:
    - command: ["bash", "-c", "echo '{\\"input\\": {\\"command\\": \\"echo rewritten\\"}}'"]
`,
        );
        const json = await runMM(["-p", "x", "--json"], { cwd: jsonDir });
        const events = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
        const types = events.map((e) => e.type).filter((t) => t.startsWith("tool_"));
        assertEquals(types, ["tool_call", "tool_input", "tool_result"]);
        assertEquals(events.find((e) => e.type === "tool_input"), {
          type: "tool_input",
          id: "call_0",
          name: "bash",
          summary: "echo rewritten",
          input: { command: "echo rewritten" },
        });
        server.script("replace", [bashCall("echo secret-token"), { text: "ok" }]);
        const dir2 = await dirWithHooks(
          "replace",
          `  postToolCall:
    - command: ["bash", "-c", "echo '{\\"replace\\": \\"[redacted]\\"}'"]
`,
        );
        await runMM(["-p", "x"], { cwd: dir2 });
        assertEquals(toolOutputs("replace", 1), ["[redacted]"]);
      },
    "a new input the tool cannot take is that hook's failure: later hooks see what will run":
      async () => {
        server.script("chain", [bashCall("echo git push origin main"), bashCall("echo original"), {
          text: "ok",
        }]);
        const dir = await dirWithHooks(
          "chain",
          `  preToolCall:
    - command: ["bash", "-c", "cat >/dev/null; echo '{\\"input\\": {}}'"]
    - command: ["bash", "-c", "p=$(cat); echo \\"$p\\" | grep -q 'git push' && { echo 'pushing is for humans' >&2; exit 2; }; echo \\"$p\\" | grep -q original && echo '{\\"input\\": {\\"command\\": \\"echo first\\"}}'; exit 0"]
    - command: ["bash", "-c", "cat >/dev/null; echo '{\\"input\\": {\\"command\\": [\\"a\\"]}}'"]
`,
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        // The broken rewrite first does not hide the command from the guard after it.
        assertEquals(toolOutputs("chain", 1), ["[bash denied by a hook: pushing is for humans]"]);
        // A valid rewrite survives a later hook's invalid one.
        assertEquals(toolOutputs("chain", 2).at(-1), "first\n");
        assertStringIncludes(
          run.stderr,
          `[warning: ${hookInputText("bash", ["command is missing"])}]`,
        );
        assertStringIncludes(
          run.stderr,
          `[warning: ${hookInputText("bash", ['command: ["a"] is not a string'])}]`,
        );
        assertEquals(
          hookInputText("bash", ["command is missing"]),
          "preToolCall hook gave bash an input it cannot take (command is missing) — kept the input it had",
        );
      },
    "a new input the call's line does not show is said to be one": async () => {
      server.script("content-only", [
        { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "model\n" } }] },
        { text: "ok" },
      ]);
      const rewrite = JSON.stringify({ input: { path: "a.txt", content: "hook\n" } });
      const dir = await dirWithHooks(
        "content-only",
        `  preToolCall:\n    - command: ${
          JSON.stringify(["bash", "-c", `cat >/dev/null; echo '${rewrite}'`])
        }\n`,
      );
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(
        run.stderr,
        `📝 write_file: a.txt\n   ↳ preToolCall hook: write_file: a.txt ${INPUT_CHANGED}\n`,
      );
      assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "hook\n");
    },
    "preGeneration adds context to the prompt, or blocks it": async () => {
      server.script("pregen", [{ text: "ok" }]);
      const dir = await dirWithHooks(
        "pregen",
        `  preGeneration:
    - command: ["bash", "-c", "echo '{\\"context\\": \\"The project uses Deno.\\"}'"]
`,
      );
      const run = await runMM(["-p", "build it"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        server.chats("pregen")[0].body.messages.at(-1).content,
        "build it\n[context added by a hook]\nThe project uses Deno.",
      );
      const blocked = await dirWithHooks(
        "blocked",
        `  preGeneration:
    - command: ["bash", "-c", "echo '{\\"deny\\": true, \\"reason\\": \\"no work on Fridays\\"}'"]
`,
      );
      const b = await runMM(["-p", "build it"], { cwd: blocked });
      assertEquals(b.code, 1);
      assertEquals(b.stderr, "[mm: the prompt was blocked by a hook: no work on Fridays]\n");
      assertEquals(server.chats("blocked").length, 0, "the prompt was not sent");
    },
    "a hook that crashes, hangs or prints garbage is a warning, recorded, and the call goes on":
      async () => {
        server.script("broken", [bashCall("echo went on"), { text: "ok" }]);
        const dir = await dirWithHooks(
          "broken",
          `  preToolCall:
    - command: ["bash", "-c", "echo crashed >&2; exit 1"]
    - command: ["bash", "-c", "sleep 10"]
      timeout: 300ms
    - command: ["bash", "-c", "echo 'I am not JSON'"]
    - command: ["bash", "-c", "cat > payload.json"]
`,
          "sessions:\n  enabled: true\n",
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("broken", 1), ["went on\n"]);
        assertStringIncludes(
          run.stderr,
          '[warning: preToolCall hook "bash -c echo crashed >&2; exit 1" failed with exit code 1: crashed]',
        );
        assertStringIncludes(
          run.stderr,
          'preToolCall hook "bash -c sleep 10" timed out after 300ms',
        );
        assertStringIncludes(run.stderr, "printed something that is not a JSON object");
        const [session] = await readSessions(dir);
        assertEquals(session.errors.map((e: { where: string }) => e.where), [
          "hook",
          "hook",
          "hook",
        ]);
        // With sessions on, every hook is told the session's id.
        const payload = JSON.parse(await Deno.readTextFile(`${dir}/payload.json`));
        assertEquals([payload.event, payload.session], ["preToolCall", session.id]);
      },
  });
});

/**
 * A directory whose preToolCall hook writes its pid and its `sleep`'s, then sleeps for 71 s,
 * and whose model's first call writes `written.txt`.
 */
async function slowHook(model: string): Promise<string> {
  server.script(model, [
    { toolCalls: [{ name: "write_file", arguments: { path: "written.txt", content: "late\n" } }] },
    { text: "went on" },
  ]);
  return await dirWithHooks(
    model,
    `  preToolCall:
    - command: ["bash", "-c", "echo $$ > hook.pid; sleep 71 & echo $! > sleep.pid; wait"]
`,
    "sessions:\n  enabled: true\n",
  );
}

/** The hook's and its sleep's pids, once both are written. */
async function hookPids(dir: string): Promise<string[]> {
  await until(`${dir}/sleep.pid`);
  return [
    (await Deno.readTextFile(`${dir}/hook.pid`)).trim(),
    (await Deno.readTextFile(`${dir}/sleep.pid`)).trim(),
  ];
}

Deno.test("a turn cancelled during its preToolCall hook kills the hook and never runs the tool", async (t) => {
  await runCases(t, {
    "SIGTERM: the hook's group killed, the tool not run, exit 143": async () => {
      const dir = await slowHook("hook-sigterm");
      const run = await runMM(["-p", "write it", "--json"], {
        cwd: dir,
        started: (child) => {
          (async () => {
            await until(`${dir}/sleep.pid`);
            child.kill("SIGTERM");
          })();
        },
      });
      assertEquals(run.code, 143, run.stderr);
      for (const pid of await hookPids(dir)) assertEquals(await gone(pid), true, pid);
      assertEquals(await exists(`${dir}/written.txt`), false, "the tool ran after its hook");
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const result = events.find((e) => e.type === "tool_result");
      assertEquals([result.output, result.failed], [
        "[error: not run: the turn was stopped]",
        true,
      ]);
      assertEquals(events.at(-1).message, "[error: interrupted by SIGTERM]");
      assertEquals(run.stderr, "", "a killed hook is no hook failure");
    },
    "a double SIGINT exits at once and leaves no hook behind": async () => {
      const dir = await slowHook("hook-sigint-twice");
      const run = await runMM(["-p", "write it"], {
        cwd: dir,
        started: (child) => {
          (async () => {
            await until(`${dir}/sleep.pid`);
            // The hook ignores SIGTERM's first blow no longer than the grace; the second SIGINT
            // comes before the group is gone.
            child.kill("SIGINT");
            child.kill("SIGINT");
          })();
        },
      });
      assertEquals(run.code, 130, run.stderr);
      for (const pid of await hookPids(dir)) assertEquals(await gone(pid), true, pid);
      assertEquals(await exists(`${dir}/written.txt`), false);
    },
    "Esc in line mode: the hook killed, the tool not run, the conversation goes on": async () => {
      const dir = await slowHook("hook-esc");
      const term = await Terminal.mm(dir);
      try {
        await term.waitFor("Ctrl-D quits.");
        await term.type("write it");
        await term.keys("Enter");
        const pids = await hookPids(dir);
        await term.keys("Escape");
        await term.waitFor("⏹ turn cancelled");
        for (const pid of pids) assertEquals(await gone(pid), true, pid);
        assertEquals(await exists(`${dir}/written.txt`), false, "the tool ran after its hook");
        // mm still runs: its session's lock file is beside the session file.
        const [file] = [...Deno.readDirSync(sessionsOf(dir))].filter((e) =>
          e.name.endsWith(".json")
        );
        const session = JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${file.name}`));
        assertEquals(session.messages.at(-1).content, "[error: not run: the turn was stopped]");
      } finally {
        await term.kill();
      }
    },
  });
  await server.close();
});
