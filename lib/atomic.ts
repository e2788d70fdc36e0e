/**
 * Writing a file whole or not at all: through a temporary file beside it and a rename, so that a
 * crash never leaves half a file, and a failure (a full disk, a quota, a permission) never leaves
 * the temporary file behind either. Every atomic write of mm goes through here: the tools' files
 * (lib/files.ts), the session files (lib/session/store.ts), and any record mm keeps.
 */

import { basename, dirname, join } from "node:path";

/** How {@linkcode writeAtomic} writes. */
export interface AtomicOptions {
  /** Permission bits of the new file (an existing file's, to keep them); unset: the default. */
  mode?: number;
}

/** The temporary file of a write to `path`: hidden, in the same directory, never an existing name. */
export function tempPathFor(path: string): string {
  const suffix = crypto.randomUUID().slice(0, 8);
  return join(dirname(path), `.${basename(path)}.mm-${suffix}.tmp`);
}

/** Whether `name` (a file name, not a path) is one of {@linkcode tempPathFor}'s temporary files. */
export function isTempName(name: string): boolean {
  return /^\..+\.mm-[0-9a-f]{8}\.tmp$/.test(name);
}

/**
 * Writes `data` to `path` through a temporary file in the same directory and a rename; the
 * directory must exist. On any failure the temporary file is removed before the error is thrown.
 */
export async function writeAtomic(
  path: string,
  data: Uint8Array | string,
  options: AtomicOptions = {},
): Promise<void> {
  const temp = tempPathFor(path);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  try {
    await Deno.writeFile(temp, bytes, { createNew: true });
  } catch (err) {
    // A full disk leaves the part written, holding the last free space; a name already there
    // (never one of ours: the name is random) is not ours to remove.
    if (!(err instanceof Deno.errors.AlreadyExists)) await Deno.remove(temp).catch(() => {});
    throw err;
  }
  try {
    if (options.mode !== undefined) await Deno.chmod(temp, options.mode & 0o7777);
    await Deno.rename(temp, path);
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
}
