/**
 * The terminal belongs to the user (issue 17): what a tool printed or a model wrote reaches the
 * terminal through one filter (`visible`), in line mode and on `-p`'s stderr, control characters,
 * bidi overrides and zero-width characters shown; the model still reads the output as it was.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** A command that clears the screen, retitles the window and rings the bell. */
const HOSTILE = String.raw`printf 'before\033[2J\033]0;pwned\007after\007\n'`;

/** A working directory whose agent file points at the scripted server with `model`. */
function dirFor(model: string): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n`);
}

Deno.test("-p: control characters from a tool or a model are shown, not obeyed", async (t) => {
  await runCases(t, {
    "a command's escape sequences are left out, a bell drawn as ^G; the model reads the text":
      async () => {
        server.script("hostile-p", [
          {
            text: "Look: \x1b[31mred\x1b[0m.",
            toolCalls: [{ name: "bash", arguments: { command: HOSTILE } }],
          },
          { text: "The \x1b]0;answer\x07 is here." },
        ]);
        const run = await runMM(["-p", "go"], { cwd: await dirFor("hostile-p") });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stderr.includes("\x1b"), false, JSON.stringify(run.stderr));
        assertEquals(run.stderr.includes("\x07"), false, JSON.stringify(run.stderr));
        assertStringIncludes(run.stderr, "Look: ^[[31mred^[[0m.\n");
        assertStringIncludes(run.stderr, "🛠️  bash: printf 'before\\033[2J");
        assertStringIncludes(run.stderr, "   beforeafter^G\n");
        // The model reads the text a terminal would show: the escapes cost it and say nothing.
        assertEquals(server.toolOutputs("hostile-p"), ["beforeafter\x07\n"]);
        // stdout is a pipe here: the answer is data, passed on as the model wrote it.
        assertEquals(run.stdout, "The \x1b]0;answer\x07 is here.\n");
      },
    "bidi overrides and zero-width characters are named on stderr; the model reads them raw":
      async () => {
        server.script("bidi-p", [
          {
            text: "Safe: \u202etxet\u202c.",
            toolCalls: [{ name: "bash", arguments: { command: "printf 'rm /\\u200btmp\\n'" } }],
          },
          { text: "done" },
        ]);
        const run = await runMM(["-p", "go"], { cwd: await dirFor("bidi-p") });
        assertEquals(run.code, 0, run.stderr);
        assertStringIncludes(run.stderr, "Safe: <U+202E>txet<U+202C>.\n");
        assertStringIncludes(run.stderr, "   rm /<U+200B>tmp\n");
        assertEquals(/[\u202a-\u202e\u200b]/.test(run.stderr), false);
        assertEquals(server.toolOutputs("bidi-p"), ["rm /\u200btmp\n"]);
      },
  });
});

Deno.test("-p on a terminal: the answer on stdout is drawn through the filter too", async () => {
  server.script("hostile-tty", [{ text: "Answer: \x1b[2J\x1b]2;pwned\x07kept." }]);
  const dir = await dirFor("hostile-tty");
  const term = await Terminal.mm(dir, ["-p", "go"]);
  try {
    const title = await term.title();
    const screen = await term.waitFor("[exited 0]");
    assertStringIncludes(screen, "Answer: ^[[2J^[]2;pwned^Gkept.\n");
    assertEquals(await term.title(), title);
  } finally {
    await term.kill();
  }
});

Deno.test("line mode: a command that clears the screen and retitles the window does neither", async () => {
  server.script("hostile-line", [
    { toolCalls: [{ name: "bash", arguments: { command: HOSTILE } }] },
    { text: "Done: \x1b[2Jstill here." },
  ]);
  const dir = await dirFor("hostile-line");
  const term = await Terminal.mm(dir);
  try {
    await term.waitFor("Ctrl-D quits.");
    const title = await term.title();
    await term.type("go");
    await term.keys("Enter");
    const screen = await term.waitFor("still here.");
    // The banner is still on the screen: nothing cleared it.
    assertStringIncludes(screen, "Ctrl-D quits.");
    assertStringIncludes(screen, "   beforeafter^G\n");
    assertStringIncludes(screen, "Done: ^[[2Jstill here.");
    assertEquals(await term.title(), title);
  } finally {
    await term.kill();
  }
  await server.close();
});

Deno.test("mm doctor and mm sessions on a terminal: what they print from outside goes through the filter", async (t) => {
  const hostile = ScriptedServer.start();
  hostile.models = ["evil\x1b[2J\x1b]2;pwned\x07model"];
  await runCases(t, {
    "mm doctor: a server's model id that clears the screen and retitles the pane": async () => {
      const dir = await workdir(`url: ${hostile.url}\n`);
      const term = await Terminal.mm(dir, ["doctor"]);
      try {
        const title = await term.title();
        const screen = await term.waitFor(/\[exited \d+\]/);
        assertStringIncludes(screen, "evil^[[2J^[]2;pwned^Gmodel");
        assertEquals(await term.title(), title);
      } finally {
        await term.kill();
      }
    },
    "mm sessions: a session's first question that does the same": async () => {
      const dir = await workdir(`url: ${hostile.url}\nsessions:\n  enabled: true\n`);
      const id = "20261201-120000-abcdef";
      const now = "2026-12-01T12:00:00.000Z";
      await Deno.mkdir(`${dir}/.mm/sessions`, { recursive: true });
      await Deno.writeTextFile(
        `${dir}/.mm/sessions/${id}.json`,
        JSON.stringify({
          id,
          created: now,
          updated: now,
          cwd: dir,
          provider: "ollama",
          model: "m",
          messages: [{ role: "user", content: "hi\x1b[2J\x1b]2;pwned\x07there", turn: 1 }],
          errors: [],
        }),
      );
      const term = await Terminal.mm(dir, ["sessions"]);
      try {
        const title = await term.title();
        const screen = await term.waitFor("[exited 0]");
        assertStringIncludes(
          screen,
          `${id}  2026-12-01 12:00  1 turn(s)  hi^[[2J^[]2;pwned^Gthere`,
        );
        assertEquals(await term.title(), title);
      } finally {
        await term.kill();
      }
      // Into a pipe it is data, as written.
      const piped = await runMM(["sessions"], { cwd: dir });
      assertStringIncludes(piped.stdout, "hi\x1b[2J\x1b]2;pwned\x07there");
    },
  });
  await hostile.close();
});
