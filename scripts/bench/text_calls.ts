/**
 * `deno run --allow-all scripts/bench/text_calls.ts [RUNS]`: the time mm adds to an answer to
 * recognise text-form tool calls (not a test). Two answers of 50 KB (prose, inline code, fenced
 * JSON and TypeScript), one ending with a `<tool_call>`: each is recognised whole
 * (`textToolCalls`, what the agent core runs once the answer is in) and streamed through the
 * display filter (`TextCallFilter`) in pieces of 16 characters, about a token each, as a server
 * sends them. Median and 90th percentile of RUNS runs, after warm-up; docs/performance.md
 * ("Text-form tool calls") gives the figures.
 */

import { TextCallFilter } from "../../lib/agent/text_calls/filter.ts";
import { textToolCalls } from "../../lib/agent/text_calls/mod.ts";
import { BUILTIN_TOOLS } from "../../tools/mod.ts";

const RUNS = Number(Deno.args[0] ?? 200);
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

/** Milliseconds of `fn`, RUNS times after 20 warm-up runs. */
function time(fn: () => void): number[] {
  for (let i = 0; i < 20; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
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

const rows: [string, number[]][] = [
  ["50 KB, no call: textToolCalls", time(recognise(plain, 0))],
  ["50 KB, no call: stream filter (16-char pieces)", time(filter(plain))],
  ["50 KB, a call at the end: textToolCalls", time(recognise(withCall, 1))],
  ["50 KB, a call at the end: stream filter (16-char pieces)", time(filter(withCall))],
];

console.log(`Deno ${Deno.version.deno}, ${RUNS} runs each, answer ${plain.length} characters\n`);
console.log("| answer and step | median | p90 |");
console.log("| --- | ---: | ---: |");
for (const [name, ms] of rows) {
  const { median, p90 } = summary(ms);
  console.log(`| ${name} | ${median.toFixed(2)} ms | ${p90.toFixed(2)} ms |`);
}
