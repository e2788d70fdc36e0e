/**
 * Tab completion of the terminal front ends: `@path` mentions (the project's files: git's index and
 * its untracked, non-ignored files, else a bounded walk; matched fuzzily, ranked by basename) and
 * `/model` names. The file list is kept per session and listed again once stale.
 */

import { spawnProcess } from "../../exec/spawn.ts";
import { join } from "node:path";

/** What Tab may put in place of `text.slice(start, end)`: the choices, best first. */
export interface Completion {
  start: number;
  end: number;
  choices: string[];
}

/** Finds the completion at the caret, or undefined (Tab then does what it did before). */
export type Completer = (text: string, cursor: number) => Promise<Completion | undefined>;

/** A file list older than this is listed again (in the background: the old one answers meanwhile). */
export const STALE_MS = 10_000;

/** A walk outside git stops after this many entries. */
export const WALK_LIMIT = 20_000;

/** At most this many choices are offered. */
export const MAX_CHOICES = 50;

/** The project's files (and their folders, ending in `/`), listed once and again when stale. */
export class PathIndex {
  readonly #cwd: string;
  readonly #lister: (cwd: string) => Promise<string[]>;
  #paths: Promise<string[]> | undefined;
  #lower: string[] = [];
  #listed = 0;

  /** The index of `cwd`; `lister` lists its files (default: git, else a walk). */
  constructor(cwd: string, lister: (cwd: string) => Promise<string[]> = listProjectFiles) {
    this.#cwd = cwd;
    this.#lister = lister;
  }

