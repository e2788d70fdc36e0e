/**
 * What is at a path now, kept in the store (a file's bytes as a blob), and the snapshot of a git
 * work tree: its tracked files and its untracked ones that are not ignored, listed by
 * `git ls-files -co --exclude-standard -z` (through lib/exec/spawn.ts), each hashed only when its
 * size or time differs from the last manifest's.
 */

import { isAbsolute, join, relative, sep } from "node:path";
import { spawnProcess } from "../exec/spawn.ts";
import { GIT_TIMEOUT, MAX_KEPT_FILE, MAX_LISTING } from "./limits.ts";
import { type PathState, sizeText } from "./state.ts";
import type { Manifest, ManifestEntry, UndoStore } from "./store.ts";

/** Why a file over the limit is not kept. */
export function tooLargeText(size: number): string {
  return `${sizeText(size)}, over the ${sizeText(MAX_KEPT_FILE)} a file is kept`;
}

/** Why a file the store could not write is not kept (a full disk). */
export function notStoredText(reason: string): string {
  return `the undo store could not keep it: ${reason}`;
}

/**
 * The state of `path` now, its bytes kept in `store`; `previous` (the last manifest's entry) is
 * reused when the size and modification time are the same. Never throws: a fault is `notKept`.
 */
export function keepState(
  store: UndoStore,
  path: string,
  previous?: ManifestEntry,
): Promise<{ entry: ManifestEntry; added: number }> {
  return Promise.resolve(keepStateSync(store, path, previous));
}

/** {@linkcode keepState} without awaiting: a snapshot's thousands of files in one go. */
export function keepStateSync(
  store: UndoStore,
  path: string,
  previous?: ManifestEntry,
): { entry: ManifestEntry; added: number } {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return { entry: { size: 0, mtime: 0, state: { kind: "absent" } }, added: 0 };
  }
  const mtime = info.mtime?.getTime() ?? 0;
  const at = (state: PathState, added = 0) => ({
    entry: { size: info.size, mtime, state },
    added,
  });
  if (info.isDirectory) return at({ kind: "dir" });
  if (info.isSymlink) {
    try {
      return at({ kind: "symlink", target: Deno.readLinkSync(path) });
    } catch (e) {
      return at({ kind: "notKept", why: (e as Error).message });
    }
  }
  if (!info.isFile) return at({ kind: "notKept", why: "not a regular file" });
  if (
    previous && previous.size === info.size && previous.mtime === mtime &&
    previous.state.kind === "file"
  ) {
    return at(previous.state);
  }
  if (info.size > MAX_KEPT_FILE) {
    return at({ kind: "notKept", why: tooLargeText(info.size), size: info.size });
  }
  try {
    const bytes = Deno.readFileSync(path);
    const { sha, added } = store.putBlobSync(bytes);
    const mode = info.mode === null ? undefined : info.mode & 0o7777;
    return at(
      { kind: "file", sha, size: bytes.length, ...(mode !== undefined ? { mode } : {}) },
      added,
    );
  } catch (e) {
    return at({ kind: "notKept", why: notStoredText(errorWords(e)), size: info.size });
  }
}

/** A store or file fault in a few words. */
export function errorWords(e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === "ENOSPC") return "no space left on device";
  if (e instanceof Deno.errors.PermissionDenied || code === "EACCES") return "permission denied";
  return (e as Error).message ?? String(e);
}

/** The output of `git args…` in `cwd`, or undefined when git is missing or fails. */
async function git(args: string[], cwd: string): Promise<string | undefined> {
  try {
    const p = await spawnProcess({
      argv: ["git", ...args],
      cwd,
      stdout: "piped",
      timeout: GIT_TIMEOUT,
    });
    try {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of p.child.stdout) {
        size += chunk.length;
        if (size > MAX_LISTING) {
          p.stop();
          break;
        }
        chunks.push(chunk);
      }
      const status = await p.status;
      if (!status.success || size > MAX_LISTING) return undefined;
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) all.set(c, at), at += c.length;
      return new TextDecoder().decode(all);
    } finally {
      p.end();
    }
  } catch {
    return undefined;
  }
}

/** The root of the git work tree holding `cwd`, or undefined outside one (or without git). */
export async function gitRoot(cwd: string): Promise<string | undefined> {
  const out = await git(["rev-parse", "--show-toplevel"], cwd);
  const root = out?.trim();
  return root ? root : undefined;
}

/** Whether `path` is `dir` or inside it. */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The work tree of `root` now, as a manifest (paths relative to the root), every file over the
 * limit noted, nothing under `exclude` (mm's own sessions folder); each file's bytes kept in
 * `store` unless `previous` has it with the same size and time. Undefined when git cannot list it.
 */
export async function snapshotTree(
  store: UndoStore,
  root: string,
  exclude: string[],
  previous?: Manifest,
): Promise<{ manifest: Manifest; added: number } | undefined> {
  const listing = await git(["ls-files", "-co", "--exclude-standard", "-z"], root);
  if (listing === undefined) return undefined;
  // What is excluded, relative to the root, compared as a prefix (a path call per file costs).
  const skip = exclude.filter((x) => isInside(x, root)).map((x) => `${relative(root, x)}/`);
  const paths = [...new Set(listing.split("\0").filter((p) => p))]
    .filter((p) => !skip.some((x) => p.startsWith(x) || `${p}/` === x));
  const prev = previous?.root === root ? previous.files : {};
  const files: Record<string, ManifestEntry> = {};
  let added = 0;
  // Synchronous calls, the event loop let go now and then: a promise per file costs more than
  // the work (docs/performance.md, "Undo").
  for (let i = 0; i < paths.length; i++) {
    if (i % 500 === 499) await new Promise((r) => setTimeout(r, 0));
    const p = paths[i];
    const kept = keepStateSync(store, join(root, p), prev[p]);
    // A path git lists that is gone (deleted, not yet staged) is not part of the tree.
    if (kept.entry.state.kind !== "absent") files[p] = kept.entry;
    added += kept.added;
  }
  return { manifest: { root, files }, added };
}
