/**
 * The processes a started process left the group of (`setsid`, a daemon's double fork), found on
 * Linux by their parent chain in `/proc/<pid>/stat`: while the process lives, every process it
 * started, however far down and whatever its session, leads back to it. A process is known by its
 * pid and its start time together, so a kill after the chain broke (its parent gone, it was
 * reparented) never reaches a newer process that reused the pid. Without `/proc` (macOS, Windows)
 * nothing is found: a kill reaches the group only.
 */

/** One process of the table: its parent, and its start time (its identity, with the pid). */
export interface Proc {
  pid: number;
  ppid: number;
  /** Field 22 of `/proc/<pid>/stat`: clock ticks after boot. */
  start: string;
}

/** `pid ppid start` of one `/proc/<pid>/stat` text; undefined when it cannot be read. */
export function parseStat(text: string): Proc | undefined {
  // The command's name is in parentheses and may hold spaces and parentheses itself.
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number(text.slice(0, text.indexOf(" ")));
  const rest = text.slice(close + 2).split(" ");
  // rest[0] is field 3 (state): ppid is field 4, starttime field 22.
  const ppid = Number(rest[1]);
  const start = rest[19];
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !start) return undefined;
  return { pid, ppid, start };
}

function readStat(pid: number): Proc | undefined {
  try {
    return parseStat(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return undefined; // gone, or no /proc
  }
}

/** Every process of this machine mm may see, from `/proc`; empty without it. */
export function processTable(): Proc[] {
  const table: Proc[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const proc = readStat(Number(entry.name));
      if (proc) table.push(proc);
    }
  } catch {
    // No /proc (macOS, Windows), or it cannot be read: nothing found.
  }
  return table;
}

/** The descendants of process `root` in `table` (not `root` itself), children first. */
export function descendantsOf(root: number, table: Proc[] = processTable()): Proc[] {
  const children = new Map<number, Proc[]>();
  for (const proc of table) {
    const list = children.get(proc.ppid) ?? [];
    list.push(proc);
    children.set(proc.ppid, list);
  }
  const found: Proc[] = [];
  const queue = [root];
  const seen = new Set(queue);
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Sends `sig` to each process of `procs` that is still the one recorded (same start time). */
export function signalRecorded(procs: Proc[], sig: Deno.Signal): void {
  for (const proc of procs) {
    if (readStat(proc.pid)?.start !== proc.start) continue; // gone, or its pid is another's
    try {
      Deno.kill(proc.pid, sig);
    } catch {
      // ESRCH: it went meanwhile.
    }
  }
}

/** `known` with the processes of `more` it lacks (by pid and start time). */
export function mergeRecorded(known: Proc[], more: Proc[]): Proc[] {
  const ids = new Set(known.map((p) => `${p.pid}/${p.start}`));
  return [...known, ...more.filter((p) => !ids.has(`${p.pid}/${p.start}`))];
}
