/**
 * The warm cache (lib/provider/warmup.ts): line mode sends the prompt's prefix ahead as a one-token
 * request, `-p` and `warmup: false` send none, a warm-up that hangs is let go of when the user
 * sends, against the scripted server.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, runMM, workdir } from "../helpers/mm.ts";
import { type Recorded, ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";
import { within } from "../../lib/wait.ts";

const server = ScriptedServer.start();

/** Starts `mm` (line mode) in a terminal, in a fresh directory whose agent file uses `model`. */
async function lineMode(model: string, extra = "") {
  const dir = await workdir(`provider: llamacpp\nurl: ${server.url}\nmodel: ${model}\n${extra}`);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR, MM_TRUST: "1" } },
  );
  await term.waitFor("Ctrl-D quits.");
  return term;
}

/** The bytes of a request's prefix: its system message, its tools, its thinking fields. */
function prefix(r: Recorded): string {
  const { messages, tools, chat_template_kwargs, reasoning_effort } = r.body;
  return JSON.stringify([messages[0], tools, chat_template_kwargs, reasoning_effort]);
}

Deno.test("warm cache", async (t) => {
  await runCases(t, {
    "line mode warms the prefix at start and after /new, the same bytes as the first request":
      async () => {
        server.script("warm", [{ text: "Hello there." }]);
        const term = await lineMode("warm", "thinking: off\n");
        try {
          const warm = await server.warmup("warm");
          assertEquals(warm.body.max_tokens, 1);
          assertEquals(warm.body.messages.map((m: { role: string }) => m.role), [
            "system",
            "user",
          ]);
          await term.type("hi");
          await term.keys("Enter");
          await term.waitFor("Hello there.");
          const first = server.chats("warm")[0];
          assertEquals(prefix(warm), prefix(first));
          assertEquals(first.body.max_tokens, undefined);
          await term.type("/new");
          await term.keys("Enter");
          const again = await server.warmup("warm", 1);
          assertEquals(prefix(again), prefix(first));
          assertEquals(server.chats("warm").length, 1);
        } finally {
          await term.kill();
        }
      },
    "/model warms the new model through its own client": async () => {
      server.models = ["scripted", "warm-a", "warm-b"];
      const term = await lineMode("warm-a");
      try {
        await server.warmup("warm-a");
        await term.type("/model warm-b");
        await term.keys("Enter");
        await term.waitFor("model warm-b from the next request");
        const warmed = server.warmup("warm-b").then(() => true);
        assertEquals(await within(warmed, 10_000), true, "no warm-up for the new model");
        assertEquals(server.warmups("warm-a").length, 1);
      } finally {
        await term.kill();
        server.models = ["scripted"];
      }
    },
    "mm -p sends no warm-up": async () => {
      server.script("oneshot-cold", [{ text: "answered" }]);
      const dir = await workdir(`provider: llamacpp\nurl: ${server.url}\nmodel: oneshot-cold\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertEquals([run.code, run.stdout], [0, "answered\n"], run.stderr);
      assertEquals(server.warmups("oneshot-cold").length, 0);
      assertEquals(server.chats("oneshot-cold").length, 1);
    },
    "warmup: false sends none": async () => {
      server.script("cold", [{ text: "Cold answer." }]);
      const term = await lineMode("cold", "warmup: false\n");
      try {
        await term.type("hi");
        await term.keys("Enter");
        await term.waitFor("Cold answer.");
        assertEquals(server.warmups("cold").length, 0);
        assertEquals(server.chats("cold").length, 1);
      } finally {
        await term.kill();
      }
    },
    "a warm-up that hangs is let go of when the user sends, and never shown": async () => {
      server.warmReplies["stuck"] = { hang: true };
      const gone = server.warmupGone("stuck");
      server.script("stuck", [{ text: "Answered at once." }]);
      const term = await lineMode("stuck");
      try {
        await server.warmup("stuck");
        await term.type("hi");
        await term.keys("Enter");
        assertEquals(await within(gone, 10_000), true, "the warm-up was not let go of");
        const screen = await term.waitFor("Answered at once.");
        assertEquals(server.chats("stuck").length, 1);
        assertEquals(/error|warm/i.test(screen), false, screen);
      } finally {
        await term.kill();
      }
    },
    "a warm-up the server refuses (still loading) shows nothing": async () => {
      server.warmReplies["loading"] = {
        status: 503,
        body: { error: { code: 503, message: "Loading model", type: "unavailable_error" } },
      };
      server.script("loading", [{ text: "Loaded now." }]);
      const term = await lineMode("loading");
      try {
        await server.warmup("loading");
        await term.type("hi");
        await term.keys("Enter");
        const screen = await term.waitFor("Loaded now.");
        assertStringIncludes(screen, "› hi\nLoaded now.");
      } finally {
        await term.kill();
      }
    },
  });
  await server.close();
});
