/**
 * The undo store of one session (docs/undo.md): beside its session file, `<id>.undo/` holds the
 * contents a turn changed, named by their sha256 (`blobs/`, the same bytes once), one record per
 * turn (`turns/<n>.json`: each path's state before the turn and after it), the work tree's last
 * manifest (`tree.json`, to hash only what changed) and, while a restore runs, its journal.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { MAX_SESSION_BYTES, MAX_TOTAL_BYTES } from "./limits.ts";
import { type PathState, sha256 } from "./state.ts";
import { exists } from "../files.ts";

/** What one turn changed, as kept. */
export interface TurnRecord {
  turn: number;
  /** When the turn started (ISO). */
  time: string;
  /** The prompt as the user typed it. */
  prompt: string;
  /** Each path's state before the turn first touched it (absolute paths). */
  before: Record<string, PathState>;
  /** What the turn left at each path; absent while it runs (or when mm stopped during it). */
  after?: Record<string, PathState>;
  /** Commands ran outside a git work tree: what they changed was not kept. */
  outsideGit?: boolean;
  /** What the store could not keep (a full disk): one sentence each. */
  faults?: string[];
  /** Bytes of new blobs this turn added. */
  bytes: number;
}

/** One file of a work tree's manifest: how it was when last hashed. */
export interface ManifestEntry {
  size: number;
  mtime: number;
  state: PathState;
}

/** A work tree's files (relative to its root), as last seen. */
export interface Manifest {
  root: string;
  files: Record<string, ManifestEntry>;
}

/** A restore in progress: written before the first file changes, removed once it is done. */
export interface Journal {
  /** The turns taken back, oldest first. */
  turns: number[];
  /** Each path and the state it is being given back. */
  writes: { path: string; to: PathState }[];
}

/** The store's folder of session `id` in the sessions directory `dir`. */
export function undoDir(dir: string, id: string): string {
  return join(dir, `${id}.undo`);
}

/** One session's undo store. */
export class UndoStore {
  /** Its folder. */
  readonly dir: string;
  #blobDir = false;

  /** The store in `dir` (made on first write). */
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Keeps `bytes` once, by their hash: the hash, and the bytes newly written (0 when known). */
  async putBlob(bytes: Uint8Array): Promise<{ sha: string; added: number }> {
    const sha = await sha256(bytes);
    const path = join(this.dir, "blobs", sha);
    try {
      await Deno.lstat(path);
      return { sha, added: 0 };
    } catch {
      // not kept yet
    }
    await writeAtomic(path, bytes);
    return { sha, added: bytes.length };
  }

  /**
   * {@linkcode putBlob} without awaiting: a snapshot of thousands of files keeps them in one go
   * (a promise per file costs more than the work). Throws what the file system says (a full disk).
   */
  putBlobSync(bytes: Uint8Array): { sha: string; added: number } {
    const sha = createHash("sha256").update(bytes).digest("hex");
    const dir = join(this.dir, "blobs");
    const path = join(dir, sha);
    try {
      Deno.lstatSync(path);
      return { sha, added: 0 };
    } catch {
      // not kept yet
    }
    if (!this.#blobDir) {
      Deno.mkdirSync(dir, { recursive: true });
      this.#blobDir = true;
    }
    const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    try {
      Deno.writeFileSync(tmp, bytes);
      Deno.renameSync(tmp, path);
    } catch (e) {
      try {
        Deno.removeSync(tmp);
      } catch {
        // never written
      }
      throw e;
    }
    return { sha, added: bytes.length };
  }

  /** The bytes of blob `sha`, or undefined when they are gone. */
  async blob(sha: string): Promise<Uint8Array | undefined> {
    try {
      return await Deno.readFile(join(this.dir, "blobs", sha));
    } catch {
      return undefined;
    }
  }

  /** Writes turn `record.turn`'s record. */
  async writeRecord(record: TurnRecord): Promise<void> {
    await writeAtomic(
      join(this.dir, "turns", `${record.turn}.json`),
      new TextEncoder().encode(JSON.stringify(record)),
    );
  }

  /** Turn `turn`'s record, or undefined when none was kept. */
  async record(turn: number): Promise<TurnRecord | undefined> {
    return await readJson<TurnRecord>(join(this.dir, "turns", `${turn}.json`));
  }

  /** Every turn's record, oldest first. */
  async records(): Promise<TurnRecord[]> {
    const out: TurnRecord[] = [];
    try {
      for await (const e of Deno.readDir(join(this.dir, "turns"))) {
        const m = e.name.match(/^(\d+)\.json$/);
        const r = m ? await this.record(Number(m[1])) : undefined;
        if (r) out.push(r);
      }
    } catch {
      return [];
    }
    return out.sort((a, b) => a.turn - b.turn);
  }

