/**
 * Where session files live (docs/sessions.md): by default in the user's state folder, one folder
 * per project (`$XDG_STATE_HOME/mm/sessions/<key>`, else `~/.local/state/mm/sessions/<key>`), so
 * that saving every conversation litters no repository; `sessions.dir` of an agent file instead
 * when it sets one. Sessions of earlier versions, in the project's `.mm/sessions`, are still found.
 */

import { createHash } from "node:crypto";
import { isAbsolute, join, resolve } from "node:path";

/** The `sessions.dir` of the defaults: "" stands for the state folder of the project. */
export const DEFAULT_SESSIONS_DIR = "";

/** Where mm kept sessions before they moved to the state folder, relative to the project. */
export const LEGACY_SESSIONS_DIR = ".mm/sessions";

/** The environment a folder is found from. */
export type DirEnv = Record<string, string | undefined>;

/** mm's environment, or an empty one without the env permission. */
function ownEnv(): DirEnv {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/**
 * The user's state folder (`$XDG_STATE_HOME`, else `$HOME/.local/state`); undefined when neither
 * is set (a relative `XDG_STATE_HOME` is ignored, as the XDG spec says).
 */
export function stateHome(env: DirEnv = ownEnv()): string | undefined {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return xdg;
  return env.HOME ? join(env.HOME, ".local", "state") : undefined;
}

/**
 * The key of a project's folder: a readable slug of its path (its last 48 characters) and a short
 * hash of the whole path (`home-ann-src-mm-3f9a1c2e`), so two paths never share a folder.
 */
export function projectKey(path: string): string {
  const hash = createHash("sha256").update(path).digest("hex").slice(0, 8);
  const slug = path.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "").slice(-48)
    .replace(/^[-.]+/, "");
  return slug ? `${slug}-${hash}` : hash;
}

/** The default sessions folder of the project at `cwd`; undefined without a state folder. */
export function defaultSessionsDir(cwd: string, env: DirEnv = ownEnv()): string | undefined {
  const home = stateHome(env);
  return home === undefined ? undefined : join(home, "mm", "sessions", projectKey(cwd));
}

/**
 * The folder new sessions of `cwd` are written to: `dir` (the agent file's `sessions.dir`) resolved
 * against `cwd`, or the project's state folder when it is the default; the project's old
 * `.mm/sessions` when there is no state folder at all (it is then only read: see `openSession`).
 */
export function sessionsDir(cwd: string, dir: string, env: DirEnv = ownEnv()): string {
  if (dir !== DEFAULT_SESSIONS_DIR) return resolve(cwd, dir);
  return defaultSessionsDir(cwd, env) ?? resolve(cwd, LEGACY_SESSIONS_DIR);
}

/**
 * Every folder sessions of `cwd` are looked for in, the one written to first: with the default
 * `sessions.dir`, the project's `.mm/sessions` too (sessions saved by earlier versions).
 */
export function sessionDirs(cwd: string, dir: string, env: DirEnv = ownEnv()): string[] {
  const main = sessionsDir(cwd, dir, env);
  if (dir !== DEFAULT_SESSIONS_DIR) return [main];
  const legacy = resolve(cwd, LEGACY_SESSIONS_DIR);
  return legacy === main ? [main] : [main, legacy];
}
