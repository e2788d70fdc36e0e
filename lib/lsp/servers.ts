/**
 * Which configured language servers can run: the ones whose command is on the PATH. The front end
 * asks once, at start-up, with its environment and directory: nothing else is read, nothing kept.
 */

import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { Config, LspServerConfig } from "../config/config.ts";
import { warningText } from "../presentation.ts";

/** The configured servers found on the PATH at start-up, and a warning for each one skipped. */
export interface AvailableServers {
  servers: LspServerConfig[];
  warnings: string[];
}

/** The start-up warning for a server whose command is not on the PATH. */
export function notFoundWarning(server: LspServerConfig): string {
  return warningText(
    `lsp server ${server.name} (${server.command}) not found on the PATH — skipped`,
  );
}

/**
 * The servers of `config` whose command is on the PATH of `env` (a command with a slash is resolved
 * against `cwd`), and the warning (`… skipped`) of each other one.
 */
export function availableLspServers(
  config: Config,
  env: Record<string, string | undefined>,
  cwd: string,
): AvailableServers {
  const servers: LspServerConfig[] = [];
  const warnings: string[] = [];
  for (const s of config.lsp.servers) {
    if (commandOnPath(s.command, env.PATH ?? env.Path ?? "", cwd, env.PATHEXT ?? "")) {
      servers.push(s);
    } else warnings.push(notFoundWarning(s));
  }
  return { servers, warnings };
}

/**
 * Whether `command` can be run: a name with a slash is resolved against `cwd`, a bare name is looked
 * up in `path` (the `PATH` variable's value). On Windows the `PATHEXT` extensions are tried too.
 */
export function commandOnPath(
  command: string,
  path: string,
  cwd: string,
  pathext = "",
): boolean {
  if (command === "") return false;
  const exts = Deno.build.os === "windows" ? ["", ...pathext.split(";").filter((e) => e)] : [""];
  const candidates =
    command.includes("/") || (Deno.build.os === "windows" && command.includes("\\"))
      ? [resolve(cwd, command)]
      : path.split(delimiter).filter((d) => d !== "").map((d) =>
        isAbsolute(d) ? join(d, command) : resolve(cwd, d, command)
      );
  return candidates.some((c) => exts.some((e) => isExecutable(c + e)));
}

/** Whether `file` is a file with an execute bit (Deno's stat: no `sys` permission, no node:fs). */
function isExecutable(file: string): boolean {
  try {
    const info = Deno.statSync(file);
    if (!info.isFile) return false;
    return Deno.build.os === "windows" || info.mode === null || (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
