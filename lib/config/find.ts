/**
 * Where the agent files are (mm.md §2): the user's, the project's, and the one named by `-c` or
 * `$MM_CONFIG`. They layer, each over the one before (layers.ts); none of them is required.
 */

import { isAbsolute, join, resolve } from "node:path";
import { ConfigError, errorMessage } from "./errors.ts";

/** Where to look for the agent files, and the environment to read `$MM_CONFIG` and the rest from. */
export interface FindOptions {
  /** The value of `-c/--config`, if given. */
  flag?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * Where a relative `-c` or `$MM_CONFIG` path starts; defaults to `cwd` (editor mode: the folder
   * mm was started in, whatever the session's folder).
   */
  base?: string;
  /** The home directory; defaults to `$HOME`, then `$USERPROFILE`. */
  home?: string;
}

/** Which layer a file is: the user's, the project's, or the one the user named (`-c`, `$MM_CONFIG`). */
export type LayerRole = "user" | "project" | "named";

/** One agent file found, with its layer. */
export interface FoundFile {
  file: string;
  role: LayerRole;
}

/**
 * The agent files of a run, in layer order (the user's, the project's, the named one), as absolute
 * paths; a layer without a file is left out. A named file that is also the project's file is the
 * named layer only (read once, and trusted: the user chose it).
 */
export function findAgentFiles(opts: FindOptions): FoundFile[] {
  const home = opts.home ?? (opts.env.HOME || opts.env.USERPROFILE || undefined);
  const found: FoundFile[] = [];
  const user = userFile(opts.env, home);
  if (user !== undefined && isFile(user)) found.push({ file: user, role: "user" });
  const project = projectFile(opts.cwd);
  const named = namedFile(opts, home);
  if (project !== undefined && project !== named && project !== user) {
    found.push({ file: project, role: "project" });
  }
  if (named !== undefined) {
    const i = found.findIndex((f) => f.file === named);
    if (i >= 0) found.splice(i, 1);
    found.push({ file: named, role: "named" });
  }
  return found;
}

/** The user's agent file: `$XDG_CONFIG_HOME/mm/mm.yaml` (an absolute one), else `~/.config/mm/mm.yaml`. */
export function userFile(
  env: Record<string, string | undefined>,
  home: string | undefined,
): string | undefined {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "mm", "mm.yaml");
  return home ? join(home, ".config", "mm", "mm.yaml") : undefined;
}

/** The project's agent file of `cwd`: `./.mm/mm.yaml`, else `./mm.yaml`; undefined for none. */
export function projectFile(cwd: string): string | undefined {
  return [join(cwd, ".mm", "mm.yaml"), join(cwd, "mm.yaml")].find(isFile);
}

/** The file of `-c`, else of `$MM_CONFIG` (an empty one is unset); it must exist. */
function namedFile(opts: FindOptions, home: string | undefined): string | undefined {
  if (opts.flag !== undefined) return named(opts.flag, "-c", "-c", opts.base ?? opts.cwd, home);
  const fromEnv = opts.env.MM_CONFIG;
  if (fromEnv) return named(fromEnv, "$MM_CONFIG", "MM_CONFIG", opts.base ?? opts.cwd, home);
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The file named by `-c` or `$MM_CONFIG`: it must exist. */
function named(
  path: string,
  source: string,
  key: string,
  cwd: string,
  home: string | undefined,
): string {
  const expanded = home && (path === "~" || path.startsWith("~/"))
    ? join(home, path.slice(1))
    : path;
  const file = resolve(cwd, expanded);
  let stat: Deno.FileInfo;
  try {
    stat = Deno.statSync(file);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new ConfigError(file, 0, 0, key, `the agent file named by ${source} does not exist`);
    }
    throw new ConfigError(
      file,
      0,
      0,
      key,
      `the agent file named by ${source} cannot be read: ${errorMessage(err)}`,
    );
  }
  if (!stat.isFile) {
    throw new ConfigError(file, 0, 0, key, `the agent file named by ${source} is not a file`);
  }
  return file;
}