  /** The paths, with their lower-case forms; listed again when older than {@linkcode STALE_MS}. */
  async paths(): Promise<{ paths: string[]; lower: string[] }> {
    const stale = Date.now() - this.#listed > STALE_MS;
    if (!this.#paths || stale) {
      const listing = this.#lister(this.#cwd).then(withFolders).catch(() => [] as string[]);
      const first = !this.#paths;
      this.#listed = Date.now();
      listing.then((p) => {
        this.#paths = Promise.resolve(p);
        this.#lower = p.map((x) => x.toLowerCase());
      });
      if (first) this.#paths = listing;
    }
    const paths = await this.#paths!;
    if (this.#lower.length !== paths.length) this.#lower = paths.map((x) => x.toLowerCase());
    return { paths, lower: this.#lower };
  }
}

/** `paths` and the folders they lie in (`src/`), each once. */
function withFolders(paths: string[]): string[] {
  const folders = new Set<string>();
  for (const p of paths) {
    for (let i = p.indexOf("/"); i >= 0; i = p.indexOf("/", i + 1)) folders.add(p.slice(0, i + 1));
  }
  return [...paths, ...folders];
}

/** The files of `cwd`: `git ls-files -co --exclude-standard -z`, else a bounded walk. */
export async function listProjectFiles(cwd: string): Promise<string[]> {
  try {
    const git = await spawnProcess({
      argv: ["git", "ls-files", "-co", "--exclude-standard", "-z"],
      cwd,
      stdout: "piped",
      timeout: 10_000,
    });
    const [out, status] = await Promise.all([
      new Response(git.child.stdout).arrayBuffer(),
      git.status,
    ]);
    if (status.success) {
      return new TextDecoder().decode(out).split("\0").filter((p) => p !== "");
    }
  } catch {
    // No git on the PATH: the walk below.
  }
  return await walk(cwd);
}

/** A breadth-first walk of `cwd`, its hidden folders and node_modules left out, bounded. */
async function walk(cwd: string): Promise<string[]> {
  const found: string[] = [];
  const queue = [""];
  while (queue.length && found.length < WALK_LIMIT) {
    const dir = queue.shift()!;
    try {
      for await (const e of Deno.readDir(join(cwd, dir))) {
        if (e.name.startsWith(".") || e.name === "node_modules") continue;
        const path = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory) queue.push(path);
        else found.push(path);
        if (found.length >= WALK_LIMIT) break;
      }
    } catch {
      // An unreadable folder: its files are not offered.
    }
  }
  return found;
}

/** Whether the letters of `query` appear in `text` in order, from `from`. */
function subsequence(query: string, text: string, from = 0): boolean {
  let at = from;
  for (const ch of query) {
    at = text.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/**
 * The paths `query` matches fuzzily (its letters in order, any case), best first: the basename
 * starting with it, then holding it, then holding its letters, then the whole path holding them;
 * shorter paths first within a rank. `lower` is `paths` in lower case.
 */
export function rankPaths(
  query: string,
  paths: readonly string[],
  lower: readonly string[] = paths.map((p) => p.toLowerCase()),
  limit = MAX_CHOICES,
): string[] {
  const q = query.toLowerCase();
  // The best `limit`, kept sorted as they come (no sort of every match: 100,000 paths stay fast).
  const best: { path: string; rank: number }[] = [];
  const before = (a: { path: string; rank: number }, b: { path: string; rank: number }) =>
    a.rank - b.rank || a.path.length - b.path.length || (a.path < b.path ? -1 : 1);
  for (let i = 0; i < paths.length; i++) {
    const l = lower[i];
    if (!subsequence(q, l)) continue;
    const slash = l.lastIndexOf("/", l.length - 2);
    const base = slash < 0 ? l : l.slice(slash + 1);
    const rank = base.startsWith(q) ? 0 : base.includes(q) ? 1 : subsequence(q, base) ? 2 : 3;
    const entry = { path: paths[i], rank };
    if (best.length === limit && before(entry, best[limit - 1]) >= 0) continue;
    let at = best.length;
    while (at > 0 && before(entry, best[at - 1]) < 0) at--;
    best.splice(at, 0, entry);
    if (best.length > limit) best.pop();
  }
  return best.map((r) => r.path);
}

/** The `@` word the caret ends, if an `@` starts a word there: where its query starts and ends. */
export function mentionAt(
  text: string,
  cursor: number,
): { start: number; query: string } | undefined {
  const before = text.slice(0, cursor);
  const m = before.match(/(^|\s)@(\S*)$/);
  if (!m) return undefined;
  return { start: cursor - m[2].length - 1, query: m[2] };
}

/** Completes `@path` mentions from `index`: the choices are `@path` (a file's with a space after). */
export function mentionCompleter(index: PathIndex): Completer {
  return async (text, cursor) => {
    const at = mentionAt(text, cursor);
    if (!at) return undefined;
    const { paths, lower } = await index.paths();
    const choices = rankPaths(at.query, paths, lower)
      .map((p) => `@${p}${p.endsWith("/") ? "" : " "}`);
    return choices.length ? { start: at.start, end: cursor, choices } : undefined;
  };
}

/** Completes `/model NAME` from the names `models` gives (the server's list). */
export function modelCompleter(models: () => Promise<string[]>): Completer {
  return async (text, cursor) => {
    const m = text.slice(0, cursor).match(/^\/model\s+(\S*)$/);
    if (!m) return undefined;
    const names = await models().catch(() => [] as string[]);
    const q = m[1].toLowerCase();
    const choices = names.filter((n) => n.toLowerCase().startsWith(q));
    const rest = names.filter((n) => !choices.includes(n) && subsequence(q, n.toLowerCase()));
    const all = [...choices, ...rest];
    return all.length ? { start: cursor - m[1].length, end: cursor, choices: all } : undefined;
  };
}

/** The first completer's answer among `completers`. */
export function completers(...all: Completer[]): Completer {
  return async (text, cursor) => {
    for (const c of all) {
      const found = await c(text, cursor);
      if (found) return found;
    }
    return undefined;
  };
}

/**
 * Tab's state over an input: the first Tab puts the best choice in; each Tab after it (nothing
 * typed between) the next one, round.
 */
export class TabCycle {
  #last: { completion: Completion; i: number; text: string; cursor: number } | undefined;

  /** Forgets the cycle (any key but Tab). */
  reset(): void {
    this.#last = undefined;
  }

  /**
   * The text and caret after Tab on `text` at `cursor`; undefined when nothing completes (the
   * caller then inserts what Tab inserted before).
   */
  async tab(
    completer: Completer,
    text: string,
    cursor: number,
  ): Promise<{ text: string; cursor: number } | undefined> {
    const last = this.#last;
    if (last && last.text === text && last.cursor === cursor) {
      const { completion } = last;
      const i = (last.i + 1) % completion.choices.length;
      const prev = completion.choices[last.i];
      const base = text.slice(0, completion.start) + text.slice(completion.start + prev.length);
      return this.#put(completion, i, base, base.slice(0, completion.start).length);
    }
    const completion = await completer(text, cursor);
    if (!completion) return undefined;
    const base = text.slice(0, completion.start) + text.slice(completion.end);
    return this.#put(completion, 0, base, completion.start);
  }

  #put(completion: Completion, i: number, base: string, start: number) {
    const choice = completion.choices[i];
    const text = base.slice(0, start) + choice + base.slice(start);
    const cursor = start + choice.length;
    this.#last = { completion: { ...completion, start }, i, text, cursor };
    return { text, cursor };
  }
}
