/**
 * Sessions that survive crashes and company (issue 17), through the real `mm -p`: a call left
 * unanswered by `kill -9` is answered on load; runs that share a session never lose each other's
 * messages (a lock, waited for briefly, then `session <id> is in use by another mm (pid N)`).
 */

import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { mmCommand, runMM, sessionsOf, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { lockPath } from "../../lib/session/lock.ts";

const server = ScriptedServer.start();

const SESSIONS = "sessions:\n  enabled: true\n";

/** Waits until `ready` says so, or fails after 30 s: a guard, not a measure. */
async function poll(ready: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until `path` exists. */
function until(path: string): Promise<void> {
  return poll(() => Deno.stat(path).then(() => true, () => false), path);
}

/** The only session file of `dir`, parsed. */
// deno-lint-ignore no-explicit-any
async function session(dir: string): Promise<any> {
  const names = [...Deno.readDirSync(sessionsOf(dir))].map((e) => e.name)
    .filter((n) => n.endsWith(".json"));
  assertEquals(names.length, 1, names.join(", "));
  return JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${names[0]}`));
}

Deno.test("sessions shared by runs and crashes", async (t) => {
  await runCases(t, {
    "one sessions directory for several projects: each continues its own, the list says whose":
      async () => {
        server.script("shared-dir", [{ text: "in a" }, { text: "in b" }]);
        const shared = await Deno.makeTempDir({ prefix: "mm-shared-sessions-" });
        try {
          const agent = `url: ${server.url}\nmodel: shared-dir\n${SESSIONS}  dir: ${shared}\n`;
          const [a, b] = [await workdir(agent), await workdir(agent)];
          assertEquals((await runMM(["-p", "first in a"], { cwd: a })).code, 0);
          const run = await runMM(["-p", "--continue", "first in b"], { cwd: b });
          assertEquals(run.code, 0, run.stderr);
          assertEquals(
            run.stderr.includes(
              `[warning: no session of ${b} to continue in ${shared} (it holds other directories' sessions) — starting a new one]\n`,
            ),
            true,
            run.stderr,
          );
          const listed = (await runMM(["sessions"], { cwd: b })).stdout.trim().split("\n");
          assertEquals(listed.length, 2);
          assertEquals(listed[0].endsWith("  1 turn(s)  first in b"), true, listed[0]);
          assertEquals(listed[1].endsWith(`  1 turn(s)  first in a  (in ${a})`), true, listed[1]);
        } finally {
          await Deno.remove(shared, { recursive: true });
        }
      },
    "--continue after kill -9 mid-call answers the call before the new prompt": async () => {
      server.script("crashed", [{
        toolCalls: [
          { name: "bash", arguments: { command: "echo $$ > pid; sleep 60" } },
          { name: "bash", arguments: { command: "echo never" } },
        ],
      }]);
      const dir = await workdir(`url: ${server.url}\nmodel: crashed\n${SESSIONS}`);
      const child = new Deno.Command(Deno.execPath(), {
        ...mmCommand(["-p", "first"], dir),
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      await until(`${dir}/pid`);
      child.kill("SIGKILL");
      await child.status;
      // kill -9 leaves the command behind: that is what it does; the test cleans up.
      const pid = Number((await Deno.readTextFile(`${dir}/pid`)).trim());
      try {
        Deno.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      server.script("crashed", [{ text: "resumed" }]);
      const run = await runMM(["-p", "again", "--continue"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "resumed\n");
      const sent = server.chats("crashed")[1].body.messages;
      assertEquals(sent.slice(1).map((m: { role: string }) => m.role), [
        "user",
        "assistant",
        "tool",
        "tool",
        "user",
      ]);
      assertEquals(sent[3], {
        role: "tool",
        tool_call_id: "call_0",
        content: "[error: not run: the turn was stopped]",
      });
      assertEquals(sent[4].tool_call_id, "call_1");
      assertEquals(sent[4].content, "[error: not run: the turn was stopped]");
    },
    "five --continue at once: one runs, four wait, then refuse with the holder's pid": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: crowd\n${SESSIONS}`);
      server.script("crowd", [{ text: "A0" }]);
      assertEquals((await runMM(["-p", "Q0"], { cwd: dir })).code, 0);
      server.script("crowd", [{ text: "A1", delay: 4_500 }]);
      const runs = await Promise.all(
        [1, 2, 3, 4, 5].map((i) => runMM(["-p", `Q${i}`, "--continue"], { cwd: dir })),
      );
      const codes = runs.map((r) => r.code).sort();
      assertEquals(codes, [0, 1, 1, 1, 1], runs.map((r) => r.stderr).join("\n"));
      const id = (await session(dir)).id;
      for (const r of runs.filter((r) => r.code === 1)) {
        assertMatch(
          r.stderr,
          new RegExp(`^mm: session ${id} is in use by another mm \\(pid \\d+\\)\\n$`),
        );
      }
      const winner = runs.findIndex((r) => r.code === 0) + 1;
      const kept = (await session(dir)).messages.map((m: { content: string }) => m.content);
      assertEquals(kept, ["Q0", "A0", `Q${winner}`, "A1"]);
      // No request was made by a refused run.
      assertEquals(server.chats("crowd").length, 2);
    },
    "a symbolic link planted where the lock was, or where it is, empties no file": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: planted\n${SESSIONS}`);
      server.script("planted", [{ text: "A0" }, { text: "A1" }]);
      assertEquals((await runMM(["-p", "Q0"], { cwd: dir })).code, 0);
      const { id } = await session(dir);
      const victim = `${dir}/victim.txt`;
      await Deno.writeTextFile(victim, "precious\n");
      // Where the lock used to be: $TMPDIR/mm-session-locks/<hash of the session file>.lock.
      const tmp = `${dir}/tmp`;
      await Deno.mkdir(`${tmp}/mm-session-locks`, { recursive: true });
      const file = new TextEncoder().encode(`${sessionsOf(dir)}/${id}.json`);
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", file));
      const hex = Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
      await Deno.symlink(victim, `${tmp}/mm-session-locks/${hex}.lock`);
      const resumed = await runMM(["-p", "Q1", "--continue"], { cwd: dir, env: { TMPDIR: tmp } });
      assertEquals(resumed.code, 0, resumed.stderr);
      assertEquals(await Deno.readTextFile(victim), "precious\n");
      // Where it is now: beside the session file, never followed.
      const lock = lockPath(sessionsOf(dir), id);
      await Deno.symlink(victim, lock);
      const refused = await runMM(["-p", "Q2", "--continue"], { cwd: dir });
      assertEquals(refused.code, 1);
      assertEquals(
        refused.stderr,
        `mm: session ${id} cannot be locked: ${lock} cannot be used (it is a symbolic link) — check sessions.dir in the agent file\n`,
      );
      assertEquals(await Deno.readTextFile(victim), "precious\n");
      assertEquals(server.chats("planted").length, 2, "no request after the refusal");
    },
    "a sessions directory that cannot be used: one sentence, exit 1": async () => {
      const file = await workdir(
        `url: ${server.url}\nmodel: lockdir\nsessions:\n  enabled: true\n  dir: in-the-way\n`,
      );
      await Deno.writeTextFile(`${file}/in-the-way`, "a file\n");
      const denied = await workdir(
        `url: ${server.url}\nmodel: lockdir\nsessions:\n  enabled: true\n  dir: /sys/mm-sessions\n`,
      );
      for (
        const [dir, reason] of [
          [file, "a file is where its directory should be"],
          // Under mm's dropped permissions Deno refuses /sys itself; as root the kernel would.
          [
            denied,
            "(operation not permitted|mm's runtime does not open /proc, /dev or /sys paths itself)",
          ],
        ]
      ) {
        const run = await runMM(["-p", "hi"], { cwd: dir });
        assertEquals(run.code, 1, run.stderr);
        assertMatch(
          run.stderr,
          new RegExp(
            `^mm: session [0-9a-f-]+ cannot be locked: \\S+\\.lock cannot be used \\(${reason}\\) — check sessions\\.dir in the agent file\\n$`,
          ),
        );
      }
      assertEquals(server.chats("lockdir").length, 0);
    },
    "a second --continue waits for the first and keeps both exchanges": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: queue\n${SESSIONS}`);
      server.script("queue", [{ text: "A0" }]);
      assertEquals((await runMM(["-p", "Q0"], { cwd: dir })).code, 0);
      server.script("queue", [{ text: "A1", delay: 500 }, { text: "A2" }]);
      const { id } = await session(dir);
      const first = runMM(["-p", "Q1", "--continue"], { cwd: dir });
      // The first holds the lock once its pid is in the lock file.
      const lock = lockPath(sessionsOf(dir), id);
      await poll(async () => (await Deno.readTextFile(lock).catch(() => "")).trim() !== "", lock);
      const second = runMM(["-p", "Q2", "--continue"], { cwd: dir });
      const [a, b] = await Promise.all([first, second]);
      assertEquals([a.code, b.code], [0, 0], a.stderr + b.stderr);
      const kept = (await session(dir)).messages.map((m: { content: string }) => m.content);
      assertEquals(kept.length, 6);
      assertEquals(kept.slice(0, 2), ["Q0", "A0"]);
      assertEquals(new Set(kept.slice(2)), new Set(["Q1", "A1", "Q2", "A2"]));
      // The second run read the file after the first wrote it: it sent the first's exchange.
      const last = server.chats("queue").at(-1)!.body.messages.map((m: { content: string }) =>
        m.content
      );
      assertEquals(last.slice(1, 3), ["Q0", "A0"]);
      assertEquals(last.length, 6);
    },
  });
  await server.close();
});
