/**
 * The sandbox of bash and declared tools (`sandbox`, `sandboxNetwork`; docs/security.md): the
 * command's argv wrapped in bubblewrap (`bwrap`), built here and nowhere else, applied by
 * lib/exec/run.ts to those two only — hooks, MCP servers, language servers and asked agents run as
 * before.
 *
 * Under `workspace` the whole file system is mounted read-only, then a private, empty `/tmp`, `$HOME`
 * read-only again (it may live under `/tmp`), and the working directory read-write; under
 * `readonly` the working directory is mounted read-only too. `/dev` and `/proc` are bwrap's own,
 * the command gets a PID namespace of its own (`--unshare-pid`: a background job ends with the
 * command) and dies with mm (`--die-with-parent`); `sandboxNetwork: false` adds `--unshare-net`
 * (only a loopback of its own). No `--new-session`: the command stays in the process group mm
 * stops and kills (lib/exec/group.ts); it has no terminal to inject keys into (stdin is
 * /dev/null, setsid left it without one). No `--unshare-user` either: bwrap makes a user
 * namespace itself when it needs one, and root needs none.
 *
 * The output file mm reads back stays outside: the wrapper of run.ts opens it before it execs
 * bwrap, and the descriptor goes through the sandbox as the command's stdout and stderr.
 */

import { isAbsolute, relative, resolve } from "node:path";
import type { Config, SandboxMode } from "../config/config.ts";
import { ConfigError } from "../config/errors.ts";
import { startProblem } from "./program.ts";
import { spawnProcess } from "./spawn.ts";
import { readBody } from "../bounded/lines.ts";
import { MAX_ERROR_BODY } from "../bounded/limits.ts";

/** A sandbox that is on: its mode and whether it keeps the network. */
export interface Sandbox {
  mode: Exclude<SandboxMode, "off">;
  network: boolean;
}

/** The private temporary directory every sandboxed command gets. */
const TMP = "/tmp";

/** The program, and the package that brings it (Debian, Ubuntu, Fedora, Arch: the same name). */
export const BWRAP = "bwrap";

/** The sandbox `config` asks for, or undefined when it is off. */
export function sandboxOf(config: Pick<Config, "sandbox" | "sandboxNetwork">): Sandbox | undefined {
  if (config.sandbox === "off") return undefined;
  return { mode: config.sandbox, network: config.sandboxNetwork };
}

/** What the banner and mm doctor say of a sandbox that is on: `workspace (bubblewrap), network on`. */
export function sandboxText(sandbox: Sandbox): string {
  return `${sandbox.mode} (bubblewrap), network ${sandbox.network ? "on" : "off"}`;
}

/** The fix named when bwrap is not on the PATH. */
export const INSTALL_BWRAP = "install the bubblewrap package (apt install bubblewrap)";

/**
 * Why the sandbox `config` asks for cannot be had on this machine (`os`), as the detail of a
 * configuration error, or undefined when it can (or is off). Looks bwrap up on the PATH.
 */
export async function sandboxProblem(
  config: Pick<Config, "sandbox" | "sandboxNetwork">,
  os: typeof Deno.build.os = Deno.build.os,
): Promise<string | undefined> {
  const sandbox = sandboxOf(config);
  if (!sandbox) {
    return config.sandboxNetwork ? undefined : NETWORK_WITHOUT_SANDBOX;
  }
  if (os !== "linux") {
    return `sandbox: ${sandbox.mode}: mm has no sandbox on ${os} yet (it uses bubblewrap, on Linux) — set sandbox: off`;
  }
  const missing = await startProblem([BWRAP], "/");
  if (missing === undefined) return undefined;
  return `sandbox: ${sandbox.mode} needs ${BWRAP} (${missing}) — ${INSTALL_BWRAP}`;
}

/**
 * Throws the configuration error of {@linkcode sandboxProblem}, naming the agent file: what every
 * front end checks at start-up (mm doctor reports it as a check instead).
 */
export async function checkSandbox(
  config: Pick<Config, "file" | "sandbox" | "sandboxNetwork">,
): Promise<void> {
  const problem = await sandboxProblem(config);
  if (problem !== undefined) {
    const key = problem.startsWith("sandboxNetwork") ? "sandboxNetwork" : "sandbox";
    throw new ConfigError(config.file ?? "the agent file", 0, 0, key, problem);
  }
}

/** A network turned off with nothing to turn it off in. */
export const NETWORK_WITHOUT_SANDBOX =
  "sandboxNetwork: false confines only a sandbox — set sandbox: workspace or readonly too";

/**
 * `argv` as it runs confined by `sandbox` in `cwd`: the bwrap command line (see the module
 * comment). `home` is `$HOME`, when there is one. Paths are made absolute against `cwd`, not
 * resolved through symbolic links (bwrap follows them).
 */
export function sandboxArgv(
  sandbox: Sandbox,
  argv: string[],
  cwd: string,
  home?: string,
): string[] {
  const project = resolve(cwd);
  const out = [
    BWRAP,
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    TMP,
  ];
  // $HOME under /tmp (a test's, a CI's) would vanish under the private /tmp: read-only, as elsewhere.
  if (home && isAbsolute(home) && within(resolve(home), TMP)) {
    out.push("--ro-bind-try", resolve(home), resolve(home));
  }
  out.push(sandbox.mode === "workspace" ? "--bind" : "--ro-bind", project, project);
  out.push("--unshare-pid", "--die-with-parent");
  if (!sandbox.network) out.push("--unshare-net");
  out.push("--setenv", "TMPDIR", TMP, "--chdir", project, "--", ...argv);
  return out;
}

/** Milliseconds the trial of {@linkcode sandboxTrial} may take. */
const TRIAL_TIMEOUT = 10_000;

/**
 * Runs `true` in `sandbox` from `cwd`, as a command would run (mm doctor): undefined when it ran,
 * else why not — bwrap's own first line (`bwrap: setting up uid map: Permission denied` where
 * user namespaces are not allowed) or how it ended.
 */
export async function sandboxTrial(
  sandbox: Sandbox,
  cwd: string,
  home?: string,
): Promise<string | undefined> {
  let child;
  try {
    child = await spawnProcess({
      argv: sandboxArgv(sandbox, ["true"], cwd, home),
      cwd,
      stderr: "piped",
      timeout: TRIAL_TIMEOUT,
    });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  try {
    const said = new TextDecoder().decode(
      await readBody(child.child.stderr, MAX_ERROR_BODY, { cut: true }),
    );
    const status = await child.status;
    if (status.success) return undefined;
    const first = said.split("\n").map((l) => l.trim()).find((l) => l !== "");
    if (first) return first;
    if (child.stopped) return `it did not end within ${TRIAL_TIMEOUT / 1000}s`;
    return status.signal ? `it was ended by ${status.signal}` : `it exited with ${status.code}`;
  } finally {
    child.end();
  }
}

/** Whether `path` is `dir` or under it. */
function within(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
