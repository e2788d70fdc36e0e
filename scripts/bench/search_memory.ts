/**
 * `deno run --allow-all scripts/bench/search_memory.ts [FILES] [RUNS] [SHARE]`: times
 * `searchSessions` over a generated directory of session files (10,000 files, about 200 MB, by
 * default) and reports the median wall and CPU time of RUNS searches and the peak RSS of the
 * process that searched (not a test). SHARE is the share of sessions held in French (accented
 * words); by default two corpora are measured, 20% and 100%.
 *
 * The files are generated in a temporary directory, deleted at the end. Each query is searched in
 * a child process of its own, so that its peak RSS (`VmHWM`) is the search's, not the generator's.
 * docs/performance.md ("search_memory") gives the figures.
 */

import process from "node:process";
import { fileURLToPath } from "node:url";
import { searchSessions } from "../../lib/session/search.ts";
import type { SessionFile, SessionMessage } from "../../lib/session/store.ts";
import { random } from "./random.ts";

const SELF = fileURLToPath(import.meta.url);

/** The queries timed, from the cheapest to the dearest. */
const QUERIES: { name: string; query: string }[] = [
  { name: "in no file", query: "xylophone préférence" },
  { name: "in 20 questions", query: "zanzibar deployment" },
  { name: "only in tool outputs", query: "function" },
  { name: "in nearly every answer", query: "memory search" },
];

/** English words, and mm's own punctuation: every file is two-byte text, as real ones are. */
const ENGLISH = (
  "the a of to and in is it that for on with as this be by are from or an at not have but can " +
  "file test build error server config session model tool answer question output value change " +
  "import export return const let type interface async await promise string number array object " +
  "read write edit path line lines text json yaml deno node npm package module script bench run " +
  "fix bug issue check lint format commit branch merge review user agent prompt context history " +
  "small local memory search word words query result results limit order turn turns summary note " +
  "— … →"
).split(" ");

/** The same with French words: accented Latin letters in the text. */
const FRENCH = [
  ...ENGLISH,
  ..."réponse été déjà problème fichier configuré modèle données résultat".split(" "),
];

/** `n` random words of `vocabulary`, with a sentence's punctuation now and then. */
function words(rand: () => number, n: number, vocabulary = ENGLISH): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = vocabulary[Math.floor(rand() * vocabulary.length)];
    if (rand() < 0.08) w += rand() < 0.5 ? "." : ",";
    out.push(w);
  }
  return out.join(" ");
}

