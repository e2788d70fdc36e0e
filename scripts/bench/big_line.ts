/**
 * `deno run -A scripts/bench/big_line.ts [RUNS] [MB]`: `mm -p` against a model server that sends
 * one event-stream line of MB megabytes (100 by default): wall time from spawn to exit and peak
 * RSS, median and worst of RUNS (3) runs. mm reads no line past 8 MiB (lib/bounded/limits.ts), so
 * it must end in seconds with one sentence and exit 1, whatever MB is (docs/performance.md, "A
 * line too large"); not a test.
 */

import { fileURLToPath } from "node:url";
import { ScriptedServer } from "../../tests/helpers/server/mod.ts";
import { hasTime, measure, type Sample, summary } from "./_measure.ts";

const RUNS = Number(Deno.args[0] ?? 3);
const MB = Number(Deno.args[1] ?? 100);
const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const RUN = ["run", "--allow-all", "--no-config", "--quiet"];

const server = ScriptedServer.start();
const dir = await Deno.makeTempDir({ prefix: "mm-bench-" });
await Deno.writeTextFile(`${dir}/mm.yaml`, `provider: llamacpp\nurl: ${server.url}\n`);

const samples: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  const model = `big-${i}`;
  server.script(model, [{ huge: "line", bytes: MB * 1_000_000 }]);
  samples.push(await measure([...RUN, MAIN, "-p", "hi", "--model", model], dir, 1));
}
await server.close();
await Deno.remove(dir, { recursive: true });

const ms = summary(samples.map((s) => s.ms));
const rss = summary(samples.map((s) => s.rssKiB / 1024));
const worst = (values: number[]) => Math.max(...values);
console.log(`| mm -p, one line of ${MB} MB | median | worst |`);
console.log("| --- | ---: | ---: |");
console.log(
  `| wall time, spawn to exit | ${(ms.median / 1000).toFixed(2)} s | ${
    (worst(samples.map((s) => s.ms)) / 1000).toFixed(2)
  } s |`,
);
console.log(
  `| peak RSS${hasTime ? "" : " (VmHWM polled)"} | ${rss.median.toFixed(0)} MiB | ${
    worst(samples.map((s) => s.rssKiB / 1024)).toFixed(0)
  } MiB |`,
);
console.log(`\n${RUNS} runs, load average ${Deno.loadavg()[0].toFixed(1)}`);
