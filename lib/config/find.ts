/** Where the agent file is looked for (mm.md §2): `-c`, `$MM_CONFIG`, then the usual places. */

import { isAbsolute, join, resolve } from "node:path";
import { ConfigError, errorMessage } from "./errors.ts";

/** Where to look for the agent file, and the environment to read `$MM_CONFIG` and the rest from. */
export interface FindOptions {
  /** The value of `-c/--config`, if given. */
  flag?: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The home directory; defaults to `$HOME`, then `$USERPROFILE`. */
  home?: string;
}

/** The agent file to use, first match wins (mm.md §2), as an absolute path; undefined for none. */
export function findConfigFile(opts: FindOptions): string | undefined {
  const home = opts.home ?? (opts.env.HOME || opts.env.USERPROFILE || undefined);
  if (opts.flag !== undefined) return named(opts.flag, "-c", "-c", opts.cwd, home);
  const fromEnv = opts.env.MM_CONFIG;
  if (fromEnv) return named(fromEnv, "$MM_CONFIG", "MM_CONFIG", opts.cwd, home);
  const candidates = [join(opts.cwd, "mm.yaml"), join(opts.cwd, ".mm", "mm.yaml")];
  const xdg = opts.env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) candidates.push(join(xdg, "mm", "mm.yaml"));
  else if (home) candidates.push(join(home, ".config", "mm", "mm.yaml"));
  return candidates.find(isFile);
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
