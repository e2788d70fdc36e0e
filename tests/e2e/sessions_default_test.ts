/**
 * Sessions by default (issue 26) through the real `mm -p`: saved with no agent file, in the state
 * folder's key folder and not in the project; the old `.mm/sessions` still found; sessions.keep;
 * a state folder that cannot be made; the instructions of the whole repository.
 */

import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, sessionsOf, stateHomeOf, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { projectKey } from "../../lib/session/dirs.ts";
import { prunedText } from "../../lib/session/prune.ts";
import { noStateFolderText } from "../../lib/frontend/start.ts";

const server = ScriptedServer.start();

/** The flags that reach the scripted server without an agent file. */
function reach(model: string): string[] {
  return ["--url", server.url, "--model", model];
}

/** The session files of `folder`, parsed. */
// deno-lint-ignore no-explicit-any
async function sessionsIn(folder: string): Promise<any[]> {
  const out = [];
  for await (const e of Deno.readDir(folder)) {
    if (e.name.endsWith(".json")) {
      out.push(JSON.parse(await Deno.readTextFile(join(folder, e.name))));
    }
  }
  return out;
}

/** An old session file (no turns, no errors) of `cwd`, as an earlier mm left it. */
function oldSession(id: string, cwd: string, question: string) {
  return JSON.stringify({
    id,
    created: "2025-01-01T00:00:00.000Z",
    updated: "2025-01-01T00:00:00.000Z",
    cwd,
    provider: "ollama",
    model: "old",
    messages: [{ role: "user", content: question }, { role: "assistant", content: "Old answer." }],
  });
}

Deno.test("sessions by default", async (t) => {
  await runCases(t, {
    "saved with no agent file, under the state folder's key folder; --continue resumes":
      async () => {
        server.script("plain", [{ text: "one" }, { text: "two" }, { text: "three" }]);
        const dir = await tempDir();
        for (const q of ["first", "second"]) {
          const run = await runMM(["-p", q, ...reach("plain")], { cwd: dir });
          assertEquals([run.code, run.stderr], [0, ""]);
        }
        const cont = await runMM(["-p", "third", "--continue", ...reach("plain")], { cwd: dir });
        assertEquals([cont.code, cont.stderr], [0, ""]);
        const folder = join(stateHomeOf(dir), "mm", "sessions", projectKey(dir));
        assertEquals(sessionsOf(dir), folder);
        const saved = await sessionsIn(folder);
        assertEquals(saved.length, 2);
        const continued = saved.find((s) => s.messages.length === 4);
        assertEquals(
          continued.messages.map((m: { content: string }) => m.content),
          ["second", "two", "third", "three"],
        );
        // Nothing in the project.
        assertEquals(await exists(join(dir, ".mm")), false);
      },
    "an old .mm/sessions session is found by --continue and mm sessions, and stays there":
      async () => {
        server.script("legacy", [{ text: "New answer." }]);
        const dir = await tempDir();
        const old = join(dir, ".mm", "sessions");
        await Deno.mkdir(old, { recursive: true });
        const id = "20250101-000000-0a0b0c";
        await Deno.writeTextFile(join(old, `${id}.json`), oldSession(id, dir, "old question"));
        const listing = await runMM(["sessions"], { cwd: dir });
        assertStringIncludes(listing.stdout, `${id}  2025-01-01 00:00  1 turn(s)  old question`);
        const run = await runMM(["-p", "again", "--continue", ...reach("legacy")], { cwd: dir });
        assertEquals([run.code, run.stderr], [0, ""]);
        const sent = server.chats("legacy")[0].body.messages;
        assertEquals(sent.map((m: { content: string }) => m.content).slice(1), [
          "old question",
          "Old answer.",
          "again",
        ]);
        const [back] = await sessionsIn(old);
        assertEquals(back.messages.map((m: { turn: number }) => m.turn), [1, 1, 2, 2]);
        // Nothing of it in the state folder.
        const state = await exists(sessionsOf(dir)) ? await sessionsIn(sessionsOf(dir)) : [];
        assertEquals(state.length, 0);
      },
    "sessions.keep: the oldest go, said once": async () => {
      server.script("keep", [{ text: "ok" }, { text: "ok" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: keep\nsessions:\n  keep: 2\n`);
      const folder = sessionsOf(dir);
      await Deno.mkdir(folder, { recursive: true });
      for (const n of [1, 2, 3]) {
        const id = `2025010${n}-000000-00000${n}`;
        await Deno.writeTextFile(join(folder, `${id}.json`), oldSession(id, dir, `q${n}`));
      }
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals([run.code, run.stderr], [0, prunedText(2, folder, 2) + "\n"]);
      // The new session and the newest old one: 2 in all.
      const left = (await sessionsIn(folder)).map((s) => s.id).sort();
      assertEquals(left.length, 2);
      assertEquals(left[0], "20250103-000000-000003");
      const again = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(again.stderr, prunedText(1, folder, 2) + "\n");
    },
    "a state folder that cannot be made: one warning, the run goes on unsaved": async () => {
      server.script("nostate", [{ text: "fine" }]);
      const dir = await tempDir();
      await Deno.writeTextFile(join(dir, "file"), "");
      const env = { XDG_STATE_HOME: join(dir, "file") };
      const run = await runMM(["-p", "x", ...reach("nostate")], { cwd: dir, env });
      assertEquals(run.code, 0);
      assertEquals(run.stdout, "fine\n");
      const folder = join(dir, "file", "mm", "sessions", projectKey(dir));
      assertEquals(
        run.stderr,
        noStateFolderText(folder, "not a directory") + "\n",
      );
    },
    "instructions: global, the git root down, CLAUDE.md; the banner line": async () => {
      server.script("layers", [{ text: "ok" }]);
      const dir = await tempDir();
      const sub = join(dir, "pkg", "app");
      await Deno.mkdir(join(dir, ".git"), { recursive: true });
      await Deno.mkdir(sub, { recursive: true });
      await Deno.mkdir(join(dir, ".config", "mm"), { recursive: true });
      await Deno.writeTextFile(join(dir, ".config", "mm", "AGENTS.md"), "Global rule.");
      await Deno.writeTextFile(join(dir, "AGENTS.md"), "Root rule.");
      await Deno.writeTextFile(join(dir, "pkg", "CLAUDE.md"), "Pkg rule.");
      await Deno.writeTextFile(join(sub, "AGENTS.md"), "App rule.");
      const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, ".config") };
      const run = await runMM(["-p", "x", ...reach("layers")], { cwd: sub, env });
      assertEquals([run.code, run.stderr], [0, ""]);
      const system: string = server.chats("layers")[0].body.messages[0].content;
      const order = ["Global rule.", "Root rule.", "Pkg rule.", "App rule."].map((r) =>
        system.indexOf(r)
      );
      assertEquals(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1])), true);
      assertStringIncludes(system, "## pkg/CLAUDE.md\n\nPkg rule.");
    },
  });
});
