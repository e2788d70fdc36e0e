/** write_file: a whole file's content, written atomically, reported as a diff (tools.md, `write_file`). */

import {
  formatPatch,
  OMIT_HEADERS,
  structuredPatch,
  type StructuredPatchHunk,
} from "npm:diff@9.0.0";
import { errorReason } from "../lib/files.ts";
import { countLines, truncateMiddle } from "../lib/text.ts";
import type { Tool, ToolResult } from "../lib/tool.ts";

/** Input of write_file, after coercion. */
export interface WriteFileInput {
  path: string;
  content: string;
}

/** The tool's description, as the model reads it. */
export const WRITE_FILE_DESCRIPTION = "Create a file, or replace all of its content.";

/** The `path` field's description (tools.md, `write_file`). */
export const PATH_DESCRIPTION =
  "File path, relative to the working directory; parent directories are created.";
/** The `content` field's description (tools.md, `write_file`). */
export const CONTENT_DESCRIPTION = "The whole content of the file.";

/** Milliseconds the diff may take before the output gives up on showing it. */
export const DIFF_TIMEOUT = 2000;

/** The headline of a new file: `created notes/a.txt (3 lines)`, `created a.txt (empty)`. */
export function createdText(path: string, lineCount: number): string {
  return `created ${path} (${lineCount === 0 ? "empty" : lines(lineCount)})`;
}

/** The headline of a replaced file: `wrote a.txt: 2 lines added, 1 deleted`. */
export function wroteText(path: string, added: number, deleted: number): string {
  return `wrote ${path}: ${lines(added)} added, ${deleted} deleted`;
}

/** The headline of a replaced binary file, shown without a diff. */
export function replacedBinaryText(path: string, size: number, lineCount: number): string {
  return `wrote ${path}: replaced a binary file of ${size} bytes with ${lines(lineCount)}`;
}

/** The output when the file already holds exactly this content. */
export function unchangedText(path: string): string {
  return `${path} already has this content — nothing was written`;
}

/** The output when the file cannot be written (`is a directory`, `permission denied`). */
export function writeErrorText(path: string, reason: string): string {
  return `cannot write ${path}: ${reason} — nothing was written`;
}

/** The line that replaces a diff that took longer than {@linkcode DIFF_TIMEOUT} to compute. */
export const DIFF_TOO_SLOW = "(the diff took too long to compute and is not shown)";

/** `1 line`, `3 lines`. */
function lines(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

/** One hunk of a line diff: where it starts in each text, and its ` `, `-`, `+` and `\` lines. */
export type Hunk = StructuredPatchHunk;

/** The patch from `oldText` to `newText` with 3 lines of context, and its counts. */
function patchOf(oldText: string, newText: string) {
  const patch = structuredPatch("", "", oldText, newText, undefined, undefined, {
    context: 3,
    timeout: DIFF_TIMEOUT,
  });
  if (patch === undefined) return undefined;
  let added = 0;
  let deleted = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) deleted++;
    }
  }
  return { patch, added, deleted };
}

/**
 * The hunks of the change from `oldText` to `newText` (3 lines of context) and its added and
 * deleted line counts; undefined when the diff takes longer than {@linkcode DIFF_TIMEOUT}.
 */
export function diffHunks(
  oldText: string,
  newText: string,
): { hunks: Hunk[]; added: number; deleted: number } | undefined {
  const diff = patchOf(oldText, newText);
  return diff && { hunks: diff.patch.hunks, added: diff.added, deleted: diff.deleted };
}

/** The hunks of the change from `oldText` to `newText` and its counts; no hunks when too slow. */
export function lineDiff(
  oldText: string,
  newText: string,
): { hunks: string; added: number; deleted: number } | undefined {
  const diff = patchOf(oldText, newText);
  if (diff === undefined) return undefined;
  return {
    hunks: formatPatch(diff.patch, OMIT_HEADERS).replace(/\n$/, ""),
    added: diff.added,
    deleted: diff.deleted,
  };
}

/** write_file: replaces or creates a file through `ctx.fs.writeAtomic`. */
export const writeFile: Tool<WriteFileInput> = {
  name: "write_file",
  kind: "edit",
  emoji: "📝",
  asks: true,
  counter: "fileOps",
  declared: (config) => config.editTools,
  description: WRITE_FILE_DESCRIPTION,
  parameters: {
    path: { type: "string", description: PATH_DESCRIPTION, aliases: ["file", "file_path"] },
    content: { type: "string", description: CONTENT_DESCRIPTION, aliases: ["text", "contents"] },
  },
  summary: (input) => input.path,
  async run(input, ctx) {
    const { path, content } = input;
    const abs = ctx.fs.resolve(path);
    const locations = [abs];
    const fail = (reason: string): ToolResult => ({
      output: writeErrorText(path, reason),
      failed: true,
      locations,
    });
    const data = new TextEncoder().encode(content);
    let old: Uint8Array | undefined;
    try {
      const info = await ctx.fs.stat(path);
      if (info?.isDirectory) return fail("it is a directory");
      if (info !== undefined) old = await ctx.fs.read(path);
    } catch (err) {
      return fail(errorReason(err));
    }
    if (old !== undefined && sameBytes(old, data)) {
      return { output: unchangedText(path), locations };
    }
    try {
      await ctx.fs.writeAtomic(path, data);
    } catch (err) {
      return fail(errorReason(err));
    }

    const max = ctx.config.maxOutput;
    const newLines = countLines(content);
    if (old === undefined) {
      const diff = lineDiff("", content);
      const output = [createdText(path, newLines), diff?.hunks ?? DIFF_TOO_SLOW]
        .filter((s) => s !== "").join("\n");
      return {
        output: truncateMiddle(output, max),
        diff: { path: abs, newText: content },
        locations,
      };
    }
    if (old.includes(0)) {
      return {
        output: truncateMiddle(replacedBinaryText(path, old.length, newLines), max),
        diff: { path: abs, newText: content },
        locations,
      };
    }
    // ignoreBOM keeps a byte order mark in the old text, so that dropping it shows in the diff.
    const oldText = new TextDecoder("utf-8", { ignoreBOM: true }).decode(old);
    const diff = lineDiff(oldText, content);
    const headline = diff
      ? wroteText(path, diff.added, diff.deleted)
      : wroteText(path, newLines, countLines(oldText));
    const body = diff ? diff.hunks : DIFF_TOO_SLOW;
    return {
      output: truncateMiddle(body === "" ? headline : `${headline}\n${body}`, max),
      diff: { path: abs, oldText, newText: content },
      locations,
    };
  },
};

/** Whether two byte arrays hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
