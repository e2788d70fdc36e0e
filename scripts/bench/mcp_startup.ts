/**
 * `deno run -A scripts/bench/mcp_startup.ts [RUNS] [BASE]`: does MCP support slow down a run that
 * configures no MCP server? This tree (its tracked files as they are) against BASE (a git
 * revision, `main` by default), each copied into a temporary directory: `mm --version`, and a one-shot turn — spawn to
 * the first chat request at the server, and spawn to exit. Then, for scale, the same turn with one
 * MCP server (`mcp-server-everything` over stdio), whose first turn waits for the server. Printed
 * as a Markdown table (docs/performance.md, "MCP servers"); not a test.
 */

import { fileURLToPath } from "node:url";
import { type Recorded, ScriptedServer } from "../../tests/helpers/server/mod.ts";
import { interleaved, measure, type Sample, summary } from "./_measure.ts";

const RUNS = Number(Deno.args[0] ?? 15);
const BASE = Deno.args[1] ?? "main";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUN = ["run", "--allow-all", "--no-config", "--quiet"];

/**
 * A tree written into a new temporary directory: revision `rev` (`git archive`), or without one
 * the working tree's tracked files as they are now. Both trees run from the same kind of place, so
 * neither pays for where it lies (a run from the clone was found a few ms slower than the same
 * files from a temporary directory).
 */
async function copyTree(rev?: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mm-bench-tree-" });
  const script = rev === undefined
    ? `git ls-files -z | tar -c --null -T - | tar -x -C '${dir}'`
    : `git archive '${rev}' | tar -x -C '${dir}'`;
  const out = await new Deno.Command("bash", { args: ["-c", script], cwd: ROOT }).output();
  if (!out.success) throw new Error(`copying ${rev ?? "the working tree"} failed`);
  return dir;
}

const server = ScriptedServer.start();
const base = await copyTree(BASE);
const here = await copyTree();
const work = await Deno.makeTempDir({ prefix: "mm-bench-" });
const withMcp = await Deno.makeTempDir({ prefix: "mm-bench-mcp-" });
await Deno.writeTextFile(`${work}/mm.yaml`, `url: ${server.url}\nmodel: bench\n`);
await Deno.writeTextFile(
  `${withMcp}/mm.yaml`,
  `url: ${server.url}\nmodel: bench\nmcpServers:\n  ev: {command: mcp-server-everything}\n`,
);

// Chat request arrival times by model (the server records a request once its body is read).
const arrivals = new Map<string, number>();
const record = server.requests.push.bind(server.requests);
server.requests.push = (...items: Recorded[]) => {
  for (const r of items) {
    if (r.path.endsWith("/chat/completions") && !arrivals.has(r.body?.model)) {
      arrivals.set(r.body.model, performance.now());
    }
  }
  return record(...items);
};

let turns = 0;
/** One `mm -p` turn of the tree at `root`, answered at once, in `cwd`. */
async function turn(root: string, cwd: string): Promise<Sample> {
  const model = `bench-${turns++}`;
  server.script(model, [{ text: "done" }]);
  const sample = await measure([...RUN, `${root}/main.ts`, "-p", "go", "--model", model], cwd);
  return { ...sample, firstByteMs: arrivals.get(model)! - sample.spawnedAt };
}

const version = (root: string) => () => measure([...RUN, `${root}/main.ts`, "--version"], work);
const [baseVersion, thisVersion, baseTurn, thisTurn, mcpTurn] = await interleaved([
  version(base),
  version(here),
  () => turn(base, work),
  () => turn(here, work),
  () => turn(here, withMcp),
], RUNS);
await server.close();
for (const dir of [base, here, work, withMcp]) await Deno.remove(dir, { recursive: true });

const ms = (v: number) => `${Math.round(v)} ms`;
const times = (s: Sample[], key: "ms" | "firstByteMs") => summary(s.map((x) => x[key]!));
const rssMedian = (s: Sample[]) =>
  `${(summary(s.map((x) => x.rssKiB)).median / 1024).toFixed(0)} MiB`;
const rows: string[][] = [];
function row(what: string, samples: Sample[], key: "ms" | "firstByteMs" = "ms") {
  const t = times(samples, key);
  rows.push([what, ms(t.median), ms(t.p90), key === "ms" ? rssMedian(samples) : ""]);
}
row(`\`mm --version\`, ${BASE}`, baseVersion);
row("`mm --version`, this tree", thisVersion);
row(`\`mm -p\`, no MCP server: spawn → first request, ${BASE}`, baseTurn, "firstByteMs");
row("`mm -p`, no MCP server: spawn → first request, this tree", thisTurn, "firstByteMs");
row(`\`mm -p\`, no MCP server: one answer, ${BASE}`, baseTurn);
row("`mm -p`, no MCP server: one answer, this tree", thisTurn);
row("`mm -p`, one MCP server (everything, stdio): spawn → first request", mcpTurn, "firstByteMs");
row("`mm -p`, one MCP server (everything, stdio): one answer", mcpTurn);

console.log(
  `${RUNS} runs each, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, base ${BASE}\n`,
);
const header = ["measure", "median", "p90", "peak RSS median"];
for (const r of [header, header.map(() => "---"), ...rows]) console.log(`| ${r.join(" | ")} |`);
