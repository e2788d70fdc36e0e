/** Undo through the real `mm -p` and `mm undo`, in real git repositories (docs/undo.md). */

import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { chunks, Editor } from "../helpers/acp.ts";
import { runCases } from "../helpers/cases.ts";
import {
  DENO_DIR,
  exists,
  MAIN,
  readSessions,
  runMM,
  sessionFiles,
  sessionsOf,
  workdir,
} from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Runs git in `dir` (the test's own process: mm is not involved). */
async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

/** A git repository with a.txt and c.txt committed, its agent file keeping sessions. */
async function repo(model: string, inGit = true): Promise<string> {
  const dir = await workdir(
    `url: ${server.url}\nmodel: ${model}\nyolo: true\nsessions:\n  enabled: true\n`,
  );
  await Deno.writeTextFile(`${dir}/a.txt`, "one\n");
  await Deno.writeTextFile(`${dir}/c.txt`, "see\n");
  if (inGit) {
    await git(dir, "init", "-q");
    await git(dir, "add", "a.txt", "c.txt");
    await git(dir, "commit", "-q", "-m", "start");
  }
  return dir;
}

/** The only session file of `dir`, parsed. */
// deno-lint-ignore no-explicit-any
async function session(dir: string): Promise<any> {
  const [only] = await readSessions(dir);
  return only;
}

const EDIT_AND_BASH = [
  {
    toolCalls: [
      { name: "write_file", arguments: { path: "a.txt", content: "two\n" } },
      { name: "bash", arguments: { command: "echo new > b.txt && rm c.txt" } },
    ],
  },
  { text: "done" },
];

Deno.test("undo", async (t) => {
  await runCases(t, {
    "mm -p edits and runs bash; mm undo restores the files and the session loses the turn":
      async () => {
        server.script("undo-p", EDIT_AND_BASH);
        const dir = await repo("undo-p");
        const run = await runMM(["-p", "change things"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "two\n");
        assertEquals(await exists(`${dir}/b.txt`), true);
        assertEquals(await exists(`${dir}/c.txt`), false);
        assertEquals((await session(dir)).messages.length, 5);
        const undo = await runMM(["undo"], { cwd: dir });
        assertEquals(undo.code, 0, undo.stderr);
        assertEquals(
          undo.stdout,
          [
            'took back turn 1 ("change things"): 3 file(s) restored',
            "  restored a.txt",
            "  restored c.txt",
            "  removed b.txt (the turn made it)",
            "",
          ].join("\n"),
        );
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "one\n");
        assertEquals(await Deno.readTextFile(`${dir}/c.txt`), "see\n");
        assertEquals(await exists(`${dir}/b.txt`), false);
        assertEquals((await session(dir)).messages, []);
        const again = await runMM(["undo"], { cwd: dir });
        assertEquals(again.code, 1);
        assertEquals(again.stderr, "mm: the session has no turn to take back\n");
      },
    "a file changed since the turn is left alone and named": async () => {
      server.script("undo-changed", EDIT_AND_BASH);
      const dir = await repo("undo-changed");
      assertEquals((await runMM(["-p", "change things"], { cwd: dir })).code, 0);
      await Deno.writeTextFile(`${dir}/a.txt`, "mine\n");
      const undo = await runMM(["undo"], { cwd: dir });
      assertEquals(undo.code, 0, undo.stderr);
      assertStringIncludes(undo.stdout, "  left alone a.txt: changed since the turn\n");
      assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "mine\n");
      assertEquals(await Deno.readTextFile(`${dir}/c.txt`), "see\n");
    },
    "outside git, the file tools' files come back and the commands' changes are said to stay":
      async () => {
        server.script("undo-nogit", EDIT_AND_BASH);
        const dir = await repo("undo-nogit", false);
        assertEquals((await runMM(["-p", "change things"], { cwd: dir })).code, 0);
        const undo = await runMM(["undo"], { cwd: dir });
        assertEquals(undo.code, 0, undo.stderr);
        assertEquals(
          undo.stdout,
          [
            'took back turn 1 ("change things"): 1 file(s) restored',
            "  restored a.txt",
            "  commands ran outside a git work tree: what they changed cannot be taken back",
            "",
          ].join("\n"),
        );
        assertEquals(await exists(`${dir}/b.txt`), true);
      },
    "line mode: /undo puts the prompt back, /rewind lists and takes back, /rewind 0": async () => {
      server.script("undo-line", [
        ...EDIT_AND_BASH,
        { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "three\n" } }] },
        { text: "second done" },
        { text: "fresh answer" },
      ]);
      const dir = await repo("undo-line");
      const term = await Terminal.start(
        [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
        { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
      );
      try {
        await term.waitFor("Ctrl-D quits.");
        await term.type("change things");
        await term.keys("Enter");
        await term.waitFor(/done\n(.*\n)?⚙/);
        await term.type("make it three");
        await term.keys("Enter");
        await term.waitFor("second done");
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "three\n");
        await term.type("/rewind");
        await term.keys("Enter");
        const list = await term.waitFor(
          / {2}2 {2}\d\d:\d\d {2}make it three {2}\(a\.txt\)/,
        );
        assertMatch(
          list,
          / {2}1 {2}\d\d:\d\d {2}change things {2}\((?:[abc]\.txt(?:, |\))){3}/,
        );
        await term.type("/undo");
        await term.keys("Enter");
        // The prompt put back comes after the report (the typed one is higher up).
        await term.waitFor(
          /took back turn 2 \("make it three"\): 1 file\(s\) restored\n(.*\n)*› make it three$/m,
        );
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "two\n");
        await term.keys("C-u");
        await term.type("/rewind 1");
        await term.keys("Enter");
        await term.waitFor('took back turn 1 ("change things")');
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "one\n");
        assertEquals(await Deno.readTextFile(`${dir}/c.txt`), "see\n");
        await term.keys("C-u");
        await term.type("/rewind 0");
        await term.keys("Enter");
        await term.waitFor("/rewind: there is no turn to take back");
        await term.type("again");
        await term.keys("Enter");
        await term.waitFor("fresh answer");
        // The model's next request holds nothing of the turns taken back.
        const sent = server.chats("undo-line").at(-1)!.body.messages;
        assertEquals(sent.map((m: { role: string }) => m.role), ["system", "user"]);
        assertEquals((await session(dir)).messages.map((m: { turn: number }) => m.turn), [1, 1]);
      } finally {
        await term.kill();
      }
    },
    "editor mode: /undo takes the last turn back, files and messages": async () => {
      const dir = await repo("undo-acp");
      server.script("undo-acp", [
        { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "two\n" } }] },
        { text: "changed" },
        { text: "fresh" },
      ]);
      const editor = await Editor.start({ cwd: dir });
      try {
        const id = await editor.newSession(dir);
        assertEquals(editor.commandsOf(id).includes("undo"), true);
        assertEquals(await editor.prompt(id, "change a"), "end_turn");
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "two\n");
        assertEquals(await editor.prompt(id, "/undo"), "end_turn");
        assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "one\n");
        const said = chunks(editor.updatesOf(id), "agent_message_chunk");
        assertStringIncludes(said, 'took back turn 1 ("change a")');
        // The model's next request holds nothing of the turn taken back.
        assertEquals(await editor.prompt(id, "again"), "end_turn");
        const sent = server.chats("undo-acp").at(-1)!.body.messages;
        assertEquals(sent.map((m: { content: string }) => m.content).slice(1), ["again"]);
      } finally {
        const finished = await editor.close();
        assertEquals(finished.code, 0, finished.stderr);
      }
    },
    "an undo stopped half way is finished at the next start (its modules loaded then)":
      async () => {
        server.script("undo-journal", [...EDIT_AND_BASH, { text: "again" }]);
        const dir = await repo("undo-journal");
        assertEquals((await runMM(["-p", "change things"], { cwd: dir })).code, 0);
        const [name] = sessionFiles(dir);
        const journal = `${sessionsOf(dir)}/${name.replace(/\.json$/, "")}.undo/restore.json`;
        // mm was killed after writing the journal of an undo of turn 1, before its first write.
        await Deno.writeTextFile(journal, JSON.stringify({ turns: [1], writes: [] }));
        const run = await runMM(["-p", "--continue", "again"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertStringIncludes(
          run.stderr,
          "an undo of turn 1 was stopped half way; it was finished: 0 file(s) restored",
        );
        assertEquals(await exists(journal), false);
        assertEquals((await session(dir)).messages.length, 2);
      },
    "mm undo --help, and with sessions off": async () => {
      const help = await runMM(["undo", "--help"], { cwd: await repo("undo-help") });
      assertEquals(help.code, 0);
      assertStringIncludes(help.stdout, "Usage:\n  mm undo [-c FILE] [--session ID] [--trust]\n");
      // Sessions are on by default: this agent file turns them off.
      const off = await workdir(`url: ${server.url}\nmodel: x\nsessions:\n  enabled: false\n`);
      const run = await runMM(["undo"], { cwd: off });
      assertEquals(run.code, 1);
      assertStringIncludes(run.stderr, "mm undo needs sessions");
    },
  });
});
