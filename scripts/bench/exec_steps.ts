/**
 * `deno run -A scripts/bench/exec_steps.ts [ROUNDS] [BALLAST_MIB]`: what starting one `bash -c true`
 * costs, each way `lib/exec/run.ts` can start it and two plain spawns for comparison (not a test).
 *
 * Each way runs 20 times in a row, the ways take turns for ROUNDS rounds (9 by default), and the
 * table gives the median and the lowest of the per-call means, in ms. BALLAST_MIB (0 by default)
 * MiB of touched memory make this process about as large as mm in a turn (75–80 MiB): a fork
 * (`detached: true`) costs more in a larger process. docs/performance.md explains the figures.
 */

import type { Grouping } from "../../lib/exec/group.ts";
import { runProcess } from "../../lib/exec/run.ts";

const ROUNDS = Number(Deno.args[0] ?? 9);
const BALLAST_MIB = Number(Deno.args[1] ?? 0);
const CALLS = 20;

const ballast = new Uint8Array(BALLAST_MIB * 1024 * 1024).fill(1);

/** `bash -c true` spawned by Deno with its output to `null`. */
async function plain(detached: boolean): Promise<void> {
  const options: Deno.CommandOptions = { stdin: "null", stdout: "null", stderr: "null", detached };
  await new Deno.Command("bash", { ...options, args: ["-c", "true"] }).spawn().status;
}

/** `bash -c true` through `runProcess`; with `wrapper`, a `BASH_ENV` makes it take the wrapper. */
async function exec(how: Grouping, wrapper: boolean): Promise<void> {
  if (wrapper) Deno.env.set("BASH_ENV", "/dev/null");
  try {
    const signal = new AbortController().signal;
    const request = { argv: ["bash", "-c", "true"], cwd: Deno.cwd(), timeout: 10_000, signal };
    const result = await runProcess(request, how);
    if (result.code !== 0) throw new Error(`bash -c true: ${JSON.stringify(result)}`);
  } finally {
    if (wrapper) Deno.env.delete("BASH_ENV");
  }
}

const ways: [string, () => Promise<void>][] = [
  ['`new Deno.Command("bash", …)`, output to `null`', () => plain(false)],
  ["the same with `detached: true`", () => plain(true)],
  ["`runProcess`: detached, wrapper (before; now without `setsid`)", () => exec("detached", true)],
  ["`runProcess`: `setsid`, wrapper (a declared tool's argv)", () => exec("setsid", true)],
  ["`runProcess`: `setsid`, one bash (`bash` tool on Linux)", () => exec("setsid", false)],
];

const means: number[][] = ways.map(() => []);
for (const [, run] of ways) await run(); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, [, run]] of ways.entries()) {
    const start = performance.now();
    for (let c = 0; c < CALLS; c++) await run();
    means[i].push((performance.now() - start) / CALLS);
  }
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(
  `${ROUNDS} rounds of ${CALLS} calls, RSS ${
    (Deno.memoryUsage().rss / 2 ** 20).toFixed(0)
  } MiB (ballast ${ballast.length / 2 ** 20} MiB), 1-minute load ${Deno.loadavg()[0].toFixed(2)}\n`,
);
console.log("| how `bash -c true` is started | median | lowest |\n| --- | --- | --- |");
for (const [i, [what]] of ways.entries()) {
  console.log(
    `| ${what} | ${median(means[i]).toFixed(1)} ms | ${Math.min(...means[i]).toFixed(1)} ms |`,
  );
}
