/**
 * The environment of a stdio MCP server: a minimal one taken from mm's (what programs need to
 * run and find their files), then the server's own `env` — never the rest of mm's environment,
 * so no secret of mm's (`MM_API_KEY`, a provider's key, a token) reaches a third-party server.
 */

import { isSecret } from "../child_env.ts";
import { addSecret, isSecretParameter } from "../secrets.ts";

/** The variables a server inherits from mm on Linux and macOS (as Codex passes them). */
export const INHERITED_UNIX = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "USER",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TERM",
  "TMPDIR",
  "TZ",
] as const;

/** The variables a server inherits from mm on Windows. */
export const INHERITED_WINDOWS = [
  "APPDATA",
  "COMSPEC",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATH",
  "PATHEXT",
  "PROCESSOR_ARCHITECTURE",
  "PROGRAMDATA",
  "PROGRAMFILES",
  "PROGRAMFILES(X86)",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
  "USERNAME",
  "USERPROFILE",
  "WINDIR",
] as const;

/**
 * The environment of a server: the inherited variables of `mm` that are set (a value starting
 * with `()`, an exported bash function, is left out, and so is one of mm's secrets:
 * lib/child_env.ts), then `own` over them — the user's, given on purpose.
 */
export function serverEnv(
  mm: Record<string, string>,
  own: Record<string, string>,
  os: typeof Deno.build.os = Deno.build.os,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of os === "windows" ? INHERITED_WINDOWS : INHERITED_UNIX) {
    const value = mm[name];
    if (value !== undefined && !value.startsWith("()") && !isSecret(name, value)) {
      env[name] = value;
    }
  }
  return { ...env, ...own };
}

/**
 * Marks the secrets of an MCP server's settings as mm's (lib/secrets.ts), so that no output the
 * model reads and no record holds them: the value of every `env` variable and `headers` header
 * whose name says it is one (`GITHUB_TOKEN`, `API_KEY`, `Authorization`, `Cookie`), and a
 * credential's part after its scheme (`Bearer <token>`).
 */
export function addServerSecrets(
  server: { env?: Record<string, string>; headers?: Record<string, string> },
): void {
  for (const [name, value] of Object.entries({ ...server.env, ...server.headers })) {
    if (!isSecretParameter(name) && !/cookie/i.test(name)) continue;
    addSecret(value);
    const scheme = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value.trim());
    if (scheme) addSecret(scheme[1]);
  }
}
