/**
 * The work tree kept by git's index (docs/undo.md): a tracked file unchanged is kept by its blob id
 * and read back with `git cat-file`; a changed or untracked one is copied into mm's store; an
 * ignored one is not kept; a blob gone from git's object store is named as not kept. Real git
 * repositories in temporary folders.
 */

import { assertEquals } from "../helpers/assert.ts";
import { tempDir } from "../helpers/mm.ts";
import { TurnKeeper } from "../../lib/undo/keeper.ts";
import { gitBlobId } from "../../lib/undo/git.ts";
import {
  applyPlan,
  finishRestore,
  GIT_BLOB_GONE,
  GIT_NOT_RUN,
  planRestore,
} from "../../lib/undo/restore.ts";
import { snapshotTree } from "../../lib/undo/snapshot.ts";
import { UndoStore } from "../../lib/undo/store.ts";
import type { AnyTool } from "../../lib/tool.ts";

const command = { touches: () => "tree" } as unknown as AnyTool;

/** Runs git in `dir` (the test's own process), its output. */
async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/**
 * A repository: `kept.txt` and `changed.txt` committed, `changed.txt` then changed (not staged),
 * `new.txt` untracked, `build.log` ignored; its store and keeper.
 */
async function setup() {
  const dir = await tempDir("mm-undo-git-");
  const sessions = `${dir}/.mm/sessions`;
  await Deno.mkdir(sessions, { recursive: true });
  await Deno.writeTextFile(`${sessions}/s.json`, "{}");
  await Deno.writeTextFile(`${dir}/kept.txt`, "kept\n");
  await Deno.writeTextFile(`${dir}/changed.txt`, "committed\n");
  await Deno.writeTextFile(`${dir}/.gitignore`, "*.log\n.mm/\n");
  await git(dir, "init", "-q");
  await git(dir, "add", "kept.txt", "changed.txt", ".gitignore");
  await git(dir, "commit", "-q", "-m", "start");
  await Deno.writeTextFile(`${dir}/changed.txt`, "changed before the turn\n");
  await Deno.writeTextFile(`${dir}/new.txt`, "untracked\n");
  await Deno.writeTextFile(`${dir}/build.log`, "ignored\n");
  const store = new UndoStore(`${sessions}/s.undo`);
  return { dir, store, keeper: new TurnKeeper({ store, cwd: dir, sessions }) };
}

/** A turn that runs a command, which `act` stands for. */
async function commandTurn(keeper: TurnKeeper, n: number, act: () => Promise<void>) {
  await keeper.begin(n, `turn ${n}`);
  await keeper.beforeCall(command, {});
  await act();
  await keeper.end();
}

/** Takes back turn `n`: the plan and the result. */
async function takeBack(store: UndoStore, n: number) {
  const plan = await planRestore(store, [n], [await store.record(n)]);
  return await applyPlan(store, plan, () => Promise.resolve());
}

