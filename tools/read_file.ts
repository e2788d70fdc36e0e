/** read_file: a file's lines, a range of them, optionally numbered (tools.md, `read_file`). */

import { decodeFile, encodingLabel, type FileEncoding } from "../lib/encoding.ts";
import { errorReason } from "../lib/files.ts";
import { redactCutEnd } from "../lib/secrets.ts";
import { NotAFileError, type Tool, type ToolContext, type ToolResult } from "../lib/tool.ts";
import {
  directoryText,
  missingText,
  notAFileText,
  READ_LIMIT,
  readErrorText,
  readFileBytes,
  undecodableText,
} from "./_files.ts";
import { type StreamedLines, streamLines } from "./_line_range.ts";
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

/**
 * The output for a file above the read limit (64 MiB) read whole; a range of its lines is read
 * however large it is, and the second sentence says how.
 */
export function tooLargeText(path: string, size: number): string {
  return `${path} is too large for read_file (${size} bytes; the limit is 64 MiB). ` +
    `Read a range of its lines with start and end: start 1, end 200 shows its first 200.`;
}

/** The output for a range of a UTF-16 file above the read limit: its lines cannot be streamed. */
export function largeUtf16Text(path: string, size: number): string {
  return `${path} is too large for read_file (${size} bytes; the limit is 64 MiB), and it is UTF-16 ` +
    `text, whose lines read_file finds only in a file it reads whole.`;
}

/** The line before the content of a file that is not UTF-8: its encoding, and how it is written. */
export function encodingNote(path: string, encoding: FileEncoding, bom: boolean): string {
  const what = bom
    ? `${encodingLabel(encoding)} text with a byte order mark`
    : `${encodingLabel(encoding)} text, not UTF-8`;
  return `[${path} is ${what}: shown decoded; edit_file and write_file keep its encoding]`;
}

/** The last line of a streamed range cut to `maxOutput` (the file's line count is not known). */
export function streamedNote(first: number, last: number): string {
  return `[... output truncated to maxOutput: lines ${first}-${last} shown; continue with start ${
    last + 1
  }]`;
}

/** The last line of a streamed range whose first line alone is longer than `maxOutput`. */
export function streamedLongLineNote(line: number, kept: number): string {
  return `[... output truncated to maxOutput: line ${line} cut after ${kept} characters; ` +
    `continue with start ${line + 1}]`;
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
    if (ranged(input)) {
      const streamed = await readLargeRange(input, ctx, fail, locations);
      if (streamed !== undefined) return streamed;
    }
    const bytes = await readFileBytes(path, ctx, (size) => tooLargeText(path, size));
    if (typeof bytes === "string") return fail(bytes);
    if (bytes.length === 0) return { output: emptyText(path), locations };
    const decoded = decodeFile(bytes);
    if (decoded.kind === "binary") return fail(binaryText(path, bytes.length));
    if (decoded.kind === "undecodable") {
      return fail(undecodableText(path, decoded.encoding, bytes.length));
    }
    const text = decoded.bom ? decoded.text.slice(1) : decoded.text;
    if (decoded.encoding === "utf-8") return showLines(text, input, ctx, fail, locations);
    if (text === "") return { output: emptyText(path), locations };
    return withNote(
      encodingNote(path, decoded.encoding, decoded.bom),
      ctx,
      (c) => showLines(text, input, c, fail, locations),
    );
  },
};

/** Whether the input asks for a range of lines rather than the whole file. */
function ranged(input: ReadFileInput): boolean {
  return (input.start ?? 0) > 0 || (input.end ?? 0) > 0;
}

/** `show`'s result under `note`, the whole within `maxOutput` as it would be without the note. */
function withNote(
  note: string,
  ctx: ToolContext,
  show: (ctx: ToolContext) => ToolResult,
): ToolResult {
  const maxOutput = Math.max(0, ctx.config.maxOutput - note.length - 1);
  const result = show({ ...ctx, config: { ...ctx.config, maxOutput } });
  return { ...result, output: `${note}\n${result.output}` };
}

// ---------------------------------------------------------------------------------------------
// A range of a file above the read limit, streamed.

/**
 * A range of the lines of a regular file above {@linkcode READ_LIMIT}, read chunk by chunk up to
 * the range's end with at most `4 × maxOutput` bytes kept; undefined when the file is not that
 * large (or the file system cannot stream it), so that the whole-file path answers.
 */
