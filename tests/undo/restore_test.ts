/** The undo store, the keeper and the restore plan on real files in a temporary folder. */

import { assertEquals } from "../helpers/assert.ts";
import { tempDir } from "../helpers/mm.ts";
import { TurnKeeper } from "../../lib/undo/keeper.ts";
import { MAX_KEPT_FILE } from "../../lib/undo/limits.ts";
import {
  applyPlan,
  CHANGED_SINCE,
  finishRestore,
  NOW_A_DIRECTORY,
  planRestore,
} from "../../lib/undo/restore.ts";
import { tooLargeText } from "../../lib/undo/snapshot.ts";
import { UndoStore } from "../../lib/undo/store.ts";
import type { AnyTool } from "../../lib/tool.ts";

const writes = { touches: (input: { path: string }) => [input.path] } as unknown as AnyTool;

/** A keeper in a fresh folder: `dir` the work, `sessions` where the store lives. */
async function setup() {
  const dir = await tempDir("mm-undo-");
  const sessions = `${dir}/.mm/sessions`;
  const store = new UndoStore(`${sessions}/s.undo`);
  // The session file the store is beside (a store without one is removed as left over).
  await Deno.mkdir(sessions, { recursive: true });
  await Deno.writeTextFile(`${sessions}/s.json`, "{}");
  return { dir, store, keeper: new TurnKeeper({ store, cwd: dir, sessions }) };
}

/** Runs one turn of the keeper that writes `files` (path → content; null removes it). */
async function turn(
  keeper: TurnKeeper,
  n: number,
  dir: string,
  files: Record<string, string | null>,
): Promise<void> {
  await keeper.begin(n, `turn ${n}`);
  for (const [path, content] of Object.entries(files)) {
    await keeper.beforeCall(writes, { path });
    if (content === null) await Deno.remove(`${dir}/${path}`);
    else await Deno.writeTextFile(`${dir}/${path}`, content);
  }
  await keeper.end();
}