Deno.test("undo in a git work tree", async (t) => {
  await t.step("what is kept where: blob ids, mm's store, nothing for ignored", async () => {
    const { dir, store } = await setup();
    const snap = await snapshotTree(store, dir, [`${dir}/.mm/sessions`]);
    const files = snap!.manifest.files;
    const oid = (await git(dir, "rev-parse", ":kept.txt")).trim();
    assertEquals(files["kept.txt"].state.kind, "gitBlob");
    assertEquals((files["kept.txt"].state as { oid: string }).oid, oid);
    assertEquals(files["changed.txt"].state.kind, "file");
    assertEquals(files["new.txt"].state.kind, "file");
    assertEquals(files["build.log"], undefined);
    // Only the changed and the untracked file's bytes are in mm's store.
    const blobs: string[] = [];
    for await (const e of Deno.readDir(`${store.dir}/blobs`)) blobs.push(e.name);
    assertEquals(blobs.length, 2);
    assertEquals(gitBlobId(new TextEncoder().encode("kept\n")), oid);
  });

  await t.step("a tracked file unchanged, deleted or changed by the turn, comes back", async () => {
    const { dir, store, keeper } = await setup();
    await Deno.writeTextFile(`${dir}/other.txt`, "x");
    await git(dir, "add", "other.txt");
    await git(dir, "commit", "-q", "-m", "other");
    await commandTurn(keeper, 1, async () => {
      await Deno.remove(`${dir}/kept.txt`);
      await Deno.writeTextFile(`${dir}/other.txt`, "changed by the turn");
    });
    const record = await store.record(1);
    assertEquals(record!.before[`${dir}/kept.txt`].kind, "gitBlob");
    const result = await takeBack(store, 1);
    assertEquals(result.failed, []);
    assertEquals(result.notKept, []);
    assertEquals(await Deno.readTextFile(`${dir}/kept.txt`), "kept\n");
    assertEquals(await Deno.readTextFile(`${dir}/other.txt`), "x");
  });

  await t.step(
    "a modified tracked file and an untracked file come back from mm's store",
    async () => {
      const { dir, store, keeper } = await setup();
      await commandTurn(keeper, 1, async () => {
        await Deno.writeTextFile(`${dir}/changed.txt`, "the turn's");
        await Deno.remove(`${dir}/new.txt`);
        await Deno.writeTextFile(`${dir}/build.log`, "rebuilt\n");
      });
      const result = await takeBack(store, 1);
      assertEquals(result.failed, []);
      assertEquals(await Deno.readTextFile(`${dir}/changed.txt`), "changed before the turn\n");
      assertEquals(await Deno.readTextFile(`${dir}/new.txt`), "untracked\n");
      // Ignored: not kept, not taken back.
      assertEquals(await Deno.readTextFile(`${dir}/build.log`), "rebuilt\n");
    },
  );

  await t.step("a file changed since the turn by someone else is left alone", async () => {
    const { dir, store, keeper } = await setup();
    await commandTurn(keeper, 1, async () => {
      await Deno.writeTextFile(`${dir}/kept.txt`, "the turn's");
    });
    await Deno.writeTextFile(`${dir}/kept.txt`, "someone else's");
    const result = await takeBack(store, 1);
    assertEquals(result.restored, []);
    assertEquals(result.leftAlone.map((n) => n.path), [`${dir}/kept.txt`]);
    assertEquals(await Deno.readTextFile(`${dir}/kept.txt`), "someone else's");
  });

  await t.step(
    "a turn that makes a changed file as git has it: taken back to the change",
    async () => {
      const { dir, store, keeper } = await setup();
      await commandTurn(keeper, 1, () => git(dir, "checkout", "--", "changed.txt").then(() => {}));
      const record = await store.record(1);
      assertEquals(record!.after![`${dir}/changed.txt`].kind, "gitBlob");
      const result = await takeBack(store, 1);
      assertEquals(result.leftAlone, []);
      assertEquals(await Deno.readTextFile(`${dir}/changed.txt`), "changed before the turn\n");
    },
  );

  await t.step("a blob gone from git's object store: the file is named as not kept", async () => {
    const { dir, store, keeper } = await setup();
    await commandTurn(keeper, 1, () => Deno.remove(`${dir}/kept.txt`));
    const record = (await store.record(1))!;
    const state = record.before[`${dir}/kept.txt`] as { kind: "gitBlob"; oid: string };
    state.oid = "0123456789abcdef0123456789abcdef01234567";
    await store.writeRecord(record);
    const result = await takeBack(store, 1);
    assertEquals(result.notKept, [{ path: `${dir}/kept.txt`, why: GIT_BLOB_GONE }]);
    assertEquals(await Deno.lstat(`${dir}/kept.txt`).catch(() => "gone"), "gone");
  });

  await t.step(
    "git that cannot be run (its folder gone): the file is named as not kept",
    async () => {
      const { dir, store, keeper } = await setup();
      await commandTurn(keeper, 1, () => Deno.remove(`${dir}/kept.txt`));
      const record = (await store.record(1))!;
      const state = record.before[`${dir}/kept.txt`] as { kind: "gitBlob"; gitDir: string };
      state.gitDir = `${dir}/no-such-git-folder`;
      await store.writeRecord(record);
      const result = await takeBack(store, 1);
      assertEquals(result.notKept, [{ path: `${dir}/kept.txt`, why: GIT_NOT_RUN }]);
    },
  );

  await t.step(
    "a restore stopped half way is finished from its journal, blobs from git",
    async () => {
      const { dir, store, keeper } = await setup();
      await commandTurn(keeper, 1, () => Deno.remove(`${dir}/kept.txt`));
      const plan = await planRestore(store, [1], [await store.record(1)]);
      await store.writeJournal({ turns: plan.turns, writes: plan.writes }); // then mm was killed
      const done = await finishRestore(store, () => Promise.resolve());
      assertEquals(done, { turns: [1], restored: 1, failed: [] });
      assertEquals(await Deno.readTextFile(`${dir}/kept.txt`), "kept\n");
    },
  );

  await t.step("a later turn reads nothing unchanged; git's index is not written", async () => {
    const { dir, store, keeper } = await setup();
    await commandTurn(keeper, 1, () => Promise.resolve());
    // Touched (newer time) but the same content: git's stat cache is stale, status re-reads it.
    const later = new Date(Date.now() + 5000);
    await Deno.utime(`${dir}/kept.txt`, later, later);
    const index = await Deno.stat(`${dir}/.git/index`);
    const blobs = async () => {
      const names: string[] = [];
      for await (const e of Deno.readDir(`${store.dir}/blobs`)) names.push(e.name);
      return names.sort();
    };
    const before = await blobs();
    await commandTurn(keeper, 2, () => Promise.resolve());
    assertEquals(await blobs(), before);
    assertEquals((await store.record(2))!.bytes, 0);
    const after = await Deno.stat(`${dir}/.git/index`);
    assertEquals(after.mtime, index.mtime, "GIT_OPTIONAL_LOCKS=0: git status left the index");
  });
});
