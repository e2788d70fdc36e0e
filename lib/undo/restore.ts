/**
 * Taking turns back (docs/undo.md): a plan first — each path's state before the earliest turn,
 * checked against what the latest turn left, a file changed since by someone else left alone —
 * then a journal, then the writes. A restore stopped half way is finished by the next start from
 * its journal, so nothing is ever half-restored.
 */

import { dirname } from "node:path";
import { MAX_KEPT_FILE } from "./limits.ts";
import { BLOB_BATCH, gitBlobId, heldBlobs, readBlobs } from "./git.ts";
import { errorWords } from "./snapshot.ts";
import { type PathState, sameState, sha256 } from "./state.ts";
import type { Journal, TurnRecord, UndoStore } from "./store.ts";

/** A path and why it was left as it is. */
export interface PathNote {
  path: string;
  why: string;
}

/** What taking turns back will do, decided before anything changes. */
export interface RestorePlan {
  /** The turns taken back, oldest first. */
  turns: number[];
  /** The paths given back their state. */
  writes: { path: string; to: PathState }[];
  /** Paths changed since the turn by someone else (or now something else): left alone. */
  leftAlone: PathNote[];
  /** Paths whose state before the turn was not kept (too large, a full disk). */
  notKept: PathNote[];
  /** Turns without a record: their files were not kept. */
  unrecorded: number[];
  /** Turns whose record says the store failed (a full disk): what it says. */
  faults: string[];
  /** A turn ran commands outside a git work tree: what they changed cannot be taken back. */
  outsideGit: boolean;
  /** When the first turn taken back started (ms), when its record says. */
  since?: number;
}

/** What a restore did. */
export interface RestoreResult extends RestorePlan {
  /** The paths given back (the plan's writes that succeeded). */
  restored: string[];
  /** Writes that failed: the path and why. */
  failed: PathNote[];
}

/** Why a file is left alone: what the turn left there is no longer there. */
export const CHANGED_SINCE = "changed since the turn";

/** Why a file is left alone: a directory is there now. */
export const NOW_A_DIRECTORY = "it is a directory now";

/** Why a file is not restored: its kept copy is gone from the store. */
export const COPY_GONE = "its kept copy is gone from the undo store";

/** Why a file is not restored: git's object store no longer holds its blob (gc). */
export const GIT_BLOB_GONE = "its blob is gone from git's object store";

/** Why a file is not restored: git, which holds its blob, could not be run (or its folder is gone). */
export const GIT_NOT_RUN = "git could not be run to read it back";

/** The state of `path` now, hashed (nothing is kept). */
export async function currentState(path: string): Promise<PathState> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    return { kind: "absent" };
  }
  if (info.isDirectory) return { kind: "dir" };
  if (info.isSymlink) return { kind: "symlink", target: await Deno.readLink(path).catch(() => "") };
  if (!info.isFile) return { kind: "notKept", why: "not a regular file" };
  if (info.size > MAX_KEPT_FILE) return { kind: "notKept", why: "large", size: info.size };
  try {
    const bytes = await Deno.readFile(path);
    return { kind: "file", sha: await sha256(bytes), size: bytes.length, git: gitBlobId(bytes) };
  } catch (e) {
    return { kind: "notKept", why: errorWords(e) };
  }
}

/** Whether what is there now is what the turn left (a file too large to keep: by its size). */
function isWhatWasLeft(now: PathState, left: PathState): boolean {
  if (left.kind === "notKept" && now.kind === "notKept") return now.size === left.size;
  if (left.kind === "notKept" && now.kind === "file") return now.size === left.size;
  return sameState(now, left);
}

/**
 * The plan of taking back `turns` (oldest first) from their `records` (undefined: not kept): each
 * path's state before the first of them that touched it, checked against what the last one left.
 */
