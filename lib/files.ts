/** The real file system behind `ToolContext.fs`: paths resolved against a working directory. */

import { basename, dirname, join, resolve } from "node:path";
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
  if (err instanceof ReadOnlyError) return readOnlyReason(err.mode);
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
          ...writeBits(info),
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

    async realPath(path: string): Promise<string> {
      let head = abs(path);
      const tail: string[] = [];
      for (;;) {
        try {
          return join(await Deno.realPath(head), ...tail);
        } catch (err) {
          if (!isMissing(err) && !(err instanceof Deno.errors.NotADirectory)) return abs(path);
        }
        const up = dirname(head);
        if (up === head) return abs(path);
        tail.unshift(basename(head));
        head = up;
      }
    },

    async *readChunks(path: string): AsyncIterable<Uint8Array> {
      const target = abs(path);
      const info = await Deno.stat(target);
      const special = specialKind(info);
      if (special) throw new NotAFileError(path, special);
      if (info.isDirectory) throw new Deno.errors.IsADirectory(`Is a directory: '${target}'`);
      yield* readChunksOf(target);
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
        if (writeBits(info).readOnly) throw new ReadOnlyError(path, mode ?? 0);
        if (keepsInode(info)) return await writeInPlace(target, data, info);
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

// ---------------------------------------------------------------------------------------------
// Files as they are on disk: read-only files, hard links, owners, and reading in chunks.

/** Thrown by `writeAtomic` for a file mm has no write permission for: nothing is written. */
export class ReadOnlyError extends Error {
  /** The file's permission bits. */
  readonly mode: number;

  /** The error for `path`, whose mode is `mode`. */
  constructor(path: string, mode: number) {
    super(`${path} ${readOnlyReason(mode)}`);
    this.name = "ReadOnlyError";
    this.mode = mode;
  }
}

/** How a write refusal says a file is read-only: `it is read-only (mode 0444)`. */
export function readOnlyReason(mode: number): string {
  return `it is read-only (mode ${(mode & 0o7777).toString(8).padStart(4, "0")})`;
}

/** mm's user id, or undefined where there is none (Windows). */
function myUid(): number | undefined {
  try {
    return Deno.uid() ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A regular file's mode and whether mm may not write it: for root, no write bit at all (root may
 * write anything, but a 0444 file says it is not to be changed); for the owner, no owner write
 * bit. For anyone else the kernel decides, when the file is opened to be written in place.
 */
export function writeBits(
  info: { isFile: boolean; mode: number | null; uid: number | null },
  uid = myUid(),
): { mode?: number; readOnly?: true } {
  if (!info.isFile || info.mode === null) return {};
  const mode = info.mode & 0o7777;
  const readOnly = uid === 0
    ? (mode & 0o222) === 0
    : uid !== undefined && uid === info.uid && (mode & 0o200) === 0;
  return readOnly ? { mode, readOnly } : { mode };
}

/**
 * Whether a write must keep the file's inode, writing in place rather than renaming a new file
 * over it: the file has other hard links (a rename would split them), or another owner than mm
 * (a rename would make the file mm's).
 */
export function keepsInode(
  info: { nlink: number | null; uid: number | null },
  uid = myUid(),
): boolean {
  if ((info.nlink ?? 1) > 1) return true;
  return uid !== undefined && info.uid !== null && info.uid !== uid;
}

/** How much of a file written in place is kept to be put back when the write fails halfway. */
const IN_PLACE_BACKUP_LIMIT = 64 * 1024 * 1024;

/**
 * Writes `data` into the existing file at `target`, keeping its inode (links, owner, mode): the
 * new bytes over the old from the start, then the file cut to their length, so the file is never
 * empty on the way. When the write fails (no space left), the old bytes, read first (up to 64 MiB),
 * are put back. An open refused for permission is a {@linkcode ReadOnlyError}.
 */
export async function writeInPlace(
  target: string,
  data: Uint8Array,
  info: { mode: number | null; size: number },
): Promise<void> {
  const fs = await (nodeFs ??= import("node:fs/promises"));
  const { O_WRONLY, O_NONBLOCK } = fs.constants;
  let handle;
  try {
    handle = await fs.open(target, O_WRONLY | (O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "EACCES" || code === "EPERM" || err instanceof Deno.errors.PermissionDenied) {
      throw new ReadOnlyError(target, info.mode ?? 0);
    }
    throw err;
  }
  try {
    const old = info.size <= IN_PLACE_BACKUP_LIMIT
      ? await readRegular(target, IN_PLACE_BACKUP_LIMIT).catch(() => undefined)
      : undefined;
    try {
      await writeAllAt(handle, data);
      await handle.truncate(data.length);
    } catch (err) {
      if (old !== undefined) {
        await writeAllAt(handle, old).then(() => handle.truncate(old.length)).catch(() => {});
      }
      throw err;
    }
  } finally {
    await handle.close();
  }
}

/** Writes all of `data` at the start of the open file. */
async function writeAllAt(
  handle: {
    write(b: Uint8Array, o: number, l: number, p: number): Promise<{ bytesWritten: number }>;
  },
  data: Uint8Array,
): Promise<void> {
  let at = 0;
  while (at < data.length) {
    const { bytesWritten } = await handle.write(data, at, data.length - at, at);
    if (bytesWritten <= 0) throw new Error("the write made no progress");
    at += bytesWritten;
  }
}

/** The size of the chunks `readChunks` yields. */
const CHUNK = 1 << 20;

/** The regular file at `target` in chunks of 1 MiB (opened with O_NONBLOCK, checked once open). */
async function* readChunksOf(target: string): AsyncIterable<Uint8Array> {
  const fs = await (nodeFs ??= import("node:fs/promises"));
  const { O_RDONLY, O_NONBLOCK } = fs.constants;
  const handle = await fs.open(target, O_RDONLY | (O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotAFileError(target, "character device");
    while (true) {
      const buf = new Uint8Array(CHUNK);
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Whether something is at `path` (a file, a folder, a link even to nothing). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** {@linkcode exists}, at once. */
export function existsSync(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
