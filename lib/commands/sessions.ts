/** `mm sessions`: the session files of this directory, newest first. */

import type { Config } from "../config/config.ts";
import { firstQuestion, listSessions, sessionsDir, turnCount } from "../session/store.ts";
import { writeReport } from "../frontend/terminal/output.ts";

/**
 * One line per session: id, date, turns, first question, and ` (in <cwd>)` for a session of
 * another directory (a sessions directory shared by projects); unreadable files reported after.
 */
export async function listSessionsCommand(config: Config, cwd: string): Promise<number> {
  const dir = sessionsDir(cwd, config.sessions.dir);
  const listed = await listSessions(dir);
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