export async function planRestore(
  store: UndoStore,
  turns: number[],
  records: (TurnRecord | undefined)[],
  now: (path: string) => Promise<PathState> = currentState,
): Promise<RestorePlan> {
  const plan: RestorePlan = {
    turns,
    writes: [],
    leftAlone: [],
    notKept: [],
    unrecorded: [],
    faults: [],
    outsideGit: false,
  };
  const before = new Map<string, PathState>();
  const left = new Map<string, PathState | undefined>();
  records.forEach((r, i) => {
    if (!r) return plan.unrecorded.push(turns[i]);
    const time = Date.parse(r.time);
    if (!Number.isNaN(time) && !(time >= (plan.since ?? Infinity))) plan.since = time;
    plan.faults.push(...(r.faults ?? []));
    if (r.outsideGit) plan.outsideGit = true;
    for (const [path, state] of Object.entries(r.before)) {
      if (!before.has(path)) before.set(path, state);
      left.set(path, r.after?.[path]);
    }
  });
  for (const [path, want] of [...before].sort(([a], [b]) => a.localeCompare(b))) {
    const is = await now(path);
    if (want.kind === "notKept") {
      // Said unless the turn left it as it was (a large file it did not change).
      const was = left.get(path);
      const same = was?.kind === "notKept" && was.size === want.size;
      if (!same) plan.notKept.push({ path, why: want.why });
      continue;
    }
    if (sameState(is, want)) continue;
    const was = left.get(path);
    if (was && !isWhatWasLeft(is, was)) {
      const why = is.kind === "dir" && was.kind !== "dir" ? NOW_A_DIRECTORY : CHANGED_SINCE;
      plan.leftAlone.push({ path, why });
      continue;
    }
    if (want.kind === "dir") {
      plan.leftAlone.push({ path, why: CHANGED_SINCE });
      continue;
    }
    if (is.kind === "dir") {
      plan.leftAlone.push({ path, why: NOW_A_DIRECTORY });
      continue;
    }
    if (want.kind === "file" && !(await store.blob(want.sha))) {
      plan.notKept.push({ path, why: COPY_GONE });
      continue;
    }
    plan.writes.push({ path, to: want });
  }
  // The blobs of git's index the plan reads: one question per repository.
  const fromGit = plan.writes.filter((w) => w.to.kind === "gitBlob");
  const gitDirs = new Set(fromGit.map((w) => (w.to as { gitDir: string }).gitDir));
  for (const gitDir of gitDirs) {
    const mine = fromGit.filter((w) => (w.to as { gitDir: string }).gitDir === gitDir);
    const held = await heldBlobs(gitDir, mine.map((w) => (w.to as { oid: string }).oid));
    const gone = new Set(mine.filter((w) => !held?.has((w.to as { oid: string }).oid)));
    if (!gone.size) continue;
    plan.writes = plan.writes.filter((w) => !gone.has(w));
    const why = held ? GIT_BLOB_GONE : GIT_NOT_RUN;
    for (const w of gone) plan.notKept.push({ path: w.path, why });
    plan.notKept.sort((a, b) => a.path.localeCompare(b.path));
  }
  return plan;
}

/**
 * Gives `path` the state `to` (its bytes from `store`, or from git: `blobs` when they were read
 * already); throws what failed.
 */
