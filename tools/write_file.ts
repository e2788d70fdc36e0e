/** write_file: a whole file's content, written atomically, reported as a diff (tools.md, `write_file`). */

import { decodeFile, encodeText, type FileEncoding } from "../lib/encoding.ts";
import { errorReason, readOnlyReason } from "../lib/files.ts";
import { countLines, truncateMiddle } from "../lib/text.ts";
import { NotAFileError, type Tool, type ToolResult } from "../lib/tool.ts";
import { DIFF_TOO_SLOW, lineDiff } from "../lib/diff.ts";
import {
  notAFileText,
  READ_LIMIT,
  unchangedText,
  unencodableText,
  writeErrorText,
} from "./_files.ts";

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
  return `wrote ${path}: replaced ${binaryFile(size)} with ${lines(lineCount)}`;
}

/** The headline of a replaced file above the read limit, shown without a diff. */
export function replacedLargeText(path: string, lineCount: number): string {
  return `wrote ${path}: replaced ${LARGE_FILE} with ${lines(lineCount)}`;
}

/** A binary file that a write replaces: `a binary file of 3000 bytes`. */
function binaryFile(size: number): string {
  return `a binary file of ${size} bytes`;
}

/** A file above the read limit that a write replaces. */
const LARGE_FILE = "a file of more than 64 MiB";

/** `1 line`, `3 lines`. */
function lines(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

/** write_file: replaces or creates a file through `ctx.fs.writeAtomic`. */
export const writeFile: Tool<WriteFileInput> = {
  name: "write_file",
  kind: "edit",
  emoji: "📝",
  asks: true,
  touches: (input) => [input.path],
  previewsChange: true,
  counter: "fileOps",
  declared: (config) => config.editTools,
  description: WRITE_FILE_DESCRIPTION,
  parameters: {
    path: {
      type: "string",
      description: PATH_DESCRIPTION,
      aliases: ["file", "file_path"],
      path: true,
    },
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
    let old: Uint8Array | undefined;
    try {
      const info = await ctx.fs.stat(path);
      if (info?.isDirectory) return fail("it is a directory");
      if (info?.special) {
        return { output: notAFileText(path, info.special), failed: true, locations };
      }
      if (info?.readOnly) return fail(readOnlyReason(info.mode ?? 0));
      if (info !== undefined) old = await ctx.fs.read(path, READ_LIMIT + 1);
    } catch (err) {
      if (err instanceof NotAFileError) {
        return { output: notAFileText(path, err.kind), failed: true, locations };
      }
      return fail(errorReason(err));
    }
    const kept = keptEncoding(old);
    const data = encodeText(
      kept?.bom ? `\uFEFF${content.replace(/^\uFEFF/, "")}` : content,
      kept?.encoding ?? "utf-8",
    );
    if (!(data instanceof Uint8Array)) {
      return {
        output: unencodableText(path, kept?.encoding ?? "utf-8", data.char),
        failed: true,
        locations,
      };
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
    if (old.length > READ_LIMIT) {
      return {
        output: truncateMiddle(replacedLargeText(path, newLines), max),
        diff: { path: abs, newText: content, replaces: LARGE_FILE },
        locations,
      };
    }
    if (kept !== undefined) {
      // The file's own encoding, kept: its byte order mark is not part of the change.
      return replacedText(path, abs, kept.text, content, max);
    }
    if (decodeFile(old).kind !== "text") {
      return {
        output: truncateMiddle(replacedBinaryText(path, old.length, newLines), max),
        diff: { path: abs, newText: content, replaces: binaryFile(old.length) },
        locations,
      };
    }
    // ignoreBOM keeps a byte order mark in the old text, so that dropping it shows in the diff.
    const oldText = new TextDecoder("utf-8", { ignoreBOM: true }).decode(old);
    return replacedText(path, abs, oldText, content, max);
  },
};

/**
 * The encoding of an existing file that is not UTF-8 (Windows-1252, UTF-16 with a BOM): the file
 * keeps it, and `text` is its old content without the BOM. Undefined for UTF-8, binary or new.
 */
function keptEncoding(
  old: Uint8Array | undefined,
): { encoding: FileEncoding; bom: boolean; text: string } | undefined {
  if (old === undefined || old.length > READ_LIMIT) return undefined;
  const decoded = decodeFile(old);
  if (decoded.kind !== "text" || decoded.encoding === "utf-8") return undefined;
  const text = decoded.bom ? decoded.text.slice(1) : decoded.text;
  return { encoding: decoded.encoding, bom: decoded.bom, text };
}

/** The result of replacing `oldText` with `content`: the headline and the diff. */
function replacedText(
  path: string,
  abs: string,
  oldText: string,
  content: string,
  max: number,
): ToolResult {
  const diff = lineDiff(oldText, content);
  const headline = diff
    ? wroteText(path, diff.added, diff.deleted)
    : wroteText(path, countLines(content), countLines(oldText));
  const body = diff ? diff.hunks : DIFF_TOO_SLOW;
  return {
    output: truncateMiddle(body === "" ? headline : `${headline}\n${body}`, max),
    diff: { path: abs, oldText, newText: content },
    locations: [abs],
  };
}

/** Whether two byte arrays hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
