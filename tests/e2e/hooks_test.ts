/** Hooks through the real `mm -p`: small scripts that deny, rewrite, add context, crash, hang, babble. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

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
        const [file] = [...Deno.readDirSync(`${dir}/.mm/sessions`)];
        const session = JSON.parse(await Deno.readTextFile(`${dir}/.mm/sessions/${file.name}`));
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
  await server.close();
});
