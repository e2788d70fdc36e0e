/**
 * One mm at a time per session file. Five `mm -p --continue` in parallel on one session used to
 * keep 4 of 6 questions (last writer wins); now a run holds `<dir>/<id>.lock` for as long as it
 * uses the session, and a second run waits up to {@linkcode LOCK_WAIT} ms for it, then refuses
 * with `session <id> is in use by another mm (pid N)`. The lock files live in the temporary
 * directory (`$TMPDIR/mm-session-locks/<hash of the session file's path>.lock`), not beside the
 * session files: the sessions directory holds `<id>.json` files only (mm.md §5).
 *
 * The lock is the operating system's (`flock`, `LockFileEx`) on the open lock file, so a run that
 * crashed or was killed (`kill -9`) cannot leave it stuck: the kernel lets it go with the process.
 * The file holds the holder's pid, for the sentence. It is left in place when released (emptied):
 * removing it would let a run that waits on the old file and one that creates a new file both
 * hold "the" lock.
 */

import { join, resolve } from "node:path";
import { sessionPath } from "./store.ts";

/** Milliseconds a run waits for a session another mm is using before it refuses. */
export const LOCK_WAIT = 3_000;

/** Milliseconds between two tries of a lock that is held. */
const RETRY_EVERY = 50;

/** A session another mm is using: refused, exit 1. */
export class SessionBusyError extends Error {
  /** The other mm's pid, when its lock file says it. */
  readonly pid?: number;

  /** The refusal of session `id`, held by `pid`. */
  constructor(id: string, pid: number | undefined) {
    super(`session ${id} is in use by another mm (pid ${pid ?? "unknown"})`);
    this.name = "SessionBusyError";
    this.pid = pid;
  }
}

/** The directory of the lock files: `mm-session-locks` in the temporary directory. */
function locksDir(): string {
  let tmp: string | undefined;
  try {
    tmp = Deno.env.get("TMPDIR") || Deno.env.get("TEMP") || Deno.env.get("TMP");
  } catch {
    // No env permission: the usual place.
  }
  return join(
    tmp ?? (Deno.build.os === "windows" ? "C:\\Windows\\Temp" : "/tmp"),
    "mm-session-locks",
  );
}

/** The path of the lock file of session `id` in `dir` (the same for every run on this machine). */
export async function lockPath(dir: string, id: string): Promise<string> {
  const path = new TextEncoder().encode(resolve(sessionPath(dir, id)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", path));
  const hex = Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  return join(locksDir(), `${hex}.lock`);
}

/** A held lock on one session. */
export class SessionLock {
  #file: Deno.FsFile | undefined;

  private constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  /**
   * Takes the lock of session `id` in `dir`, waiting up to `wait` ms while another process holds
   * it; throws a {@linkcode SessionBusyError} when it is still held.
   */
  static async acquire(dir: string, id: string, wait = LOCK_WAIT): Promise<SessionLock> {
    const path = await lockPath(dir, id);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const file = await Deno.open(path, { read: true, write: true, create: true });
    const deadline = Date.now() + wait;
    try {
      for (;;) {
        if (await file.tryLock(true)) {
          await file.truncate(0);
          await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
          return new SessionLock(file);
        }
        if (Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, RETRY_EVERY));
      }
    } catch (err) {
      file.close();
      throw err;
    }
    file.close();
    throw new SessionBusyError(id, await holder(path));
  }

  /** Lets the lock go (the file stays, empty). */
  async release(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    if (!file) return;
    try {
      await file.truncate(0);
    } finally {
      file.close(); // closing the file drops the lock
    }
  }
}

/** The pid a lock file names, if it can be read. */
async function holder(path: string): Promise<number | undefined> {
  try {
    const pid = Number((await Deno.readTextFile(path)).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // Windows: a locked file cannot be read by others
  }
}
