/** Runs the real `mm` process (`deno run main.ts`) the way a user or a CI job does. */

import { fileURLToPath } from "node:url";
import { defaultSessionsDir } from "../../lib/session/dirs.ts";

/**
 * The Deno cache of the test run. Every child gets it explicitly: a child whose HOME is a temporary
 * directory would otherwise download every npm package again into that directory.
 */
export const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;

/** The absolute path of main.ts. */
export const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** What a finished mm process left behind. */
export interface MMRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface MMOptions {
  cwd: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Called once the process is spawned (to send it a signal, say). */
  started?: (child: Deno.ChildProcess) => void;
  /** Called with all of stderr so far each time more of it comes (to signal it at a line, say). */
  onStderr?: (stderr: string, child: Deno.ChildProcess) => void;
}

/** The state folder a child of `cwd` is given (its XDG_STATE_HOME): inside the test's directory. */
export function stateHomeOf(cwd: string): string {
  return `${cwd}/.local/state`;
}

/** Where a child started in `cwd` saves its sessions by default (lib/session/dirs.ts). */
export function sessionsOf(cwd: string): string {
  return defaultSessionsDir(cwd, { XDG_STATE_HOME: stateHomeOf(cwd) })!;
}

/**
 * The names of the session files (`<id>.json`) a child started in `cwd` saved, sorted: never the
 * undo stores (`<id>.undo/`) nor the lock files beside them. None when the folder is not there.
 */
export function sessionFiles(cwd: string): string[] {
  try {
    return [...Deno.readDirSync(sessionsOf(cwd))]
      .filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

/** The session files a child started in `cwd` saved, parsed, in the order of their names. */
// deno-lint-ignore no-explicit-any
export async function readSessions(cwd: string): Promise<any[]> {
  const out = [];
  for (const name of sessionFiles(cwd)) {
    out.push(JSON.parse(await Deno.readTextFile(`${sessionsOf(cwd)}/${name}`)));
  }
  return out;
}

/** The command that runs mm from source with `args`, as a user runs it from a URL. */
export function mmCommand(args: string[], cwd: string, env: Record<string, string> = {}) {
  return {
    args: ["run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
    cwd,
    // MM_TRUST: the agent file most tests write in the working directory is their own; the tests of
    // trust (tests/e2e/trust_test.ts) set MM_TRUST to "" to see mm refuse, ask and record.
    env: {
      NO_COLOR: "1",
      HOME: cwd,
      XDG_CONFIG_HOME: `${cwd}/.config`,
      // Sessions are saved by default: into the test's own state folder, never the real one.
      XDG_STATE_HOME: stateHomeOf(cwd),
      DENO_DIR,
      MM_TRUST: "1",
      ...env,
    },
  };
}

/** Runs `mm args…` in `cwd` and waits for it to exit. */
export async function runMM(args: string[], opts: MMOptions): Promise<MMRun> {
  const child = new Deno.Command(Deno.execPath(), {
    ...mmCommand(args, opts.cwd, opts.env),
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  opts.started?.(child);
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const dec = new TextDecoder();
  if (opts.onStderr) {
    const stdout = new Response(child.stdout).text();
    let stderr = "";
    for await (const chunk of child.stderr) {
      stderr += dec.decode(chunk, { stream: true });
      opts.onStderr(stderr, child);
    }
    return { code: (await child.status).code, stdout: await stdout, stderr };
  }
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const made: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of made) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already gone.
    }
  }
});

/** An empty temporary directory; removed at exit. */
export async function tempDir(prefix = "mm-e2e-"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  made.push(dir);
  return dir;
}

/** A temporary working directory holding an agent file `mm.yaml` with `yaml`; removed at exit. */
export async function workdir(yaml: string): Promise<string> {
  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/mm.yaml`, yaml);
  return dir;
}

/** Whether something is at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Waits until something is at `path` (a pid file a command or a hook writes). */
export async function until(path: string): Promise<void> {
  while (!(await exists(path))) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Whether process `pid` is gone (or a zombie, dead but not reaped yet), waiting up to 10 s for the
 * signal that was sent to its group to land (seconds on a loaded 2-core machine; a process that
 * was never signalled stays, and fails the wait).
 */
export async function gone(pid: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => undefined);
    if (stat === undefined || /\) Z /.test(stat)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
