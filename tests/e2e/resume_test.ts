/**
 * The session picker (`mm -r`, `/resume`) and window mode's turn list (Esc Esc), through the real
 * mm in a terminal (tmux) against the scripted server; the sessions made by earlier `mm -p` runs.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, sessionsOf, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";
import { SessionLock } from "../../lib/session/lock.ts";
import { RESUME_WITH_PROMPT } from "../../main.ts";
import { RESUME_OFF_AT_START } from "../../lib/agent/commands.ts";

const server = ScriptedServer.start();

/** A directory whose agent file uses `model`, with two sessions made by two `mm -p` runs. */
async function twoSessions(
  model: string,
  more: { text: string }[] = [],
  yaml = "",
): Promise<string> {
  server.script(model, [{ text: "first answer" }, { text: "second answer" }, ...more]);
  const dir = await workdir(`url: ${server.url}\nmodel: ${model}\n${yaml}`);
  for (const prompt of ["the older question", "the newer question"]) {
    const run = await runMM(["-p", prompt], { cwd: dir });
    assertEquals(run.code, 0, run.stderr);
  }
  return dir;
}

/** The session ids of `dir`, oldest first. */
async function ids(dir: string): Promise<string[]> {
  const out: { id: string; created: string }[] = [];
  for await (const e of Deno.readDir(sessionsOf(dir))) {
    if (!e.name.endsWith(".json")) continue;
    const { created } = JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${e.name}`));
    out.push({ id: e.name.slice(0, -5), created });
  }
  // By creation time: two sessions of the same second have ids that sort by their random suffix.
  return out.sort((a, b) => a.created.localeCompare(b.created)).map((s) => s.id);
}

/** The contents of the user messages of the last request the server got for `model`. */
function lastQuestions(model: string): string[] {
  return server.chats(model).at(-1)!.body.messages
    .filter((m: { role: string }) => m.role === "user")
    .map((m: { content: string }) => m.content);
}

Deno.test("the session picker and the turn list", async (t) => {
  await runCases(t, {
    "line mode: mm -r lists both sessions, newest first; 2 continues the older one": async () => {
      const dir = await twoSessions("pick-line", [{ text: "third answer" }]);
      const term = await Terminal.mm(dir, ["-r"]);
      try {
        const list = await term.waitFor("resume which? [1-2, Enter the newest");
        const rows = list.split("\n").filter((l) => / {3}[12]\. /.test(l));
        assertEquals(rows.length, 2, list);
        assertStringIncludes(rows[0], "1 turn(s)  pick-line  the newer question");
        assertStringIncludes(rows[1], "1 turn(s)  pick-line  the older question");
        await term.type("2");
        await term.keys("Enter");
        const [older] = await ids(dir);
        await term.waitFor(`resumed session ${older} (2 earlier message(s))`);
        await term.waitFor("(continuing: 2 earlier message(s))");
        await term.type("and now?");
        await term.keys("Enter");
        await term.waitFor("third answer");
        assertEquals(lastQuestions("pick-line"), ["the older question", "and now?"]);
      } finally {
        await term.kill();
      }
    },
    "sessions.keep 2: mm -r still lists both (old sessions go at the first save, not before)":
      async () => {
        const dir = await twoSessions("pick-keep", [], "sessions:\n  keep: 2\n");
        const term = await Terminal.mm(dir, ["-r"]);
        try {
          const list = await term.waitFor("resume which? [1-2, Enter the newest");
          const rows = list.split("\n").filter((l) => / {3}[12]\. /.test(l));
          assertEquals(rows.length, 2, list);
          assertEquals((await ids(dir)).length, 2);
        } finally {
          await term.kill();
        }
      },
    "line mode: /resume lists, a busy one is said, Enter alone takes the newest": async () => {
      const dir = await twoSessions("pick-slash", [{ text: "hello" }, { text: "later" }]);
      const [older, newer] = await ids(dir);
      const held = await SessionLock.acquire(sessionsOf(dir), older);
      const term = await Terminal.mm(dir);
      try {
        await term.waitFor("Ctrl-D quits.");
        await term.type("hi");
        await term.keys("Enter");
        await term.waitFor("hello");
        await term.type("/resume");
        await term.keys("Enter");
        const list = await term.waitFor("Esc keep this one]");
        assertStringIncludes(list, "Sessions of this directory, newest first");
        assertStringIncludes(
          list,
          `the older question  [busy: in use by another mm (pid ${Deno.pid})]`,
        );
        await term.type("2");
        await term.keys("Enter");
        await term.waitFor(`/resume: session ${older} is in use by another mm (pid ${Deno.pid})`);
        await term.keys("Enter");
        await term.waitFor(`resumed session ${newer} (2 earlier message(s))`);
        await term.type("go on");
        await term.keys("Enter");
        await term.waitFor("later");
        assertEquals(lastQuestions("pick-slash"), ["the newer question", "go on"]);
      } finally {
        await term.kill();
        await held.release();
      }
    },
    "line mode: mm -r with no session, and Esc at the picker, start a new conversation":
      async () => {
        const empty = await workdir(`url: ${server.url}\nmodel: pick-none\n`);
        const none = await Terminal.mm(empty, ["-r"]);
        try {
          await none.waitFor("no earlier session in this directory: a new conversation starts");
        } finally {
          await none.kill();
        }
        const off = await workdir(
          `url: ${server.url}\nmodel: pick-off\nsessions:\n  enabled: false\n`,
        );
        const offTerm = await Terminal.mm(off, ["-r"]);
        try {
          await offTerm.waitFor(RESUME_OFF_AT_START);
          assertEquals(
            RESUME_OFF_AT_START,
            "-r needs sessions (sessions.enabled: false in the agent file): a new conversation starts",
          );
        } finally {
          await offTerm.kill();
        }
        const dir = await twoSessions("pick-esc");
        const term = await Terminal.mm(dir, ["-r"]);
        try {
          await term.waitFor("resume which?");
          await term.keys("Escape");
          await term.waitFor("(none chosen: a new conversation)");
        } finally {
          await term.kill();
        }
      },
    "-r with -p is a usage error": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: pick-p\n`);
      const run = await runMM(["-r", "-p", "x"], { cwd: dir });
      assertEquals(run.code, 2);
      assertEquals(run.stderr, `mm: ${RESUME_WITH_PROMPT} — run mm --help for the flags\n`);
      assertStringIncludes(RESUME_WITH_PROMPT, "with -p use --continue or --session ID");
    },
    "window mode: mm -tui -r shows the list; ↓ Enter continues the older one": async () => {
      const dir = await twoSessions("pick-window", [{ text: "window answer" }]);
      const term = await Terminal.mm(dir, ["-tui", "-r"]);
      try {
        await term.waitFor("Resume which session?");
        await term.waitFor(/❯ 1\. .*the newer question/);
        await term.keys("Down");
        await term.waitFor(/❯ 2\. .*the older question/);
        await term.keys("Enter");
        const [older] = await ids(dir);
        await term.waitFor(`resumed session ${older}`);
        await term.type("and now?");
        await term.keys("Enter");
        await term.waitFor("window answer");
        assertEquals(lastQuestions("pick-window"), ["the older question", "and now?"]);
      } finally {
        await term.kill();
      }
    },
    "window mode: Esc Esc opens the turn list; Enter rewinds, the prompt back in the input":
      async () => {
        server.script("rewind-window", [{ text: "one done" }, { text: "two done" }, {
          text: "redone",
        }]);
        const dir = await workdir(`url: ${server.url}\nmodel: rewind-window\n`);
        const term = await Terminal.mm(dir, ["-tui"]);
        try {
          await term.waitFor("Ctrl-D quits.");
          for (const [prompt, answer] of [["turn one", "one done"], ["turn two", "two done"]]) {
            await term.type(prompt);
            await term.keys("Enter");
            await term.waitFor(answer);
          }
          await term.keys("Escape", "Escape");
          await term.waitFor("Rewind to which turn?");
          await term.waitFor(/❯ 1\. \d\d:\d\d +turn one/);
          await term.keys("Down");
          await term.waitFor(/❯ 2\. \d\d:\d\d +turn two/);
          await term.keys("Enter");
          await term.waitFor('took back turn 2 ("turn two")');
          await term.waitFor(/› turn two/);
          await term.keys("Enter");
          await term.waitFor("redone");
          assertEquals(lastQuestions("rewind-window"), ["turn one", "turn two"]);
          const sent = server.chats("rewind-window").at(-1)!.body.messages;
          assertEquals(sent.map((m: { role: string }) => m.role), [
            "system",
            "user",
            "assistant",
            "user",
          ]);
        } finally {
          await term.kill();
        }
      },
  });
});
