/**
 * The one list of what mm started and must not leave behind: every process the starter
 * (lib/exec/spawn.ts) runs is on it until its user is done with it, and whatever is still on it
 * when mm exits (`unload`: a second SIGINT, any `Deno.exit`) is killed then, each its own way (a
 * command's group with SIGKILL, a child agent with SIGTERM so it can clean up its own). A group's
 * kill reaches its descendants that left it (`setsid`) too, where they can be found (Linux:
 * lib/exec/descendants.ts, through `Spawned.kill`).
 */

const running = new Set<() => void>();
let listening = false;

/**
 * Runs `kill` if mm exits before the returned function is called; the returned function takes it
 * off the list.
 */
export function killAtExit(kill: () => void): () => void {
  if (!listening) {
    listening = true;
    globalThis.addEventListener("unload", killRunning);
  }
  running.add(kill);
  return () => running.delete(kill);
}

/** How many processes are on the list now (for tests). */
export function runningCount(): number {
  return running.size;
}

/** Kills everything on the list at once, without waiting: mm is exiting. */
export function killRunning(): void {
  for (const kill of [...running]) {
    running.delete(kill);
    try {
      kill();
    } catch {
      // Nothing to do at exit about a process that cannot be signalled.
    }
  }
}
