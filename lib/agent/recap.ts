/** The counters shown after a turn (tools.md, "Counters shown after a turn"). */

import type { Counter } from "../tool.ts";

/** How many responses of each kind a turn had. */
export type Counters = Record<Counter, number>;

/** Counters at zero. */
export function emptyCounters(): Counters {
  return { commands: 0, fileOps: 0, skills: 0, lsp: 0 };
}

/** The recap line: the counters that are not zero, e.g. `⚙ 2 command(s) · 📝 1 file op(s)`. */
export function recapLine(c: Counters): string {
  const parts: string[] = [];
  if (c.commands) parts.push(`⚙ ${c.commands} command(s)`);
  if (c.fileOps) parts.push(`📝 ${c.fileOps} file op(s)`);
  if (c.skills) parts.push(`📖 ${c.skills} skill(s)`);
  if (c.lsp) parts.push(`🔎 ${c.lsp} lsp call(s)`);
  return parts.join(" · ");
}
