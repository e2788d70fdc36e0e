/**
 * Keeps what a turn changes, cheaply (docs/undo.md): before a file tool first touches a file in a
 * turn, its state is kept; before the turn's first command (bash, a declared tool, an MCP tool), the
 * git work tree is kept once. At the turn's end, what it left is recorded beside what it found. A
 * fault of the store never stops the turn: the record says what was not kept.
 */

import { join, relative, resolve } from "node:path";
import type { AnyTool, Files } from "../tool.ts";
import {
  errorWords,
  gitRoot,
  isInside,
  keepState,
  notStoredText,
  snapshotTree,
} from "./snapshot.ts";
import { type PathState, sameState } from "./state.ts";
import { type Manifest, pruneStores, type TurnRecord, type UndoStore } from "./store.ts";

/** Where a keeper keeps, and what it never looks at. */
export interface KeeperOptions {
  store: UndoStore;
  /** The working directory: a tool's relative paths are resolved against it. */
  cwd: string;
  /** The sessions directory: never part of a snapshot (the store lives there). */
  sessions: string;
}

/** The turn keeper of one conversation. */
export class TurnKeeper {
  /** Its store. */
  readonly store: UndoStore;
  readonly #cwd: string;
  readonly #sessions: string;
  #record?: TurnRecord;
  #tree?: Manifest;
  /** The manifest as the store holds it, once read or written (null: none). */
  #saved?: Manifest | null;
  /** The git root of the working directory: null outside a work tree, undefined before asked. */
  #root?: string | null;
  #writeFailed = false;
  #prunedAll = false;

  /** A keeper over `opts.store`. */
  constructor(opts: KeeperOptions) {
    this.store = opts.store;
    this.#cwd = opts.cwd;
    this.#sessions = opts.sessions;
  }

  /** Turn `turn` starts with `prompt`: its record is written (an empty one). */
  async begin(turn: number, prompt: string): Promise<void> {
    this.#tree = undefined;
    this.#writeFailed = false;
    this.#record = { turn, time: new Date().toISOString(), prompt, before: {}, bytes: 0 };
    await this.#save();
  }

