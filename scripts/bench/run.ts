/**
 * `deno task bench [RUNS]`: whole-process figures of mm, printed as a Markdown table (not a test).
 *
 * Every figure but the last rows is a real process spawned from here: wall time from spawn to exit,
 * and peak RSS from `/usr/bin/time -f %M` (or, without it, the highest `VmHWM` seen polling
 * `/proc/PID/status`). The model is the scripted server of the tests, answering at once. The last
 * rows are timed in this process: edit_file refusing an edit on a 100,000-line file
 * (`edit_file.ts`). docs/performance.md explains it.
 */

import { fileURLToPath } from "node:url";
import { type Recorded, type Reply, ScriptedServer } from "../../tests/helpers/server/mod.ts";
import { benchFailedMatch, LINES } from "./edit_file.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const BARE = fileURLToPath(new URL("./bare_client.ts", import.meta.url));
const TIME = "/usr/bin/time";
const RUNS = Number(Deno.args[0] ?? 15);
const STEPS = 20;
/** How mm (and every script but the empty one) is run, as a user or a CI job runs it. */
const RUN = ["run", "--allow-all", "--no-config", "--quiet"];

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

const hasTime = await Deno.stat(TIME).then(() => true, () => false);
const env = Deno.env.toObject();
delete env.MM_CONFIG;
env.NO_COLOR = "1";

/** Runs `deno ARGS…` in `cwd`, and fails loudly if it does not exit 0. */
async function measure(args: string[], cwd: string): Promise<Sample> {
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
  if (!out.success) {
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

/** `RUNS` samples of each kind, interleaved so a slow moment of the machine hits both alike. */
async function interleaved(kinds: (() => Promise<Sample>)[]): Promise<Sample[][]> {
  for (const kind of kinds) await kind(); // warm-up: caches filled, nothing recorded
  const samples: Sample[][] = kinds.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, kind] of kinds.entries()) samples[k].push(await kind());
  }
  return samples;
}

const loadBefore = Deno.loadavg()[0];
const server = ScriptedServer.start();
const dir = await Deno.makeTempDir({ prefix: "mm-bench-" });
await Deno.writeTextFile(`${dir}/empty.ts`, "");
await Deno.writeTextFile(`${dir}/openai.ts`, 'await import("npm:openai@7.59.0");\n');
// The import is never run, but `deno run` resolves the npm graph of every literal import.
await Deno.writeTextFile(
  `${dir}/unrun.ts`,
  'if (Deno.args[0]) await import("npm:openai@7.59.0");\n',
);
await Deno.writeTextFile(`${dir}/mm.yaml`, `url: ${server.url}\nmodel: bench\n`);

// Chat request arrival times, keyed by model: the server records a request once its body is read.
// Side requests (the context-window discovery's `/api/show`) do not count.
const arrivals = new Map<string, number>();
const record = server.requests.push.bind(server.requests);
server.requests.push = (...items: Recorded[]) => {
  for (const r of items) {
    const chat = r.path.endsWith("/chat/completions") || r.path === "/api/chat";
    if (chat && r.body?.model && !arrivals.has(r.body.model)) {
      arrivals.set(r.body.model, performance.now());
    }
  }
  return record(...items);
};

let turns = 0;
/** One `mm -p` turn of `steps` bash calls then an answer, under the model name `model`. */
async function mmTurn(steps: number, model = `bench-${turns++}`): Promise<Sample> {
  const replies: Reply[] = Array.from({ length: steps }, (_, i) => ({
    toolCalls: [{ name: "bash", arguments: { command: `true ${i}` } }],
  }));
  server.script(model, [...replies, { text: "done" }]);
  const sample = await measure([...RUN, MAIN, "-p", "go", "--model", model], dir);
  return { ...sample, firstByteMs: arrivals.get(model)! - sample.spawnedAt };
}

let bareRuns = 0;
/** The bare client replaying `file` (the requests of one mm turn). */
async function bare(file: string, answers: number): Promise<Sample> {
  const model = `bare-${bareRuns++}`;
  server.script(model, [
    ...Array.from({ length: answers - 1 }, (): Reply => ({
      toolCalls: [{ name: "bash", arguments: { command: "true" } }],
    })),
    { text: "done" },
  ]);
  return await measure([...RUN, BARE, server.url, model, file], dir);
}

/** Writes the chat requests of mm's turn `model` to a file the bare client replays. */
async function requestsOf(model: string): Promise<string> {
  const file = `${dir}/${model}.json`;
  const chats = server.chats(model).map((r) => ({ path: r.path, body: r.body }));
  await Deno.writeTextFile(file, JSON.stringify(chats));
  return file;
}

