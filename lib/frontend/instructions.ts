/**
 * The instructions of a working directory (docs/agent-file.md, "AGENTS.md"): the user's global
 * `$XDG_CONFIG_HOME/mm/AGENTS.md` (else `~/.config/mm/AGENTS.md`), then each AGENTS.md from the git
 * root down to the working directory, root first; a folder without AGENTS.md but with CLAUDE.md
 * gives that. 32 KiB in all: the file that crosses it is cut, with a note, and later ones are not
 * read. Each file is read as the file tools read one: a named pipe is never opened, a file over
 * 1 MiB is refused (a warning each). The folders of mm's own agent files find skills the same way.
 */

import { dirname, join, relative } from "node:path";
import { PROMPT_FILE_LIMIT, TOO_LARGE_REASON } from "../config/load.ts";
import { errorReason, realFiles } from "../files.ts";
import { warningText } from "../presentation.ts";
import { projectFolders, userFolder } from "../project_folders.ts";
import { existsSync as present } from "../files.ts";

/** The most bytes of instructions that go into the system prompt, every file together: 32 KiB. */
export const INSTRUCTIONS_LIMIT = 32 * 1024;

/** The note that ends instructions cut at {@linkcode INSTRUCTIONS_LIMIT}. */
export function cutNote(file: string): string {
  return `[mm: the instructions are cut here, at 32 KiB in all: the rest of ${file} and any file after it are not read]`;
}

/** The warning when the instructions file at `path` is there but cannot be read. */
export function agentsMdText(path: string, reason: string): string {
  return warningText(`${path} cannot be read (${reason}) — it is not added to the system prompt`);
}

/**
 * The text of the prompt file at `path` as the file tools read one: a regular file only (a named
 * pipe is never opened), at most {@linkcode PROMPT_FILE_LIMIT} bytes whatever size it claims;
 * undefined when there is none, else the text or why it cannot be read.
 */
export async function readPromptFile(
  path: string,
): Promise<{ text: string } | { reason: string } | undefined> {
  try {
    const bytes = await realFiles(dirname(path)).read(path, PROMPT_FILE_LIMIT + 1);
    if (bytes === undefined) return undefined;
    if (bytes.length > PROMPT_FILE_LIMIT) return { reason: TOO_LARGE_REASON };
    return { text: new TextDecoder().decode(bytes) };
  } catch (e) {
    return { reason: errorReason(e) };
  }
}

/** One instructions file to read: where it is and how the banner names it. */
interface Candidate {
  path: string;
  shown: string;
}

/** The instructions files of `cwd`, in order; a folder's CLAUDE.md when it has no AGENTS.md. */
function candidates(cwd: string, env: Record<string, string | undefined>): Candidate[] {
  const out: Candidate[] = [];
  const user = userFolder(env);
  const home = env.HOME;
  if (user !== undefined) {
    const path = join(user, "AGENTS.md");
    const shown = home && path.startsWith(home + "/") ? `~/${relative(home, path)}` : path;
    if (present(path)) out.push({ path, shown });
  }
  const folders = projectFolders(cwd);
  for (const dir of folders) {
    const name = ["AGENTS.md", "CLAUDE.md"].find((n) => present(join(dir, n)));
    if (name === undefined) continue;
    const path = join(dir, name);
    out.push({ path, shown: relative(folders[0], path) });
  }
  return out;
}

/** The instructions of a working directory: their text, the files read, a warning per failure. */
export interface Instructions {
  /** Every file's text, in order; "" for none. */
  text: string;
  /** The files read, as the banner names them (`~/.config/mm/AGENTS.md`, `AGENTS.md`, `sub/AGENTS.md`). */
  files: string[];
  warnings: string[];
}

/** Cuts `text` to at most `bytes` UTF-8 bytes, on a character boundary. */
function cutTo(text: string, bytes: number): string {
  const encoded = new TextEncoder().encode(text).slice(0, bytes);
  return new TextDecoder().decode(encoded).replace(/\uFFFD$/, "");
}

/**
 * Reads the instructions of `cwd`. With one file, its text alone (as mm always gave AGENTS.md);
 * with more, each under a heading that names it.
 */
export async function readInstructions(
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<Instructions> {
  const found = candidates(cwd, env);
  const read: { shown: string; text: string }[] = [];
  const warnings: string[] = [];
  for (const c of found) {
    const got = await readPromptFile(c.path);
    if (got === undefined) continue;
    if ("reason" in got) warnings.push(agentsMdText(c.path, got.reason));
    else if (got.text.trim()) read.push({ shown: c.shown, text: got.text.trim() });
  }
  const pieces: string[] = [];
  const files: string[] = [];
  let used = 0;
  const many = read.length > 1;
  for (const r of read) {
    const piece = many ? `## ${r.shown}\n\n${r.text}` : r.text;
    const size = new TextEncoder().encode(piece).length;
    files.push(r.shown);
    if (used + size > INSTRUCTIONS_LIMIT) {
      pieces.push(`${cutTo(piece, INSTRUCTIONS_LIMIT - used)}\n\n${cutNote(r.shown)}`);
      break;
    }
    pieces.push(piece);
    used += size + 2;
  }
  return { text: pieces.join("\n\n"), files, warnings };
}
