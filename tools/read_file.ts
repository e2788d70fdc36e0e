/** read_file: a file's lines, a range of them, optionally numbered (tools.md, `read_file`). */

import type { Tool, ToolContext, ToolResult } from "../lib/tool.ts";
import { readFileBytes } from "./_files.ts";
import { numberLine } from "./_lines.ts";

/** Input of read_file, after coercion; a left-out optional field is undefined. */
export interface ReadFileInput {
  path: string;
  start?: number;
  end?: number;
  numbered?: boolean;
}

/** The tool's description, as the model reads it. */
export const READ_FILE_DESCRIPTION = "Read a text file, or a range of its lines.";

/** The `path` field's description (tools.md, `read_file`). */
export const PATH_DESCRIPTION = "File path, relative to the working directory.";
/** The `start` field's description (tools.md, `read_file`). */
export const START_DESCRIPTION = "First line (1-based); 0 = from the start.";
/** The `end` field's description (tools.md, `read_file`). */
export const END_DESCRIPTION = "Last line (1-based, inclusive); 0 = to the end.";
/** The `numbered` field's description (tools.md, `read_file`). */
export const NUMBERED_DESCRIPTION = "Prefix each line with its number.";

/** The output for a file that holds a NUL byte. */
export function binaryText(path: string, size: number): string {
  return `${path} is a binary file (${size} bytes); read_file shows text files only.`;
}

/** The output for a file above the read limit (64 MiB). */
export function tooLargeText(path: string, size: number): string {
  return `${path} is too large for read_file (${size} bytes; the limit is 64 MiB).`;
}

/** The output for an empty file. */
export function emptyText(path: string): string {
  return `${path} is empty (0 lines).`;
}

/** The output for a negative `start` or `end`. */
export function negativeText(
  field: "start" | "end",
  value: number,
  path: string,
  total: number,
): string {
  const zero = field === "start" ? "from the start" : "to the end";
  return `${field} ${value} is not a line number: lines count from 1, and 0 means ${zero}. ` +
    `${path} has ${lines(total)}.`;
}

/** The output when `start` is past the last line. */
export function pastEndText(start: number, path: string, total: number): string {
  return `start ${start} is past the end: ${path} has ${lines(total)}.`;
}

/** The output when `end` is before `start`. */
export function endBeforeStartText(start: number, end: number): string {
  return `end ${end} is before start ${start}: give an end of at least ${start}, or 0 for the end of the file.`;
}

/** The last line of an output cut to `maxOutput` after whole lines `first`..`last`. */
export function truncatedNote(first: number, last: number, total: number): string {
  return `[... output truncated to maxOutput: lines ${first}-${last} of ${total} shown; ` +
    `continue with start ${last + 1}]`;
}

/** The last line of an output whose first line alone is longer than `maxOutput`. */
export function longLineNote(line: number, kept: number, length: number, total: number): string {
  const next = line < total ? `; continue with start ${line + 1}` : "";
  return `[... output truncated to maxOutput: line ${line} cut after ${kept} of its ${length} ` +
    `characters${next}]`;
}

/** `1 line`, `3 lines`. */
function lines(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

/**
 * The bytes of a text file the model named, or the refusal it reads: missing, a directory, not a
 * regular file, too large, unreadable, or binary (a NUL byte).
 */
export async function readTextFileBytes(
  path: string,
  ctx: ToolContext,
): Promise<Uint8Array | string> {
  const bytes = await readFileBytes(path, ctx, (size) => tooLargeText(path, size));
  if (typeof bytes === "string") return bytes;
  if (bytes.includes(0)) return binaryText(path, bytes.length);
  return bytes;
}

/** read_file: reads a text file through `ctx.fs`; every failure is a text for the model. */
export const readFile: Tool<ReadFileInput> = {
  name: "read_file",
  kind: "read",
  emoji: "📝",
  asks: false,
  // A file out of the project is asked about when `yolo: false` (docs/security.md).
  asksOutside: true,
  counter: "fileOps",
  declared: (config) => config.editTools,
  description: READ_FILE_DESCRIPTION,
  parameters: {
    path: {
      type: "string",
      description: PATH_DESCRIPTION,
      aliases: ["file", "file_path"],
      path: true,
    },
    start: { type: "integer", description: START_DESCRIPTION, optional: true },
    end: { type: "integer", description: END_DESCRIPTION, optional: true },
    numbered: { type: "boolean", description: NUMBERED_DESCRIPTION, optional: true },
  },
  summary: (input) => input.path,
  async run(input, ctx) {
    const path = input.path;
    const locations = [ctx.fs.resolve(path)];
    const fail = (output: string): ToolResult => ({ output, failed: true, locations });
    const read = await readTextFileBytes(path, ctx);
    if (typeof read === "string") return fail(read);
    const bytes = read;
    if (bytes.length === 0) return { output: emptyText(path), locations };
    return showLines(new TextDecoder().decode(bytes), input, ctx, fail, locations);
  },
};

/** The requested lines of `text`, numbered if asked, cut to `maxOutput` with a note. */
function showLines(
  text: string,
  input: ReadFileInput,
  ctx: ToolContext,
  fail: (output: string) => ToolResult,
  locations: string[],
): ToolResult {
  const all = text.split("\n");
  const finalNewline = text.endsWith("\n");
  if (finalNewline) all.pop();
  const total = all.length;
  const start = input.start ?? 0;
  const end = input.end ?? 0;
  if (start < 0) return fail(negativeText("start", start, input.path, total));
  if (end < 0) return fail(negativeText("end", end, input.path, total));
  if (start > total) return fail(pastEndText(start, input.path, total));
  if (end !== 0 && end < start) return fail(endBeforeStartText(start, end));

  const first = Math.max(start, 1);
  const last = end === 0 || end > total ? total : end;
  const width = String(last).length;
  const shown = (n: number) => input.numbered ? numberLine(n, width, all[n - 1]) : all[n - 1];
  const tail = last === total && finalNewline ? "\n" : "";

  const max = ctx.config.maxOutput;
  const pieces: string[] = [];
  let length = 0;
  for (let n = first; n <= last; n++) {
    const piece = shown(n);
    length += piece.length + (n > first ? 1 : 0);
    pieces.push(piece);
    if (length > max) break;
  }
  if (pieces.length === last - first + 1 && length <= max) {
    return { output: pieces.join("\n") + tail, locations };
  }

  // Too long: keep the head, whole lines, and say where to continue.
  const big = max + text.length; // more digits than any count the notes can hold
  const reserve = 1 + Math.max(
    truncatedNote(last, last, total).length,
    longLineNote(last, big, big, last + 1).length,
  );
  const budget = Math.max(0, max - reserve);
  let kept = 0;
  length = 0;
  while (kept < pieces.length && length + (kept > 0 ? 1 : 0) + pieces[kept].length <= budget) {
    length += (kept > 0 ? 1 : 0) + pieces[kept].length;
    kept++;
  }
  if (kept > 0) {
    const out = pieces.slice(0, kept).join("\n");
    return { output: `${out}\n${truncatedNote(first, first + kept - 1, total)}`, locations };
  }
  let head = pieces[0].slice(0, budget);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const prefix = pieces[0].length - all[first - 1].length;
  const note = longLineNote(first, Math.max(0, head.length - prefix), all[first - 1].length, total);
  return { output: `${head}\n${note}`, locations };
}