  /** Forgets turn `turn`'s record (its blobs go at the next {@linkcode prune}). */
  async dropRecord(turn: number): Promise<void> {
    await Deno.remove(join(this.dir, "turns", `${turn}.json`)).catch(() => {});
  }

  /** The work tree's last manifest. */
  async manifest(): Promise<Manifest | undefined> {
    return await readJson<Manifest>(join(this.dir, "tree.json"));
  }

  /** Saves the work tree's manifest. */
  async saveManifest(manifest: Manifest): Promise<void> {
    await writeAtomic(
      join(this.dir, "tree.json"),
      new TextEncoder().encode(JSON.stringify(manifest)),
    );
  }

  /** The journal of a restore that has not finished, if any. */
  async journal(): Promise<Journal | undefined> {
    return await readJson<Journal>(join(this.dir, "restore.json"));
  }

  /** Writes the journal of a restore, before its first change. */
  async writeJournal(journal: Journal): Promise<void> {
    await writeAtomic(
      join(this.dir, "restore.json"),
      new TextEncoder().encode(JSON.stringify(journal)),
    );
  }

  /** The restore is done: its journal goes. */
  async dropJournal(): Promise<void> {
    await Deno.remove(join(this.dir, "restore.json")).catch(() => {});
  }

  /**
   * Keeps the store under `cap` bytes: the oldest turns' records go first, then every blob no
   * record (nor the manifest) names. Returns the bytes the store holds after.
   */
  async prune(cap = MAX_SESSION_BYTES): Promise<number> {
    const records = await this.records();
    let total = records.reduce((n, r) => n + r.bytes, 0);
    // The records' bytes bound the blobs': under the cap, no blob is listed (a turn stays cheap).
    if (total <= cap) return total;
    while (total > cap && records.length) {
      const oldest = records.shift()!;
      total -= oldest.bytes;
      await this.dropRecord(oldest.turn);
    }
    return await this.collect(records);
  }

  /** Removes the blobs `records` and the manifest do not name; the bytes of the rest. */
  async collect(records?: TurnRecord[]): Promise<number> {
    records ??= await this.records();
    const named = new Set<string>();
    const name = (s: PathState | undefined) => s?.kind === "file" && named.add(s.sha);
    for (const r of records) {
      for (const s of Object.values(r.before)) name(s);
      for (const s of Object.values(r.after ?? {})) name(s);
    }
    for (const e of Object.values((await this.manifest())?.files ?? {})) name(e.state);
    for (const w of (await this.journal())?.writes ?? []) name(w.to);
    let bytes = 0;
    try {
      for await (const e of Deno.readDir(join(this.dir, "blobs"))) {
        const path = join(this.dir, "blobs", e.name);
        try {
          if (named.has(e.name)) bytes += Deno.lstatSync(path).size;
          else Deno.removeSync(path);
        } catch {
          // gone meanwhile
        }
      }
    } catch {
      // no blobs yet
    }
    return bytes;
  }

  /** Removes the whole store (its session is gone). */
  async remove(): Promise<void> {
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Keeps every store of the sessions directory `dir` together under `cap`: a store whose session
 * file is gone is removed, then the oldest stores (by their last change) lose their turns first.
 */
export async function pruneStores(dir: string, cap = MAX_TOTAL_BYTES): Promise<void> {
  const stores: { store: UndoStore; bytes: number; mtime: number }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (!e.isDirectory || !e.name.endsWith(".undo")) continue;
      const store = new UndoStore(join(dir, e.name));
      const session = join(dir, `${e.name.slice(0, -".undo".length)}.json`);
      if (!(await exists(session))) {
        await store.remove();
        continue;
      }
      const info = await Deno.stat(store.dir);
      stores.push({ store, bytes: await store.collect(), mtime: info.mtime?.getTime() ?? 0 });
    }
  } catch {
    return;
  }
  let total = stores.reduce((n, s) => n + s.bytes, 0);
  stores.sort((a, b) => a.mtime - b.mtime);
  for (const s of stores) {
    if (total <= cap) break;
    total -= s.bytes - await s.store.prune(Math.max(0, s.bytes - (total - cap)));
  }
}

/** A JSON file's value, or undefined when it is missing or unreadable. */
async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as T;
  } catch {
    return undefined;
  }
}

/** Writes through a temporary file and a rename, making the folder. */
async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  await Deno.mkdir(dir, { recursive: true });
  const tmp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}
