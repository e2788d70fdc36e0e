/**
 * Small projects for the lsp tests (TypeScript and Python, with emoji and CJK text before an
 * identifier), a context with a real pool in them, and looks at the process table.
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig, type LspServerConfig } from "../../../lib/config/config.ts";
import { realContext } from "../../../lib/context.ts";
import { LspError } from "../../../lib/lsp/client.ts";
import { LspPool } from "../../../lib/lsp/pool.ts";
import { commandOnPath } from "../../../lib/lsp/servers.ts";
import type { ToolContext, ToolResult } from "../../../lib/tool.ts";
import type { LspInput } from "../../../tools/lsp/call.ts";
import { lsp } from "../../../tools/lsp/mod.ts";

/** A line with emoji and CJK text before `greet`: column 40 in characters, 41 in UTF-16 (0-based). */
export const TS_EMOJI_LINE = 'const emoji = "😀😀 漢字"; const message = greet(emoji);';

/** The TypeScript project: `greet` declared on line 4, called on lines 8 and 9. */
export const TS_FILES: Record<string, string> = {
  "main.ts": [
    "// greet says hello to someone: greet them",
    'import { shout } from "./util.ts";',
    "",
    "export function greet(name: string): string {",
    '  return "hi " + name;',
    "}",
    "",
    TS_EMOJI_LINE,
    'console.log(greet("x"), shout(message));',
    "",
  ].join("\n"),
  "util.ts": [
    "/** shout makes text loud. */",
    "export function shout(text: string): string {",
    '  return text.toUpperCase() + "!";',
    "}",
    "",
  ].join("\n"),
  "broken.ts": 'const count: number = "three";\nexport { count };\n',
};

/** What typescript-language-server needs to accept `./util.ts` imports. */
export const TSCONFIG = JSON.stringify({
  compilerOptions: {
    allowImportingTsExtensions: true,
    noEmit: true,
    strict: true,
    target: "es2022",
    lib: ["es2022", "dom"],
  },
});

/** A line with emoji and CJK text before `greet`: column 28 in characters, 29 in UTF-16 (0-based). */
export const PY_EMOJI_LINE = 'emoji = "😀😀 漢字"; message = greet(emoji)';

/** The Python project: `greet` declared on line 5, called on lines 9 and 10. */
export const PY_FILES: Record<string, string> = {
  "app.py": [
    "# greet says hello to someone: greet them",
    "from util import shout",
    "",
    "",
    "def greet(name: str) -> str:",
    '    return "hi " + name',
    "",
    "",
    PY_EMOJI_LINE,
    'print(greet("x"), shout(message))',
    "",
  ].join("\n"),
  "util.py": [
    '"""Loud text."""',
    "",
    "",
    "def shout(text: str) -> str:",
    '    return text.upper() + "!"',
    "",
  ].join("\n"),
  "broken.py": 'count: int = "three"\n',
};

/** The directories {@linkcode project} made and {@linkcode removeProjects} has not removed yet. */
const projects: string[] = [];

/**
 * A temporary directory holding `files` (its real path, so it compares with servers' URIs); a test
 * that makes one calls {@linkcode removeProjects} when it ends.
 */
export async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mm-lsp-" }));
  projects.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await Deno.mkdir(dirname(`${dir}/${name}`), { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

/** Removes the directories {@linkcode project} made. */
export async function removeProjects(): Promise<void> {
  for (const dir of projects.splice(0)) await Deno.remove(dir, { recursive: true }).catch(() => {});
}

/** The fake server of tests/helpers/lsp/fake_server.ts as a configured server, with its options. */
export function fakeServer(
  options: Record<string, unknown> = {},
  name = "fake",
  extensions = [".fk"],
): LspServerConfig {
  const script = fileURLToPath(new URL("./fake_server.ts", import.meta.url));
  return {
    name,
    command: Deno.execPath(),
    args: ["run", "--quiet", "--allow-all", "--no-config", script],
    extensions,
    initializationOptions: options,
  };
}

/** gopls as configured, for the declaration and discovery tests (never started). */
export const GOPLS: LspServerConfig = {
  name: "gopls",
  command: "gopls",
  args: [],
  extensions: [".go"],
};

/** pyright as configured, one extension without its dot (never started). */
export const PYRIGHT: LspServerConfig = {
  name: "pyright",
  command: "pyright-langserver",
  args: ["--stdio"],
  extensions: [".py", "pyi"],
};

/** The LspError `p` rejects with; anything else fails the test. */
export async function rejection(p: Promise<unknown>): Promise<LspError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof LspError) return e;
    throw e;
  }
  throw new Error("expected an LspError");
}

/** `deno lsp`, enabled for a project without deno.json. */
export const DENO_SERVER: LspServerConfig = {
  name: "deno",
  command: "deno",
  args: ["lsp"],
  extensions: [".ts", ".tsx"],
  initializationOptions: { enable: true, lint: false },
};

/** typescript-language-server (npm), for .ts files. */
export const TSLS_SERVER: LspServerConfig = {
  name: "typescript-language-server",
  command: "typescript-language-server",
  args: ["--stdio"],
  extensions: [".ts", ".js"],
};

/** pyright's language server (npm), for .py files. */
export const PYRIGHT_SERVER: LspServerConfig = {
  name: "pyright",
  command: "pyright-langserver",
  args: ["--stdio"],
  extensions: [".py"],
};

/** Whether `command` is on this process's PATH. */
export function installed(command: string): boolean {
  return commandOnPath(command, Deno.env.get("PATH") ?? "", Deno.cwd());
}

/**
 * Whether a test of `command` is skipped: only outside CI when the server is not installed (CI
 * installs it, so there a missing server fails the test instead of hiding).
 */
export function skipWithout(command: string): boolean {
  return !installed(command) && Deno.env.get("CI") !== "true";
}

/** A real context in `dir` whose lsp pool holds `servers`. */
export function lspContext(dir: string, servers: LspServerConfig[]): {
  ctx: ToolContext;
  pool: LspPool;
  call: (input: LspInput) => Promise<ToolResult>;
} {
  const pool = new LspPool(servers, dir);
  const config = { ...defaultConfig(), lsp: { servers } };
  const ctx = realContext(config, dir, new AbortController().signal, pool);
  return { ctx, pool, call: (input) => lsp.run(input, ctx) };
}

/** One process of the process table. */
export interface ProcessRow {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
}

/** The process table, from /proc (Linux). */
export async function processTable(): Promise<ProcessRow[]> {
  const rows: ProcessRow[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      rows.push({
        pid: Number(entry.name),
        state: fields[0],
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

/** The processes (zombies included) of process group `pgid`, or that are `pid` itself. */
export async function groupProcesses(pgid: number): Promise<ProcessRow[]> {
  return (await processTable()).filter((p) => p.pgid === pgid || p.pid === pgid);
}

/** The pids of the processes whose working directory is `dir`. */
export async function processesIn(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const p of await processTable()) {
    try {
      if (await Deno.readLink(`/proc/${p.pid}/cwd`) === dir) pids.push(p.pid);
    } catch {
      // not ours to read, or gone
    }
  }
  return pids;
}

/**
 * Waits until no process of group `pgid` is left, zombies included (the group's children that
 * outlived the server are reaped by init, a moment later); returns what is left after `ms`.
 */
export async function groupGone(pgid: number, ms = 5000): Promise<ProcessRow[]> {
  const until = Date.now() + ms;
  let left = await groupProcesses(pgid);
  while (left.length && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = await groupProcesses(pgid);
  }
  return left;
}
