/**
 * A burst of lines typed in one read without bracketed paste is one prompt, in line and window
 * mode: the real `mm` in tmux (send-keys of a multi-line literal) against the scripted server.
 */

import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** The user messages the model was sent for `model`. */
function prompts(model: string): string[] {
  return server.chats(model).flatMap((
    c: { body: { messages: { role: string; content: string }[] } },
  ) => c.body.messages.filter((m) => m.role === "user").map((m) => m.content));
}

async function burst(model: string, args: string[]) {
  server.script(model, [{ text: "got it" }, { text: "again" }]);
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n`);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
  );
  try {
    await term.waitFor("Ctrl-D quits.");
    await term.type("first line\nsecond line\nthird line\n");
    await term.waitFor("got it");
    assertEquals(server.chats(model).length, 1, "one prompt, one request");
    assertEquals(prompts(model).at(-1)?.endsWith("first line\nsecond line\nthird line"), true);
  } finally {
    await term.kill();
  }
}

Deno.test("a burst of lines is one prompt", async (t) => {
  await runCases(t, {
    "line mode": () => burst("burst-line", []),
    "window mode": () => burst("burst-window", ["-tui"]),
  });
});
