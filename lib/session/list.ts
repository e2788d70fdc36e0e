/** The sessions of a project across its folders (the state folder's, the old `.mm/sessions`). */

import { type Listed, listSessions } from "./store.ts";

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
