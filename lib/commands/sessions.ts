/** `mm sessions`: the session files of this directory (its state folder's, its old `.mm/sessions`), newest first. */

import type { Config } from "../config/config.ts";
import { firstQuestion, turnCount } from "../session/store.ts";
import { sessionDirs } from "../session/dirs.ts";
import { listSessionsIn } from "../session/list.ts";
import { writeReport } from "../frontend/terminal/output.ts";

/**
 * One line per session: id, date, turns, first question, and ` (in <cwd>)` for a session of
 * another directory (a sessions directory shared by projects); unreadable files reported after.
 */
export async function listSessionsCommand(config: Config, cwd: string): Promise<number> {
  const dirs = sessionDirs(cwd, config.sessions.dir);
  const dir = dirs[0];
  const listed = await listSessionsIn(dirs);
  const lines: string[] = [];
  for (const l of listed) {
    if (!l.ok) {
      lines.push(`⚠️ ${l.error.message}`);
      continue;
    }
    const s = l.session;
    const date = s.updated.slice(0, 16).replace("T", " ");
    let question = firstQuestion(s);
    if (question.length > 70) question = question.slice(0, 69) + "…";
    const where = s.cwd && s.cwd !== cwd ? `  (in ${s.cwd})` : "";
    lines.push(`${s.id}  ${date}  ${turnCount(s)} turn(s)  ${question}${where}`);
  }
  if (lines.length === 0) lines.push(`no session in ${dir}`);
  writeReport(lines.join("\n") + "\n");
  return 0;
}
