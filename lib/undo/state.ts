/** What is at a path, as the undo store keeps it: a file's content by its hash, or its absence. */

/** The state of one path before or after a turn. */
export type PathState =
  /** A regular file: its content's sha256 (its blob), its size and permission bits. */
  | { kind: "file"; sha: string; size: number; mode?: number }
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

/** Whether two states are the same (a file by its content and mode). */
export function sameState(a: PathState, b: PathState): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "file":
      return a.sha === (b as typeof a).sha;
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
