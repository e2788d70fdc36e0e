/**
 * `@path` mentions: the files a prompt names, read as read_file shows them (numbered lines, through
 * the same gate: a path out of the project is asked about when `yolo: false`, refused where nobody
 * can answer) and attached below the prompt. Line, window and editor mode (its resource links) all
 * attach through {@linkcode attachFiles}; docs/line-mode.md, "Mentions".
 */

import { isAbsolute, relative, resolve, sep } from "node:path";
import { realFiles } from "../files.ts";

/** At most this many files go along with one prompt; the rest are named as left out. */
export const MAX_ATTACHED = 20;

/** The heading above the attached files in the prompt the model reads. */
export const ATTACHED_HEADING = "Files attached by the user:";

/**
 * The paths `@`-mentioned in `text`, each once, in order. An `@` must start a word (`me@x.com` is no
 * mention); a trailing `,` `;` `:` `!` `?` `)` or `.` ends the sentence, not the path.
 */
export function mentionsOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(^|\s)@(\S+)/g)) {
    const path = m[2].replace(/[,;:!?)'".\]]+$/, "");
    if (path && !found.includes(path)) found.push(path);
  }
  return found;
}

/** What reading one file gave: read_file's result, or the gate's refusal. */
export type ReadAnswer =
  | { kind: "read"; output: string; failed: boolean }
  | { kind: "refused"; text: string };

/** What attaching needs: where, how much, and how a file and a folder are read. */
export interface AttachPorts {
  cwd: string;
  /** The bound of all attachments together (the configuration's `maxOutput`). */
  maxOutput: number;
  /** read_file run by hand on `path` (numbered), through the agent's gate. */
  read(path: string): Promise<ReadAnswer>;
  /** What is at `path` (relative to `cwd`): a file, a folder, or nothing. */
  kind(path: string): Promise<"file" | "folder" | "missing">;
  /** A folder's entries (a folder's name ends in `/`), sorted. */
  list(path: string): Promise<string[]>;
}

/** The prompt with its files, and the lines the screen shows of them; or why nothing is sent. */
export type Attachment =
  | { ok: true; prompt: string; lines: string[] }
  | { ok: false; text: string };

/** What a missing mention says (nothing is sent). */
export function missingText(path: string): string {
  return `@${path}: no such file or folder — nothing was sent`;
}

/** What a mention the gate refused says (nothing is sent). */
export function refusedText(path: string, why: string): string {
  return `@${path}: ${why} — nothing was sent`;
}

/** What a folder out of the project says (nothing is sent). */
export function outsideFolderText(path: string): string {
  return `@${path}: a folder out of the project is not attached — nothing was sent`;
}

/** The screen's line of a file that went along (`📎 src/a.ts (12 lines)`). */
export function attachedLine(path: string, lines: number): string {
  return `📎 ${path} (${lines === 1 ? "1 line" : `${lines} lines`})`;
}

/** The screen's line of a folder that went along as its listing. */
export function folderLine(path: string, entries: number): string {
  return `📎 ${path} (folder: ${entries === 1 ? "1 entry" : `${entries} entries`})`;
}

/** The screen's line of a file named only (binary, too large, unreadable): read_file's reason. */
export function namedLine(path: string): string {
  return `📎 ${path} (named only: not readable as text)`;
}

/** The line of the mentions past {@linkcode MAX_ATTACHED} or past `maxOutput`, left out. */
export function leftOutLine(paths: string[], why: "count" | "size"): string {
  const reason = why === "count"
    ? `at most ${MAX_ATTACHED} files go along with a prompt`
    : "the attachments reached maxOutput";
  return `📎 not attached (${reason}): ${paths.join(", ")}`;
}

/** The lines of read_file's numbered output (its truncation note not counted). */
function countLines(output: string): number {
  return output.split("\n").filter((l) => l !== "" && !l.startsWith("[... output truncated"))
    .length;
}

/** Whether `path` lies outside `cwd`. */
function outside(cwd: string, path: string): boolean {
  const rel = relative(resolve(cwd), resolve(cwd, path));
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * Attaches the files of `paths` to `prompt`: each as read_file shows it (numbered), a folder as its
 * listing, a binary or unreadable file named with read_file's reason; at most
 * {@linkcode MAX_ATTACHED} files and `maxOutput` characters in all, the rest named as left out. A
 * missing path, or one the gate refuses, sends nothing: the answer says why.
 */
export async function attachFiles(
  prompt: string,
  paths: string[],
  ports: AttachPorts,
): Promise<Attachment> {
  if (paths.length === 0) return { ok: true, prompt, lines: [] };
  const taken = paths.slice(0, MAX_ATTACHED);
  const blocks: string[] = [];
  const lines: string[] = [];
  const overSize: string[] = [];
  let used = 0;
  for (const path of taken) {
    const kind = await ports.kind(path);
    if (kind === "missing") return { ok: false, text: missingText(path) };
    let body: string;
    let line: string;
    if (kind === "folder") {
      if (outside(ports.cwd, path)) return { ok: false, text: outsideFolderText(path) };
      const entries = await ports.list(path);
      body = entries.join("\n");
      line = folderLine(path, entries.length);
    } else {
      const read = await ports.read(path);
      if (read.kind === "refused") return { ok: false, text: refusedText(path, read.text) };
      body = read.output;
      line = read.failed ? namedLine(path) : attachedLine(path, countLines(read.output));
    }
    const block = `--- @${path} ---\n${body}`;
    if (used + block.length > ports.maxOutput) {
      overSize.push(path);
      continue;
    }
    used += block.length;
    blocks.push(block);
    lines.push(line);
  }
  if (overSize.length) lines.push(leftOutLine(overSize, "size"));
  if (paths.length > MAX_ATTACHED) lines.push(leftOutLine(paths.slice(MAX_ATTACHED), "count"));
  if (blocks.length === 0) return { ok: true, prompt, lines };
  return { ok: true, prompt: `${prompt}\n\n${ATTACHED_HEADING}\n${blocks.join("\n\n")}`, lines };
}

/** The disk's answers for {@linkcode AttachPorts}: what is at a path, a folder's sorted entries. */
export function diskPorts(cwd: string): Pick<AttachPorts, "kind" | "list"> {
  const files = realFiles(cwd);
  return {
    async kind(path) {
      try {
        const info = await files.stat(path);
        if (!info) return "missing";
        return info.isDirectory ? "folder" : "file";
      } catch {
        // Unreadable (no permission, a special file): read_file says why.
        return "file";
      }
    },
    async list(path) {
      const names: string[] = [];
      try {
        for await (const e of Deno.readDir(files.resolve(path))) {
          names.push(e.isDirectory ? `${e.name}/` : e.name);
          if (names.length >= LIST_LIMIT) break;
        }
      } catch {
        // An unreadable folder lists nothing.
      }
      return names.sort();
    },
  };
}

/** At most this many entries of a mentioned folder are listed. */
export const LIST_LIMIT = 1000;
