/**
 * Runs processes for `bash` and the declared tools: stdout and stderr go to ONE temporary file,
 * never a pipe, so a command that leaves a background job running (`sleep 100 &`) returns as soon
 * as its main process exits.
 *
 * How (Linux and macOS): `Deno.Command` cannot redirect to a file, so the redirection is made by
 * bash before the program runs, in one of two ways:
 *
 * - `bash -c <command>` (the `bash` tool), when `setsid` starts it (lib/exec/group.ts), runs as
 *   given, with `BASH_ENV` naming a small temporary script, `exec >'<file>' 2>&1; unset BASH_ENV`: a
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
 * Under a sandbox (`sandbox: workspace` or `readonly`, lib/exec/sandbox.ts) the wrapper is always
 * taken, and what it execs is bwrap with the command after it: the wrapper opens the output file
 * outside the sandbox, and bwrap hands the descriptor on to the command, so the file is written
 * whatever the sandbox hides (a private `/tmp`) or makes read-only.
 *
 * The command leads a process group of its own (lib/exec/spawn.ts, the one starter). Its output
 * file is kept bounded while it runs (lib/exec/keeper.ts) and read back at its end
 * (lib/exec/read_back.ts). A timeout or a cancellation stops the group: SIGTERM, then SIGKILL to
 * the group once the main process exits or after `KILL_GRACE` ms, whichever comes first. A normal
 * exit kills nothing: background jobs keep running (tools.md, "Background jobs"), and what they go
 * on writing into the output file is emptied as it comes (lib/exec/job_keeper.ts).
 */

import { resolve } from "node:path";
import type { Exec, ExecRequest, ExecResult } from "../tool.ts";
import { errorReason } from "../files.ts";
import { type Grouping, grouping, groupLives } from "./group.ts";
import { startProblem } from "./program.ts";
import { type Spawned, spawnProcess } from "./spawn.ts";
import { OutputKeeper } from "./keeper.ts";
import { readBack } from "./read_back.ts";
import { keepEmptied } from "./job_keeper.ts";
import type { Config } from "../config/config.ts";
import { type Sandbox, sandboxArgv, sandboxOf } from "./sandbox.ts";

// Appending (`>>`): writes land at the end of the file even after its middle was cut away.
const WRAPPER = 'out=$1; shift; exec "$@" >>"$out" 2>&1';

/** Variables under which bash may not read `BASH_ENV` (or must read the user's own). */
const BASH_ENV_BLOCKERS = ["BASH_ENV", "POSIXLY_CORRECT", "SHELLOPTS"];

/** The real process runner: see the module comment. */
export const realExec: Exec = {
  run: async (request) => runProcess(request, await grouping()),
};

/**
 * The process runner of a run under `config`: {@linkcode realExec}, or, with `sandbox` on, the same
 * with every command confined (lib/exec/sandbox.ts).
 */
export function execFor(config: Pick<Config, "sandbox" | "sandboxNetwork">): Exec {
  const sandbox = sandboxOf(config);
  if (!sandbox) return realExec;
  return { run: async (request) => runProcess(request, await grouping(), sandbox) };
}

/**
 * Runs `request.argv` with its output collected through a temporary file, grouped by `how`,
 * confined by `sandbox` when one is given.
 */
export async function runProcess(
  request: ExecRequest,
  how: Grouping,
  sandbox?: Sandbox,
): Promise<ExecResult> {
  const ended = { output: "", timedOut: false, cancelled: false };
  if (request.signal.aborted) return { ...ended, cancelled: true };
  const problem = await startProblem(request.argv, request.cwd);
  if (problem !== undefined) return { ...ended, startError: problem };

  // Absolute: the command runs in another directory than mm (a relative TMPDIR).
  const file = resolve(await Deno.makeTempFile({ prefix: "mm-exec-" }));
  let script: string | undefined;
  let handedOver = false;
  try {
    const command = sandbox
      ? sandboxArgv(sandbox, request.argv, request.cwd, homeDir())
      : request.argv;
    let argv = ["bash", "-c", WRAPPER, "mm-exec", file, ...command];
    let env: Record<string, string> = {};
    // bash expands `$`, backquotes and `\` in BASH_ENV's value: such a directory takes the wrapper.
    if (!sandbox && how === "setsid" && readsBashEnv(request.argv) && !/[$`\\]/.test(file)) {
      script = resolve(await Deno.makeTempFile({ prefix: "mm-exec-env-" }));
      await Deno.writeTextFile(script, `exec >>${shellQuote(file)} 2>&1; unset BASH_ENV\n`);
      argv = request.argv;
      env = { BASH_ENV: script };
    }
    let child: Spawned;
    try {
      child = await spawnProcess({
        argv,
        how,
        cwd: request.cwd,
        env, // over mm's environment without its secrets (lib/child_env.ts)
        timeout: request.timeout,
        signal: request.signal,
      });
    } catch (err) {
      return {
        ...ended,
        // Named without `setsid`, found at start: the same text on every platform.
        startError: `${argv[0]}, needed to start it, cannot be started: ${errorReason(err)}`,
      };
    }
    const pid = child.pid;
    const keeper = new OutputKeeper(file);
    let status: Deno.CommandStatus;
    try {
      status = await child.status;
    } finally {
      child.end(); // whatever of a stopped group outlived the main process is killed
      await keeper.stop();
    }
    const reason = child.stopped;
    const back = await readBack(file, keeper.dropped, keeper.tail);
    // A job left running still writes into the file: it is kept bounded from now on.
    if (!reason && groupLives(pid)) handedOver = await keepEmptied(pid, file, how);
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

/** `$HOME`, when it is set and can be read. */
function homeDir(): string | undefined {
  try {
    return Deno.env.get("HOME") || undefined;
  } catch {
    return undefined; // no env permission
  }
}

/** `text` as one word for bash, in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
