/** The real file system behind `ToolContext.fs`: paths resolved against a working directory. */

import { dirname, resolve } from "node:path";
import { writeAtomic } from "./atomic.ts";
import { type FileInfo, type Files, NotAFileError, type SpecialFile } from "./tool.ts";

const REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a directory",
  ENOTDIR: "not a directory",
  EEXIST: "file exists",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EBUSY: "device or resource busy",
  EXDEV: "invalid cross-device link",
};

/** Why a path under /proc, /dev or /sys cannot be opened by mm itself. */
export const SYSTEM_PATH_REASON = "mm's runtime does not open /proc, /dev or /sys paths itself";

/** A failure in a few plain words (`permission denied`), for the texts tools return. */
export function errorReason(err: unknown): string {
  if (err instanceof NotAFileError) return `it is a ${err.kind}, not a file`;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code in REASONS) return REASONS[code];
  if (err instanceof Deno.errors.NotFound) return REASONS.ENOENT;
  if (err instanceof Deno.errors.PermissionDenied) return REASONS.EACCES;
  if (err instanceof Deno.errors.NotCapable) {
    // Deno opens /proc, /dev and /sys only with --allow-all, which mm never runs with.
    if (/all access to "\/(proc|dev|sys)\b/.test(err.message)) return SYSTEM_PATH_REASON;
    return "not allowed by mm's permissions";
  }
  if (err instanceof Deno.errors.IsADirectory) return REASONS.EISDIR;
  if (err instanceof Deno.errors.NotADirectory) return REASONS.ENOTDIR;
  if (err instanceof Deno.errors.AlreadyExists) return REASONS.EEXIST;
  return err instanceof Error ? err.message : String(err);
}

/** Whether `err` says that nothing is at a path (missing, or a file where a directory should be). */
function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory ||
    code === "ENOENT" || code === "ENOTDIR";
}

/** What a path that is neither a file nor a directory is, from its metadata. */
export function specialKind(info: {
  isFifo?: boolean | null;
  isSocket?: boolean | null;
  isCharDevice?: boolean | null;
  isBlockDevice?: boolean | null;
}): SpecialFile | undefined {
  if (info.isFifo) return "named pipe";
  if (info.isSocket) return "socket";
  if (info.isCharDevice) return "character device";
  if (info.isBlockDevice) return "block device";
  return undefined;
}

/** node:fs/promises, loaded on the first read (its O_NONBLOCK is what Deno.open cannot give). */
let nodeFs: Promise<typeof import("node:fs/promises")> | undefined;

/**
 * Up to `limit` bytes of the regular file at `abs`. It is opened with O_NONBLOCK, so that a named
 * pipe put there since it was checked cannot block the open, and checked again once open.
 */
async function readRegular(abs: string, limit: number): Promise<Uint8Array> {
  const fs = await (nodeFs ??= import("node:fs/promises"));
  const { O_RDONLY, O_NONBLOCK } = fs.constants;
  const handle = await fs.open(abs, O_RDONLY | (O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new Deno.errors.IsADirectory(`Is a directory: '${abs}'`);
    if (!info.isFile()) {
      throw new NotAFileError(
        abs,
        specialKind({
          isFifo: info.isFIFO(),
          isSocket: info.isSocket(),
          isCharDevice: info.isCharacterDevice(),
          isBlockDevice: info.isBlockDevice(),
        }) ?? "character device",
      );
    }
    // The size is a hint, never a bound: a file may grow while it is read.
    const chunks: Uint8Array[] = [];
    let total = 0;
    let size = Math.min(Math.max(info.size, 0) + 1, limit, 1 << 20) || 1;
    while (total < limit) {
      const buf = new Uint8Array(Math.min(size, limit - total));
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      size = Math.min(size * 2, 16 << 20);
    }
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  } finally {
    await handle.close();
  }
}

/**
 * The real file system. `stat` and `read` follow symbolic links; `writeAtomic` writes through a
 * link to its target (the link stays a link), keeps an existing file's permission bits, and
 * leaves no temporary file behind when it fails.
 */
export function realFiles(cwd: string): Files {
  const abs = (path: string) => resolve(cwd, path);
  return {
    resolve: abs,

    async stat(path: string): Promise<FileInfo | undefined> {
      try {
        const info = await Deno.stat(abs(path));
        const special = specialKind(info);
        return {
          isFile: info.isFile,
          isDirectory: info.isDirectory,
          ...(special ? { special } : {}),
          size: info.size,
        };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async read(path: string, limit = Infinity): Promise<Uint8Array | undefined> {
      const target = abs(path);
      try {
        const info = await Deno.stat(target);
        const special = specialKind(info);
        if (special) throw new NotAFileError(path, special);
        if (info.isDirectory) throw new Deno.errors.IsADirectory(`Is a directory: '${target}'`);
        return await readRegular(target, limit);
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async writeAtomic(path: string, data: Uint8Array): Promise<void> {
      let target = abs(path);
      let mode: number | undefined;
      try {
        target = await Deno.realPath(target);
        const info = await Deno.stat(target);
        const special = specialKind(info);
        if (special) throw new NotAFileError(path, special);
        mode = info.mode ?? undefined;
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      const dir = dirname(target);
      try {
        await Deno.mkdir(dir, { recursive: true });
      } catch (err) {
        // mkdir -p says "file exists" when a parent is a file: say what it means.
        if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
        throw new Deno.errors.NotADirectory(`a parent of ${target} is not a directory`);
      }
      await writeAtomic(target, data, mode === undefined ? {} : { mode });
    },
  };
}
