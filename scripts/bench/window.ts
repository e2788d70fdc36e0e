/**
 * `deno run --allow-all scripts/bench/window.ts`: window mode's frames while a model streams
 * (docs/performance.md, "Window mode"). Not a test; it prints a Markdown table.
 *
 * The real event path: the scripted server (another process) streams 2,000 tokens a second for
 * 5 s over HTTP and SSE to the real agent (the shared start-up, its chat client), whose events go
 * to the window's screen (lib/frontend/window/render.ts: the blocks, the layout, the frame writer),
 * drawing at 100×30 into /dev/null (the answer's Markdown rendered), with 2,000 and then 20,000 earlier blocks in the conversation.
 * Mid-stream the window is resized to 60×20 and back. Measured: each frame's time (compose and
 * write), the CPU of this process (the server's is not in it), the bytes written a second.
 */

import process from "node:process";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../../lib/config/config.ts";
import { start } from "../../lib/frontend/start.ts";
import { WindowScreen } from "../../lib/frontend/window/render.ts";
import { writeAll } from "../../lib/frontend/terminal/output.ts";
import { loadLexer } from "../../lib/frontend/terminal/markdown.ts";

const SERVER = fileURLToPath(new URL("./window_server.ts", import.meta.url));
const TOKENS = 10_000;
const RATE = 2_000;

/** The 95th percentile (nearest rank) of `values`. */
function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(s.length * 0.95) - 1)] ?? 0;
}

const server = new Deno.Command(Deno.execPath(), {
  args: ["run", "--allow-all", "--no-config", "--quiet", SERVER, String(TOKENS), String(RATE)],
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
const url = (await reader.read()).value!.trim();

const cwd = await Deno.makeTempDir({ prefix: "mm-bench-window-" });
const config = {
  ...defaultConfig(),
  provider: "openai" as const,
  url: `${url}/v1`,
  model: "bench",
  bashTool: false,
  editTools: false,
};
const started = await start({ config, cwd, runWarning: () => {}, sessionWarning: () => {} });
if (!started.ok) throw new Error(started.error);
const begun = started;
const sink = Deno.openSync("/dev/null", { write: true });

/** One run: `earlier` blocks, then the stream; the figures. */
async function run(earlier: number) {
  let size = { columns: 100, rows: 30 };
  const screen = new WindowScreen({
    write: (bytes) => writeAll(sink, bytes),
    size: () => size,
    up: () => true,
  }, {
    colour: true,
    counterOf: () => undefined,
    titleOf: (a) => a,
    // The answer drawn as Markdown, as the window draws it (its lexer loaded ahead).
    markdown: { hyperlinks: false, lexer: await loadLexer() },
  });
  const view = screen.view;
  // Earlier turns: a prompt, a call with its output, an answer, a recap: four blocks each.
  for (let i = 0; screen.conversation.blocks.length < earlier; i++) {
    view.prompt(`question ${i}: what does the function on line ${i} do?`);
    view.handle({
      type: "tool_call",
      id: `c${i}`,
      name: "bash",
      kind: "execute",
      emoji: "🛠️",
      summary: `grep -n f${i} src/*.ts`,
      input: {},
    });
    view.handle({
      type: "tool_result",
      id: `c${i}`,
      name: "bash",
      output: `src/a.ts:${i}: function f${i}() {}\n`,
      failed: false,
    });
    view.handle({ type: "text", text: `It defines f${i}, which returns nothing. `.repeat(3) });
    view.handle({ type: "recap", counters: { commands: 1, fileOps: 0, skills: 0, lsp: 0 } });
  }
  screen.frame();
  screen.frameTimes.length = 0;
  screen.written = 0;
  const resize = (columns: number, rows: number) => {
    size = { columns, rows };
    screen.requestFrame();
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const timers = [
    setTimeout(() => resize(60, 20), 2500),
    setTimeout(() => resize(100, 30), 3500),
  ];
  const agent = begun.agent({
    askPermission: () => Promise.resolve({ kind: "allow" }),
    emit: (e) => view.handle(e),
    warn: () => {},
  });
  screen.turnStarted = Date.now();
  const outcome = await agent.runTurn("stream", new AbortController().signal);
  await new Promise((r) => setTimeout(r, 50)); // the last frame
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const t of timers) clearTimeout(t);
  if (outcome.status !== "answered") throw new Error(`the turn ${outcome.status}`);
  const times = screen.frameTimes;
  return {
    earlier,
    seconds,
    tokensPerSecond: TOKENS / seconds,
    frames: times.length,
    p95: p95(times),
    max: Math.max(...times),
    cpu: (cpu.user + cpu.system) / 1000 / (seconds * 1000) * 100,
    bytesPerSecond: screen.written / seconds,
  };
}

const rows = [];
for (const earlier of [2_000, 20_000]) rows.push(await run(earlier));
console.log(
  "| earlier blocks | stream | frames | frame p95 | frame max | CPU (one core) | written |",
);
console.log(
  "| -------------- | ------ | ------ | --------- | --------- | -------------- | ------- |",
);
for (const r of rows) {
  console.log(
    `| ${r.earlier.toLocaleString("en")} | ${r.seconds.toFixed(1)} s at ${
      Math.round(r.tokensPerSecond)
    } tokens/s | ${r.frames} | ${r.p95.toFixed(2)} ms | ${r.max.toFixed(2)} ms | ${
      r.cpu.toFixed(1)
    } % | ${(r.bytesPerSecond / 1024).toFixed(1)} KB/s |`,
  );
}
await begun.close();
await server.stdin.close();
await server.status;
sink.close();
await Deno.remove(cwd, { recursive: true });