/** Some lines of code-like tool output (a file read, a command's output). */
function toolOutput(rand: () => number, chars: number): string {
  const lines: string[] = [];
  let n = 0;
  while (n < chars) {
    const line = rand() < 0.3
      ? `export function ${words(rand, 1)}Thing(input: string): number {`
      : `  ${words(rand, 6 + Math.floor(rand() * 8))};`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
}

/**
 * One session of about `size` bytes; `plant` puts the rare words in one question, `french` adds
 * accented words to its questions and answers.
 */
function session(i: number, size: number, plant: boolean, french: boolean): SessionFile {
  const rand = random(i + 1);
  const vocabulary = french ? FRENCH : ENGLISH;
  const messages: SessionMessage[] = [];
  const updated = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  let turn = 0;
  let bytes = 0;
  while (bytes < size) {
    turn++;
    const question = words(rand, 10 + Math.floor(rand() * 30), vocabulary) +
      (plant && turn === 1 ? " zanzibar deployment?" : "?");
    messages.push({ role: "user", content: question, turn });
    for (let k = 0; k < 2; k++) {
      const id = `call_${turn}_${k}`;
      messages.push({
        role: "assistant",
        content: words(rand, 12, vocabulary),
        tool_calls: [{
          id,
          type: "function",
          function: { name: "read_file", arguments: JSON.stringify({ path: "lib/x.ts" }) },
        }],
        turn,
      });
      const output = toolOutput(rand, 1500 + Math.floor(rand() * 3000));
      messages.push({ role: "tool", tool_call_id: id, content: output, turn });
      bytes += output.length;
    }
    const answer = words(rand, 60 + Math.floor(rand() * 120), vocabulary);
    messages.push({ role: "assistant", content: answer, turn });
    bytes += question.length + answer.length + 400;
  }
  return {
    id: `bench-${String(i).padStart(5, "0")}`,
    created: updated,
    updated,
    cwd: "/work/project",
    provider: "ollama",
    model: "bench",
    messages,
    errors: [],
  };
}

/**
 * Writes `count` session files into a new temporary directory, a share `french` of them with
 * accented words; returns the directory and its total size.
 */
async function generate(count: number, french: number): Promise<{ dir: string; bytes: number }> {
  const dir = await Deno.makeTempDir({ prefix: "mm-bench-sessions-" });
  let bytes = 0;
  const every = Math.max(1, Math.floor(count / 20));
  for (let i = 0; i < count; i++) {
    const isFrench = (i * 7919 % 1000) / 1000 < french;
    const text = JSON.stringify(session(i, 15_500, i % every === 0, isFrench), null, 1) + "\n";
    bytes += text.length;
    await Deno.writeTextFile(`${dir}/bench-${String(i).padStart(5, "0")}.json`, text);
  }
  return { dir, bytes };
}

/** The process's peak resident set size in KiB (`VmHWM`). */
function peakRssKiB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** Milliseconds of CPU this process used (user and system). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** One query's figures, from its own process. */
interface Measured {
  times: number[];
  cpu: number[];
  rssKiB: number;
  headline: string;
}

/** Child mode: searches `query` RUNS times, prints a Measured as JSON. */
async function measure(dir: string, query: string, runs: number): Promise<void> {
  const out: Measured = { times: [], cpu: [], rssKiB: 0, headline: "" };
  for (let r = 0; r < runs; r++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    const text = await searchSessions({ dir, query, limit: 10, maxOutput: 16_000 });
    out.times.push(performance.now() - t0);
    out.cpu.push(cpuMs() - c0);
    out.headline = text.split("\n")[0];
  }
  out.rssKiB = peakRssKiB();
  console.log(JSON.stringify(out));
}

/** Runs one query in a child process of its own. */
async function measureQuery(dir: string, query: string, runs: number): Promise<Measured> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", SELF, "--measure", dir, query, String(runs)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the search of "${query}" failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Generates a corpus, prints one table row per query, deletes the corpus. */
async function run(count: number, runs: number, french: number): Promise<void> {
  const t0 = performance.now();
  const { dir, bytes } = await generate(count, french);
  console.log(
    `\n${count} session files, ${(bytes / 1e6).toFixed(0)} MB, ${
      Math.round(french * 100)
    }% of them with accented words (generated in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s); load average ${Deno.loadavg()[0].toFixed(1)} on ${navigator.hardwareConcurrency} CPUs\n`,
  );
  try {
    // Read every file once, so that the first query does not pay for a cold page cache alone.
    await measureQuery(dir, "warm", 1);
    const idle = await measureQuery(dir, "none", 0);
    console.log(
      `peak RSS of the same process without a search: ${(idle.rssKiB / 1024).toFixed(0)} MiB\n`,
    );
    console.log(`| query | wall, median of ${runs} | CPU, median | peak RSS | result |`);
    console.log("|---|---|---|---|---|");
    for (const q of QUERIES) {
      const r = await measureQuery(dir, q.query, runs);
      console.log(
        `| ${q.name}: \`${q.query}\` | ${median(r.times).toFixed(0)} ms | ${
          median(r.cpu).toFixed(0)
        } ms | ${(r.rssKiB / 1024).toFixed(0)} MiB | ${r.headline.replace(dir, "<dir>")} |`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (Deno.args[0] === "--measure") {
  await measure(Deno.args[1], Deno.args[2], Number(Deno.args[3]));
} else {
  const count = Number(Deno.args[0] ?? 10_000);
  const runs = Number(Deno.args[1] ?? 5);
  const shares = Deno.args[2] !== undefined ? [Number(Deno.args[2])] : [0.2, 1];
  for (const french of shares) await run(count, runs, french);
}