Deno.test("undo store and restore plan", async (t) => {
  await t.step("the same bytes are kept once", async () => {
    const { store } = await setup();
    const a = await store.putBlob(new TextEncoder().encode("same"));
    const b = await store.putBlob(new TextEncoder().encode("same"));
    assertEquals(a.sha, b.sha);
    assertEquals([a.added, b.added], [4, 0]);
  });

  await t.step(
    "a turn's files come back; a new file goes; only the first touch counts",
    async () => {
      const { dir, store, keeper } = await setup();
      await Deno.writeTextFile(`${dir}/a`, "one");
      await keeper.begin(1, "p");
      await keeper.beforeCall(writes, { path: "a" });
      await Deno.writeTextFile(`${dir}/a`, "two");
      await keeper.beforeCall(writes, { path: "a" });
      await Deno.writeTextFile(`${dir}/a`, "three");
      await keeper.beforeCall(writes, { path: "new" });
      await Deno.writeTextFile(`${dir}/new`, "x");
      await keeper.end();
      const plan = await planRestore(store, [1], [await store.record(1)]);
      assertEquals(plan.writes.map((w) => [w.path.slice(dir.length), w.to.kind]), [
        ["/a", "file"],
        ["/new", "absent"],
      ]);
      await applyPlan(store, plan, () => Promise.resolve());
      assertEquals(await Deno.readTextFile(`${dir}/a`), "one");
      assertEquals(await Deno.lstat(`${dir}/new`).catch(() => "gone"), "gone");
      assertEquals(await store.record(1), undefined);
    },
  );

  await t.step(
    "folders the turn made are removed once empty; those there before stay",
    async () => {
      const { dir, store, keeper } = await setup();
      await Deno.mkdir(`${dir}/old/empty`, { recursive: true });
      await Deno.writeTextFile(`${dir}/old/keep`, "k");
      nextMillisecond();
      await keeper.begin(1, "p");
      // Times are kept to the millisecond: what the turn makes is made in a later one.
      nextMillisecond();
      await keeper.beforeCall(writes, { path: "sub/deeper/s.txt" });
      await keeper.beforeCall(writes, { path: "old/empty/n.txt" });
      await keeper.beforeCall(writes, { path: "mixed/n.txt" });
      await Deno.mkdir(`${dir}/sub/deeper`, { recursive: true });
      await Deno.writeTextFile(`${dir}/sub/deeper/s.txt`, "s");
      await Deno.writeTextFile(`${dir}/old/empty/n.txt`, "n");
      await Deno.mkdir(`${dir}/mixed`);
      await Deno.writeTextFile(`${dir}/mixed/n.txt`, "n");
      await keeper.end();
      // Someone else's file in a folder the turn made: the folder stays.
      await Deno.writeTextFile(`${dir}/mixed/mine.txt`, "mine");
      const result = await applyPlan(
        store,
        await planRestore(store, [1], [await store.record(1)]),
        () => Promise.resolve(),
      );
      assertEquals(result.failed, []);
      const gone = async (p: string) =>
        await Deno.lstat(`${dir}/${p}`).then(() => false, () => true);
      assertEquals(await gone("sub"), true, "sub/ and sub/deeper/ were made by the turn");
      assertEquals(await gone("old/empty"), false, "old/empty/ was there, empty, before");
      assertEquals(await gone("mixed/n.txt"), true);
      assertEquals(await gone("mixed/mine.txt"), false);
    },
  );

  await t.step("changed since, now a directory: left alone and named", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.writeTextFile(`${dir}/a`, "one");
    await Deno.writeTextFile(`${dir}/b`, "one");
    await turn(keeper, 1, dir, { a: "two", b: "two" });
    await Deno.writeTextFile(`${dir}/a`, "someone else");
    await Deno.remove(`${dir}/b`);
    await Deno.mkdir(`${dir}/b`);
    const plan = await planRestore(store, [1], [await store.record(1)]);
    assertEquals(plan.writes, []);
    assertEquals(plan.leftAlone.map((n) => [n.path.slice(dir.length), n.why]), [
      ["/a", CHANGED_SINCE],
      ["/b", NOW_A_DIRECTORY],
    ]);
  });

  await t.step("a deleted folder is made again; a read-only file is restored", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/sub/f`, "one");
    await Deno.writeTextFile(`${dir}/ro`, "one");
    await Deno.chmod(`${dir}/ro`, 0o444);
    await keeper.begin(1, "p");
    await keeper.beforeCall(writes, { path: "sub/f" });
    await keeper.beforeCall(writes, { path: "ro" });
    await Deno.remove(`${dir}/sub`, { recursive: true });
    await Deno.chmod(`${dir}/ro`, 0o644);
    await Deno.writeTextFile(`${dir}/ro`, "two");
    await keeper.end();
    const result = await applyPlan(
      store,
      await planRestore(store, [1], [await store.record(1)]),
      () => Promise.resolve(),
    );
    assertEquals(result.failed, []);
    assertEquals(await Deno.readTextFile(`${dir}/sub/f`), "one");
    assertEquals(await Deno.readTextFile(`${dir}/ro`), "one");
    assertEquals((await Deno.stat(`${dir}/ro`)).mode! & 0o777, 0o444);
  });

  await t.step("a file over the cap is not kept, and said", async () => {
    const { dir, store, keeper } = await setup();
    const big = new Uint8Array(MAX_KEPT_FILE + 1);
    await Deno.writeFile(`${dir}/big`, big);
    await keeper.begin(1, "p");
    await keeper.beforeCall(writes, { path: "big" });
    await Deno.writeTextFile(`${dir}/big`, "small now");
    await keeper.end();
    const plan = await planRestore(store, [1], [await store.record(1)]);
    assertEquals(plan.notKept.map((n) => n.why), [tooLargeText(MAX_KEPT_FILE + 1)]);
    assertEquals(plan.writes, []);
  });

  await t.step("a symlink: the file it leads to is kept and restored", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.writeTextFile(`${dir}/target`, "one");
    await Deno.symlink(`${dir}/target`, `${dir}/link`);
    await keeper.begin(1, "p");
    await keeper.beforeCall(writes, { path: "link" });
    await Deno.writeTextFile(`${dir}/link`, "two");
    await keeper.end();
    await applyPlan(
      store,
      await planRestore(store, [1], [await store.record(1)]),
      () => Promise.resolve(),
    );
    assertEquals(await Deno.readTextFile(`${dir}/target`), "one");
    assertEquals((await Deno.lstat(`${dir}/link`)).isSymlink, true);
  });

  await t.step("several turns: the state before the first, checked against the last", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.writeTextFile(`${dir}/a`, "one");
    await turn(keeper, 1, dir, { a: "two" });
    await turn(keeper, 2, dir, { a: "three", b: "new" });
    const plan = await planRestore(store, [1, 2], [await store.record(1), await store.record(2)]);
    await applyPlan(store, plan, () => Promise.resolve());
    assertEquals(await Deno.readTextFile(`${dir}/a`), "one");
    assertEquals(await Deno.lstat(`${dir}/b`).catch(() => "gone"), "gone");
  });

  await t.step("a restore stopped half way is finished from its journal", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.writeTextFile(`${dir}/a`, "one");
    await turn(keeper, 1, dir, { a: "two" });
    const plan = await planRestore(store, [1], [await store.record(1)]);
    await store.writeJournal({ turns: plan.turns, writes: plan.writes }); // then mm was killed
    let forgot: number | undefined;
    const done = await finishRestore(store, (from) => Promise.resolve(void (forgot = from)));
    assertEquals(done, { turns: [1], restored: 1, failed: [] });
    assertEquals(forgot, 1);
    assertEquals(await Deno.readTextFile(`${dir}/a`), "one");
    assertEquals(await store.journal(), undefined);
    assertEquals(await finishRestore(store, () => Promise.resolve()), undefined);
  });

  await t.step(
    "a store that cannot be written: the turn goes on, undo says it was not kept",
    async () => {
      const { dir, keeper: _ } = await setup();
      // A file where the store's folder should be: every write of the store fails.
      await Deno.writeTextFile(`${dir}/blocked`, "");
      const store = new UndoStore(`${dir}/blocked/s.undo`);
      const keeper = new TurnKeeper({ store, cwd: dir, sessions: `${dir}/blocked` });
      await Deno.writeTextFile(`${dir}/a`, "one");
      await turn(keeper, 1, dir, { a: "two" });
      assertEquals(await Deno.readTextFile(`${dir}/a`), "two");
      const plan = await planRestore(store, [1], [await store.record(1)]);
      assertEquals(plan.unrecorded, [1]);
    },
  );

  await t.step("prune drops the oldest turns first and their blobs", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.writeTextFile(`${dir}/a`, "x".repeat(100));
    await turn(keeper, 1, dir, { a: "y".repeat(100) });
    await turn(keeper, 2, dir, { a: "z".repeat(100) });
    const before = await store.collect();
    const after = await store.prune(before - 1);
    assertEquals((await store.records()).map((r) => r.turn), [2]);
    assertEquals(after < before, true);
  });
});

/** Returns once the clock has moved on to the next millisecond. */
function nextMillisecond(): void {
  const now = Date.now();
  while (Date.now() <= now) { /* at most a millisecond */ }
}
