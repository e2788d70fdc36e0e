/**
 * The processes a started process left the group of (`setsid`, a daemon's double fork), found on
 * Linux by their parent chain in `/proc/<pid>/stat`: while the process lives, every process it
 * started, however far down and whatever its session, leads back to it. A process is known by its
 * pid and its start time together, so a kill after the chain broke (its parent gone, it was
 * reparented) never reaches a newer process that reused the pid. Without `/proc` (macOS, Windows)
 * nothing is found: a kill reaches the group only.
 *
 * Once mm revoked a permission (lib/permissions/sandbox.ts), Deno reads nothing under `/proc`
 * ("requires all access"): the table is then read by `cat` (the `run` permission that started the
 * processes is there), synchronously, so that it works in mm's `unload` too.
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

/** Every process of this machine mm may see, from `/proc`; empty without it. */
export function processTable(): Proc[] {
  if (Deno.build.os !== "linux") return [];
  const table: Proc[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        const proc = parseStat(Deno.readTextFileSync(`/proc/${entry.name}/stat`));
        if (proc) table.push(proc);
      } catch (e) {
        if (e instanceof Deno.errors.NotCapable) throw e;
        // It went meanwhile.
      }
    }
    return table;
  } catch (e) {
    return e instanceof Deno.errors.NotCapable ? tableByCat() : table;
  }
}

/** The table as `cat` reads it, for a Deno that may not read `/proc` itself. */
function tableByCat(): Proc[] {
  try {
    // lib/exec/ is where processes start (scripts/check_imports.ts).
    const out = new Deno.Command("sh", {
      args: ["-c", "cat /proc/[0-9]*/stat 2>/dev/null"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const lines = new TextDecoder().decode(out.stdout).split("\n");
    return lines.map(parseStat).filter((p): p is Proc => p !== undefined);
  } catch {
    return []; // no sh, or no permission to run it: nothing found
  }
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
  if (!procs.length) return;
  const now = new Map(processTable().map((p) => [p.pid, p.start]));
  for (const proc of procs) {
    if (now.get(proc.pid) !== proc.start) continue; // gone, or its pid is another's
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
