/**
 * A fuzzer of the tools through the path the agent uses: a random or malformed call goes through
 * `prepareCall` (lib/agent/dispatch.ts: the name forgiven, the JSON repaired, the input coerced),
 * then the tool's `run` with the real context (lib/context.ts: this machine's files and
 * processes) in a temporary directory that holds what a tool should never be stuck on: a named
 * pipe, a socket, links to them, devices, a binary file, a large file, invalid UTF-8. Inputs are
 * huge strings, control characters, deep nesting, wrong types, negative and huge numbers; some
 * calls are cancelled while they run. A throw out of `prepareCall` or `run` is *uncaught* (a bug:
 * a tool never throws for an ordinary failure); a call that has not returned 15 s after it began,
 * or 1.5 s after its cancellation, is a *hang*.
 *
 * `deno run --allow-all scripts/bench/fuzz_tools.ts [CALLS] [SEED]` prints the figures (calls,
 * uncaught, hangs, peak memory) and exits 1 when anything was uncaught or hung; the test suite runs
 * a short fixed-seed run (tests/scripts/bench/fuzz_tools_test.ts). docs/security.md has the
 * figures.
 */

import { join } from "node:path";
import { prepareCall } from "../../lib/agent/dispatch.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { realContext } from "../../lib/context.ts";
import type { AnyTool, ToolContext } from "../../lib/tool.ts";
import { declaredTools } from "../../tools/mod.ts";
import { declaredTool } from "../../tools/declared.ts";
import { readSkillTool, scanSkills } from "../../tools/read_skill.ts";
import { random } from "./random.ts";

/** What a fuzz run found. */
export interface FuzzReport {
  calls: number;
  /** Calls refused by `prepareCall` (an invalid call: the model reads why). */
  refused: number;
  /** Throws out of `prepareCall` or a tool's `run`: each one a bug. */
  uncaught: { tool: string; arguments: string; error: string }[];
  /** Calls that did not return in time. */
  hangs: { tool: string; arguments: string; cancelled: boolean }[];
  /** The highest resident set size seen, in bytes. */
  peakRss: number;
  /** Milliseconds the run took. */
  ms: number;
}

/** Milliseconds a call may take before it is cancelled and counted as a hang. */
export const CALL_LIMIT = 15_000;
/** Milliseconds a cancelled call may take to return before it is counted as a hang. */
export const CANCEL_LIMIT = 1_500;

