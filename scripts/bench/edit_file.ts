/**
 * `deno run --allow-all scripts/bench/edit_file.ts [RUNS]`: how long edit_file takes to refuse an
 * edit whose `old` is not in a 100,000-line file (not a test). A failed match is the slow path:
 * every pass runs — the spec's three, the cleanups, typography, spaces inside lines, elisions —
 * then "already applied" and the closest region. The whole tool runs (`editFile.run` on an
 * in-memory file system: decode, split, match, refusal text), RUNS times after warm-up, each on a
 * fresh copy of the file's bytes: median and 90th percentile of the wall time, and the median CPU
 * time of the process (user + system, which a busy machine's other work barely moves).
 * docs/performance.md ("edit_file") gives the figures; `scripts/bench/run.ts` prints them too.
 */

import process from "node:process";
import { fakeContext } from "../../tests/helpers/fake_context.ts";
import { editFile } from "../../tools/edit_file/mod.ts";

/** Lines of the file. */
export const LINES = 100_000;

/** A 100,000-line TypeScript file: functions of a few lines, comments, strings, blank lines. */
export function bigFile(lines = LINES): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `/** Computes item ${i}'s total — with tax. */`,
      `export function total${i}(items: Item[], rate = 0.${i % 10}): number {`,
      `  const sum = items.reduce((s, x) => s + x.price * x.count, 0);`,
      `  if (sum > ${i}) log("over ${i}: " + sum);`,
      `  return sum * (1 + rate);`,
      "}",
      "",
    );
  }
  return out.slice(0, lines).join("\n") + "\n";
}

/** Edits whose old is nowhere in the file: a stale block, and a stale block with a marker. */
export const MISSES = [
  {
    name: "a stale 4-line block",
    old: "export function total500(items: Item[], rate = 0.5): number {\n" +
      "  const sum = items.reduce((s, x) => s + x.cost * x.count, 0);\n" +
      '  if (sum > 500) warn("over 500: " + sum);\n  return sum * rate;',
  },
  {
    name: "a stale one-line old",
    old: "  const sum = items.reduce((s, x) => s + x.cost, 0);",
  },
  {
    name: "an elided old with a stale piece",
    old: "export function total77(items: Item[], rate = 0.7): number {\n  // ...\n  return sum;",
  },
];

/** Median and 90th percentile (nearest rank) of `values`. */
function summary(values: number[]): { median: number; p90: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, p90: s[Math.ceil(s.length * 0.9) - 1] };
}

/** Times each miss `runs` times; one row per miss: wall median and p90, CPU median (ms). */
export async function benchFailedMatch(runs = 20): Promise<
  { name: string; median: number; p90: number; cpu: number }[]
> {
  const bytes = new TextEncoder().encode(bigFile());
  const rows = [];
  for (const miss of MISSES) {
    const cpu: number[] = [];
    const once = async () => {
      const ctx = fakeContext({ files: { "big.ts": bytes.slice() } });
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await editFile.run({
        path: "big.ts",
        edits: [{ old: miss.old, new: miss.old.replaceAll("sum", "total") }],
        dry_run: false,
      }, ctx);
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (!r.failed) throw new Error(`${miss.name}: the edit was applied`);
      return ms;
    };
    for (let i = 0; i < 3; i++) await once();
    cpu.length = 0;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await once());
    rows.push({ name: miss.name, ...summary(times), cpu: summary(cpu).median });
  }
  return rows;
}

if (import.meta.main) {
  const runs = Number(Deno.args[0] ?? 20);
  console.log(
    `${runs} runs each, a ${LINES.toLocaleString("en")}-line file, Deno ${Deno.version.deno}\n`,
  );
  console.log(`1-minute load average ${Deno.loadavg()[0].toFixed(2)} before\n`);
  console.log("| failed match | wall median | wall p90 | CPU median |\n| --- | --- | --- | --- |");
  for (const r of await benchFailedMatch(runs)) {
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    console.log(`| ${r.name} | ${ms(r.median)} | ${ms(r.p90)} | ${ms(r.cpu)} |`);
  }
}
