/**
 * One mm at a time per session file. Five `mm -p --continue` in parallel on one session used to
 * keep 4 of 6 questions (last writer wins); now a run holds `<dir>/<id>.lock`, beside the session
 * file, for as long as it uses the session, and a second run waits up to {@linkcode LOCK_WAIT} ms
 * for it, then refuses with `session <id> is in use by another mm (pid N)`.
 *
 * The lock is the operating system's (`flock`, `LockFileEx`) on the open lock file, so a run that
 * crashed or was killed (`kill -9`) cannot leave it stuck: the kernel lets it go with the process.
 * The file holds the holder's pid, for the sentence, and is removed when released.
 *
 * The lock file is never followed anywhere: a missing one is created exclusively (`O_CREAT|O_EXCL`,
 * which refuses a symbolic link, even a dangling one); an existing one must be a regular file with
 * one link, owned by this user, and the file opened must be the one looked at (same device and
 * inode), else the run stops with {@linkcode SessionLockError} before anything is written. Only the
 * lock file itself is ever written or truncated. Once locked, the path must still name the locked
 * file: a holder removes it before it lets go, so a taker that locked a removed file tries again.
 */

import { join } from "node:path";
import { errorReason, specialKind } from "../files.ts";
import { UserError } from "../presentation.ts";

/** Milliseconds a run waits for a session another mm is using before it refuses. */
export const LOCK_WAIT = 3_000;

/** Milliseconds between two tries of a lock that is held. */
const RETRY_EVERY = 50;

/** A session another mm is using: refused, exit 1. */
export class SessionBusyError extends UserError {
  /** The other mm's pid, when its lock file says it. */
  readonly pid?: number;

  /** The refusal of session `id`, held by `pid`. */
  constructor(id: string, pid: number | undefined) {
    super(`session ${id} is in use by another mm (pid ${pid ?? "unknown"})`, 1);
    this.name = "SessionBusyError";
    this.pid = pid;
  }
}

/** A session whose lock file cannot be made or opened: one sentence, exit 1. */
export class SessionLockError extends UserError {
  /** The sentence for session `id`'s lock file at `path`, which cannot be used for `reason`. */
  constructor(id: string, path: string, reason: string) {
    super(
      `session ${id} cannot be locked: ${path} cannot be used (${reason}) — check sessions.dir in the agent file`,
      1,
    );
    this.name = "SessionLockError";
  }
}

/** The path of the lock file of session `id` in `dir`: beside its session file. */
export function lockPath(dir: string, id: string): string {
  return join(dir, `${id}.lock`);
}

/** Why an existing lock file may not be opened, or undefined when it may. */
function unfit(info: Deno.FileInfo): string | undefined {
  if (info.isSymlink) return "it is a symbolic link";
  if (info.isDirectory) return "it is a directory";
  if (!info.isFile) return `it is a ${specialKind(info) ?? "special file"}, not a file`;
  if (info.nlink !== null && info.nlink > 1) return "it has other hard links";
  const uid = ownUid();
  if (uid !== undefined && info.uid !== null && info.uid !== uid) {
    return "it belongs to another user";
  }
  return undefined;
}

/** This process's user id, when the platform and mm's permissions tell it. */
function ownUid(): number | undefined {
  try {
    return Deno.uid() ?? undefined;
  } catch {
    return undefined; // no sys permission
  }
}

/** Whether two looks at a path saw the same file. */
function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The file at `path` as it is now, or undefined when nothing is there. */
async function look(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/**
 * Opens the lock file at `path` for reading and writing without following it anywhere (see the
 * module comment); the reason it cannot be used is thrown as a string.
 */
async function openLockFile(path: string): Promise<Deno.FsFile> {
  for (;;) {
    const before = await look(path);
    if (before === undefined) {
      try {
        return await Deno.open(path, { read: true, write: true, createNew: true, mode: 0o600 });
      } catch (err) {
        if (err instanceof Deno.errors.AlreadyExists) continue; // made meanwhile: look again
        throw err;
      }
    }
    const reason = unfit(before);
    if (reason !== undefined) throw reason;
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true, write: true });
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue; // released meanwhile
      throw err;
    }
    if (sameFile(before, await file.stat())) return file;
    file.close(); // swapped between the look and the open: look again
  }
}

/** A held lock on one session. */
export class SessionLock {
  #file: Deno.FsFile | undefined;
  #path: string;

  private constructor(file: Deno.FsFile, path: string) {
    this.#file = file;
    this.#path = path;
  }

  /**
   * Takes the lock of session `id` in `dir` (made when missing), waiting up to `wait` ms while
   * another process holds it; throws a {@linkcode SessionBusyError} when it is still held, a
   * {@linkcode SessionLockError} when its file cannot be made or opened.
   */
  static async acquire(dir: string, id: string, wait = LOCK_WAIT): Promise<SessionLock> {
    const path = lockPath(dir, id);
    const deadline = Date.now() + wait;
    for (;;) {
      const file = await SessionLock.#open(dir, id, path);
      let locked = false;
      try {
        locked = await file.tryLock(true);
        // A holder removes the file before it lets go: a lock on a removed file is no lock.
        const now = locked ? await look(path) : undefined;
        if (now !== undefined && sameFile(now, await file.stat())) {
          await file.truncate(0);
          await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
          return new SessionLock(file, path);
        }
      } catch (err) {
        file.close();
        throw new SessionLockError(id, path, errorReason(err));
      }
      file.close();
      if (locked) continue; // the file was removed as we locked it: the next one
      if (Date.now() >= deadline) break;
      await new Promise((r) => setTimeout(r, RETRY_EVERY));
    }
    throw new SessionBusyError(id, await holder(path));
  }

  /** Makes `dir` and opens the lock file at `path`, or throws the SessionLockError saying why not. */
  static async #open(dir: string, id: string, path: string): Promise<Deno.FsFile> {
    try {
      await Deno.mkdir(dir, { recursive: true });
    } catch (err) {
      const reason = err instanceof Deno.errors.AlreadyExists
        ? "a file is where its directory should be"
        : errorReason(err);
      throw new SessionLockError(id, path, reason);
    }
    try {
      return await openLockFile(path);
    } catch (err) {
      throw new SessionLockError(id, path, typeof err === "string" ? err : errorReason(err));
    }
  }

  /** Lets the lock go: the file is removed, then closed (which drops the lock). */
  async release(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    if (!file) return;
    try {
      const now = await look(this.#path);
      if (now !== undefined && sameFile(now, await file.stat())) await Deno.remove(this.#path);
    } catch {
      // Left in place: the next run takes it all the same.
    } finally {
      file.close(); // closing the file drops the lock
    }
  }
}

/** The pid a lock file names, if it can be read. */
async function holder(path: string): Promise<number | undefined> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) return undefined;
    const pid = Number((await Deno.readTextFile(path)).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // Windows: a locked file cannot be read by others
  }
}