  /**
   * Before `tool` runs with `input`: the paths it says it touches are kept (their first touch of
   * the turn), or the work tree when it runs a command.
   */
  async beforeCall(tool: AnyTool, input: Record<string, unknown>): Promise<void> {
    if (!this.#record) return;
    const touches = tool.touches?.(input);
    if (touches === "tree") await this.#snapshot();
    else if (touches) { for (const p of touches) await this.keepPath(resolve(this.#cwd, p)); }
  }

  /** `fs` whose writes keep each file first (a tool whose paths are known only as it runs). */
  files(fs: Files): Files {
    const keep = (p: string) => this.keepPath(fs.resolve(p));
    return {
      resolve: (p) => fs.resolve(p),
      stat: (p) => fs.stat(p),
      read: (p, limit) => fs.read(p, limit),
      ...(fs.readChunks ? { readChunks: (p: string) => fs.readChunks!(p) } : {}),
      ...(fs.realPath ? { realPath: (p: string) => fs.realPath!(p) } : {}),
      writeAtomic: async (p, data) => {
        await keep(p);
        return await fs.writeAtomic(p, data);
      },
    };
  }

  /** Keeps the state of `path` (absolute) unless the turn has it already. */
  async keepPath(path: string): Promise<void> {
    const record = this.#record;
    if (!record) return;
    path = await realPath(path);
    if (path in record.before) return;
    if (this.#tree && isInside(path, this.#tree.root)) {
      if (relative(this.#tree.root, path) in this.#tree.files) return;
    }
    const { entry, added } = await keepState(this.store, path);
    record.before[path] = entry.state;
    record.bytes += added;
    await this.#save();
  }

  /** The work tree, once per turn before its first command; outside git, the record says so. */
  async #snapshot(): Promise<void> {
    const record = this.#record!;
    if (this.#tree || record.outsideGit) return;
    if (this.#root === undefined) this.#root = (await gitRoot(this.#cwd)) ?? null;
    if (this.#root && this.#saved === undefined) {
      this.#saved = (await this.store.manifest()) ?? null;
    }
    const snap = this.#root
      ? await snapshotTree(this.store, this.#root, [this.#sessions], this.#saved ?? undefined)
      : undefined;
    if (!snap) {
      record.outsideGit = true;
    } else {
      this.#tree = snap.manifest;
      record.bytes += snap.added;
    }
    await this.#save();
  }

  /** The turn ended: what it left at each path it touched, the work tree's changes; the store pruned. */
  async end(): Promise<void> {
    const record = this.#record;
    if (!record) return;
    this.#record = undefined;
    const after: Record<string, PathState> = {};
    for (const path of Object.keys(record.before)) {
      const { entry, added } = await keepState(this.store, path);
      after[path] = entry.state;
      record.bytes += added;
    }
    if (this.#tree) {
      const before = this.#tree;
      const now = await snapshotTree(this.store, before.root, [this.#sessions], before);
      if (now) {
        record.bytes += now.added;
        const names = new Set([...Object.keys(before.files), ...Object.keys(now.manifest.files)]);
        for (const rel of names) {
          const b = before.files[rel];
          const a = now.manifest.files[rel];
          if (b && a && unchanged(b, a)) continue;
          const path = join(before.root, rel);
          if (!(path in record.before)) record.before[path] = b?.state ?? { kind: "absent" };
          after[path] = a?.state ?? { kind: "absent" };
        }
        // Written only when it differs (a 10,000-file manifest costs tens of ms to write).
        if (!sameManifest(this.#saved ?? undefined, now.manifest)) {
          await this.store.saveManifest(now.manifest).then(
            () => void (this.#saved = now.manifest),
            () => void (this.#saved = undefined),
          );
        }
      }
      this.#tree = undefined;
    }
    record.after = after;
    await this.#save(record);
    await this.store.prune().catch(() => {});
    // Every store of the sessions folder together: once per conversation (it reads them all).
    if (!this.#prunedAll) {
      this.#prunedAll = true;
      await pruneStores(this.#sessions).catch(() => {});
    }
  }

  /** Writes the record; a fault is noted in it once (the turn goes on). */
  async #save(record = this.#record): Promise<void> {
    if (!record) return;
    try {
      await this.store.writeRecord(record);
    } catch (e) {
      if (this.#writeFailed) return;
      this.#writeFailed = true;
      (record.faults ??= []).push(notStoredText(errorWords(e)));
    }
  }
}

/** Whether a file is as it was: the same content, or (not kept) the same size and time. */
function unchanged(
  b: { size: number; mtime: number; state: PathState },
  a: typeof b,
): boolean {
  if (sameState(b.state, a.state)) return true;
  return b.state.kind === "notKept" && a.state.kind === "notKept" && b.size === a.size &&
    b.mtime === a.mtime;
}

/** Whether two manifests list the same files with the same sizes, times and states. */
function sameManifest(a: Manifest | undefined, b: Manifest): boolean {
  if (!a || a.root !== b.root) return false;
  const names = Object.keys(a.files);
  if (names.length !== Object.keys(b.files).length) return false;
  for (const name of names) {
    const x = a.files[name];
    const y = b.files[name];
    if (!y || x.size !== y.size || x.mtime !== y.mtime) return false;
    if (
      !(x.state.kind === "notKept" && y.state.kind === "notKept") && !sameState(x.state, y.state)
    ) {
      return false;
    }
  }
  return true;
}

/** Where `path` leads when it is a link (a write reaches the target), else itself. */
async function realPath(path: string): Promise<string> {
  try {
    if ((await Deno.lstat(path)).isSymlink) return await Deno.realPath(path);
  } catch {
    // a missing path or a dangling link: kept as written
  }
  return path;
}
