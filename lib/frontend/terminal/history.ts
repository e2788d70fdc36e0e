/** The prompts typed before, kept per user: line mode and window mode browse them with ↑ and ↓. */

import { dirname } from "node:path";

/** Lines typed before, newest last, saved to a file per user. */
export class History {
  readonly entries: string[] = [];
  #path?: string;

  /** A history kept in `path` (JSON lines), or in memory only. */
  constructor(path?: string) {
    this.#path = path;
  }

  /** The file of the user's history: `$XDG_STATE_HOME/mm/history`, else `~/.local/state/mm/history`. */
  static defaultPath(env: Record<string, string | undefined>): string | undefined {
    if (env.XDG_STATE_HOME) return `${env.XDG_STATE_HOME}/mm/history`;
    return env.HOME ? `${env.HOME}/.local/state/mm/history` : undefined;
  }

  /** Reads the saved entries; a missing or broken file is an empty history. */
  async load(): Promise<void> {
    if (!this.#path) return;
    try {
      for (const line of (await Deno.readTextFile(this.#path)).split("\n")) {
        try {
          if (line) this.entries.push(JSON.parse(line));
        } catch {
          // A broken line is skipped.
        }
      }
    } catch {
      // No history yet.
    }
  }

  /** Adds an entry (not a repeat of the last one) and appends it to the file. */
  async add(text: string): Promise<void> {
    if (!text.trim() || this.entries.at(-1) === text) return;
    this.entries.push(text);
    if (this.entries.length > 1000) this.entries.splice(0, this.entries.length - 1000);
    if (!this.#path) return;
    try {
      await Deno.mkdir(dirname(this.#path), { recursive: true });
      await Deno.writeTextFile(this.#path, JSON.stringify(text) + "\n", { append: true });
    } catch {
      // History is a convenience: a read-only home does not stop mm.
    }
  }
}
