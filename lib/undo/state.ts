/**
 * What is at a path, as the undo store keeps it: a file's content by its hash (in mm's store, or
 * by its blob id in the user's git index), or its absence.
 */

/** The state of one path before or after a turn. */
export type PathState =
  /**
   * A regular file: its content's sha256 (its blob in mm's store), its size, permission bits and
   * git's blob id of the content (to compare with a `gitBlob`).
   */
  | { kind: "file"; sha: string; size: number; mode?: number; git?: string }
  /**
   * A tracked file as git's index has it (unchanged in the work tree): its blob id, read back with
   * `git cat-file` in the git folder `gitDir`; its size and permission bits.
   */
  | { kind: "gitBlob"; oid: string; gitDir: string; size: number; mode?: number }
  /** Nothing there. */
  | { kind: "absent" }
  /** A directory (a file turned into one is never overwritten). */
  | { kind: "dir" }
  /** A symbolic link and where it points. */
  | { kind: "symlink"; target: string }
  /** Something that was not kept: why (`200 MB, over the 2 MiB a file is kept`). */
  | { kind: "notKept"; why: string; size?: number };

/** The sha256 of `bytes`, in hex. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  let hex = "";
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Whether two states are the same (a file by its content: its sha256, or git's blob id). */
export function sameState(a: PathState, b: PathState): boolean {
  if (a.kind === "file" && b.kind === "gitBlob") return a.git === b.oid;
  if (a.kind === "gitBlob" && b.kind === "file") return b.git === a.oid;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "file":
      return a.sha === (b as typeof a).sha;
    case "gitBlob":
      return a.oid === (b as typeof a).oid;
    case "symlink":
      return a.target === (b as typeof a).target;
    case "notKept":
      return false;
    default:
      return true;
  }
}

/** A size in the words a user reads: `200 MB`, `3 KB`, `12 bytes`. */
export function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) || mb >= 10 ? Math.round(mb) : mb.toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
