/**
 * A real, tiny file system that fills up: a tmpfs mounted for a test (root only). Tests that need
 * one are ignored, and say so, where mounting is not possible (not root, no tmpfs, a container
 * that forbids mount).
 */

/** Why a tmpfs cannot be mounted here, or undefined when it can (tried once, at load). */
export const NO_TMPFS: string | undefined = await probe();

async function probe(): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return "tmpfs tests run on Linux only";
  if (Deno.uid() !== 0) return "mounting a tmpfs needs root";
  const dir = await Deno.makeTempDir({ prefix: "mm-tmpfs-probe-" });
  try {
    const mounted = await mount(dir, 64 * 1024);
    if (!mounted) return "mount -t tmpfs failed";
    await unmount(dir);
    return undefined;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function mount(dir: string, bytes: number): Promise<boolean> {
  const out = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${bytes}`, "tmpfs", dir],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  return out?.success ?? false;
}

async function unmount(dir: string): Promise<void> {
  await new Deno.Command("umount", { args: [dir], stdout: "null", stderr: "null" }).output();
}

/** A mounted tmpfs. */
export interface Tmpfs {
  /** Where it is mounted. */
  dir: string;
  /**
   * Fills it up to `leave` bytes free (rounded to pages) with one file, `.filler`; returns its
   * path. Removing it frees the space.
   */
  fill(leave?: number): Promise<string>;
  /** Unmounts it and removes the mount point. */
  close(): Promise<void>;
}

/** Mounts a tmpfs of `bytes` on a new directory (check {@linkcode NO_TMPFS} first). */
export async function mountTmpfs(bytes: number): Promise<Tmpfs> {
  const dir = await Deno.makeTempDir({ prefix: "mm-tmpfs-" });
  if (!await mount(dir, bytes)) throw new Error(`mount -t tmpfs on ${dir} failed`);
  return {
    dir,
    async fill(leave = 0) {
      // A reserve file holds what is to stay free while the filler takes the rest.
      const reserve = `${dir}/.reserve`;
      if (leave > 0) await Deno.writeFile(reserve, new Uint8Array(leave));
      const filler = `${dir}/.filler`;
      const file = await Deno.open(filler, { write: true, create: true, append: true });
      const chunk = new Uint8Array(4096);
      try {
        for (;;) await file.write(chunk);
      } catch (err) {
        if ((err as { code?: string }).code !== "ENOSPC") throw err;
      } finally {
        file.close();
      }
      if (leave > 0) await Deno.remove(reserve);
      return filler;
    },
    async close() {
      await unmount(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The names in `dir` that are temporary files of an atomic write (lib/atomic.ts). */
export async function tempFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".tmp")) out.push(e.name);
  return out;
}
