/**
 * The texts the file tools share (tools.md, `read_file`, `write_file`, `edit_file`), the read
 * limit, and how they open a file: a regular one only, never more than the limit.
 */

import { codePoint, encodingLabel, type FileEncoding } from "../lib/encoding.ts";
import { errorReason, readOnlyReason, SYSTEM_PATH_REASON } from "../lib/files.ts";
import { NotAFileError, type SpecialFile, type ToolContext } from "../lib/tool.ts";

/** Files larger than this many bytes are refused rather than loaded. */
export const READ_LIMIT = 64 * 1024 * 1024;

/** The output for a FIFO, a socket or a device: `<path> is a named pipe, not a file`. */
export function notAFileText(path: string, kind: SpecialFile): string {
  return `${path} is a ${kind}, not a file`;
}

/**
 * The bytes of the regular file at `path`, or the refusal the model reads: nothing there, a
 * directory, a FIFO, a socket or a device (never opened: the open would wait for a writer, and a
 * device has no end), above {@linkcode READ_LIMIT} (`tooLarge` says it in the tool's words; the
 * read stops past the limit whatever size the file claims), or unreadable.
 */
export async function readFileBytes(
  path: string,
  ctx: ToolContext,
  tooLarge: (size: number) => string,
): Promise<Uint8Array | string> {
  let bytes: Uint8Array | undefined;
  let size = 0;
  try {
    const info = await ctx.fs.stat(path);
    if (info === undefined) return missingText(path);
    if (info.isDirectory) return directoryText(path, ctx.config.bashTool);
    if (info.special) return notAFileText(path, info.special);
    if (info.size > READ_LIMIT) return tooLarge(info.size);
    size = info.size;
    bytes = await ctx.fs.read(path, READ_LIMIT + 1);
  } catch (err) {
    if (err instanceof NotAFileError) return notAFileText(path, err.kind);
    return readErrorText(path, errorReason(err), ctx.config.bashTool);
  }
  if (bytes === undefined) return missingText(path);
  if (bytes.length > READ_LIMIT) return tooLarge(Math.max(size, bytes.length));
  return bytes;
}

/** The output for a path where nothing is (tools.md: `<path> does not exist. Create it with write_file`). */
export function missingText(path: string): string {
  return `${path} does not exist. Create it with write_file`;
}

/** The output for a directory; the hint depends on whether bash is declared. */
export function directoryText(path: string, bashDeclared: boolean): string {
  return bashDeclared
    ? `${path} is a directory, not a file. To see what it holds, run ls with bash.`
    : `${path} is a directory, not a file. Give the path of a file inside it.`;
}

/**
 * The output when the file cannot be read (`permission denied`); a /proc path points to bash when
 * bash is declared.
 */
export function readErrorText(path: string, reason: string, bashDeclared = false): string {
  const hint = reason === SYSTEM_PATH_REASON && bashDeclared
    ? " — read it with bash (cat, head, ls) instead"
    : "";
  return `cannot read ${path}: ${reason}${hint}`;
}

/** The output when the file already holds exactly this content. */
export function unchangedText(path: string): string {
  return `${path} already has this content — nothing was written`;
}

/** The output when the file cannot be written (`is a directory`, `permission denied`). */
export function writeErrorText(path: string, reason: string): string {
  return `cannot write ${path}: ${reason} — nothing was written`;
}

/**
 * The refusal of a file whose byte order mark announces an encoding it does not decode in (an odd
 * length, a lone surrogate): no tool reads or writes it, since either would damage it.
 */
export function undecodableText(path: string, encoding: FileEncoding, size: number): string {
  const label = encodingLabel(encoding);
  return `${path} starts with a ${label} byte order mark but is not valid ${label} text (${size} bytes): the file tools cannot read or change it without damaging it.`;
}

/**
 * The refusal of a write whose text holds a character the file's encoding has no bytes for:
 * `cannot write a.txt: it is Windows-1252 (Latin-1) text, which has no "→" (U+2192) — nothing was
 * written`, then how to go on.
 */
export function unencodableText(path: string, encoding: FileEncoding, char: string): string {
  return writeErrorText(
    path,
    `it is ${encodingLabel(encoding)} text, which has no ${JSON.stringify(char)} (${
      codePoint(char)
    })`,
  ) + `. Write that character another way (in ASCII, or as the file's format escapes it).`;
}

/**
 * The refusal of a write to a file without write permission for mm
 * (`cannot write a.txt: it is read-only (mode 0444) — nothing was written`), or undefined.
 */
export async function readOnlyRefusal(path: string, ctx: ToolContext): Promise<string | undefined> {
  const info = await ctx.fs.stat(path).catch(() => undefined);
  return info?.readOnly ? writeErrorText(path, readOnlyReason(info.mode ?? 0)) : undefined;
}