const empty = () => measure(["run", "--no-config", "empty.ts"], dir);
const version = () => measure(["run", "--allow-all", "--no-config", MAIN, "--version"], dir);
const openai = () => measure([...RUN, "openai.ts"], dir);
const unrun = () => measure([...RUN, "unrun.ts"], dir);
const [emptyS, versionS, openaiS, unrunS] = await interleaved([empty, version, openai, unrun]);

await mmTurn(1, "capture-1");
await mmTurn(STEPS, "capture-20");
const first = server.chats("capture-1")[0].body;
const promptChars = JSON.stringify(first.tools).length + first.messages[0].content.length;
const oneFile = await requestsOf("capture-1");
const twentyFile = await requestsOf("capture-20");
const [oneS, twentyS, bare1S, bare20S] = await interleaved([
  () => mmTurn(1),
  () => mmTurn(STEPS),
  () => bare(oneFile, 2),
  () => bare(twentyFile, STEPS + 1),
]);
await server.close();
await Deno.remove(dir, { recursive: true });

const ms = (v: number) => `${Math.round(v)} ms`;
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
const rows: string[][] = [];
/** One table row of `samples`: median and p90 time, median and max peak RSS. */
function row(what: string, samples: Sample[], goal = "") {
  const t = summary(samples.map((s) => s.ms));
  const rss = samples.map((s) => s.rssKiB);
  rows.push([
    what,
    ms(t.median),
    ms(t.p90),
    `${mib(summary(rss).median)} / ${mib(Math.max(...rss))}`,
    goal,
  ]);
}
const med = (samples: Sample[]) => summary(samples.map((s) => s.ms)).median;
const ratio = med(versionS) / med(emptyS);
const stepCost = (med(twentyS) - med(bare20S)) / STEPS;
const marginal = ((med(twentyS) - med(oneS)) - (med(bare20S) - med(bare1S))) / (STEPS - 1);
const rssOne = summary(oneS.map((s) => s.rssKiB)).median;
const met = (ok: boolean) => ok ? "met" : "**missed**";

row("`deno run` an empty script", emptyS);
row("`mm --version`", versionS, `≤ 1.3× empty: ${ratio.toFixed(2)}× ${met(ratio <= 1.3)}`);
row("a script that only imports `npm:openai@7.59.0`", openaiS);
row("a script with that import in a branch never taken", unrunS);
const fb = summary(oneS.concat(twentyS).map((s) => s.firstByteMs!));
rows.push(["`mm -p`: spawn → first request at the server", ms(fb.median), ms(fb.p90), "", ""]);
row(
  "`mm -p`: one `bash` step",
  oneS,
  `≤ 350 ms ${met(med(oneS) <= 350)}, ≤ 80 MiB ${met(rssOne <= 80 * 1024)}`,
);
row(`\`mm -p\`: ${STEPS} \`bash\` steps`, twentyS);
row("bare client: 2 exchanges, 1 `bash -c true`", bare1S);
row(`bare client: ${STEPS + 1} exchanges, ${STEPS} \`bash -c true\``, bare20S);
rows.push([
  "mm's cost per step",
  `${stepCost.toFixed(1)} ms`,
  "",
  "",
  `(${STEPS} steps − bare) / ${STEPS}; without start-up: ${marginal.toFixed(1)} ms`,
]);
rows.push([
  "prompt overhead (system prompt + tool schemas)",
  `${promptChars} chars`,
  "",
  "",
  `≤ 6,000 ${met(promptChars <= 6000)}`,
]);

// In this process, once the processes above are measured: edit_file's slow path.
for (const r of await benchFailedMatch(RUNS)) {
  rows.push([
    `edit_file: a failed match on a ${LINES.toLocaleString("en")}-line file (${r.name})`,
    `${r.median.toFixed(1)} ms`,
    `${r.p90.toFixed(1)} ms`,
    "",
    `≤ 100 ms ${met(r.median <= 100)} (CPU ${r.cpu.toFixed(1)} ms)`,
  ]);
}

const header = ["measure", "median", "p90", "peak RSS median / max", "goal"];
console.log(
  `${RUNS} runs each, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, ${
    hasTime ? "RSS by /usr/bin/time" : "RSS by polling /proc VmHWM (a lower bound)"
  }, 1-minute load average ${loadBefore.toFixed(2)} before, ${
    Deno.loadavg()[0].toFixed(2)
  } after\n`,
);
for (const r of [header, header.map(() => "---"), ...rows]) console.log(`| ${r.join(" | ")} |`);
