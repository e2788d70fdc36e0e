/**
 * The first run of an agent file with `mcpServers`, from source, with an empty Deno cache: Deno's
 * `Download https://registry.npmjs.org/…` lines of the lazily loaded MCP client never land in
 * mm's output; one line of mm's own says it is fetched, once (lib/npm_cache.ts).
 */

import { FETCHING_SDK, SDK_MODULE } from "../../lib/mcp/sdk.ts";
import { npmCachePath } from "../../lib/npm_cache.ts";
import { assertEquals } from "../helpers/assert.ts";
import { faultYaml } from "../helpers/mcp/servers.ts";
import { MAIN, tempDir, workdir } from "../helpers/mm.ts";

/** Whether `name` is a program on the PATH. */
function onPath(name: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${name}`).isFile;
    } catch {
      return false;
    }
  });
}

/** Runs `deno run <flags> main.ts <args>` in `cwd` with its own Deno cache `denoDir`. */
async function deno(flags: string[], args: string[], cwd: string, denoDir: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--no-config", ...flags, MAIN, ...args],
    cwd,
    env: {
      HOME: cwd,
      MM_TRUST: "1",
      XDG_CONFIG_HOME: `${cwd}/.config`,
      XDG_STATE_HOME: `${cwd}/.local/state`,
      DENO_DIR: denoDir,
    },
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("first run with mcpServers: no Download line of Deno's in mm doctor's output", async () => {
  const denoDir = await tempDir("mm-deno-dir-");
  // mm's own modules fetched quietly, as a user's earlier run did: the MCP client is not among them.
  const warm = await deno(["--quiet"], ["--version"], await tempDir(), denoDir);
  if (warm.code !== 0) {
    console.log(`first run: skipped, the npm registry cannot be reached (${warm.stderr.trim()})`);
    return;
  }
  const cachedSdk = () => {
    try {
      return Deno.statSync(npmCachePath(SDK_MODULE, { DENO_DIR: denoDir })).isDirectory;
    } catch {
      return false;
    }
  };
  assertEquals(cachedSdk(), false, "the MCP client is fetched only when needed");
  // A real MCP server when installed, else the fault server (its own Deno cache: the test run's).
  const entry = onPath("mcp-server-everything") ? "{command: mcp-server-everything}" : faultYaml();
  const dir = await workdir(
    `url: http://127.0.0.1:1\nmodel: m\nmcpServers:\n  first: ${entry}\n`,
  );
  // No --quiet: as a user runs mm from its URL.
  const first = await deno([], ["doctor"], dir, denoDir);
  const all = first.stdout + first.stderr;
  assertEquals(all.includes("Download"), false, all);
  assertEquals(first.stderr.split("\n").filter((l) => l === FETCHING_SDK).length, 1, all);
  assertEquals(first.stdout.includes("✔ MCP server first:"), true, all);
  assertEquals(cachedSdk(), true);
  const second = await deno([], ["doctor"], dir, denoDir);
  assertEquals(second.stderr.includes(FETCHING_SDK), false, second.stderr);
  assertEquals((second.stdout + second.stderr).includes("Download"), false);
});
