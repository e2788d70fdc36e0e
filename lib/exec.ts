/**
 * Runs processes for `bash` and the declared tools: stdout and stderr go to ONE temporary file,
 * never a pipe, so a command that leaves a background job running (`sleep 100 &`) returns as soon
 * as its main process exits.
 *
 * How (Linux and macOS): `Deno.Command` cannot redirect to a file, so the redirection is made by
 * bash before the program runs, in one of two ways:
 *
 * - `bash -c <command>` (the `bash` tool), when `setsid` starts it (below), runs as given, with
 *   `BASH_ENV` naming a small temporary script, `exec >'<file>' 2>&1; unset BASH_ENV`: a
 *   non-interactive bash runs that file before the command, so one bash both redirects and runs
 *   it. The command sees the same environment, `$0` (`bash`), arguments, line numbers and error
 *   messages as under the wrapper. This way is not taken when the environment has `BASH_ENV` (the
 *   user's own, which bash must read), `POSIXLY_CORRECT` or `SHELLOPTS` (which can put bash in
 *   POSIX mode, where it ignores `BASH_ENV`); when the temporary directory's name has a `$`, a
 *   backquote or a backslash (bash expands BASH_ENV's value); nor without `setsid`, where Deno would start bash
 *   itself and give it its full path as `$0` (`/bin/bash: line 1: …` in error messages).
 * - Anything else runs under a wrapper,
 *   `bash -c 'out=$1; shift; exec "$@" >"$out" 2>&1' mm-exec <file> <argv...>`: the wrapper
 *   redirects and then execs the real program, so no extra process stays, and the file name is a
 *   positional parameter, not an environment variable the program would inherit.
 *
 * The process is the leader of a new session and process group (pid = pgid), so
 * `Deno.kill(-pid, …)` reaches every process it started (`sleep` children included) unless one of
 * them left the group itself (`setsid`). When `setsid` (util-linux) is on the PATH — looked up
 * once — it is what Deno spawns, with the bash above as its arguments: it calls setsid(2) and execs
 * bash in the same process. Otherwise (macOS, Windows) the spawn is `detached: true`, which makes
 * Deno call setsid(2) in the child itself — but to do so Deno forks the whole mm process instead of
 * its `vfork`-style spawn, about 10 ms more per command (docs/performance.md). Between the spawn and
 * `setsid` the process has no group yet and no child; a kill then reaches it alone.
 *
 * Output that could fill the disk (`yes`) is cut while the command runs: above
 * {@linkcode KEEP_LIMIT} bytes, the file's middle is dropped and only its first and last
 * {@linkcode READ_BACK_END} bytes are kept, so disk use stays bounded whatever a command prints
 * (see {@linkcode OutputKeeper}). What was dropped is counted in the read-back.
 *
 * A timeout or a cancellation sends SIGTERM to the group, then SIGKILL to the group once the main
 * process exits or after {@linkcode KILL_GRACE} ms, whichever comes first. A normal exit kills
 * nothing: background jobs keep running (tools.md, "Background jobs"). What they go on writing
 * into the output file is emptied as it comes by {@linkcode JOB_KEEPER}, a small bash of its own
 * session that outlives mm as the jobs do and removes the file once the group is gone.
 */

import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { Exec, ExecRequest, ExecResult } from "./tool.ts";
import { errorReason } from "./files.ts";
import { childEnv } from "./child_env.ts";

/** Put between the two ends of an output too large to read back (tools.md, `bash`). */
export const TOO_LARGE_MARKER = "\n[... output too large to read back in full ...]\n";

/** Above this many bytes, only both ends of the output file are read back. */
export const READ_BACK_LIMIT = 2 * 1024 * 1024;

/** How many bytes of each end are read back from an output file above the limit. */
export const READ_BACK_END = 1024 * 1024;

/** Above this many bytes in the output file of a running command, its middle is dropped. */
export const KEEP_LIMIT = 8 * 1024 * 1024;

/** Milliseconds between two looks at the size of a running command's output file. */
export const WATCH_EVERY = 25;

/**
 * The line after {@linkcode TOO_LARGE_MARKER} that counts what was not read back; `atLeast` when
 * the count may miss some (the output file was truncated while the command wrote to it).
 */
export function droppedText(bytes: number, atLeast = false): string {
  return `[... ${atLeast ? "at least " : ""}${bytes} bytes dropped between the two ends ...]`;
}

/** Milliseconds between SIGTERM and SIGKILL when a process group is killed. */
export const KILL_GRACE = 500;

