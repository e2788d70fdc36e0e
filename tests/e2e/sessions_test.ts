/** Session files through the real `mm -p`: resuming, crashes, corrupt files, errors, the listing. */

import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, sessionsOf, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

function dirFor(model: string, extra = "sessions:\n  enabled: true\n"): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** The session files of a working directory, parsed. */
// deno-lint-ignore no-explicit-any
async function sessions(dir: string): Promise<any[]> {
  const out = [];
  for await (const e of Deno.readDir(sessionsOf(dir))) {
    if (e.name.endsWith(".json")) {
      out.push(JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${e.name}`)));
    }
  }
  return out;
}

Deno.test("sessions", async (t) => {
  await runCases(t, {
    "a session file after every run, resumed by --continue": async () => {
      server.script("remember", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo 7" } }] },
        { text: "The number is 7." },
        { text: "You asked about the number: 7." },
      ]);
      const dir = await dirFor("remember");
      const first = await runMM(["-p", "what is the number?"], { cwd: dir });
      assertEquals(first.code, 0, first.stderr);
      const [s1] = await sessions(dir);
      assertEquals(Object.keys(s1), [
        "id",
        "created",
        "updated",
        "cwd",
        "provider",
        "model",
        "messages",
        "errors",
      ]);
      assertEquals([s1.cwd, s1.provider, s1.model], [dir, "ollama", "remember"]);
      assertEquals(s1.messages.map((m: { role: string; turn: number }) => [m.role, m.turn]), [
        ["user", 1],
        ["assistant", 1],
        ["tool", 1],
        ["assistant", 1],
      ]);
      assertEquals(s1.errors, []);
      // The flag may come between -p and the prompt, as users type it.
      const second = await runMM(["-p", "--continue", "what did I ask?"], { cwd: dir });
      assertEquals(second.code, 0, second.stderr);
      const sent = server.chats("remember")[2].body.messages;
      assertEquals(sent.map((m: { role: string }) => m.role), [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
      ]);
      assertEquals(sent[1].content, "what is the number?");
      assertEquals(sent.some((m: object) => "turn" in m), false, "turn numbers stay in the file");
      const all = await sessions(dir);
      assertEquals(all.length, 1);
      assertEquals(all[0].id, s1.id);
      assertEquals(all[0].messages.at(-1), {
        role: "assistant",
        content: "You asked about the number: 7.",
        turn: 2,
      });
    },
    "--session ID resumes that session; an unknown id is an error": async () => {
      server.script("by-id", [{ text: "one" }, { text: "two" }, { text: "three" }]);
      const dir = await dirFor("by-id");
      await runMM(["-p", "first"], { cwd: dir });
      const [{ id }] = await sessions(dir);
      await runMM(["-p", "second"], { cwd: dir }); // a new session
      const run = await runMM(["-p", "third", "--session", id], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const sent = server.chats("by-id")[2].body.messages.map((m: { content: string }) =>
        m.content
      );
      assertEquals(sent.slice(1), ["first", "one", "third"]);
      const missing = await runMM(["-p", "x", "--session", "nope"], { cwd: dir });
      assertEquals(missing.code, 2);
      assertEquals(
        missing.stderr,
        `mm: no session "nope" in ${sessionsOf(dir)} — list them with mm sessions\n`,
      );
      const bad = await runMM(["-p", "x", "--session", "../../etc/passwd"], { cwd: dir });
      assertEquals(bad.code, 2);
      assertStringIncludes(bad.stderr, "is not a session id");
    },
    "--continue with sessions turned off is a configuration error": async () => {
      // Sessions are on by default (issue 26): this agent file turns them off.
      const dir = await dirFor("no-sessions", "sessions:\n  enabled: false\n");
      const run = await runMM(["-p", "x", "--continue"], { cwd: dir });
      assertEquals(run.code, 2);
      assertEquals(
        run.stderr,
        "mm: --continue and --session need sessions: set sessions.enabled: true in the agent file\n",
      );
    },
    "--continue with no session yet starts one, with a warning": async () => {
      server.script("first-continue", [{ text: "ok" }]);
      const dir = await dirFor("first-continue");
      const run = await runMM(["-p", "x", "--continue"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        run.stderr,
        `[warning: no session to continue in ${sessionsOf(dir)} — starting a new one]\n`,
      );
      assertEquals((await sessions(dir)).length, 1);
    },
    "a corrupt session file is reported and never overwritten": async () => {
      server.script("corrupt", [{ text: "a" }, { text: "b" }]);
      const dir = await dirFor("corrupt");
      await Deno.mkdir(sessionsOf(dir), { recursive: true });
      const path = `${sessionsOf(dir)}/20990101-000000-bad.json`;
      await Deno.writeTextFile(path, '{"id": "20990101-000000-bad", "messages": [');
      const byId = await runMM(["-p", "x", "--session", "20990101-000000-bad"], { cwd: dir });
      assertEquals(byId.code, 2);
      assertMatch(
        byId.stderr,
        /^mm: the session file .*20990101-000000-bad\.json cannot be read \(not valid JSON: .+\) — it was left untouched\n$/,
      );
      const cont = await runMM(["-p", "x", "--continue"], { cwd: dir });
      assertEquals(cont.code, 0, cont.stderr);
      assertStringIncludes(cont.stderr, "20990101-000000-bad.json cannot be read");
      assertEquals(await Deno.readTextFile(path), '{"id": "20990101-000000-bad", "messages": [');
      const listing = await runMM(["sessions"], { cwd: dir });
      assertEquals(listing.code, 0);
      assertStringIncludes(listing.stdout, "⚠️ the session file");
    },
    "a run killed mid-turn leaves a valid file holding every finished step": async () => {
      server.script("killed", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo started > flag; sleep 30" } }] },
      ]);
      const dir = await dirFor("killed");
      const run = await runMM(["-p", "long job"], {
        cwd: dir,
        started: (child) => {
          (async () => {
            while (true) {
              try {
                await Deno.stat(`${dir}/flag`);
                break;
              } catch {
                await new Promise((r) => setTimeout(r, 20));
              }
            }
            child.kill("SIGKILL");
          })();
        },
      });
      assertEquals(run.code, 137);
      const [s] = await sessions(dir);
      assertEquals(s.messages.map((m: { role: string }) => m.role), ["user", "assistant"]);
      assertEquals(s.messages[1].tool_calls[0].function.name, "bash");
    },
    "concurrent runs in one directory keep separate files": async () => {
      server.script("concurrent", Array.from({ length: 4 }, (_, i) => ({ text: `answer ${i}` })));
      const dir = await dirFor("concurrent");
      await Promise.all([1, 2, 3, 4].map((n) => runMM(["-p", `question ${n}`], { cwd: dir })));
      const all = await sessions(dir);
      assertEquals(all.length, 4);
      assertEquals(new Set(all.map((s) => s.id)).size, 4);
      assertEquals(
        all.map((s) => s.messages[0].content).sort(),
        ["question 1", "question 2", "question 3", "question 4"],
      );
    },
    "a failed turn is recorded in errors with where: generation": async () => {
      server.script("fails", [{ status: 500, body: { error: { message: "boom" } } }]);
      const dir = await dirFor("fails");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 1);
      const [s] = await sessions(dir);
      assertEquals(s.errors.length, 1);
      assertEquals(s.errors[0].where, "generation");
      assertStringIncludes(s.errors[0].message, "answered HTTP 500");
      assertMatch(s.errors[0].time, /^\d{4}-\d\d-\d\dT/);
    },
    "after a failed turn, --continue sends both questions as one: roles still alternate":
      async () => {
        server.script("retry", [
          { status: 500, body: { error: { message: "boom" } } },
          { text: "Both answered." },
        ]);
        const dir = await dirFor("retry");
        assertEquals((await runMM(["-p", "first question"], { cwd: dir })).code, 1);
        const again = await runMM(["-p", "second question", "--continue"], { cwd: dir });
        assertEquals(again.code, 0, again.stderr);
        const sent = server.chats("retry")[1].body.messages;
        assertEquals(sent.map((m: { role: string }) => m.role), ["system", "user"]);
        assertEquals(sent[1].content, "first question\n\nsecond question");
        const [s] = await sessions(dir);
        assertEquals(s.messages.map((m: { role: string; turn: number }) => [m.role, m.turn]), [
          ["user", 1],
          ["user", 2],
          ["assistant", 2],
        ]);
      },
    "the loop detector's stop is recorded too": async () => {
      const call = { toolCalls: [{ name: "bash", arguments: { command: "false" } }] };
      server.script("loop-recorded", Array.from({ length: 6 }, () => call));
      const dir = await dirFor("loop-recorded");
      await runMM(["-p", "x"], { cwd: dir });
      const [s] = await sessions(dir);
      assertEquals(s.errors.map((e: { where: string }) => e.where), ["generation"]);
      assertStringIncludes(s.errors[0].message, "turn stopped by the loop detector");
    },
    "mm sessions lists newest first: id, date, turns, first question": async () => {
      const dir = await dirFor("listing");
      await Deno.mkdir(sessionsOf(dir), { recursive: true });
      const file = (id: string, updated: string, q: string) => ({
        id,
        created: updated,
        updated,
        cwd: dir,
        provider: "ollama",
        model: "m",
        messages: [
          { role: "user", content: q, turn: 1 },
          { role: "assistant", content: "a", turn: 1 },
          { role: "user", content: "again", turn: 2 },
        ],
        errors: [],
      });
      for (
        const [id, updated, q] of [["old", "2026-01-01T10:00:00.000Z", "older question"], [
          "new",
          "2026-06-01T09:30:00.000Z",
          "newer\nquestion",
        ]]
      ) {
        await Deno.writeTextFile(
          `${sessionsOf(dir)}/${id}.json`,
          JSON.stringify(file(id, updated, q)),
        );
      }
      const run = await runMM(["sessions"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        run.stdout,
        "new  2026-06-01 09:30  2 turn(s)  newer question\nold  2026-01-01 10:00  2 turn(s)  older question\n",
      );
    },
  });
  await server.close();
});
