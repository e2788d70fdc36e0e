/**
 * Output that could fill the disk (`yes`) is cut while the command runs: above
 * {@linkcode KEEP_LIMIT} bytes, the file's middle is dropped and only its first and last
 * `READ_BACK_END` bytes are kept, so disk use stays bounded whatever a command prints
 * (see {@linkcode OutputKeeper}). What was dropped is counted in the read-back (lib/exec/read_back.ts).
 */

import { READ_BACK_END, readAt } from "./read_back.ts";
import { spawnProcess } from "./spawn.ts";

/** Above this many bytes in the output file of a running command, its middle is dropped. */
export const KEEP_LIMIT = 8 * 1024 * 1024;

/** Milliseconds between two looks at the size of a running command's output file. */
export const WATCH_EVERY = 25;

/**
 * Keeps a running command's output file bounded: every {@linkcode WATCH_EVERY} ms (every fifth of
 * that once it had to cut), a file above {@linkcode KEEP_LIMIT} bytes loses its middle, all but
 * its first and last {@linkcode READ_BACK_END} bytes. On Linux the middle becomes a hole
 * (`fallocate --punch-hole`, util-linux): the blocks are freed, the size and every offset stay,
 * so the read-back and its count are exact. Where that fails (no `fallocate`, a file system
 * without holes, macOS), the file is truncated after its first MiB instead: the command's writes
 * append (`>>`), so they go on after it, and what was cut is counted in {@linkcode dropped}, less
 * what the command wrote in the instant between the look and the cut (the count then says
 * `at least`).
 */
export class OutputKeeper {
  /** Bytes cut by truncation (holes are counted by the read-back from the file's size). */
  dropped = 0;
  /** With truncation: the last bytes of the file before its last cut, which follow the first MiB. */
  tail: Uint8Array = new Uint8Array(0);
  #path: string;
  #punched = READ_BACK_END;
  #holes: boolean | undefined = Deno.build.os === "linux" ? undefined : false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #looking: Promise<void> = Promise.resolve();
  #stopped = false;

  /** Starts watching the output file at `path`; `holes: false` truncates even on Linux. */
  constructor(path: string, holes?: false) {
    this.#path = path;
    if (holes === false) this.#holes = false;
    this.#schedule(WATCH_EVERY);
  }

  /** Stops watching; resolves once a look in progress is over. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#looking;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#looking = this.#look().then(
        (cut) => this.#schedule(cut ? WATCH_EVERY / 5 : WATCH_EVERY),
        () => this.#schedule(WATCH_EVERY),
      );
    }, ms);
  }

  /** One look at the file: cuts its middle when it holds more than the limit; says whether it cut. */
  async #look(): Promise<boolean> {
    const size = (await Deno.stat(this.#path)).size;
    // What the file holds: its size less the hole already punched after its first MiB.
    if (size - (this.#punched - READ_BACK_END) <= KEEP_LIMIT) return false;
    if (this.#holes !== false) {
      const end = size - READ_BACK_END;
      const args = ["--punch-hole", "--offset", String(this.#punched)];
      args.push("--length", String(end - this.#punched), this.#path);
      let punched = false;
      try {
        const fallocate = await spawnProcess({ argv: ["fallocate", ...args] });
        try {
          punched = (await fallocate.status).success;
        } finally {
          fallocate.end();
        }
      } catch {
        // No fallocate on the PATH, or no permission to run it: truncate.
      }
      if (punched) {
        this.#holes = true;
        this.#punched = end;
        return true;
      }
      if (this.#holes) return false; // it worked before: next time
      this.#holes = false;
    }
    // The last MiB so far is kept aside: it is the tail if the command prints nothing more. What
    // the command wrote since the stat is read too, right before the cut, so that only the bytes
    // of that instant could be lost (a cut cannot be made atomic with a read).
    using file = await Deno.open(this.#path, { read: true });
    const rest = await readAt(file, size - READ_BACK_END, Infinity);
    await Deno.truncate(this.#path, READ_BACK_END);
    const tail = rest.slice(Math.max(0, rest.length - READ_BACK_END));
    this.dropped += this.tail.length + size - 2 * READ_BACK_END + rest.length - tail.length;
    this.tail = tail;
    return true;
  }
}
