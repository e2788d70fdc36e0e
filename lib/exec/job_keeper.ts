/**
 * A command's main process exited and left a job running (`yes &`): what the job goes on writing
 * into the output file is emptied as it comes by {@linkcode JOB_KEEPER}, a small bash of its own
 * session that outlives mm as the jobs do and removes the file once the group is gone.
 */

import type { Grouping } from "./group.ts";
import { spawnProcess } from "./spawn.ts";

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
export async function keepEmptied(pgid: number, file: string, how: Grouping): Promise<boolean> {
  try {
    const keeper = await spawnProcess({
      argv: ["bash", "-c", JOB_KEEPER, "mm-keep", String(pgid), file],
      how,
      atExit: "outlive", // mm does not wait for it
    });
    keeper.status.catch(() => {});
    return true;
  } catch {
    return false;
  }
}
