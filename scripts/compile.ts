/**
 * `deno task compile`: one executable per platform, `dist/mm-<target>` (`.exe` on Windows), with
 * the narrowest permission flags mm needs — never `-A` — and `dist/SHA256SUMS` beside them.
 * docs/security.md explains every flag. (It downloads Deno runtimes, so it cannot run on a closed
 * network.)
 *
 *   deno task compile                               every target
 *   deno task compile x86_64-unknown-linux-gnu      one target
 *   deno task compile --dry-run                     print what would run, write nothing
 *
 * The commit `mm --version` prints is written into lib/build_info.ts just before compiling and the
 * file is put back as it was afterwards: the binary carries it, and nothing is read at run time.
 * It comes from `$MM_COMMIT`, else `$GITHUB_SHA`, else `git rev-parse`, else stays `dev`.
 */

import { fileURLToPath } from "node:url";
import { SDK_MODULE } from "../lib/mcp/sdk.ts";

/** The platforms mm ships for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/**
 * The permissions baked into the binary (docs/security.md, flag by flag). Each is whole because
 * what it reaches is only known at run time: the working tree and the agent file's paths (read,
 * write), the programs of bash, declared tools, hooks and language servers (run), the model server
 * and the pages fetch_content is given (net), the environment the agent file and the child
 * processes use (env); `uid` and `gid` (sys), which Node's `fs.access` reads to tell whether a program
 * can be executed. `--no-prompt`: a binary never stops to ask; what it lacks fails at once.
 * At start-up mm revokes what its agent file does not need (lib/permissions/sandbox.ts).
 */
export const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-net",
  "--allow-env",
  "--allow-sys=uid,gid",
  "--no-prompt",
] as const;

/** The root of the working tree. */
const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The file that carries the commit. */
export const BUILD_INFO = `${ROOT}lib/build_info.ts`;

/** The executable's name for `target`. */
export function outputName(target: string): string {
  return `mm-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/**
 * Modules the binary must carry that no literal import names: the MCP SDK, imported through a
 * constant so that a run without MCP servers never resolves it (lib/mcp/sdk.ts).
 */
export const INCLUDED = [SDK_MODULE] as const;

/** The `deno` arguments that compile `target` into `dir`. */
export function compileArgs(target: string, dir = "dist"): string[] {
  return [
    "compile",
    "--no-config",
    ...PERMISSIONS,
    ...INCLUDED.flatMap((m) => ["--include", m]),
    "--target",
    target,
    "--output",
    `${dir}/${outputName(target)}`,
    "main.ts",
  ];
}

/** lib/build_info.ts as the binary carries it. */
export function buildInfoSource(original: string, commit: string): string {
  if (!/^[0-9a-f]{4,40}$|^dev$/.test(commit)) throw new Error(`not a commit: ${commit}`);
  return original.replace(/export const COMMIT = "[^"]*";/, `export const COMMIT = "${commit}";`);
}

/** The short commit to build: `$MM_COMMIT`, `$GITHUB_SHA`, `git rev-parse`, else `dev`. */
export async function currentCommit(): Promise<string> {
  const fromEnv = Deno.env.get("MM_COMMIT") || Deno.env.get("GITHUB_SHA");
  if (fromEnv) return fromEnv.trim().slice(0, 7).toLowerCase();
  try {
    const out = await new Deno.Command("git", {
      args: ["rev-parse", "--short=7", "HEAD"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "null",
    }).output();
    const commit = new TextDecoder().decode(out.stdout).trim();
    if (out.success && commit) return commit;
  } catch {
    // No git: a build from a tarball.
  }
  return "dev";
}

/** `sha256sum`'s format: one `<hex>  <name>` line per file of `dir`, sorted by name. */
export async function checksums(dir: string, names: string[]): Promise<string> {
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    const data = await Deno.readFile(`${dir}/${name}`);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    lines.push(`${hex}  ${name}`);
  }
  return lines.join("\n") + "\n";
}

async function main(args: string[]): Promise<number> {
  const dryRun = args.includes("--dry-run");
  const only = args.find((a) => !a.startsWith("-"));
  if (only && !(TARGETS as readonly string[]).includes(only)) {
    console.error(`unknown target ${only}: one of ${TARGETS.join(", ")}`);
    return 2;
  }
  const targets = TARGETS.filter((t) => !only || t === only);
  const commit = await currentCommit();
  const original = await Deno.readTextFile(BUILD_INFO);
  console.log(`commit ${commit}`);
  if (dryRun) {
    for (const t of targets) console.log(`deno ${compileArgs(t).join(" ")}`);
    return 0;
  }
  await Deno.writeTextFile(BUILD_INFO, buildInfoSource(original, commit));
  try {
    for (const target of targets) {
      const args = compileArgs(target);
      console.log(`deno ${args.join(" ")}`);
      const { code } = await new Deno.Command(Deno.execPath(), {
        args,
        cwd: ROOT,
        stdout: "inherit",
        stderr: "inherit",
      }).output();
      if (code !== 0) return code;
    }
  } finally {
    await Deno.writeTextFile(BUILD_INFO, original);
  }
  const names: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}dist`)) {
    if (entry.isFile && entry.name.startsWith("mm-")) names.push(entry.name);
  }
  await Deno.writeTextFile(`${ROOT}dist/SHA256SUMS`, await checksums(`${ROOT}dist`, names));
  console.log(`dist/SHA256SUMS: ${names.length} file(s)`);
  return 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
