/** The client and the pool against the scripted server of fake_server.ts (a real process). */

import { assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  configurationSection,
  fileUri,
  LspClient,
  LspError,
  uriKey,
} from "../../lib/lsp/client.ts";
import { languageId, LspPool, normalizeExtension, serverForPath } from "../../lib/lsp/pool.ts";
import { commandOnPath } from "../../lib/lsp/servers.ts";
import { fakeServer, groupGone, project, removeProjects } from "./fixtures.ts";

async function rejection(p: Promise<unknown>): Promise<LspError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof LspError) return e;
    throw e;
  }
  throw new Error("expected an LspError");
}

Deno.test("lsp client", async (t) => {
  const dir = await project({ "a.fk": "one BAD\ntwo\n", "b.fk": "crash boom\n" });
  const server = fakeServer({ fake: { answer: 42 } });
  const client = await LspClient.start(server, { root: dir });

  await t.step(
    "initialize, then workspace/configuration answered from initializationOptions",
    async () => {
      const { configuration } = await client.request<{ configuration: unknown }>("fake/log", {});
      assertEquals(configuration, [{ answer: 42 }, null]);
      assertEquals(client.capabilities.hoverProvider, true);
      assertEquals(client.alive, true);
    },
  );

  await t.step(
    "sync: didOpen first, nothing when unchanged, whole-document didChange when moved",
    async () => {
      const a = `${dir}/a.fk`;
      assertEquals(client.sync(a, "fake", "one BAD\ntwo\n").sent, "opened");
      assertEquals(client.sync(a, "fake", "one BAD\ntwo\n").sent, "unchanged");
      const changed = client.sync(a, "fake", "BAD BAD\n");
      assertEquals(changed, { sent: "changed", version: 2, sentAt: changed.sentAt });
      const { log } = await client.request<{ log: string[] }>("fake/log", {});
      assertEquals(log, ["open a.fk v1", "change a.fk v2"]);
      const published = await client.waitForPublication(a, changed, 3000);
      assertEquals(published?.version, 2);
      assertEquals(published?.diagnostics.length, 2);
      assertEquals(client.published(a), published);
    },
  );

  await t.step("a server error is an LspError on one line, with its code", async () => {
    const b = `${dir}/b.fk`;
    client.sync(b, "fake", "crash boom\n");
    const err = await rejection(client.request("textDocument/hover", {
      textDocument: { uri: fileUri(b) },
      position: { line: 0, character: 7 },
    }));
    assertEquals([err.kind, err.message, err.code], [
      "server",
      "boom happened at the server",
      -32603,
    ]);
    const none = await rejection(client.request("no/such", {}));
    assertEquals([none.kind, none.code], ["server", -32601]);
  });

  await t.step("a cancelled request", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await rejection(client.request("fake/log", {}, controller.signal));
    assertEquals([err.kind, err.message], ["cancelled", "cancelled"]);
  });

  await t.step("a server that dies under a request: gone, with its exit status", async () => {
    const err = await rejection(client.request("textDocument/hover", {
      textDocument: { uri: fileUri(`${dir}/b.fk`) },
      position: { line: 0, character: 1 },
    }));
    assertEquals(err.kind, "gone");
    assertMatch(err.message, /^the server stopped \(exit code 3\)/);
    assertEquals(client.alive, false);
    await client.close();
    assertEquals(await groupGone(client.pid), []);
  });
  await removeProjects();
});

Deno.test("lsp client: close sends shutdown and exit, and reaps the process", async () => {
  const dir = await project({});
  const client = await LspClient.start(fakeServer(), { root: dir });
  const pid = client.pid;
  await client.close();
  assertEquals(client.alive, false);
  assertEquals(await groupGone(pid), []);
  const err = await rejection(client.request("fake/log", {}));
  assertEquals(err.kind, "gone");
  await removeProjects();
});

Deno.test("lsp client: a server that exits at once cannot start", async () => {
  const dir = await project({});
  const err = await rejection(
    LspClient.start({ name: "f", command: "false", args: [], extensions: [".x"] }, { root: dir }),
  );
  assertEquals(err.kind, "start");
  assertMatch(err.message, /^the server stopped \(exit code 1\)/);
  await removeProjects();
});

