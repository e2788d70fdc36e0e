/**
 * Permission rules through the real `mm` (issue 24, part 4; docs/security.md): allow, deny and ask
 * in `-p` against the scripted server, reads out of the project and fetches that ask, and line
 * mode's "always" for a fetch, which allows its host for the session and no other.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, exists, MAIN, runMM, tempDir, workdir } from "../helpers/mm.ts";
import { faultYaml } from "../helpers/mcp/servers.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { boxTakesKeys, Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Pages on 127.0.0.1: every path answers its own name. */
const pages = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
  const path = new URL(req.url).pathname;
  if (path === "/robots.txt") return new Response("not found", { status: 404 });
  return new Response(`<html><body><p>page ${path}</p></body></html>`, {
    headers: { "content-type": "text/html; charset=utf-8" },
  });
});
const port = pages.addr.port;

/** A working directory whose agent file points at the scripted server, with `extra`. */
function dirFor(model: string, extra: string): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
function toolMessages(model: string, n: number): string[] {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[n].body.messages.filter((m: any) => m.role === "tool").map((
    m: { content: string },
  ) => m.content);
}

/** One bash call of `command`, then an answer. */
function bashThenDone(model: string, ...commands: string[]): void {
  server.script(model, [
    { toolCalls: commands.map((command) => ({ name: "bash", arguments: { command } })) },
    { text: "done" },
  ]);
}

Deno.test("permission rules in mm -p", async (t) => {
  await runCases(t, {
    "allow lets a bash command run with yolo: false": async () => {
      bashThenDone("pr-allow", "echo allowed");
      const dir = await dirFor("pr-allow", "yolo: false\npermissions: {allow: [bash(echo *)]}\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("pr-allow", 1), ["allowed\n"]);
    },
    "deny refuses even with yolo: true, and the model reads the rule": async () => {
      bashThenDone("pr-deny", "touch a && rm -f a", "touch b");
      const dir = await dirFor("pr-deny", "yolo: true\npermissions: {deny: [bash(rm *)]}\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("pr-deny", 1), [
        '[command denied by the permission rule "deny: bash(rm *)" — it will be denied every time; do not call it again]',
        "",
      ]);
      assertEquals([await exists(`${dir}/a`), await exists(`${dir}/b`)], [false, true]);
    },
    "bash(git status*) allowed does not allow git status; rm -rf x": async () => {
      bashThenDone("pr-chain", "git status; rm -rf x");
      const dir = await dirFor(
        "pr-chain",
        "yolo: false\npermissions: {allow: ['bash(git status*)']}\n",
      );
      await Deno.mkdir(`${dir}/x`);
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("pr-chain", 1), ["[command rejected by the user]"]);
      assertEquals(await exists(`${dir}/x`), true);
    },
    "ask in -p is rejected naming the rule": async () => {
      bashThenDone("pr-ask", "touch pushed");
      const dir = await dirFor("pr-ask", "permissions: {ask: [bash(touch *)]}\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("pr-ask", 1), [
        '[command rejected: the permission rule "ask: bash(touch *)" asks the user, and nobody can be asked in this mode]',
      ]);
      assertEquals(await exists(`${dir}/pushed`), false);
    },
    "read_file out of the project is rejected in -p with yolo: false": async () => {
      const outside = await tempDir("mm-outside-");
      await Deno.writeTextFile(`${outside}/secret.txt`, "secret\n");
      server.script("pr-read", [
        {
          toolCalls: [
            { name: "read_file", arguments: { path: `${outside}/secret.txt` } },
            { name: "read_file", arguments: { path: "mm.yaml" } },
          ],
        },
        { text: "done" },
      ]);
      const dir = await dirFor("pr-read", "yolo: false\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const [refused, inside] = toolMessages("pr-read", 1);
      assertEquals(refused, "[read_file rejected by the user]");
      assertStringIncludes(inside, "yolo: false");
    },
    "fetch_content is rejected in -p with yolo: false": async () => {
      server.script("pr-fetch", [
        {
          toolCalls: [{
            name: "fetch_content",
            arguments: { url: `http://127.0.0.1:${port}/a` },
          }],
        },
        { text: "done" },
      ]);
      const dir = await dirFor("pr-fetch", "yolo: false\nfetchContentTool: true\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolMessages("pr-fetch", 1), ["[fetch_content rejected by the user]"]);
    },
    "mcp(…) denies an MCP tool, declared or through mcp_call": async () => {
      const denied =
        '[fault_add denied by the permission rule "deny: mcp(fault_a*)" — it will be denied every time; do not call it again]';
      for (const catalog of [false, true]) {
        const model = `pr-mcp-${catalog}`;
        const add = catalog
          ? {
            name: "mcp_call",
            arguments: { server: "fault", tool: "add", arguments: { a: 1, b: 2 } },
          }
          : { name: "fault_add", arguments: { a: 1, b: 2 } };
        server.script(model, [{ toolCalls: [add] }, { text: "done" }]);
        const dir = await dirFor(
          model,
          `permissions: {deny: ['mcp(fault_a*)']}\nmcp: {catalog: ${catalog}}\nmcpServers:\n  fault: ${faultYaml()}\n`,
        );
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolMessages(model, 1), [
          catalog ? denied.replace("[fault_add", "[mcp_call") : denied,
        ]);
      }
    },
    "mm doctor lists the rules and warns of one that can never match": async () => {
      server.script("pr-doctor", [{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }]);
      const dir = await dirFor(
        "pr-doctor",
        "permissions:\n  deny: [bash]\n  allow: ['bash(git status*)']\n",
      );
      const run = await runMM(["doctor"], { cwd: dir });
      assertStringIncludes(
        run.stdout,
        [
          "✔ permission rules: 2 (yolo: true decides the rest)",
          "    deny: bash",
          "    allow: bash(git status*)",
          "    [warning: allow: bash(git status*) can never match: deny: bash comes first for every call of bash]",
        ].join("\n"),
      );
    },
    "a rule on an unknown tool stops mm before the first request": async () => {
      const dir = await dirFor("pr-bad", "permissions:\n  deny: [Bash(rm *)]\n");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 2);
      assertStringIncludes(
        run.stderr,
        `mm.yaml:4:10: permissions.deny[0]: expected a rule on a tool mm knows`,
      );
      assertStringIncludes(run.stderr, 'did you mean "bash(rm *)"?');
      assertEquals(server.chats("pr-bad").length, 0);
    },
  });
});

