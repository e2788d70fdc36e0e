/**
 * The folders a working directory's instructions and skills come from: the git root above it and
 * the folders between, and the user's folder of mm (`$XDG_CONFIG_HOME/mm`, else `~/.config/mm`).
 */

import { dirname, join } from "node:path";
import { userFile } from "./config/find.ts";
import { existsSync as present } from "./files.ts";

/** The git root of `cwd` (the nearest folder up with a `.git`), or undefined outside a repository. */
export function gitRoot(cwd: string): string | undefined {
  for (let dir = cwd;; dir = dirname(dir)) {
    if (present(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folders from the git root of `cwd` down to `cwd`, root first; `cwd` alone outside git. */
export function projectFolders(cwd: string): string[] {
  const root = gitRoot(cwd) ?? cwd;
  const folders = [cwd];
  for (let dir = cwd; dir !== root && dirname(dir) !== dir;) {
    dir = dirname(dir);
    folders.unshift(dir);
  }
  return folders;
}

/** The user's folder of mm (`$XDG_CONFIG_HOME/mm`, else `~/.config/mm`), when there is a home. */
export function userFolder(env: Record<string, string | undefined>): string | undefined {
  const file = userFile(env, env.HOME);
  return file === undefined ? undefined : dirname(file);
}
