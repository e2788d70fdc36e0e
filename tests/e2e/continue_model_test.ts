/**
 * `--continue` and `--session` go on with the model the session recorded (the one `/model`
 * switched to), unless `--model` is given (lib/frontend/start.ts; docs/sessions.md).
 */

import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, sessionsOf, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** The one session file of `dir`: its path and its content. */
async function sessionFile(dir: string) {
  for await (const e of Deno.readDir(sessionsOf(dir))) {
    if (e.name.endsWith(".json")) {
      const path = `${sessionsOf(dir)}/${e.name}`;
      return {
        path,
        id: e.name.replace(/\.json$/, ""),
        data: JSON.parse(await Deno.readTextFile(path)),
      };
    }
  }
  throw new Error("no session file");
}

/** A project whose agent file names model `a`, after one `mm -p` run whose session now records `b`. */
async function switched(a: string, b: string) {
  const c = a.replace(/-a$/, "-c");
  for (const m of [a, b, c]) server.script(m, [{ text: `${m} answers` }, { text: "again" }]);
  const dir = await workdir(`url: ${server.url}\nmodel: ${a}\n`);
  const first = await runMM(["-p", "hello"], { cwd: dir });
  assertEquals(first.code, 0, first.stderr);
  assertEquals(server.chats(a).length, 1);
  const file = await sessionFile(dir);
  assertEquals(file.data.model, a);
  // What `/model b` leaves in the session file (SessionRecorder.save).
  await Deno.writeTextFile(file.path, JSON.stringify({ ...file.data, model: b }));
  return { dir, id: file.id };
}

Deno.test("a resumed session's model", async (t) => {
  await runCases(t, {
    "--continue: the session's model, not the agent file's": async () => {
      const { dir } = await switched("cm1-a", "cm1-b");
      const run = await runMM(["-p", "--continue", "again"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.chats("cm1-b").length, 1);
      assertEquals(server.chats("cm1-a").length, 1);
    },
    "--session ID: the session's model": async () => {
      const { dir, id } = await switched("cm2-a", "cm2-b");
      const run = await runMM(["-p", "--session", id, "again"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.chats("cm2-b").length, 1);
    },
    "--continue --model C: the flag wins": async () => {
      const { dir } = await switched("cm3-a", "cm3-b");
      const run = await runMM(["-p", "--continue", "--model", "cm3-c", "again"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.chats("cm3-c").length, 1);
      assertEquals(server.chats("cm3-b").length, 0);
    },
    "no --continue: a new session, the agent file's model": async () => {
      const { dir } = await switched("cm4-a", "cm4-b");
      const run = await runMM(["-p", "fresh"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.chats("cm4-a").length, 2);
      assertEquals(server.chats("cm4-b").length, 0);
    },
  });
});
