/**
 * `sessions.keep`: old sessions go, never silently. The newest `keep` sessions of a folder stay;
 * the session in use and any session with a lock file beside it (another mm's) are never removed;
 * a file mm cannot read as a session is never touched. A session removed takes its undo store
 * (`<id>.undo/`, lib/undo/store.ts) with it. Run at a session's first save (lib/session/recorder.ts), never before a picker lists
 * them. The caller says how many went, once.
 */

import { join } from "node:path";
import { warningText } from "../presentation.ts";
import { lockPath } from "./lock.ts";
import { listSessions } from "./store.ts";
import { undoDir } from "../undo/store.ts";
import { exists } from "../files.ts";

/** What pruning says: how many sessions went, from where, and the key that asked for it. */
export function prunedText(count: number, dir: string, keep: number): string {
  return warningText(
    `removed ${count} old session${
      count === 1 ? "" : "s"
    } from ${dir} (sessions.keep: ${keep} — set it higher to keep more)`,
  );
}

/**
 * Removes the sessions of `dir` past the newest `keep` (0: none), `inUse` counted among them
 * first, never a locked one; the sentence saying how many went, or undefined when none did. A file that cannot be
 * removed stays (it is tried again next time).
 */
export async function pruneSessions(
  dir: string,
  keep: number,
  inUse: string,
): Promise<string | undefined> {
  if (keep <= 0) return undefined;
  let listed;
  try {
    listed = await listSessions(dir);
  } catch {
    return undefined; // An unreadable folder: nothing is removed.
  }
  // The session in use holds one of the `keep` places, saved yet or not.
  const others = listed.flatMap((l) => l.ok && l.session.id !== inUse ? [l.session] : []);
  if (others.length <= keep - 1) return undefined;
  let removed = 0;
  for (const s of others.slice(keep - 1)) {
    if (await exists(lockPath(dir, s.id))) continue;
    try {
      await Deno.remove(join(dir, `${s.id}.json`));
      removed++;
      // Its undo store goes too (a store left behind would be removed by the next turn's prune).
      await Deno.remove(undoDir(dir, s.id), { recursive: true }).catch(() => {});
    } catch {
      // Kept: tried again at the next start.
    }
  }
  return removed ? prunedText(removed, dir, keep) : undefined;
}
