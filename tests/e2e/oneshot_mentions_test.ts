/**
 * `@path` mentions in `mm -p` (lib/frontend/oneshot.ts through lib/agent/commands.ts's
 * attachMentions, as line mode): the file goes along numbered; a missing one, or one out of the
 * project, sends nothing and exits 1.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** A project for `model` holding a README.md of two lines. */
async function project(model: string, extra = ""): Promise<string> {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
  await Deno.writeTextFile(`${dir}/README.md`, "# Title\nsecond line\n");
  return dir;
}

/** The last user message of the `n`th chat request for `model`. */
function lastUser(model: string, n: number): string {
  const messages: { role: string; content: string }[] = server.chats(model)[n].body.messages;
  return messages.findLast((m) => m.role === "user")!.content;
}

Deno.test("mm -p: @path mentions", async (t) => {
  await runCases(t, {
    "the file goes along numbered; stdout is the answer alone": async () => {
      const model = "p-mention";
      server.script(model, [{ text: "Read it." }]);
      const dir = await project(model);
      const run = await runMM(["-p", "what is in @README.md?"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "Read it.\n");
      assertStringIncludes(run.stderr, "📎 README.md (2 lines)");
      const sent = lastUser(model, 0);
      assertStringIncludes(sent, "what is in @README.md?");
      assertStringIncludes(sent, "Files attached by the user:\n--- @README.md ---\n");
      assertStringIncludes(sent, "1 │ # Title");
      assertStringIncludes(sent, "2 │ second line");
    },
    "--json: the same request, the answer event": async () => {
      const model = "p-mention-json";
      server.script(model, [{ text: "Read it." }]);
      const dir = await project(model);
      const run = await runMM(["-p", "--json", "see @README.md"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(events.some((e) => e.type === "answer" && e.text === "Read it."), true);
      assertStringIncludes(lastUser(model, 0), "2 │ second line");
    },
    "a missing file: one sentence, nothing sent, exit 1": async () => {
      const model = "p-mention-missing";
      server.script(model, [{ text: "never" }]);
      const dir = await project(model);
      const run = await runMM(["-p", "see @nope.txt"], { cwd: dir });
      assertEquals(run.code, 1);
      assertEquals(run.stdout, "");
      assertStringIncludes(run.stderr, "@nope.txt: no such file or folder — nothing was sent");
      assertEquals(server.chats(model).length, 0);
    },
    "yolo: false: a file out of the project is refused as read_file's call would be: nothing sent, exit 1":
      async () => {
        const model = "p-mention-outside";
        server.script(model, [{ text: "never" }]);
        const dir = await project(model, "yolo: false\n");
        const outside = await tempDir("mm-outside-");
        await Deno.writeTextFile(`${outside}/secret.txt`, "secret\n");
        const run = await runMM(["-p", `see @${outside}/secret.txt`], { cwd: dir });
        assertEquals(run.code, 1, run.stderr);
        assertStringIncludes(run.stderr, `@${outside}/secret.txt: `);
        assertStringIncludes(run.stderr, " — nothing was sent");
        assertEquals(server.chats(model).length, 0);
      },
  });
});
