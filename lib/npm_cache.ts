/**
 * npm packages mm loads lazily, fetched quietly ahead of their first use. Deno prints a coloured
 * `Download https://registry.npmjs.org/…` line on stderr for every package it fetches the first
 * time a dynamic `import("npm:…")` runs, unless the process was started with `--quiet`, and a
 * running process cannot turn that off: the lines land in the middle of mm's own output (`mm
 * doctor`'s report). So when mm runs from source (`deno run`) and a package is not in Deno's cache
 * yet, `deno cache --quiet` fetches it in a child process, announced by one line of mm's own; the
 * import that follows finds it cached. A compiled mm holds its packages and never fetches.
 */

import { basename, join } from "node:path";
import { spawnProcess } from "./exec/spawn.ts";

/** `npm:@scope/name@1.2.3/sub` → its name and version; undefined for another specifier. */
export function npmPackage(specifier: string): { name: string; version: string } | undefined {
  const m = /^npm:(@[^/@]+\/[^/@]+|[^/@]+)@([^/]+)/.exec(specifier);
  return m ? { name: m[1], version: m[2] } : undefined;
}

/** Deno's cache directory, as Deno finds it: `DENO_DIR`, else the system's cache folder. */
export function denoDir(env: Record<string, string | undefined>, os = Deno.build.os): string {
  if (env.DENO_DIR) return env.DENO_DIR;
  if (os === "windows") return join(env.LOCALAPPDATA ?? "", "deno");
  if (os === "darwin") return join(env.HOME ?? "", "Library", "Caches", "deno");
  return join(env.XDG_CACHE_HOME || join(env.HOME ?? "", ".cache"), "deno");
}

/** Where Deno keeps `specifier`'s package (a registry's host, the name, the version). */
export function npmCachePath(specifier: string, env: Record<string, string | undefined>): string {
  const pkg = npmPackage(specifier);
  if (!pkg) throw new Error(`${specifier} is not an npm: specifier`);
  let host = "registry.npmjs.org";
  try {
    // Deno's folder of a registry with a port is `host_port`; a wrong guess costs a quick
    // `deno cache` that finds everything there.
    const url = env.NPM_CONFIG_REGISTRY ? new URL(env.NPM_CONFIG_REGISTRY) : undefined;
    if (url) host = url.port ? `${url.hostname}_${url.port}` : url.hostname;
  } catch {
    // A registry that is no URL: Deno refuses it itself.
  }
  return join(denoDir(env), "npm", host, ...pkg.name.split("/"), pkg.version);
}

/** Whether this mm runs from source under `deno` (not compiled). */
export function runsFromSource(): boolean {
  return /^deno(\.exe)?$/i.test(basename(Deno.execPath()));
}

/** The variables the cache's place depends on (those mm may read). */
function cacheEnv(): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (
    const name of ["DENO_DIR", "HOME", "XDG_CACHE_HOME", "LOCALAPPDATA", "NPM_CONFIG_REGISTRY"]
  ) {
    try {
      out[name] = Deno.env.get(name);
    } catch {
      // No env permission: the default place.
    }
  }
  return out;
}

/** Whether `specifier`'s package looks fetched already (its folder in Deno's cache). */
export function isNpmCached(specifier: string): boolean {
  try {
    return Deno.statSync(npmCachePath(specifier, cacheEnv())).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Fetches `specifier` into Deno's cache without a line of Deno's when mm runs from source and the
 * package is not there yet; `announce` is called first, once. True when it was fetched here. Any
 * failure (no network, no permission to run `deno`) is left to the import to report.
 */
export async function fetchQuietly(specifier: string, announce: () => void): Promise<boolean> {
  // Never a permission prompt of Deno's: without `read` and `run` granted, the import fetches.
  const granted = (p: Deno.PermissionDescriptor) =>
    Deno.permissions.querySync(p).state === "granted";
  if (!granted({ name: "read" }) || !granted({ name: "env" }) || !runsFromSource()) return false;
  if (isNpmCached(specifier) || !granted({ name: "run", command: Deno.execPath() })) return false;
  announce();
  try {
    const run = await spawnProcess({
      argv: [Deno.execPath(), "cache", "--quiet", "--no-config", specifier],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    });
    const status = await run.status;
    run.end();
    return status.success;
  } catch {
    return false;
  }
}