export async function applyWrite(
  store: UndoStore,
  path: string,
  to: PathState,
  blobs?: Map<string, Uint8Array | undefined>,
): Promise<void> {
  const is = await Deno.lstat(path).catch(() => undefined);
  if (to.kind === "absent") {
    if (is && !is.isDirectory) await Deno.remove(path);
    return;
  }
  if (to.kind === "symlink") {
    if (is && !is.isDirectory) await Deno.remove(path);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.symlink(to.target, path);
    return;
  }
  if (to.kind !== "file" && to.kind !== "gitBlob") return;
  let bytes: Uint8Array | undefined;
  if (to.kind === "file") {
    bytes = await store.blob(to.sha);
    if (!bytes) throw new Error(COPY_GONE);
  } else {
    bytes = blobs?.has(to.oid)
      ? blobs.get(to.oid)
      : (await readBlobs(to.gitDir, [to.oid])).get(to.oid);
    if (!bytes) throw new Error(GIT_BLOB_GONE);
  }
  await Deno.mkdir(dirname(path), { recursive: true });
  if (is?.isSymlink) await Deno.remove(path);
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.mm-undo`;
  try {
    await Deno.writeFile(tmp, bytes, to.mode !== undefined ? { mode: to.mode } : {});
    if (to.mode !== undefined) await Deno.chmod(tmp, to.mode);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Takes back `plan`: its journal written first (a failure to write it changes nothing), the
 * writes, then `forget` (the turns' messages leave the history and the session file), then the
 * turns' records and the journal go.
 */
export async function applyPlan(
  store: UndoStore,
  plan: RestorePlan,
  forget: () => Promise<void>,
): Promise<RestoreResult> {
  const journal: Journal = { turns: plan.turns, writes: plan.writes };
  await store.writeJournal(journal);
  const result: RestoreResult = { ...plan, ...await applyWrites(store, plan.writes) };
  await removeMadeDirs(plan.writes, plan.since);
  await forget();
  for (const t of plan.turns) await store.dropRecord(t);
  await store.dropJournal();
  await store.prune().catch(() => {});
  return result;
}

/**
 * Removes the folders the turns made that are empty once their files are gone: the folders above a
 * path given back its absence, deepest first, when one is empty, holds no path given back a file,
 * and was made after the turns began (`since`; kept when the file system does not tell).
 */
export async function removeMadeDirs(
  writes: { path: string; to: PathState }[],
  since?: number,
): Promise<void> {
  const kept = writes.filter((w) => w.to.kind !== "absent").map((w) => w.path);
  const dirs = new Set<string>();
  for (const w of writes) {
    if (w.to.kind !== "absent") continue;
    for (let d = dirname(w.path); d !== dirname(d); d = dirname(d)) dirs.add(d);
  }
  const deepest = [...dirs].sort((a, b) => b.length - a.length);
  for (const dir of deepest) {
    if (kept.some((p) => p.startsWith(`${dir}/`))) continue;
    const info = await Deno.lstat(dir).catch(() => undefined);
    if (!info?.isDirectory) continue;
    // Only a folder the file system says was made since: never one that was there before.
    if (since === undefined || !info.birthtime || info.birthtime.getTime() <= since) continue;
    // Not recursive: a folder holding anything stays.
    await Deno.remove(dir).catch(() => {});
  }
}

/** What the next start finished of a restore that was stopped. */
export interface Recovered {
  turns: number[];
  restored: number;
  failed: PathNote[];
}

/**
 * Finishes a restore that was stopped half way (its journal is there): every write again (each is
 * idempotent), `forget(first turn)`, the records and the journal removed. Undefined when none was.
 */
export async function finishRestore(
  store: UndoStore,
  forget: (from: number) => Promise<void>,
): Promise<Recovered | undefined> {
  const journal = await store.journal();
  if (!journal) return undefined;
  const { restored, failed } = await applyWrites(store, journal.writes);
  if (journal.turns.length) await forget(Math.min(...journal.turns));
  for (const t of journal.turns) await store.dropRecord(t);
  await store.dropJournal();
  return { turns: journal.turns, restored: restored.length, failed };
}

/**
 * Every write, in order: the paths given back and those that failed (and why). The blobs of git's
 * index are read {@linkcode BLOB_BATCH} at a time, one `git cat-file` for each batch.
 */
async function applyWrites(
  store: UndoStore,
  writes: { path: string; to: PathState }[],
): Promise<{ restored: string[]; failed: PathNote[] }> {
  const restored: string[] = [];
  const failed: PathNote[] = [];
  for (let i = 0; i < writes.length; i += BLOB_BATCH) {
    const batch = writes.slice(i, i + BLOB_BATCH);
    const blobs = new Map<string, Uint8Array | undefined>();
    for (const w of batch) {
      if (w.to.kind !== "gitBlob" || blobs.has(w.to.oid)) continue;
      const gitDir = w.to.gitDir;
      const oids = batch.flatMap((v) =>
        v.to.kind === "gitBlob" && v.to.gitDir === gitDir ? [v.to.oid] : []
      );
      for (const [oid, bytes] of await readBlobs(gitDir, oids)) if (bytes) blobs.set(oid, bytes);
      if (!blobs.has(w.to.oid)) blobs.set(w.to.oid, undefined);
    }
    for (const w of batch) {
      try {
        await applyWrite(store, w.path, w.to, blobs);
        restored.push(w.path);
      } catch (e) {
        failed.push({ path: w.path, why: errorWords(e) });
      }
    }
  }
  return { restored, failed };
}
