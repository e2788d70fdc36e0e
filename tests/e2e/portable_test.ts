/**
 * mm runs without the project's deno.json: from a URL (the working tree served on 127.0.0.1) and
 * as one bundled file. That is what `deno run <url>` users and `deno compile` rely on.
 */

import { fileURLToPath } from "node:url";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Serves the working tree's .ts files, read-only, as a web server would. */
function serveTree(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    if (path.includes("..") || !path.endsWith(".ts")) return new Response("no", { status: 404 });
    try {
      const body = await Deno.readFile(ROOT + path.slice(1));
      return new Response(body, { headers: { "content-type": "application/typescript" } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

async function deno(args: string[], cwd: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", HOME: cwd, XDG_STATE_HOME: `${cwd}/.local/state`, DENO_DIR },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("mm without deno.json", async (t) => {
  const tree = serveTree();
  const server = ScriptedServer.start();
  const url = `http://127.0.0.1:${tree.addr.port}/main.ts`;
  await runCases(t, {
    "deno run from a loopback URL: --version and a one-shot turn": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: from-url\n`);
      const version = await deno(
        ["run", "--no-config", "--allow-all", "--quiet", url, "--version"],
        dir,
      );
      assertEquals(version.code, 0, version.stderr);
      assertMatch(version.stdout, /^mm \d+\.\d+\.\d+ /);
      server.script("from-url", [
        { toolCalls: [{ name: "bash", arguments: { command: "echo served" } }] },
        { text: "ran from a URL" },
      ]);
      const turn = await deno(
        ["run", "--no-config", "--allow-all", "--quiet", url, "-p", "go"],
        dir,
      );
      assertEquals(turn.code, 0, turn.stderr);
      assertEquals(turn.stdout, "ran from a URL\n");
      assertEquals(server.chats("from-url")[1].body.messages.at(-1).content, "served\n");
    },
    "deno bundle makes one file that runs with --no-config": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: bundled\n`);
      const bundle = `${dir}/mm.js`;
      const built = await deno(
        ["bundle", "--no-config", "--quiet", `${ROOT}main.ts`, "-o", bundle],
        dir,
      );
      assertEquals(built.code, 0, built.stderr);
      server.script("bundled", [{ text: "from the bundle" }]);
      const turn = await deno(
        ["run", "--no-config", "--allow-all", "--quiet", bundle, "-p", "go"],
        dir,
      );
      assertEquals(turn.code, 0, turn.stderr);
      assertEquals(turn.stdout, "from the bundle\n");
    },
  }, 2);
  await Promise.all([tree.shutdown(), server.close()]);
});
