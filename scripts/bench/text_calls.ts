/**
 * `deno run --allow-all scripts/bench/text_calls.ts [RUNS]`: how well and how fast mm recognises
 * text-form tool calls (not a test). First, per dialect, over the samples of the corpus
 * (tests/fixtures/text_calls/): how many are recovered (the calls expected, with their
 * arguments), left as text (no call found) or wrong (other calls), the false positives over the
 * answers that hold no call, and the recogniser's time per KiB of its samples. Then the time mm
 * adds to an answer: two answers of 50 KB (prose, inline code, fenced JSON and TypeScript), one
 * ending with a `<tool_call>`: each is recognised whole (`textToolCalls`, what the agent core runs
 * once the answer is in) and streamed through the display filter (`TextCallFilter`) in pieces of
 * 16 characters, about a token each, as a server sends them. Median and 90th percentile of RUNS
 * runs, after warm-up; docs/performance.md ("Text-form tool calls") gives the figures, and
 * `scripts/bench/run.ts` prints the recovery rows too.
 */

import { TextCallFilter } from "../../lib/agent/text_calls/filter.ts";
import { textToolCalls } from "../../lib/agent/text_calls/mod.ts";
import { BUILTIN_TOOLS } from "../../tools/mod.ts";
import { ANSWERS } from "../../tests/fixtures/text_calls/answers.ts";
import { CALLS_BY_SYNTAX } from "../../tests/fixtures/text_calls/calls.ts";
import { DIALECT_CALLS } from "../../tests/fixtures/text_calls/dialects.ts";

const RUNS = Number(Deno.args[0] ?? 200);

/** One dialect's figures: samples recovered, left as text, wrong, and microseconds per KiB. */
export interface Recovery {
  dialect: string;
  samples: number;
  recovered: number;
  text: number;
  wrong: number;
  usPerKiB: number;
}

/** The calls recognised in `text`, arguments decoded, or undefined. */
function recognised(text: string) {
  return textToolCalls(text, BUILTIN_TOOLS)?.calls.map((c) => {
    try {
      return { name: c.name, arguments: JSON.parse(c.arguments) };
    } catch {
      return { name: c.name, arguments: c.arguments };
    }
  });
}

/** Microseconds per KiB of recognising `texts`, the median of `runs` rounds after warm-up. */
function usPerKiB(texts: string[], runs: number): number {
  const kib = texts.reduce((n, t) => n + t.length, 0) / 1024;
  const round = () => {
    for (const t of texts) textToolCalls(t, BUILTIN_TOOLS);
  };
  return (summary(time(round, runs)).median * 1000) / kib;
}

/**
 * Per dialect over the corpus: recovered, left as text, wrong, and the recogniser's time per KiB;
 * the last row is the answers that hold no call (`wrong` there counts false positives).
 */
export function benchRecovery(runs = 50): Recovery[] {
  const rows: Recovery[] = [];
  for (const [dialect, cases] of Object.entries({ ...CALLS_BY_SYNTAX, ...DIALECT_CALLS })) {
    const row = { dialect, samples: cases.length, recovered: 0, text: 0, wrong: 0, usPerKiB: 0 };
    for (const c of cases) {
      const found = recognised(c.text);
      if (!found) row.text++;
      else if (JSON.stringify(found) === JSON.stringify(c.calls)) row.recovered++;
      else row.wrong++;
    }
    row.usPerKiB = usPerKiB(cases.map((c) => c.text), runs);
    rows.push(row);
  }
  const answers = ANSWERS.map((a) => a.text);
  const positives = answers.filter((t) => recognised(t) !== undefined).length;
  rows.push({
    dialect: "answers without a call (wrong: false positives)",
    samples: answers.length,
    recovered: 0,
    text: answers.length - positives,
    wrong: positives,
    usPerKiB: usPerKiB(answers, runs),
  });
  return rows;
}
const SIZE = 50 * 1024;
const PIECE = 16;

/** A 50 KB answer: paragraphs with inline code, a fenced JSON config and a fenced function. */
function answer(): string {
  const paragraph =
    "The handler reads `config.json` first, then walks the `src/` tree and keeps every file whose " +
    "name ends in `.ts`; a file it cannot parse is reported with its line and column, not skipped. ";
  const json =
    '```json\n{"name": "demo", "version": "1.0.0", "scripts": {"test": "deno test"}}\n```\n';
  const code =
    "```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n";
  let text = "";
  for (let i = 0; text.length < SIZE; i++) {
    text += paragraph.repeat(3) + "\n\n" + (i % 2 ? json : code) + "\n";
  }
  return text.slice(0, SIZE);
}

const CALL =
  '\n<tool_call>\n{"name": "bash", "arguments": {"command": "deno test --allow-all"}}\n</tool_call>';
const plain = answer();
const withCall = plain.slice(0, SIZE - CALL.length) + CALL;

/** Median and 90th percentile (nearest rank) of `values`. */
function summary(values: number[]): { median: number; p90: number } {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, p90: s[Math.ceil(s.length * 0.9) - 1] };
}

/** Milliseconds of `fn`, `runs` times after 20 warm-up runs. */
function time(fn: () => void, runs = RUNS): number[] {
  for (let i = 0; i < 20; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    ms.push(performance.now() - start);
  }
  return ms;
}

function recognise(text: string, calls: number): () => void {
  return () => {
    const found = textToolCalls(text, BUILTIN_TOOLS);
    if ((found?.calls.length ?? 0) !== calls) throw new Error("wrong recognition");
  };
}

function filter(text: string): () => void {
  return () => {
    const f = new TextCallFilter(BUILTIN_TOOLS);
    let shown = 0;
    for (let i = 0; i < text.length; i += PIECE) shown += f.push(text.slice(i, i + PIECE)).length;
    shown += f.finish().length;
    if (shown === 0) throw new Error("nothing shown");
  };
}

if (import.meta.main) {
  console.log(`Deno ${Deno.version.deno}, ${RUNS} runs each, answer ${plain.length} characters\n`);
  console.log("| dialect | samples | recovered | left as text | wrong | µs per KiB |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const r of benchRecovery()) {
    console.log(
      `| ${r.dialect} | ${r.samples} | ${r.recovered} | ${r.text} | ${r.wrong} | ${
        r.usPerKiB.toFixed(0)
      } |`,
    );
  }
  const rows: [string, number[]][] = [
    ["50 KB, no call: textToolCalls", time(recognise(plain, 0))],
    ["50 KB, no call: stream filter (16-char pieces)", time(filter(plain))],
    ["50 KB, a call at the end: textToolCalls", time(recognise(withCall, 1))],
    ["50 KB, a call at the end: stream filter (16-char pieces)", time(filter(withCall))],
  ];
  console.log("\n| answer and step | median | p90 |");
  console.log("| --- | ---: | ---: |");
  for (const [name, ms] of rows) {
    const { median, p90 } = summary(ms);
    console.log(`| ${name} | ${median.toFixed(2)} ms | ${p90.toFixed(2)} ms |`);
  }
}