/** The things a generator picks from. */
class Picker {
  constructor(readonly next: () => number) {}

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One of `items`. */
  one<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Paths a call names: the traps of the directory, devices, nothing, odd names (never outside it). */
const PATHS = [
  "a.txt",
  "crlf.txt",
  "big.txt",
  "binary.bin",
  "latin1.txt",
  "empty.txt",
  "dir",
  "dir/inner.txt",
  "fifo",
  "link-to-fifo",
  "sock",
  "dangling",
  "missing.txt",
  "new/deep/file.txt",
  "/dev/zero",
  "/dev/urandom",
  "/dev/null",
  "",
  " ",
  "a.txt/under-a-file",
  "é\u0301\u200b.txt",
  "ctl\x1b[2J\x07.txt",
];

/** Texts: ordinary, empty, control characters, escapes, lone surrogates, long ones. */
function text(p: Picker): string {
  switch (p.int(10)) {
    case 0:
      return "";
    case 1:
      return "line one\nline two\n";
    case 2:
      return "\x1b[2J\x1b]0;title\x07\r\x00\x7f\x9b";
    case 3:
      return "\ud800 lone \udfff surrogates";
    case 4:
      return "x".repeat(p.one([100, 20_000, 300_000]));
    case 5:
      return "é".repeat(p.one([64, 20_000]));
    case 6:
      return "{{v}} -o/x --output=/x $(touch pwned) `id` ; | >";
    case 7:
      return Array.from({ length: 50 }, (_, i) => `line ${i}\t${"\u00e9".repeat(i % 7)}`).join(
        "\n",
      );
    case 8:
      return String.fromCharCode(...Array.from({ length: 64 }, () => p.int(0x3000)));
    default:
      return "hello";
  }
}

/** Any JSON value, of any type, sometimes nested. */
function value(p: Picker, depth = 0): unknown {
  switch (p.int(depth > 2 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return p.one([true, false, "true", "FALSE", "yes"]);
    case 2:
      return p.one([0, -1, 1, 2 ** 53, -(2 ** 31), 1.5, 1e308, "3", "-2", "1e3", "NaN"]);
    case 3:
    case 4:
      return text(p);
    case 5:
      return p.one(PATHS);
    case 6:
      return Array.from({ length: p.int(4) }, () => value(p, depth + 1));
    case 7:
      return Object.fromEntries(
        Array.from(
          { length: p.int(4) },
          () => [p.one(["old", "new", "path", "x"]), value(p, depth + 1)],
        ),
      );
    default:
      return { old: text(p), new: text(p) };
  }
}

/** The arguments of a call to `tool`: plausible fields with hostile values, or malformed text. */
function callArguments(p: Picker, tool: AnyTool): string {
  switch (p.int(12)) {
    case 0:
      return p.one([
        "",
        "{",
        "[]",
        "null",
        "42",
        '"{\\"path\\": \\"a.txt\\"}"',
        "{'path': 'a.txt',}",
      ]);
    case 1:
      return "[".repeat(p.one([100, 5_000])) + "]".repeat(p.one([0, 100]));
    case 2:
      return `{"path": "a.txt", ${'"x": 1,'.repeat(p.int(1000))} "y": 2}`;
    case 3:
      return text(p);
    default: {
      const names = [
        ...Object.keys(tool.parameters),
        ...Object.values(tool.parameters).flatMap(
          (d) => d.aliases ?? [],
        ),
      ];
      const args: Record<string, unknown> = {};
      for (const name of names) if (p.chance(0.8)) args[name] = fieldValue(p, tool.name, name);
      if (p.chance(0.1)) args[p.one(["extra", "PATH", "__proto__"])] = value(p);
      return JSON.stringify(args);
    }
  }
}

/** A value for field `name` of `tool`: mostly the right type, sometimes not. */
function fieldValue(p: Picker, tool: string, name: string): unknown {
  if (p.chance(0.2)) return value(p);
  if (name === "path" || name === "file" || name === "file_path" || name === "output") {
    return p.one(PATHS);
  }
  if (name === "edits") {
    return Array.from(
      { length: p.int(4) },
      () => p.chance(0.3) ? value(p, 1) : { old: p.chance(0.5) ? "line" : text(p), new: text(p) },
    );
  }
  if (name === "command") {
    // Commands that print, flood, sleep, leave a job or print escapes: nothing that harms the host.
    return p.one([
      "echo hi",
      "printf '\\033[2J\\033]0;x\\007'",
      "yes | head -c 3000000",
      "sleep 1",
      "sleep 30 & echo started",
      "cat fifo </dev/null & sleep 0.2; kill %1",
      "exit 3",
      "head -c 100000 /dev/urandom",
      "",
    ]);
  }
  if (name === "url") return p.one(["http://127.0.0.1:1/", "https//x", "ftp://x", "", "::"]);
  if (["start", "end", "line", "column", "limit"].includes(name)) return value(p);
  if (tool === "search_memory" && name === "query") {
    return p.one(["café", "a".repeat(30_000), "é".repeat(20_000), "", "de a", text(p)]);
  }
  return text(p);
}

/** Makes the directory the calls run in: files, a named pipe, a socket, links. */
async function trapDirectory(): Promise<{ dir: string; close: () => void }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mm-fuzz-" }));
  const write = (name: string, data: string | Uint8Array) =>
    typeof data === "string"
      ? Deno.writeTextFile(join(dir, name), data)
      : Deno.writeFile(join(dir, name), data);
  await write("a.txt", "alpha\nbeta\ngamma\n");
  await write("crlf.txt", "one\r\ntwo\r\n");
  await write("big.txt", "0123456789abcdef\n".repeat(64 * 1024));
  await write("binary.bin", new Uint8Array([0, 1, 2, 0, 255]));
  await write("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await write("empty.txt", "");
  await Deno.mkdir(join(dir, "dir"));
  await write("dir/inner.txt", "inner\n");
  await new Deno.Command("mkfifo", { args: [join(dir, "fifo")] }).output();
  await Deno.symlink(join(dir, "fifo"), join(dir, "link-to-fifo"));
  await Deno.symlink(join(dir, "nowhere"), join(dir, "dangling"));
  const listener = Deno.listen({ transport: "unix", path: join(dir, "sock") });
  await Deno.mkdir(join(dir, ".mm", "skills"), { recursive: true });
  await write(".mm/skills/deploy.md", "---\ndescription: Deploy it\n---\nSteps.\n");
  await Deno.mkdir(join(dir, ".mm", "sessions"), { recursive: true });
  await write(
    ".mm/sessions/20260101-000000-abcdef.json",
    JSON.stringify({
      id: "20260101-000000-abcdef",
      created: "2026-01-01T00:00:00Z",
      updated: "2026-01-01T00:00:00Z",
      cwd: dir,
      provider: "ollama",
      model: "m",
      messages: [
        { role: "user", content: "un café noir, Préférence", turn: 1 },
        { role: "assistant", content: "Voilà: λόγος", turn: 1 },
      ],
      errors: [],
    }),
  );
  return {
    dir,
    close: () => {
      listener.close();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

/** The configuration of the fuzzed tools: every tool declared, short timeouts, no real server. */
function fuzzConfig(): Config {
  return {
    ...defaultConfig(),
    url: "http://127.0.0.1:1",
    model: "fuzz",
    bashTimeout: 2_000,
    maxOutput: 4_000,
    fetchContentTool: true,
    saveAnswerTool: true,
    sessions: { ...defaultConfig().sessions, enabled: true, autoSearchMemory: true },
  };
}

/** Every tool under fuzz: the built-ins, read_skill, and two declared tools. */
async function fuzzTools(config: Config, dir: string): Promise<AnyTool[]> {
  const tools = declaredTools(config);
  tools.push(readSkillTool(await scanSkills(join(dir, ".mm", "skills"))));
  tools.push(declaredTool({
    name: "echo_it",
    command: ["echo", "{{v}}", "--n={{n}}"],
    parameters: { v: { type: "string" }, n: { type: "integer", optional: true } },
  }));
  tools.push(declaredTool({
    name: "count_lines",
    command: ["wc", "-l", "{{file}}"],
    parameters: { file: { type: "string" } },
  }));
  return tools;
}

/** Writes only inside `dir`; anything else throws, and the fuzzer counts it as uncaught. */
function sandboxedWrite(
  fs: ToolContext["fs"],
  dir: string,
  path: string,
  data: Uint8Array,
): Promise<void> {
  const target = fs.resolve(path);
  if (target !== dir && !target.startsWith(`${dir}/`)) {
    throw new Error(`a tool tried to write outside the fuzzer's directory: ${target}`);
  }
  return fs.writeAtomic(path, data);
}

/** How one call ended. */
type Ended =
  | { kind: "returned" }
  | { kind: "threw"; error: string }
  | { kind: "hung"; cancelled: boolean };

/** Runs one prepared call with a real context, cancelled at `cancelAfter` ms when given. */
async function runCall(
  tool: AnyTool,
  input: Record<string, unknown>,
  config: Config,
  dir: string,
  callerText: string,
  cancelAfter: number | undefined,
): Promise<Ended> {
  const controller = new AbortController();
  const real = realContext(config, dir, controller.signal);
  const ctx: ToolContext = {
    ...real,
    // The fuzzer runs as whoever runs the suite (root in CI): a tool that would write outside
    // its sandbox — over /dev/null, say, after a regression — is a finding, never a write.
    fs: { ...real.fs, writeAtomic: (path, data) => sandboxedWrite(real.fs, dir, path, data) },
    conversation: { history: [], callerText, previousAnswer: "the previous answer" },
  };
  const ran: Promise<Ended> = (async () => {
    try {
      await tool.run(input, ctx);
      return { kind: "returned" as const };
    } catch (e) {
      return {
        kind: "threw" as const,
        error: e instanceof Error ? e.stack ?? e.message : String(e),
      };
    }
  })();
  const timers: ReturnType<typeof setTimeout>[] = [];
  const late = (ms: number, cancelled: boolean) =>
    new Promise<Ended>((resolve) => {
      timers.push(setTimeout(() => resolve({ kind: "hung", cancelled }), ms));
    });
  try {
    if (cancelAfter !== undefined) {
      const early = await Promise.race([
        ran,
        new Promise<undefined>((r) => timers.push(setTimeout(() => r(undefined), cancelAfter))),
      ]);
      if (early) return early;
      controller.abort();
      return await Promise.race([ran, late(CANCEL_LIMIT, true)]);
    }
    const ended = await Promise.race([ran, late(CALL_LIMIT, false)]);
    if (ended.kind === "hung") controller.abort();
    return ended;
  } finally {
    for (const t of timers) clearTimeout(t);
  }
}

/** Runs `calls` fuzzed calls from `seed`; `onCall` sees each as it ends. */
export async function fuzz(
  calls: number,
  seed: number,
  onCall?: (n: number, report: FuzzReport) => void,
): Promise<FuzzReport> {
  const started = performance.now();
  const p = new Picker(random(seed));
  const config = fuzzConfig();
  const { dir, close } = await trapDirectory();
  const tools = await fuzzTools(config, dir);
  const report: FuzzReport = { calls: 0, refused: 0, uncaught: [], hangs: [], peakRss: 0, ms: 0 };
  try {
    for (let n = 0; n < calls; n++) {
      const tool = p.one(tools);
      // Bash and the declared tools start processes: fewer of them keeps a run fast.
      if (tool.kind === "execute" && !p.chance(0.15)) {
        n--;
        continue;
      }
      const name = p.chance(0.1)
        ? p.one([tool.name.toUpperCase(), tool.name.replace("_", "-"), "nope"])
        : tool.name;
      const args = callArguments(p, tool);
      const cancelAfter = p.chance(0.1) ? p.int(50) : undefined;
      const callerText = p.chance(0.5) ? text(p) : "";
      report.calls++;
      let prepared;
      try {
        prepared = prepareCall(tools, { name, arguments: args });
      } catch (e) {
        report.uncaught.push({ tool: name, arguments: args.slice(0, 300), error: String(e) });
        continue;
      }
      if (!prepared.ok) {
        report.refused++;
      } else {
        const ended = await runCall(
          prepared.tool,
          prepared.input,
          config,
          dir,
          callerText,
          cancelAfter,
        );
        if (ended.kind === "threw") {
          report.uncaught.push({
            tool: prepared.tool.name,
            arguments: args.slice(0, 300),
            error: ended.error,
          });
        } else if (ended.kind === "hung") {
          report.hangs.push({
            tool: prepared.tool.name,
            arguments: args.slice(0, 300),
            cancelled: ended.cancelled,
          });
        }
      }
      report.peakRss = Math.max(report.peakRss, Deno.memoryUsage().rss);
      onCall?.(n + 1, report);
    }
  } finally {
    close();
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** The figures as Markdown lines. */
export function figures(report: FuzzReport, seed: number): string {
  return [
    `| calls | refused (invalid) | uncaught | hangs | peak RSS | time |`,
    `| ---: | ---: | ---: | ---: | ---: | ---: |`,
    `| ${report.calls} | ${report.refused} | ${report.uncaught.length} | ${report.hangs.length} | ${
      (report.peakRss / 1024 / 1024).toFixed(0)
    } MiB | ${(report.ms / 1000).toFixed(1)} s |`,
    ``,
    `seed ${seed}`,
  ].join("\n");
}

if (import.meta.main) {
  const calls = Number(Deno.args[0] ?? 20_000);
  const seed = Number(Deno.args[1] ?? 17);
  const report = await fuzz(calls, seed, (n) => {
    if (n % 1000 === 0) console.error(`${n} calls`);
  });
  for (const u of report.uncaught.slice(0, 10)) console.error("uncaught", u);
  for (const h of report.hangs.slice(0, 10)) console.error("hang", h);
  console.log(figures(report, seed));
  Deno.exit(report.uncaught.length || report.hangs.length ? 1 : 0);
}
