/**
 * The programs the test suite runs besides Deno, checked before `deno task test`: when some are
 * missing it says which, what needs them and how to get them (or `.ci/run`, which installs them
 * all), once, instead of the suite failing test by test.
 *
 *   deno run --allow-read --allow-env scripts/test_tools.ts
 */

/** One program the suite needs: its name on the PATH, what needs it, how to get it. */
export interface TestTool {
  name: string;
  why: string;
  install: string;
  /** Only on these platforms (bubblewrap is Linux's); all when absent. */
  os?: readonly (typeof Deno.build.os)[];
}

const NPM_LSP = "npm install -g typescript-language-server@5.3.0 typescript@5.9.3 pyright@1.1.414";
const NPM_MCP =
  "npm install -g @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31";

/** Every program of the suite, in the order .ci/run installs them. */
export const TEST_TOOLS: readonly TestTool[] = [
  {
    name: "setsid",
    why: "commands run in their own session",
    install: "apt-get install util-linux",
    os: ["linux"],
  },
  {
    name: "fallocate",
    why: "a command's output file kept small",
    install: "apt-get install util-linux",
    os: ["linux"],
  },
  {
    name: "tmux",
    why: "line mode is tested in a real terminal",
    install: "apt-get install tmux (brew install tmux)",
  },
  {
    name: "bwrap",
    why: "the sandbox of commands",
    install: "apt-get install bubblewrap",
    os: ["linux"],
  },
  { name: "typescript-language-server", why: "the lsp tool's TypeScript tests", install: NPM_LSP },
  { name: "pyright-langserver", why: "the lsp tool's Python tests", install: NPM_LSP },
  { name: "mcp-server-everything", why: "the MCP tests", install: NPM_MCP },
  { name: "mcp-server-filesystem", why: "the MCP tests", install: NPM_MCP },
];

/** Whether `name` is an executable file in one of the folders of `path` (a PATH value). */
export function onPath(name: string, path: string): boolean {
  const windows = Deno.build.os === "windows";
  const names = windows ? [name, `${name}.exe`, `${name}.cmd`] : [name];
  for (const dir of path.split(windows ? ";" : ":")) {
    if (!dir) continue;
    for (const n of names) {
      try {
        const info = Deno.statSync(`${dir}/${n}`);
        if (info.isFile && (windows || ((info.mode ?? 0o111) & 0o111) !== 0)) return true;
      } catch {
        // Not in this folder.
      }
    }
  }
  return false;
}

/** The tools of `tools` for platform `os` that `found` does not find. */
export function missingTools(
  found: (name: string) => boolean,
  os: typeof Deno.build.os = Deno.build.os,
  tools: readonly TestTool[] = TEST_TOOLS,
): TestTool[] {
  return tools.filter((t) => (!t.os || t.os.includes(os)) && !found(t.name));
}

/** What is said when tools are missing: each one, why, how to get it; then `.ci/run`. */
export function missingText(missing: readonly TestTool[]): string {
  const lines = [
    `The test suite needs ${missing.length === 1 ? "a program" : "programs"} not on the PATH:`,
    ...missing.map((t) => `  ${t.name} (${t.why}): ${t.install}`),
    "Run .ci/run to install them all and run the checks and the suite, or install them as above.",
  ];
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  const path = Deno.env.get("PATH") ?? "";
  const missing = missingTools((name) => onPath(name, path));
  if (missing.length) {
    await Deno.stderr.write(new TextEncoder().encode(missingText(missing)));
    Deno.exit(1);
  }
}
