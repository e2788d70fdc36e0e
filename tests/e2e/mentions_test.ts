/**
 * `@path` mentions, `!command` and `/model` in line and window mode: the real `mm` in a terminal
 * (tmux), typed at, against the scripted server.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Starts `mm` (line mode, or window mode with `-tui`) in a fresh directory holding a README.md. */
async function mm(model: string, args: string[] = []) {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n`);
  await Deno.writeTextFile(`${dir}/README.md`, "# Title\nsecond line\n");
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
  );
  await term.waitFor("Ctrl-D quits.");
  return { term, dir };
}

/** The last user message of the `n`th chat request for `model`. */
function lastUser(model: string, n: number): string {
  const messages: { role: string; content: string }[] = server.chats(model)[n].body.messages;
  return messages.findLast((m) => m.role === "user")!.content;
}

for (const mode of ["line", "window"]) {
  const args = mode === "window" ? ["-tui"] : [];
  Deno.test(`mentions, ! and /model in ${mode} mode`, async (t) => {
    await runCases(t, {
      "@REA<Tab> completes; the file goes along numbered, its 📎 line shown": async () => {
        const model = `mention-${mode}`;
        server.script(model, [{ text: "Read it." }]);
        const { term } = await mm(model, args);
        try {
          await term.type("what is in @REA");
          await term.keys("Tab");
          await term.waitFor("what is in @README.md");
          await term.keys("Enter");
          const screen = await term.waitFor("Read it.");
          assertStringIncludes(screen, "📎 README.md (2 lines)");
          const sent = lastUser(model, 0);
          assertStringIncludes(sent, "what is in @README.md");
          assertStringIncludes(sent, "--- @README.md ---\n");
          assertStringIncludes(sent, "1 │ # Title");
          assertStringIncludes(sent, "2 │ second line");
        } finally {
          await term.kill();
        }
      },
      "@ a missing file is said and nothing is sent": async () => {
        const model = `missing-${mode}`;
        server.script(model, [{ text: "never" }]);
        const { term } = await mm(model, args);
        try {
          await term.type("read @nope.txt");
          await term.keys("Enter");
          await term.waitFor("@nope.txt: no such file or folder — nothing was sent");
          assertEquals(server.chats(model).length, 0);
        } finally {
          await term.kill();
        }
      },
      "!echo hi shows hi, makes no request; the next request holds it": async () => {
        const model = `bang-${mode}`;
        server.script(model, [{ text: "Seen." }]);
        const { term } = await mm(model, args);
        try {
          await term.type("!echo hi");
          await term.keys("Enter");
          // Line mode shows the output; window mode folds it under its call (`▸ 1 line`).
          await term.waitFor(mode === "line" ? /\n\s*hi\n/ : /bash {2}echo hi {2}✓/);
          assertEquals(server.chats(model).length, 0);
          await term.type("what did it say?");
          await term.keys("Enter");
          await term.waitFor("Seen.");
          assertEquals(lastUser(model, 0), "I ran: echo hi\nhi\n\n\nwhat did it say?");
        } finally {
          await term.kill();
        }
      },
      "/model lists and switches; the next request names the new model": async () => {
        const model = `switch-${mode}`;
        const other = `other-${mode}`;
        server.script(model, [{ text: "First." }]);
        server.script(other, [{ text: "Second." }]);
        const before = server.models;
        server.models = [model, other];
        const { term } = await mm(model, args);
        try {
          await term.type("/model");
          await term.keys("Enter");
          await term.waitFor(`  ${other}`);
          assertStringIncludes(await term.screen(), `* ${model}`);
          await term.type("hello");
          await term.keys("Enter");
          await term.waitFor("First.");
          await term.type("/model oth");
          await term.keys("Tab");
          await term.waitFor(`/model ${other}`);
          await term.keys("Enter");
          await term.waitFor(`model ${other} from the next request`);
          await term.type("again");
          await term.keys("Enter");
          await term.waitFor("Second.");
          const chat = server.chats(other)[0].body;
          assertEquals(chat.model, other);
          const users = chat.messages.filter((m: { role: string }) => m.role === "user");
          assertEquals(users.map((m: { content: string }) => m.content), ["hello", "again"]);
        } finally {
          server.models = before;
          await term.kill();
        }
      },
    });
  });
}