Deno.test("line mode: always for a fetch allows its host, and asks for another", async () => {
  const dir = await dirFor("pr-always", "yolo: false\nfetchContentTool: true\n");
  const fetch = (url: string) => ({
    toolCalls: [{ name: "fetch_content", arguments: { url } }],
  });
  server.script("pr-always", [
    fetch(`http://127.0.0.1:${port}/one`),
    fetch(`http://127.0.0.1:${port}/two`),
    fetch(`http://localhost:${port}/three`),
    { text: "all fetched" },
  ]);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR }, width: 120, height: 40 },
  );
  try {
    await term.waitFor("Ctrl-D quits.");
    await term.type("go");
    await term.keys("Enter");
    let screen = await term.waitFor("allow?");
    assertStringIncludes(screen, `[a]lways for fetch_content(127.0.0.1)`);
    await term.type("a");
    await term.keys("Enter");
    screen = await term.waitFor(
      /allowed for this session: fetch_content\(127\.0\.0\.1\)[^]*allow\?/,
    );
    // The second call, on the same host, ran unasked; the third, on another host, asks.
    assertStringIncludes(screen, `[a]lways for fetch_content(localhost)`);
    assertEquals(screen.split("allow?").length, 3, screen);
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor("all fetched");
    assertEquals(toolMessages("pr-always", 3).map((m) => m.trim()), [
      "page /one",
      "page /two",
      "page /three",
    ]);
  } finally {
    await term.kill();
  }
});

Deno.test("window mode: s names the host's rule, and the conversation notes it", async () => {
  const dir = await dirFor("pr-window", "yolo: false\nfetchContentTool: true\n");
  server.script("pr-window", [
    { toolCalls: [{ name: "fetch_content", arguments: { url: `http://127.0.0.1:${port}/w` } }] },
    { toolCalls: [{ name: "fetch_content", arguments: { url: `http://127.0.0.1:${port}/x` } }] },
    { text: "window fetched" },
  ]);
  const term = await Terminal.start(
    [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN, "-tui"],
    { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR }, width: 120, height: 30 },
  );
  try {
    await term.waitFor("Ctrl-D quits.");
    await term.type("go");
    await term.keys("Enter");
    const screen = await term.waitFor("╭─ 🔐 allow this call?");
    assertStringIncludes(screen, "s allow fetch_content(127.0.0.1) for this session");
    await boxTakesKeys();
    await term.type("s");
    const after = await term.waitFor("window fetched");
    assertStringIncludes(after, "allowed for this session: fetch_content(127.0.0.1)");
    assertEquals(toolMessages("pr-window", 2).map((m) => m.trim()), ["page /w", "page /x"]);
  } finally {
    await term.kill();
  }
});

Deno.test({
  name: "permissions: the servers close",
  sanitizeResources: false,
  fn: async () => {
    await server.close();
    await pages.shutdown();
  },
});
