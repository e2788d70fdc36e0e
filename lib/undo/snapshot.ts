/**
 * What is at a path now, kept in the store (a file's bytes as a blob), and the snapshot of a git
 * work tree: its tracked files and its untracked ones that are not ignored. git says which differ
 * from its index (`git status`, from the index's stat cache): a tracked file unchanged is kept by
 * its blob id in the index (`git ls-files -s`), never read; only a changed or untracked file is
 * read, and only when its size or time differs from the last manifest's (lib/undo/git.ts runs git).
 */

import { isAbsolute, join, relative, sep } from "node:path";
import { git, gitBlobId } from "./git.ts";
import { MAX_KEPT_FILE } from "./limits.ts";
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
      {
        kind: "file",
        sha,
        size: bytes.length,
        ...(mode !== undefined ? { mode } : {}),
        git: gitBlobId(bytes),
      },
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
 * limit noted, nothing under `exclude` (mm's own sessions folder). A tracked file git says is as
 * its index has it is a `gitBlob` (nothing read); every other file's bytes are kept in `store`
 * unless `previous` has it with the same size and time. Undefined when git cannot list it.
 */
export async function snapshotTree(
  store: UndoStore,
  root: string,
  exclude: string[],
  previous?: Manifest,
): Promise<{ manifest: Manifest; added: number } | undefined> {
  const listed = await indexedTree(root) ?? await plainTree(root);
  if (!listed) return undefined;
  // What is excluded, relative to the root, compared as a prefix (a path call per file costs).
  const skip = exclude.filter((x) => isInside(x, root)).map((x) => `${relative(root, x)}/`);
  const outside = (p: string) => !skip.some((x) => p.startsWith(x) || `${p}/` === x);
  const prev = previous?.root === root ? previous.files : {};
  const files: Record<string, ManifestEntry> = {};
  for (const [p, entry] of listed.indexed) if (outside(p)) files[p] = entry;
  const paths = listed.read.filter(outside);
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

/** A work tree as listed: the files kept by their index entry, and the paths to read. */
interface Listed {
  indexed: Map<string, ManifestEntry>;
  read: string[];
}

/** The index's flags that make its entry no word on the file: assume-unchanged, skip-worktree, intent-to-add. */
const UNSURE_FLAGS = 0x8000 | (1 << 30) | (1 << 29);

/** One entry of `git ls-files -s --debug -z`: mode, blob id, stage, path, then its stat data. */
const INDEX_ENTRY = new RegExp(
  [
    "(\\d{6}) ([0-9a-f]{40}) (\\d)\t([^\\0]*)\\0",
    "  ctime: [^\\n]*\\n",
    "  mtime: (\\d+):(\\d+)\\n",
    "  dev: [^\\n]*\\n",
    "  uid: [^\\n]*\\n",
    "  size: (\\d+)\tflags: ([0-9a-f]+)\\n",
  ].join(""),
  "y",
);

/**
 * The work tree of `root` from git's index and status: undefined when git cannot tell (no git,
 * an object format other than sha1, output not understood). Read-only: optional locks are off.
 */
async function indexedTree(root: string): Promise<Listed | undefined> {
  const [where, index, status] = await Promise.all([
    git(["rev-parse", "--absolute-git-dir", "--show-object-format"], root),
    git(["ls-files", "-s", "--debug", "-z"], root),
    git([
      "status",
      "--porcelain=v2",
      "-z",
      "--untracked-files=all",
      "--ignore-submodules=all",
      "--no-renames",
    ], root),
  ]);
  const [gitDir, format] = where?.trim().split("\n") ?? [];
  if (!gitDir || format !== "sha1" || index === undefined || status === undefined) return undefined;
  const read = new Set<string>();
  const records = status.split("\0");
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const f = r.split(" ");
    if (r.startsWith("1 ")) {
      if (f[1]?.[1] !== ".") read.add(f.slice(8).join(" "));
    } else if (r.startsWith("2 ")) {
      read.add(f.slice(9).join(" "));
      i++; // the path it came from
    } else if (r.startsWith("u ")) read.add(f.slice(10).join(" "));
    else if (r.startsWith("? ")) read.add(r.slice(2));
  }
  const indexed = new Map<string, ManifestEntry>();
  INDEX_ENTRY.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (INDEX_ENTRY.lastIndex < index.length && (m = INDEX_ENTRY.exec(index))) {
    const [, mode, oid, stage, path, sec, nsec, size, flags] = m;
    const bytes = Number(size);
    const regular = mode === "100644" || mode === "100755";
    if (
      read.has(path) || stage !== "0" || !regular || (parseInt(flags, 16) & UNSURE_FLAGS) !== 0
    ) {
      read.add(path);
      continue;
    }
    const mtime = Number(sec) * 1000 + Math.floor(Number(nsec) / 1e6);
    const state: PathState = bytes > MAX_KEPT_FILE
      ? { kind: "notKept", why: tooLargeText(bytes), size: bytes }
      : {
        kind: "gitBlob",
        oid,
        gitDir,
        size: bytes,
        ...(mode === "100755" ? { mode: 0o755 } : {}),
      };
    indexed.set(path, { size: bytes, mtime, state });
  }
  // Output not understood to its end: git's word cannot be taken.
  if (INDEX_ENTRY.lastIndex !== index.length) return undefined;
  return { indexed, read: [...read] };
}

/** The work tree of `root` as `git ls-files -co --exclude-standard -z` lists it: every file read. */
async function plainTree(root: string): Promise<Listed | undefined> {
  const listing = await git(["ls-files", "-co", "--exclude-standard", "-z"], root);
  if (listing === undefined) return undefined;
  return { indexed: new Map(), read: [...new Set(listing.split("\0").filter((p) => p))] };
}
