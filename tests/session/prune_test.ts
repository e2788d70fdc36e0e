/** sessions.keep: the newest kept; the one in use and locked ones never removed; said once. */

import { prunedText, pruneSessions } from "../../lib/session/prune.ts";
import { saveSession, type SessionFile } from "../../lib/session/store.ts";
import { lockPath } from "../../lib/session/lock.ts";
import { assertEquals } from "../helpers/assert.ts";

function session(id: string, minute: number): SessionFile {
  const time = `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
  return {
    id,
    created: time,
    updated: time,
    cwd: "/p",
    provider: "ollama",
    model: "m",
    messages: [{ role: "user", content: id, turn: 1 }],
    errors: [],
  };
}

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("sessions.keep", async (t) => {
  await t.step("the text", () => {
    assertEquals(
      prunedText(3, "/s", 2),
      "[warning: removed 3 old sessions from /s (sessions.keep: 2 — set it higher to keep more)]",
    );
    assertEquals(prunedText(1, "/s", 2).includes("removed 1 old session from"), true);
  });

  await t.step(
    "removes the oldest past keep, the one in use counted first; never a locked one",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "mm-prune-" });
      for (let i = 1; i <= 6; i++) await saveSession(dir, session(`s${i}`, i));
      await Deno.writeTextFile(lockPath(dir, "s2"), "123");
      await Deno.writeTextFile(`${dir}/broken.json`, "{");
      // s1 in use holds one place, s6 the other; s2 is locked.
      const said = await pruneSessions(dir, 2, "s1");
      assertEquals(said, prunedText(3, dir, 2));
      assertEquals(await names(dir), ["broken.json", "s1.json", "s2.json", "s2.lock", "s6.json"]);
      // Once removed, nothing more to say.
      assertEquals(await pruneSessions(dir, 2, "s1"), undefined);
      await Deno.remove(dir, { recursive: true });
    },
  );

  await t.step(
    "a session removed takes its undo store; a store or a folder is never read as a session",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "mm-prune-" });
      for (let i = 1; i <= 4; i++) {
        await saveSession(dir, session(`s${i}`, i));
        await Deno.mkdir(`${dir}/s${i}.undo/turns`, { recursive: true });
        await Deno.writeTextFile(`${dir}/s${i}.undo/turns/1.json`, "{}");
      }
      await Deno.mkdir(`${dir}/folder.json`);
      const said = await pruneSessions(dir, 2, "s1");
      assertEquals(said, prunedText(2, dir, 2));
      assertEquals(await names(dir), ["folder.json", "s1.json", "s1.undo", "s4.json", "s4.undo"]);
      assertEquals(await names(`${dir}/s4.undo/turns`), ["1.json"]);
      await Deno.remove(dir, { recursive: true });
    },
  );
  await t.step("a removed session's undo folder goes with it", async () => {
    const dir = await Deno.makeTempDir({ prefix: "mm-prune-" });
    for (let i = 1; i <= 3; i++) {
      await saveSession(dir, session(`s${i}`, i));
      await Deno.mkdir(`${dir}/s${i}.undo/blobs`, { recursive: true });
    }
    assertEquals(await pruneSessions(dir, 2, "s3"), prunedText(1, dir, 2));
    assertEquals(await names(dir), ["s2.json", "s2.undo", "s3.json", "s3.undo"]);
    await Deno.remove(dir, { recursive: true });
  });

  await t.step("keep 0 keeps all; a missing folder is nothing to prune", async () => {
    const dir = await Deno.makeTempDir({ prefix: "mm-prune-" });
    for (let i = 1; i <= 3; i++) await saveSession(dir, session(`s${i}`, i));
    assertEquals(await pruneSessions(dir, 0, "x"), undefined);
    assertEquals((await names(dir)).length, 3);
    assertEquals(await pruneSessions(`${dir}/none`, 1, "x"), undefined);
    await Deno.remove(dir, { recursive: true });
  });
});
