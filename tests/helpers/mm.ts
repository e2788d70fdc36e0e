/** Runs the real `mm` process (`deno run main.ts`) the way a user or a CI job does. */

import { fileURLToPath } from "node:url";

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
}

/** Runs `mm args…` in `cwd` and waits for it to exit. */
export async function runMM(args: string[], opts: MMOptions): Promise<MMRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-config", "--quiet", MAIN, ...args],
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", HOME: opts.cwd, XDG_CONFIG_HOME: `${opts.cwd}/.config`, ...opts.env },
  }).spawn();
  opts.started?.(child);
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** A temporary working directory holding an agent file `mm.yaml` with `yaml`. */
export async function workdir(yaml: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mm-e2e-" });
  await Deno.writeTextFile(`${dir}/mm.yaml`, yaml);
  return dir;
}
