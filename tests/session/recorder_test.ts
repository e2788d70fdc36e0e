/** SessionRecorder on a disk that fills up: one warning, no temporary file, saved once it can be. */

import type { Message } from "../../lib/history.ts";
import { SessionRecorder, unsavedWarning } from "../../lib/session/recorder.ts";
import { loadSession, saveSession, sessionPath } from "../../lib/session/store.ts";
import { prunedText } from "../../lib/session/prune.ts";
import { assertEquals } from "../helpers/assert.ts";
import { mountTmpfs, NO_TMPFS, tempFiles } from "../helpers/tmpfs.ts";

/** An agent's recordable parts: a system prompt, then `messages`, all of turn 1. */
function agent(messages: Message[]) {
  const history: Message[] = [{ role: "system", content: "sys" }, ...messages];
  return { history, turns: history.map(() => 1), errors: [] };
}

Deno.test("unsavedWarning: the path, the reason, that mm tries again", () => {
  assertEquals(
    unsavedWarning("/s/1.json", "no space left on device"),
    "[warning: the session file /s/1.json cannot be written (no space left on device) — mm tries again at every step; until then this conversation is not saved]",
  );
});

Deno.test({
  name: "SessionRecorder on a full tmpfs: one warning, no temporary file, saved at the next step",
  ignore: NO_TMPFS !== undefined,
  async fn() {
    const fs = await mountTmpfs(512 * 1024);
    const rec = await SessionRecorder.open({ dir: fs.dir, cwd: "/", provider: "p", model: "m" });
    try {
      const question: Message = { role: "user", content: "hi" };
      assertEquals(await rec.save(agent([question])), undefined);
      const filler = await fs.fill(32 * 1024);
      const big: Message = { role: "assistant", content: "x".repeat(100_000) };
      const path = sessionPath(fs.dir, rec.session.id);
      const first = await rec.save(agent([question, big]));
      assertEquals(first, unsavedWarning(path, "no space left on device"));
      assertEquals(await tempFiles(fs.dir), []);
      const more: Message = { role: "user", content: "more" };
      assertEquals(await rec.save(agent([question, big, more])), undefined, "warned once");
      assertEquals(await tempFiles(fs.dir), []);
      assertEquals((await loadSession(path)).messages.length, 1, "the last good file stays");
      await Deno.remove(filler);
      const answer: Message = { role: "assistant", content: "done" };
      assertEquals(await rec.save(agent([question, big, more, answer])), undefined);
      const saved = await loadSession(path);
      assertEquals(saved.messages.map((m) => m.content), ["hi", big.content, "more", "done"]);
      // Saved again: a new failure is said again.
      await fs.fill(0);
      const again = await rec.save(agent([question, big, more, answer, big]));
      assertEquals(again, unsavedWarning(path, "no space left on device"));
      assertEquals(await tempFiles(fs.dir), []);
    } finally {
      await rec.close();
      await fs.close();
    }
  },
});

Deno.test("sessions.keep: nothing is pruned when a session opens, only at its first save", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mm-recorder-" });
  for (const id of ["20250101-000000-000001", "20250102-000000-000002"]) {
    await saveSession(dir, {
      id,
      created: "2025-01-01T00:00:00.000Z",
      updated: "2025-01-01T00:00:00.000Z",
      cwd: "/",
      provider: "p",
      model: "m",
      messages: [{ role: "user", content: "old", turn: 1 }],
      errors: [],
    });
  }
  const rec = await SessionRecorder.open({ dir, keep: 2, cwd: "/", provider: "p", model: "m" });
  try {
    const jsons = (await Array.fromAsync(Deno.readDir(dir))).filter((e) =>
      e.name.endsWith(".json")
    );
    assertEquals(jsons.length, 2);
    const said = await rec.save(agent([{ role: "user", content: "hi" }]));
    assertEquals(said, prunedText(1, dir, 2));
    assertEquals(await rec.save(agent([{ role: "user", content: "hi" }])), undefined, "once");
    const left = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
    assertEquals(left, [
      "20250102-000000-000002.json",
      `${rec.session.id}.json`,
      `${rec.session.id}.lock`,
    ]);
  } finally {
    await rec.close();
    await Deno.remove(dir, { recursive: true });
  }
});