/** The reason when a bare program name is on no directory of PATH (as Go's os/exec says it). */
export const NOT_IN_PATH = "executable file not found in $PATH";

// Appending (`>>`): writes land at the end of the file even after its middle was cut away.
const WRAPPER = 'out=$1; shift; exec "$@" >>"$out" 2>&1';

/** Variables under which bash may not read `BASH_ENV` (or must read the user's own). */
const BASH_ENV_BLOCKERS = ["BASH_ENV", "POSIXLY_CORRECT", "SHELLOPTS"];

/**
 * How a process gets a group of its own: `setsid` (the program) execs it, or Deno's
 * `detached: true` forks mm to call setsid(2). See the module comment.
 */
export type Grouping = "setsid" | "detached";

let chosen: Promise<Grouping> | undefined;

/** `setsid` when the program is on the PATH (looked up once), else `detached`; always on Windows. */
export function grouping(): Promise<Grouping> {
  if (Deno.build.os === "windows") return Promise.resolve("detached");
  chosen ??= startProblem(["setsid"], "/").then((p) => p === undefined ? "setsid" : "detached");
  return chosen;
}

/** The real process runner: see the module comment. */
export const realExec: Exec = {
  run: async (request) => runProcess(request, await grouping()),
};

/** Runs `request.argv` with its output collected through a temporary file, grouped by `how`. */
export async function runProcess(request: ExecRequest, how: Grouping): Promise<ExecResult> {
  const ended = { output: "", timedOut: false, cancelled: false };
  if (request.signal.aborted) return { ...ended, cancelled: true };
  const problem = await startProblem(request.argv, request.cwd);
  if (problem !== undefined) return { ...ended, startError: problem };

  // Absolute: the command runs in another directory than mm (a relative TMPDIR).
  const file = resolve(await Deno.makeTempFile({ prefix: "mm-exec-" }));
  let script: string | undefined;
  let handedOver = false;
  try {
    let argv = ["bash", "-c", WRAPPER, "mm-exec", file, ...request.argv];
    let env: Record<string, string> = {};
    // bash expands `$`, backquotes and `\` in BASH_ENV's value: such a directory takes the wrapper.
    if (how === "setsid" && readsBashEnv(request.argv) && !/[$`\\]/.test(file)) {
      script = resolve(await Deno.makeTempFile({ prefix: "mm-exec-env-" }));
      await Deno.writeTextFile(script, `exec >>${shellQuote(file)} 2>&1; unset BASH_ENV\n`);
      argv = request.argv;
      env = { BASH_ENV: script };
    }
    const spawn = groupedSpawn(argv, how);
    argv = spawn.argv;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        cwd: request.cwd,
        // mm's environment without its secrets (lib/child_env.ts).
        ...childEnv(env),
        stdin: "null",
        stdout: "null",
        stderr: "null",
        detached: spawn.detached,
      }).spawn();
    } catch (err) {
      return {
        ...ended,
        // Named without `setsid`, found at start: the same text on every platform.
        startError: `${argv[how === "setsid" ? 1 : 0]}, needed to start it, cannot be started: ${
          errorReason(err)
        }`,
      };
    }
    const pid = child.pid;
    const forget = killAtExit(pid);
    const keeper = new OutputKeeper(file);
    let reason: "timeout" | "cancel" | undefined;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const stop = (why: "timeout" | "cancel") => {
      if (reason) return;
      reason = why;
      killTree(pid, "SIGTERM");
      grace = setTimeout(() => killTree(pid, "SIGKILL"), KILL_GRACE);
    };
    const timeout = Number.isFinite(request.timeout) && request.timeout > 0
      ? setTimeout(() => stop("timeout"), request.timeout)
      : undefined;
    const onAbort = () => stop("cancel");
    request.signal.addEventListener("abort", onAbort, { once: true });
    if (request.signal.aborted) stop("cancel");

    let status: Deno.CommandStatus;
    try {
      status = await child.status;
    } finally {
      forget();
      await keeper.stop();
      clearTimeout(timeout);
      request.signal.removeEventListener("abort", onAbort);
      if (reason) {
        clearTimeout(grace);
        killGroup(pid, "SIGKILL"); // whatever of the group outlived the main process
      }
    }
    const back = await readBack(file, keeper.dropped, keeper.tail);
    // A job left running still writes into the file: it is kept bounded from now on.
    if (!reason && groupLives(pid)) handedOver = keepEmptied(pid, file, how);
    return {
      output: back.text,
      ...(back.dropped ? { dropped: back.dropped } : {}),
      code: status.signal ? undefined : status.code,
      signal: status.signal ?? undefined,
      timedOut: reason === "timeout",
      cancelled: reason === "cancel",
    };
  } finally {
    if (!handedOver) await Deno.remove(file).catch(() => {});
    if (script) await Deno.remove(script).catch(() => {});
  }
}

/**
 * Whether anything is left of process group `pgid` (its leader reaped). SIGCONT is the probe:
 * Deno sends no signal 0, and it leaves a running process as it is.
 */
function groupLives(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch {
    return false; // ESRCH: nothing left
  }
}

/** Seconds between two looks of {@linkcode JOB_KEEPER} while the job writes now and then. */
export const JOB_WATCH_EVERY = 0.02;

/** Seconds between two looks of {@linkcode JOB_KEEPER} right after it had to empty the file. */
export const JOB_WATCH_BUSY = 0.005;

/**
 * What keeps the output file of a command that left a job running bounded: while anything of the
 * group lives, the file is emptied every {@linkcode JOB_WATCH_BUSY} s while something writes
 * into it without pause, every {@linkcode JOB_WATCH_EVERY} s while it writes now and then, every
 * second once it stays empty; then removed. The job's writes append (`>>`),
 * so they start again at the beginning of the emptied file. Positional parameters: the group, the
 * file.
 */
export const JOB_KEEPER = [
  'pg=$1 f=$2 idle=0; while kill -0 -- "-$pg" 2>/dev/null; do',
  'if [ -s "$f" ] && [ ! -L "$f" ]; then : >"$f"; idle=0; else idle=$((idle + 1)); fi;',
  `if [ "$idle" -gt 50 ]; then sleep 1; elif [ "$idle" -gt 0 ]; then sleep ${JOB_WATCH_EVERY};`,
  `else sleep ${JOB_WATCH_BUSY}; fi; done; rm -f -- "$f"`,
].join(" ");

/**
 * Hands the output file of process group `pgid`, whose main process has exited and left a job
 * running (`yes &`), to a small bash of its own session ({@linkcode JOB_KEEPER}), which outlives
 * mm as the job does. Says whether it was started (else the file is removed as usual, and the
 * job writes into the deleted file).
 */
function keepEmptied(pgid: number, file: string, how: Grouping): boolean {
  const spawn = groupedSpawn(["bash", "-c", JOB_KEEPER, "mm-keep", String(pgid), file], how);
  try {
    const child = new Deno.Command(spawn.argv[0], {
      args: spawn.argv.slice(1),
      ...childEnv(),
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: spawn.detached,
    }).spawn();
    child.unref(); // mm does not wait for it
    child.status.catch(() => {});
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `argv` is `bash -c …` and bash will read a `BASH_ENV` of ours before running it: see
 * the module comment.
 */
function readsBashEnv(argv: string[]): boolean {
  if (argv.length < 3 || argv[0] !== "bash" || argv[1] !== "-c") return false;
  try {
    return BASH_ENV_BLOCKERS.every((name) => Deno.env.get(name) === undefined);
  } catch {
    return false; // no env permission: the variables cannot be checked
  }
}

/** `text` as one word for bash, in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * `argv` as it is spawned to lead a process group of its own (`setsid` before it, or Deno's
 * `detached`), by `how`: see the module comment.
 */
export function groupedSpawn(argv: string[], how: Grouping): { argv: string[]; detached: boolean } {
  return how === "setsid"
    ? { argv: ["setsid", ...argv], detached: false }
    : { argv, detached: true };
}

/** The process groups to kill if mm exits while they run (a second signal exits at once). */
const running = new Set<number>();
let unloadListener = false;

/**
 * Kills process group `pgid` (SIGKILL) if mm exits before the returned function is called: a
 * command or a hook still running when mm exits at once (a second SIGINT) is not left behind.
 */
export function killAtExit(pgid: number): () => void {
  if (!unloadListener) {
    unloadListener = true;
    globalThis.addEventListener("unload", () => {
      for (const group of running) killTree(group, "SIGKILL");
    });
  }
  running.add(pgid);
  return () => running.delete(pgid);
}

/**
 * Sends `sig` to the process group `pid` leads, or to the process alone while it has not made its
 * group yet (it has started nothing by then); a process already gone is not an error.
 */
export function killTree(pid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(-pid, sig);
  } catch {
    try {
      Deno.kill(pid, sig);
    } catch {
      // ESRCH: the process is gone.
    }
  }
}

/** Sends `sig` to the process group `pgid`; a group already gone is not an error. */
export function killGroup(pgid: number, sig: Deno.Signal): void {
  try {
    Deno.kill(-pgid, sig);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/**
 * Why `argv` cannot be started from `cwd`, or undefined when it can: checked before spawning,
 * because the wrapper's exit code 127 cannot tell "no such program" from a program (a shell)
 * that itself exits with 127.
 */
export async function startProblem(argv: string[], cwd: string): Promise<string | undefined> {
  if (argv.length === 0 || argv[0] === "") return "empty command";
  const info = await Deno.stat(cwd).catch(() => undefined);
  if (!info?.isDirectory) return `working directory ${cwd} does not exist`;
  const program = argv[0];
  if (program.includes("/")) return await executableProblem(resolve(cwd, program));
  let path = "";
  try {
    path = Deno.env.get("PATH") ?? "";
  } catch {
    // no env permission: only paths with a slash can be found
  }
  for (const dir of path.split(delimiter)) {
    const candidate = isAbsolute(dir) ? join(dir, program) : resolve(cwd, dir, program);
    if (await executableProblem(candidate) === undefined) return undefined;
  }
  return NOT_IN_PATH;
}

/**
 * Why the file at `path` cannot be executed, or undefined when it can. Deno's own stat is used (not
 * node:fs `access`, which needs the `sys` permission): a file with no execute bit is refused.
 */
async function executableProblem(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) return "is a directory";
    if (info.mode !== null && (info.mode & 0o111) === 0) return "permission denied";
    return undefined;
  } catch (err) {
    return errorReason(err);
  }
}

/** What was read back of an output file. */
export interface ReadBack {
  text: string;
  /** Bytes of output that are not in `text` (dropped while the command ran, or not read back). */
  dropped: number;
}

/**
 * The text of an output file: all of it up to {@linkcode READ_BACK_LIMIT} bytes, else its first
 * and last {@linkcode READ_BACK_END} bytes around {@linkcode TOO_LARGE_MARKER} and the
 * {@linkcode droppedText} count. When the truncating {@linkcode OutputKeeper} cut the file while
 * the command ran, `cut` bytes are gone after its first {@linkcode READ_BACK_END} and `kept` holds
 * the bytes that came just before what follows that first MiB now.
 * Invalid UTF-8 becomes U+FFFD; a character cut at either end is dropped. The whole file is never
 * loaded.
 */
export async function readBack(
  path: string,
  cut = 0,
  kept: Uint8Array = new Uint8Array(0),
): Promise<ReadBack> {
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  if (size <= READ_BACK_LIMIT && cut === 0) {
    return { text: new TextDecoder().decode(await readAt(file, 0, size)), dropped: 0 };
  }
  const headLength = Math.min(READ_BACK_END, size);
  const head = new TextDecoder().decode(await readAt(file, 0, headLength), { stream: true });
  const fromFile = Math.min(READ_BACK_END, size - headLength);
  const fromKept = Math.min(kept.length, READ_BACK_END - fromFile);
  let tail = new Uint8Array(fromKept + fromFile);
  tail.set(kept.subarray(kept.length - fromKept));
  tail.set(await readAt(file, size - fromFile, fromFile), fromKept);
  const tailLength = tail.length;
  let skip = 0;
  while (skip < 3 && skip < tail.length && (tail[skip] & 0xc0) === 0x80) skip++;
  tail = tail.subarray(skip);
  const dropped = cut + kept.length + size - headLength - tailLength;
  return {
    text: `${head}${TOO_LARGE_MARKER}${droppedText(dropped, cut > 0)}\n${
      new TextDecoder().decode(tail)
    }`,
    dropped,
  };
}

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
        const io = { stdin: "null", stdout: "null", stderr: "null" } as const;
        punched = (await new Deno.Command("fallocate", { args, ...io }).output()).success;
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

/** Reads up to `length` bytes at `offset` (fewer at the end of the file; `Infinity`: to its end). */
async function readAt(file: Deno.FsFile, offset: number, length: number): Promise<Uint8Array> {
  await file.seek(offset, Deno.SeekMode.Start);
  let buf = new Uint8Array(Math.min(length, READ_BACK_END));
  let filled = 0;
  while (filled < length) {
    if (filled === buf.length) {
      const grown = new Uint8Array(Math.min(length, buf.length * 2));
      grown.set(buf);
      buf = grown;
    }
    const n = await file.read(buf.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}