Deno.test("lsp pool: started on first use, started again when it died, closed for good", async (t) => {
  const dir = await project({ "a.fk": "x\n" });
  const server = fakeServer();
  const pool = new LspPool([server], dir);
  assertEquals(await pool.running(), []);

  const first = await pool.client(server);
  await t.step("the same client for every call while it lives", async () => {
    assertEquals(await pool.client(server), first);
    assertEquals((await pool.running()).map((c) => c.pid), [first.pid]);
  });

  await t.step("killed: the next call starts it again", async () => {
    Deno.kill(first.pid, "SIGKILL");
    const second = await pool.client(server);
    // The exit may not be seen yet: then the pool hands out the same client, which fails as gone.
    const again = second === first ? await rejection(first.request("fake/log", {})) : undefined;
    const live = again ? await pool.client(server) : second;
    assertEquals(live.alive, true);
    assertEquals(live.pid !== first.pid, true);
    assertEquals(await groupGone(first.pid), []);
  });

  await t.step("close stops every server and refuses later calls", async () => {
    const [live] = await pool.running();
    await pool.close();
    assertEquals(await groupGone(live.pid), []);
    assertEquals((await rejection(pool.client(server))).message, "mm is exiting");
  });
  await removeProjects();
});

Deno.test("lsp pool: servers by extension, commands on the PATH", async (t) => {
  const go = { name: "gopls", command: "gopls", args: [], extensions: ["go"] };
  const py = {
    name: "pyright",
    command: "pyright-langserver",
    args: [],
    extensions: [".py", ".PYI"],
  };
  const dts = { name: "dts", command: "x", args: [], extensions: [".d.ts"] };

  await t.step("extensions with or without the dot, any case; the first server wins", () => {
    assertEquals(normalizeExtension("GO"), ".go");
    assertEquals(serverForPath([go, py], "cmd/main.go"), go);
    assertEquals(serverForPath([go, py], "x.pyi"), py);
    assertEquals(serverForPath([go, py], "x.md"), undefined);
    assertEquals(serverForPath([go, py], ".go"), undefined);
    assertEquals(serverForPath([dts, go], "types.d.ts"), dts);
  });

  await t.step("language identifiers", () => {
    assertEquals(languageId("a/b.ts"), "typescript");
    assertEquals(languageId("x.PY"), "python");
    assertEquals(languageId("x.go"), "go");
    assertEquals(languageId("x.weird"), "weird");
    assertEquals(languageId("Makefile"), "plaintext");
  });

  await t.step(
    "a bare name is searched on the PATH, a name with a slash from the cwd",
    async () => {
      const dir = await project({ "tool.sh": "#!/bin/sh\n", "plain.txt": "" });
      await Deno.chmod(`${dir}/tool.sh`, 0o755);
      assertEquals(commandOnPath("tool.sh", `/nonexistent:${dir}`, "/"), true);
      assertEquals(commandOnPath("plain.txt", dir, "/"), false, "not executable");
      assertEquals(commandOnPath("./tool.sh", "", dir), true);
      assertEquals(commandOnPath("nope", dir, dir), false);
      assertEquals(commandOnPath("", dir, dir), false);
    },
  );

  await t.step("workspace/configuration sections", () => {
    const deno = { name: "deno", command: "/usr/bin/deno", args: [], extensions: [] };
    const opts = { ...deno, initializationOptions: { enable: true, python: { path: "p" } } };
    assertEquals(configurationSection(opts, "python.path"), "p");
    assertEquals(configurationSection(opts, "deno"), { enable: true, python: { path: "p" } });
    assertEquals(configurationSection(opts, "typescript"), null);
    assertEquals(configurationSection(deno, "deno"), null);
    assertEquals(configurationSection(opts, undefined), opts.initializationOptions);
  });

  await t.step("URIs and paths", () => {
    assertEquals(fileUri("/a b/c.ts"), "file:///a%20b/c.ts");
    assertEquals(uriKey("file:///a%20b/c.ts"), "/a b/c.ts");
    assertEquals(uriKey("deno:/asset/x"), "deno:/asset/x");
  });
  await removeProjects();
});
