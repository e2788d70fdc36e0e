/** The sessions of a project across its folders (the state folder's, the old `.mm/sessions`). */

import { basename, dirname } from "node:path";
import { SessionBusyError, SessionLock } from "./lock.ts";
import { firstQuestion, type Listed, listSessions, turnCount } from "./store.ts";

/** Every session file of `dirs`, newest `updated` first; unreadable ones come last, reported. */
export async function listSessionsIn(dirs: string[]): Promise<Listed[]> {
  const all = (await Promise.all(dirs.map((d) => listSessions(d)))).flat();
  return all.sort((a, b) => {
    if (a.ok !== b.ok) return a.ok ? -1 : 1;
    if (!a.ok || !b.ok) return a.path.localeCompare(b.path);
    return b.session.updated.localeCompare(a.session.updated) ||
      b.session.id.localeCompare(a.session.id);
  });
}

/** One row of the session picker (`mm -r`, `/resume`): a session to choose, or why it cannot be. */
export interface PickEntry {
  /** The session's id (its file's name when it cannot be read). */
  id: string;
  /** `ok`: it may be resumed; `busy`: another mm holds it; `unreadable`: it cannot be read. */
  state: "ok" | "busy" | "unreadable";
  /** When it was last written (`YYYY-MM-DD HH:MM`, UTC as saved), its first question, model, turns. */
  time: string;
  first: string;
  model: string;
  turns: number;
  /** Why it cannot be chosen: the holder's pid, or the file's fault. */
  reason?: string;
}

/** Whether session `id` of `dir` is held by another mm now: its pid (or "unknown"), else undefined. */
async function busyHolder(dir: string, id: string): Promise<string | undefined> {
  try {
    const lock = await SessionLock.acquire(dir, id, 0);
    await lock.release();
    return undefined;
  } catch (e) {
    if (e instanceof SessionBusyError) return `pid ${e.pid ?? "unknown"}`;
    return undefined; // a lock file that cannot be used says so when the session is chosen
  }
}

/**
 * The picker's rows for `cwd`: the sessions of `dirs` whose `cwd` is this directory (those of
 * another directory are left out), newest first, `exclude` (the session in use) left out, each
 * marked busy when another mm holds it; unreadable files last, never chosen nor written.
 */
export async function pickEntries(
  dirs: string[],
  cwd: string,
  exclude?: string,
): Promise<PickEntry[]> {
  const listed = await listSessionsIn(dirs);
  const rows: PickEntry[] = [];
  for (const l of listed) {
    if (!l.ok) {
      const reason = l.error.message.match(/cannot be read \((.*)\) — it was left untouched$/)?.[1];
      rows.push({
        id: basename(l.path, ".json"),
        state: "unreadable",
        time: "",
        first: "",
        model: "",
        turns: 0,
        reason: reason ?? l.error.message,
      });
      continue;
    }
    const s = l.session;
    if (s.id === exclude || (s.cwd && s.cwd !== cwd)) continue;
    const pid = await busyHolder(dirname(l.path), s.id);
    rows.push({
      id: s.id,
      state: pid ? "busy" : "ok",
      time: s.updated.slice(0, 16).replace("T", " "),
      first: firstQuestion(s),
      model: s.model,
      turns: turnCount(s),
      ...(pid ? { reason: pid } : {}),
    });
  }
  return rows;
}

/** A picker row on one line: `2026-12-02 15:06  3 turn(s)  qwen3:8b  fix the test` (and why not). */
export function pickLine(e: PickEntry, width = 60): string {
  if (e.state === "unreadable") return `⚠️ ${e.id}: unreadable (${e.reason}) — not offered`;
  const first = e.first.length > width ? e.first.slice(0, width - 1) + "…" : e.first;
  const busy = e.state === "busy" ? `  [busy: in use by another mm (${e.reason})]` : "";
  return `${e.time}  ${e.turns} turn(s)  ${e.model || "?"}  ${first || "(no question)"}${busy}`;
}