async function readLargeRange(
  input: ReadFileInput,
  ctx: ToolContext,
  fail: (output: string) => ToolResult,
  locations: string[],
): Promise<ToolResult | undefined> {
  const { path } = input;
  const start = input.start ?? 0;
  const end = input.end ?? 0;
  if (start < 0 || end < 0 || (end !== 0 && end < start)) return undefined;
  if (ctx.fs.readChunks === undefined) return undefined;
  let size: number;
  let got: StreamedLines;
  try {
    const info = await ctx.fs.stat(path);
    if (info === undefined) return fail(missingText(path));
    if (info.isDirectory) return fail(directoryText(path, ctx.config.bashTool));
    if (info.special) return fail(notAFileText(path, info.special));
    if (info.size <= READ_LIMIT) return undefined;
    size = info.size;
    const cap = 4 * (ctx.config.maxOutput + 1);
    got = await streamLines(ctx.fs.readChunks(path), Math.max(start, 1), end || Infinity, cap);
  } catch (err) {
    if (err instanceof NotAFileError) return fail(notAFileText(path, err.kind));
    return fail(readErrorText(path, errorReason(err), ctx.config.bashTool));
  }
  // Lines of two bytes per character cannot be cut at a newline byte: such a file is read whole.
  if (
    got.head[0] === 0xff && got.head[1] === 0xfe || got.head[0] === 0xfe && got.head[1] === 0xff
  ) {
    return fail(largeUtf16Text(path, size));
  }
  if (got.total !== undefined && start > got.total) {
    return fail(pastEndText(start, path, got.total));
  }
  if (got.lines.some((l) => l.includes(0))) return fail(binaryText(path, size));
  const first = Math.max(start, 1);
  if (
    first === 1 && got.lines.length && got.head[0] === 0xef && got.head[1] === 0xbb &&
    got.head[2] === 0xbf
  ) {
    got.lines[0] = got.lines[0].subarray(3);
  }
  const utf8 = decodeLines(got, "utf-8");
  if (utf8 !== undefined) return showStreamed(got, utf8, input, ctx, locations);
  const lines = decodeLines(got, "windows-1252") ?? [];
  return withNote(
    encodingNote(path, "windows-1252", false),
    ctx,
    (c) => showStreamed(got, lines, input, c, locations),
  );
}

/** The kept lines decoded (strict UTF-8: undefined when one is not), the cut one cut cleanly. */
function decodeLines(got: StreamedLines, encoding: "utf-8" | "windows-1252"): string[] | undefined {
  try {
    return got.lines.map((line, i) => {
      const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
      return decoder.decode(line, { stream: got.cut && i === got.lines.length - 1 });
    });
  } catch {
    return undefined;
  }
}

/** The streamed lines, numbered if asked, cut to `maxOutput` with a note. */
function showStreamed(
  got: StreamedLines,
  lines: string[],
  input: ReadFileInput,
  ctx: ToolContext,
  locations: string[],
): ToolResult {
  const first = Math.max(input.start ?? 0, 1);
  const last = first + lines.length - 1;
  const width = String(last).length;
  const pieces = lines.map((l, i) => input.numbered ? numberLine(first + i, width, l) : l);
  const endShown = !got.cut && got.total !== undefined && last === got.total;
  const tail = endShown && got.finalNewline ? "\n" : "";
  const max = ctx.config.maxOutput;
  const whole = pieces.join("\n");
  if (!got.cut && whole.length <= max) return { output: whole + tail, locations };

  const reserve = 1 + Math.max(
    (got.total === undefined ? streamedNote(last, last) : truncatedNote(last, last, got.total))
      .length,
    streamedLongLineNote(last, max).length,
  );
  const budget = Math.max(0, max - reserve);
  let kept = 0;
  let length = 0;
  const whole_ = got.cut ? pieces.length - 1 : pieces.length;
  while (kept < whole_ && length + (kept > 0 ? 1 : 0) + pieces[kept].length <= budget) {
    length += (kept > 0 ? 1 : 0) + pieces[kept].length;
    kept++;
  }
  if (kept > 0) {
    const out = pieces.slice(0, kept).join("\n");
    const shownTo = first + kept - 1;
    const note = got.total === undefined
      ? streamedNote(first, shownTo)
      : truncatedNote(first, shownTo, got.total);
    return { output: `${out}\n${note}`, locations };
  }
  let head = pieces[0].slice(0, budget);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  const prefix = pieces[0].length - lines[0].length;
  const note = streamedLongLineNote(first, Math.max(0, head.length - prefix));
  return { output: `${redactCutEnd(head)}\n${note}`, locations };
}

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
  return { output: `${redactCutEnd(head)}\n${note}`, locations };
}
