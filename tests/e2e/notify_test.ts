/**
 * The bell (`notify: bell`, lib/frontend/terminal/notify.ts) through the real `mm` in tmux: the 🔐
 * prompt and box ring it, a long turn's end rings it unless the user typed meanwhile, and
 * `notify: off` keeps it quiet. tmux's `alert-bell` hook counts the bells (tests/helpers/tmux.ts).
 */

import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** How long a test listens for a bell that must not ring: tmux's hook runs within milliseconds. */
const QUIET = 1_000;

/** mm in a terminal in `dir`, its banner drawn, its bells counted from then on. */
async function terminal(dir: string, args: string[], env: Record<string, string> = {}) {
  const term = await Terminal.mm(dir, args, env);
  await term.waitFor(args.includes("-tui") ? "Ctrl-D" : "Ctrl-D quits.");
  await term.watchBells();
  return term;
}

/** A project whose model asks to run `echo hi` once, then answers "done". */
async function asking(model: string, extra = ""): Promise<string> {
  server.script(model, [
    { toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
    { text: "done" },
  ]);
  return await workdir(`url: ${server.url}\nmodel: ${model}\nyolo: false\n${extra}`);
}

Deno.test("the bell", async (t) => {
  await runCases(t, {
    "line mode: the 🔐 prompt rings": async () => {
      const term = await terminal(await asking("bell-line"), []);
      try {
        await term.type("go");
        await term.keys("Enter");
        await term.waitFor("allow? [y]es");
        await term.waitForBells(1);
      } finally {
        await term.kill();
      }
    },
    "window mode: the 🔐 box rings": async () => {
      const term = await terminal(await asking("bell-window"), ["-tui"]);
      try {
        await term.type("go");
        await term.keys("Enter");
        await term.waitFor("🔐 allow this call?");
        await term.waitForBells(1);
      } finally {
        await term.kill();
      }
    },
    "notify: off: the 🔐 prompt is quiet": async () => {
      const term = await terminal(await asking("bell-off", "notify: off\n"), []);
      try {
        await term.type("go");
        await term.keys("Enter");
        await term.waitFor("allow? [y]es");
        await new Promise((r) => setTimeout(r, QUIET));
        assertEquals(await term.bells(), 0);
      } finally {
        await term.kill();
      }
    },
    "line mode: a turn longer than the limit rings as it ends, a shorter one does not":
      async () => {
        server.script("bell-long", [{ text: "slow answer", delay: 400 }, { text: "quick answer" }]);
        const dir = await workdir(`url: ${server.url}\nmodel: bell-long\n`);
        const term = await terminal(dir, [], { MM_NOTIFY_AFTER_MS: "300" });
        try {
          await term.type("first");
          await term.keys("Enter");
          await term.waitFor("slow answer");
          await term.waitForBells(1);
          await term.type("second");
          await term.keys("Enter");
          await term.waitFor("quick answer");
          await new Promise((r) => setTimeout(r, QUIET));
          assertEquals(await term.bells(), 1);
        } finally {
          await term.kill();
        }
      },
    "line mode: a long turn the user typed during is quiet": async () => {
      server.script("bell-typed", [{ text: "slow answer", delay: 1_500 }]);
      const dir = await workdir(`url: ${server.url}\nmodel: bell-typed\n`);
      const term = await terminal(dir, [], { MM_NOTIFY_AFTER_MS: "0" });
      try {
        await term.type("first");
        await term.keys("Enter");
        await term.type("x");
        await term.waitFor("slow answer");
        await new Promise((r) => setTimeout(r, QUIET));
        assertEquals(await term.bells(), 0);
      } finally {
        await term.kill();
      }
    },
    "window mode: a long turn rings as it ends": async () => {
      server.script("bell-long-window", [{ text: "slow answer", delay: 400 }]);
      const dir = await workdir(`url: ${server.url}\nmodel: bell-long-window\n`);
      const term = await terminal(dir, ["-tui"], { MM_NOTIFY_AFTER_MS: "300" });
      try {
        await term.type("first");
        await term.keys("Enter");
        await term.waitFor("slow answer");
        await term.waitForBells(1);
      } finally {
        await term.kill();
      }
    },
  });
});
