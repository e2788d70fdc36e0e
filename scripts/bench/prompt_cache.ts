/**
 * `deno run --allow-all scripts/bench/prompt_cache.ts [STEPS] [CONTEXT]`: how much of each request
 * a server's prompt cache can reuse (not a test). llama.cpp (`cache_prompt`) and Ollama reuse the
 * longest prefix a request shares with the one before; what changes in the middle is processed
 * again. The real `mm -p` runs one turn of STEPS `bash` steps (each printing about 700
 * characters) under `contextSize: CONTEXT` against the scripted server, which keeps every request;
 * for each request, the share of the previous request (tools, then messages, as the chat template
 * renders them) found again at its start — what the server's cache saves it from reading again —
 * and the share of the request itself that does; then both over the turn, weighted by size.
 * Every request must also fit the window (mm's own estimate). Goal: ≥ 90% of the previous.
 * docs/performance.md ("The prompt cache") gives the figures.
 */

import { fileURLToPath } from "node:url";
import { answerReserve, promptTokens } from "../../lib/agent/budget.ts";
import { ScriptedServer } from "../../tests/helpers/server/mod.ts";

const STEPS = Number(Deno.args[0] ?? 20);
const CONTEXT = Number(Deno.args[1] ?? 4096);
const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

/** The length of the longest common prefix of `a` and `b`. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

const server = ScriptedServer.start();
server.summaries = "Summary: the user asked to run the build steps; steps so far printed listings.";
const model = "cache-bench";
server.script(model, [
  ...Array.from({ length: STEPS }, (_, i) => ({
    toolCalls: [{
      name: "bash",
      arguments: { command: `seq -f 'step ${i + 1}: line %g of the listing of the build' 1 18` },
    }],
  })),
  { text: "Done: every step ran." },
]);
const dir = await Deno.makeTempDir({ prefix: "mm-cache-bench-" });
await Deno.writeTextFile(
  `${dir}/mm.yaml`,
  `provider: llamacpp\nurl: ${server.url}\nmodel: ${model}\ncontextSize: ${CONTEXT}\nmaxTurns: ${
    STEPS + 5
  }\n`,
);
const run = await new Deno.Command(Deno.execPath(), {
  args: ["run", "--allow-all", "--no-config", "--quiet", MAIN, "-p", "run the build steps"],
  cwd: dir,
  env: { NO_COLOR: "1", HOME: dir },
  stdout: "piped",
  stderr: "piped",
}).output();
await Deno.remove(dir, { recursive: true });
await server.close();
const stderr = new TextDecoder().decode(run.stderr);
if (run.code !== 0) {
  console.error(stderr);
  throw new Error(`mm -p exited ${run.code}`);
}

const requests = server.chats(model).map((r) => r.body);
const rendered = requests.map((b) => JSON.stringify({ tools: b.tools, messages: b.messages }));
const limit = CONTEXT - answerReserve(CONTEXT);
let shared = 0;
let total = 0;
let worst = 1;
let ofNew = 0;
let newTotal = 0;
console.log(
  `| request | size (chars) | estimate (tokens) | the previous request reused | of this one |`,
);
console.log(`| --- | --- | --- | --- | --- |`);
for (let i = 0; i < rendered.length; i++) {
  const tokens = promptTokens(requests[i].messages, requests[i].tools);
  if (tokens > limit) throw new Error(`request ${i + 1} does not fit: ${tokens} > ${limit}`);
  if (i === 0) {
    console.log(`| 1 | ${rendered[0].length} | ${tokens} | (first) | |`);
    continue;
  }
  // What the server processed for the previous request and finds again at the start of this one:
  // what its prompt cache saves. The rest of this request (its new step) is read in any case.
  const prefix = commonPrefix(rendered[i - 1], rendered[i]);
  const share = prefix / rendered[i - 1].length;
  shared += prefix;
  total += rendered[i - 1].length;
  ofNew += prefix;
  newTotal += rendered[i].length;
  worst = Math.min(worst, share);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `| ${i + 1} | ${rendered[i].length} | ${tokens} | ${pct(share)} | ${
      pct(prefix / rendered[i].length)
    } |`,
  );
}
const compacted = stderr.includes("compacting it as /compact does");
console.log(
  `\n${rendered.length} requests, contextSize ${CONTEXT} (prompt limit ${limit} tokens)${
    compacted ? ", compacted once or more" : ""
  }: ${
    (shared / total * 100).toFixed(1)
  }% of what the server processed for a request starts the next one, for its cache to reuse` +
    ` (worst request ${(worst * 100).toFixed(1)}%; goal ≥ 90%); ${
      (ofNew / newTotal * 100).toFixed(1)
    }% of each request, its new step included, comes from the cache`,
);
