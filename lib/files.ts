/** The real file system behind `ToolContext.fs`: paths resolved against a working directory. */

import { basename, dirname, join, resolve } from "node:path";
import type { FileInfo, Files } from "./tool.ts";

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

/** A failure in a few plain words (`permission denied`), for the texts tools return. */
export function errorReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code in REASONS) return REASONS[code];
  if (err instanceof Deno.errors.NotFound) return REASONS.ENOENT;
  if (err instanceof Deno.errors.PermissionDenied) return REASONS.EACCES;
  if (err instanceof Deno.errors.NotCapable) return "not allowed by mm's permissions";
  if (err instanceof Deno.errors.IsADirectory) return REASONS.EISDIR;
  if (err instanceof Deno.errors.NotADirectory) return REASONS.ENOTDIR;
  if (err instanceof Deno.errors.AlreadyExists) return REASONS.EEXIST;
  return err instanceof Error ? err.message : String(err);
}

/** Whether `err` says that nothing is at a path (missing, or a file where a directory should be). */
function isMissing(err: unknown): boolean {
  return err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory;
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
        return { isFile: info.isFile, isDirectory: info.isDirectory, size: info.size };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async read(path: string): Promise<Uint8Array | undefined> {
      try {
        return await Deno.readFile(abs(path));
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
        mode = (await Deno.stat(target)).mode ?? undefined;
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
      const suffix = crypto.randomUUID().slice(0, 8);
      const temp = join(dir, `.${basename(target)}.mm-${suffix}.tmp`);
      try {
        await Deno.writeFile(temp, data, { createNew: true });
        if (mode !== undefined) await Deno.chmod(temp, mode & 0o7777);
        await Deno.rename(temp, target);
      } catch (err) {
        await Deno.remove(temp).catch(() => {});
        throw err;
      }
    },
  };
}
