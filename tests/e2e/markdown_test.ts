/**
 * The answer's Markdown on the terminal: the real `mm` in tmux (line and window mode) against the
 * scripted server; `NO_COLOR` and `mm -p` keep the raw text.
 */

import assert from "node:assert/strict";
import { assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

const ANSWER = "# Big Title\n\nSome **bold** and `code`.\n\n```python\nprint('hi')\n```\n\n" +
  "| name | qty |\n|------|----:|\n| apple | 1 |\n| kiwi | 100 |\n\nThe end.";

/** Starts `mm args…` in tmux in a fresh directory whose agent file uses `model`. */
async function mm(model: string, args: string[], env: Record<string, string>) {
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n`);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
    { cwd: dir, env: { HOME: dir, DENO_DIR, TERM: "xterm-256color", ...env }, width: 80 },
  );
  await term.waitFor("Ctrl-D quits.");
  return term;
}

/** The screen without the spaces that end its rows. */
function tidy(screen: string): string {
  return screen.split("\n").map((r) => r.trimEnd()).join("\n");
}

/** Asserts the answer drawn rendered: no `#`, no fence, the table aligned. */
function assertRendered(screen: string): void {
  assertStringIncludes(screen, "Big Title\n\nSome bold and code.\n\npython\n  print('hi')\n");
  assert(!screen.includes("# Big"), screen);
  assert(!screen.includes("```"), screen);
  assertStringIncludes(screen, " name  │ qty\n───────┼─────\n apple │   1\n kiwi  │ 100\n");
}

Deno.test("markdown on the terminal", async (t) => {
  await runCases(t, {
    "line mode: headings, code blocks and tables rendered": async () => {
      server.script("md-line", [{ text: ANSWER }]);
      const term = await mm("md-line", [], { NO_COLOR: "" });
      try {
        await term.type("show me");
        await term.keys("Enter");
        const screen = tidy(await term.waitFor(/The end\.\n(.*\n)*›/));
        assertRendered(screen);
      } finally {
        await term.kill();
      }
    },
    "line mode: NO_COLOR keeps the raw text": async () => {
      server.script("md-raw", [{ text: ANSWER }]);
      const term = await mm("md-raw", [], { NO_COLOR: "1" });
      try {
        await term.type("show me");
        await term.keys("Enter");
        const screen = tidy(await term.waitFor("The end."));
        assertStringIncludes(screen, "# Big Title");
        assertStringIncludes(screen, "```python");
        assertStringIncludes(screen, "| apple | 1 |");
      } finally {
        await term.kill();
      }
    },
    "window mode: headings, code blocks and tables rendered": async () => {
      server.script("md-window", [{ text: ANSWER }]);
      const term = await mm("md-window", ["-tui"], { NO_COLOR: "" });
      try {
        await term.type("show me");
        await term.keys("Enter");
        const screen = tidy(await term.waitFor(/kiwi .*100/));
        assertRendered(screen);
      } finally {
        await term.kill();
      }
    },
    "mm -p keeps the raw Markdown on stdout": async () => {
      server.script("md-p", [{ text: ANSWER }]);
      const dir = await workdir(`url: ${server.url}\nmodel: md-p\n`);
      const run = await runMM(["-p", "show me"], { cwd: dir, env: { NO_COLOR: "" } });
      assertStringIncludes(run.stdout, ANSWER);
    },
  });
});
