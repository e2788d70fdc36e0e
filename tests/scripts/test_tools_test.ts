import { fileURLToPath } from "node:url";
import {
  missingText,
  missingTools,
  onPath,
  TEST_TOOLS,
  type TestTool,
} from "../../scripts/test_tools.ts";
import { assertEquals } from "../helpers/assert.ts";
import { tempDir } from "../helpers/mm.ts";

const SCRIPT = fileURLToPath(new URL("../../scripts/test_tools.ts", import.meta.url));

Deno.test("missingTools: the tools of this platform not found", () => {
  const found = new Set(["tmux", "setsid", "fallocate"]);
  const linux = missingTools((n) => found.has(n), "linux").map((t) => t.name);
  assertEquals(linux, [
    "bwrap",
    "typescript-language-server",
    "pyright-langserver",
    "mcp-server-everything",
    "mcp-server-filesystem",
  ]);
  const mac = missingTools((n) => found.has(n) || n !== "tmux", "darwin").map((t) => t.name);
  assertEquals(mac, []);
  assertEquals(missingTools(() => true, "linux"), []);
});

Deno.test("missingText: each tool, why, how to get it; then .ci/run", () => {
  const tools: TestTool[] = [TEST_TOOLS.find((t) => t.name === "tmux")!];
  assertEquals(
    missingText(tools),
    "The test suite needs a program not on the PATH:\n" +
      "  tmux (line mode is tested in a real terminal): apt-get install tmux (brew install tmux)\n" +
      "Run .ci/run to install them all and run the checks and the suite, or install them as above.\n",
  );
});

Deno.test("onPath: an executable file in a folder of PATH", async () => {
  const dir = await tempDir("mm-tools-");
  await Deno.writeTextFile(`${dir}/tool`, "#!/bin/sh\n");
  await Deno.writeTextFile(`${dir}/plain`, "text");
  await Deno.chmod(`${dir}/tool`, 0o755);
  await Deno.mkdir(`${dir}/folder`);
  assertEquals(onPath("tool", `/nonexistent:${dir}`), true);
  assertEquals(onPath("plain", dir), false);
  assertEquals(onPath("folder", dir), false);
  assertEquals(onPath("tool", ""), false);
});

Deno.test("the script: with an empty PATH it fails once, naming every tool", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", "--no-config", SCRIPT],
    env: { PATH: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 1);
  for (const t of missingTools(() => false)) assertEquals(text.includes(`  ${t.name} (`), true);
  assertEquals(text.endsWith("or install them as above.\n"), true);
});

Deno.test(".ci/run installs every tool, and README's Test it names it", async () => {
  const root = new URL("../../", import.meta.url);
  const ci = await Deno.readTextFile(new URL(".ci/run", root));
  for (const t of TEST_TOOLS) assertEquals(ci.includes(`command -v ${t.name} `), true, t.name);
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const testIt = readme.slice(readme.indexOf("## Test it"));
  assertEquals(testIt.includes(".ci/run"), true);
});
