/**
 * Process groups: how a process gets one of its own, and how a signal reaches all of it.
 *
 * A started process leads a new session and process group (pid = pgid), so `Deno.kill(-pid, …)`
 * reaches every process it started (`sleep` children included) unless one of them left the group
 * itself (`setsid`). When `setsid` (util-linux) is on the PATH — looked up once — it is what Deno
 * spawns, with the program as its arguments: it calls setsid(2) and execs the program in the same
 * process. Otherwise (macOS, Windows) the spawn is `detached: true`, which makes Deno call setsid(2)
 * in the child itself — but to do so Deno forks the whole mm process instead of its `vfork`-style
 * spawn, about 10 ms more per process (docs/performance.md). Between the spawn and `setsid` the
 * process has no group yet and no child; a kill then reaches it alone.
 */

import { startProblem } from "./program.ts";

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

/**
 * `argv` as it is spawned to lead a process group of its own (`setsid` before it, or Deno's
 * `detached`), by `how`: see the module comment.
 */
export function groupedSpawn(argv: string[], how: Grouping): { argv: string[]; detached: boolean } {
  return how === "setsid"
    ? { argv: ["setsid", ...argv], detached: false }
    : { argv, detached: true };
}

/**
 * Sends `sig` to the process group `pid` leads, or to the process alone while it has not made its
 * group yet (it has started nothing by then); a process already gone is not an error. Only while
 * the process has not been reaped: its pid may be another's afterwards (use {@linkcode killGroup}).
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
    // ESRCH: nothing left in the group (or no groups: Windows).
  }
}

/**
 * Whether anything is left of process group `pgid` (its leader reaped). SIGCONT is the probe:
 * Deno sends no signal 0, and it leaves a running process as it is.
 */
export function groupLives(pgid: number): boolean {
  try {
    Deno.kill(-pgid, "SIGCONT");
    return true;
  } catch {
    return false; // ESRCH: nothing left
  }
}
