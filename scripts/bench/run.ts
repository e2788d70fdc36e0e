/**
 * `deno task bench [RUNS]`: whole-process figures of mm, printed as a Markdown table (not a test).
 *
 * Every figure but the last rows is a real process spawned from here: wall time from spawn to exit,
 * and peak RSS from `/usr/bin/time -f %M` (or, without it, the highest `VmHWM` seen polling
 * `/proc/PID/status`). The model is the scripted server of the tests, answering at once. The last
 * rows are timed in this process: edit_file refusing an edit on a 100,000-line file
 * (`edit_file.ts`), and the recovery of text-form tool calls per dialect (`text_calls.ts`).
 * docs/performance.md explains it.
 */

import { fileURLToPath } from "node:url";
import { type Recorded, type Reply, ScriptedServer } from "../../tests/helpers/server/mod.ts";
import { hasTime, interleaved, measure, type Sample, summary } from "./_measure.ts";
import { benchFailedMatch, LINES } from "./edit_file.ts";
import { benchRecovery } from "./text_calls.ts";
import { benchUndo, FILES as UNDO_FILES } from "./undo.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const BARE = fileURLToPath(new URL("./bare_client.ts", import.meta.url));
const RUNS = Number(Deno.args[0] ?? 15);
const STEPS = 20;
/** How mm (and every script but the empty one) is run, as a user or a CI job runs it. */
const RUN = ["run", "--allow-all", "--no-config", "--quiet"];

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
const [emptyS, versionS, openaiS, unrunS] = await interleaved(
  [empty, version, openai, unrun],
  RUNS,
);

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
], RUNS);
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

// Undo: a turn's extra time in a git repository of 10,000 files, and the bytes kept (undo.ts).
{
  const u = await benchUndo(RUNS);
  rows.push([
    `undo: a turn's extra time, ${UNDO_FILES.toLocaleString("en")}-file repository (first turn ${
      u.first.toFixed(0)
    } ms)`,
    `${u.median.toFixed(0)} ms`,
    `${u.p90.toFixed(0)} ms`,
    "",
    `≤ 300 ms ${met(u.median <= 300)} (store ${(u.storeBytes / 1e6).toFixed(1)} MB for ${
      (u.repoBytes / 1e6).toFixed(1)
    } MB)`,
  ]);
}

// Text-form tool calls: per dialect over the corpus, recovered / left as text / wrong, and the
// recogniser's time per KiB (scripts/bench/text_calls.ts).
for (const r of benchRecovery(RUNS)) {
  const answers = r.recovered === 0 && r.text + r.wrong === r.samples &&
    r.dialect.startsWith("answers");
  rows.push([
    `text calls: ${r.dialect}`,
    `${r.usPerKiB.toFixed(0)} µs/KiB`,
    "",
    "",
    answers
      ? `0 false positives: ${r.wrong} ${met(r.wrong === 0)}`
      : `${r.recovered}/${r.samples} recovered, ${r.text} as text, ${r.wrong} wrong ${
        met(r.recovered === r.samples)
      }`,
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
