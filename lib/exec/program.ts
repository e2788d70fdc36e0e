/** Whether a program can be started: found on the PATH (or by its path), executable, in a directory that exists. */

import { delimiter, isAbsolute, join, resolve } from "node:path";
import { errorReason } from "../files.ts";

/** The reason when a bare program name is on no directory of PATH (as Go's os/exec says it). */
export const NOT_IN_PATH = "executable file not found in $PATH";

/**
 * Why `argv` cannot be started from `cwd`, or undefined when it can: checked before spawning,
 * because the wrapper's exit code 127 (or `setsid`'s) cannot tell "no such program" from a program
 * (a shell) that itself exits with 127.
 */
export async function startProblem(argv: string[], cwd: string): Promise<string | undefined> {
  if (argv.length === 0 || argv[0] === "") return "empty command";
  const info = await Deno.stat(cwd).catch(() => undefined);
  if (!info?.isDirectory) return `working directory ${cwd} does not exist`;
  const program = argv[0];
  if (program.includes("/")) return await executableProblem(resolve(cwd, program));
  let path = "";
  try {
    path = Deno.env.get("PATH") ?? "";
  } catch {
    // no env permission: only paths with a slash can be found
  }
  for (const dir of path.split(delimiter)) {
    const candidate = isAbsolute(dir) ? join(dir, program) : resolve(cwd, dir, program);
    if (await executableProblem(candidate) === undefined) return undefined;
  }
  return NOT_IN_PATH;
}

/**
 * Why the file at `path` cannot be executed, or undefined when it can. Deno's own stat is used (not
 * node:fs `access`, which needs the `sys` permission): a file with no execute bit is refused.
 */
async function executableProblem(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (info.isDirectory) return "is a directory";
    if (info.mode !== null && (info.mode & 0o111) === 0) return "permission denied";
    return undefined;
  } catch (err) {
    return errorReason(err);
  }
}
