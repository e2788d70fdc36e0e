/**
 * What the benchmarks of scripts/bench/ share (`_`: not a benchmark): a process spawned and
 * measured — wall time from spawn to exit, peak RSS from `/usr/bin/time -f %M` (or, without it,
 * the highest `VmHWM` seen polling `/proc/PID/status`) — and samples taken in turns.
 */

const TIME = "/usr/bin/time";

/** One finished process. */
export interface Sample {
  /** Milliseconds from spawn to exit. */
  ms: number;
  /** Peak resident set size, KiB. */
  rssKiB: number;
  /** `performance.now()` just before the spawn. */
  spawnedAt: number;
  /** mm turns only: milliseconds from spawn to the first request's arrival at the server. */
  firstByteMs?: number;
}

/** Median and 90th percentile (nearest rank) of `values`. */
export function summary(values: number[]): { median: number; p90: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, p90: s[Math.ceil(s.length * 0.9) - 1] };
}

/** Whether GNU time is there to measure the peak RSS. */
export const hasTime = await Deno.stat(TIME).then(() => true, () => false);
const env = Deno.env.toObject();
delete env.MM_CONFIG;
env.NO_COLOR = "1";

/** Runs `deno ARGS…` in `cwd`, and fails loudly if it does not exit with `code` (0). */
export async function measure(args: string[], cwd: string, code = 0): Promise<Sample> {
  const rssFile = hasTime ? await Deno.makeTempFile() : "";
  const argv = [Deno.execPath(), ...args];
  const [cmd, ...rest] = hasTime ? [TIME, "-f", "%M", "-o", rssFile, ...argv] : argv;
  const spawnedAt = performance.now();
  const child = new Deno.Command(cmd, {
    args: rest,
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let hwm = 0;
  const poll = hasTime ? undefined : setInterval(() => hwm = Math.max(hwm, vmHWM(child.pid)), 5);
  const out = await child.output();
  const ms = performance.now() - spawnedAt;
  clearInterval(poll);
  if (hasTime) {
    hwm = Number((await Deno.readTextFile(rssFile)).trim().split("\n").at(-1));
    await Deno.remove(rssFile);
  }
  if (out.code !== code) {
    const stderr = new TextDecoder().decode(out.stderr);
    throw new Error(`deno ${args.join(" ")} exited ${out.code}: ${stderr}`);
  }
  return { ms, rssKiB: hwm, spawnedAt };
}

/** The `VmHWM` of a live process in KiB, 0 once it is gone. */
function vmHWM(pid: number): number {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(/^VmHWM:\s+(\d+)/m);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * `runs` samples of each kind, interleaved so a slow moment of the machine hits all alike; each
 * round starts with the next kind (A B C, B C A, C A B…), so none is always the one run first.
 */
export async function interleaved(
  kinds: (() => Promise<Sample>)[],
  runs: number,
): Promise<Sample[][]> {
  for (const kind of kinds) await kind(); // warm-up: caches filled, nothing recorded
  const samples: Sample[][] = kinds.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < kinds.length; j++) {
      const k = (i + j) % kinds.length;
      samples[k].push(await kinds[k]());
    }
  }
  return samples;
}
