/** The client against the scripted server of fake_server.ts (a real process). */

import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { configurationSection, fileUri, LspClient, uriKey } from "../../lib/lsp/client.ts";
import { addSecret } from "../../lib/secrets.ts";
import {
  fakeServer,
  groupGone,
  project,
  rejection,
  removeProjects,
} from "../helpers/lsp/fixtures.ts";

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

Deno.test("lsp client: a message over 32 MiB is refused at its header, not buffered", async () => {
  const dir = await project({ "h.fk": "huge\n" });
  const client = await LspClient.start(fakeServer(), { root: dir });
  const file = `${dir}/h.fk`;
  client.sync(file, "fake", "huge\n");
  const began = performance.now();
  const err = await rejection(client.request("textDocument/hover", {
    textDocument: { uri: fileUri(file) },
    position: { line: 0, character: 1 },
  }));
  assertEquals(err.kind, "gone");
  assertMatch(
    err.message,
    /^the server sent a message of 4000\d{4} bytes, larger than 32 MiB, more than mm reads: mm stopped reading the server$/,
  );
  assertEquals(client.alive, false);
  const seconds = (performance.now() - began) / 1000;
  if (seconds > 20) throw new Error(`took ${seconds} s`);
  await client.close();
  assertEquals(await groupGone(client.pid), []);
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

Deno.test("lsp client: a server that closed its input and then exits says how it stopped", async () => {
  // The write of `initialize` fails (EPIPE) before the exit is seen: the exit still names the cause.
  const dir = await project({});
  const server = {
    name: "f",
    command: "sh",
    args: ["-c", "exec 0<&-; sleep 0.3; exit 3"],
    extensions: [".x"],
  };
  const err = await rejection(LspClient.start(server, { root: dir }));
  assertEquals(err.kind, "start");
  assertMatch(err.message, /^the server stopped \(exit code 3\)/);
  await removeProjects();
});

Deno.test("lsp pool: servers by extension, commands on the PATH", async (t) => {
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
});

Deno.test("lsp client: the server's environment holds none of mm's secrets", async () => {
  const dir = await project({ "a.fk": "one\n" });
  const secret = "sk-lsp-secret-0123456789";
  addSecret(secret);
  Deno.env.set("MM_TEST_LSP_SECRET", secret);
  Deno.env.set("MM_TEST_LSP_PLAIN", "kept");
  const fake = fakeServer();
  const server = {
    ...fake,
    command: "bash",
    args: [
      "-c",
      'echo "[${MM_TEST_LSP_SECRET-}] [${MM_TEST_LSP_PLAIN-}]" > env.txt; exec "$@"',
      "lsp",
      fake.command,
      ...fake.args,
    ],
  };
  try {
    const client = await LspClient.start(server, { root: dir });
    await client.close();
    assertEquals(await Deno.readTextFile(`${dir}/env.txt`), "[] [kept]\n");
  } finally {
    Deno.env.delete("MM_TEST_LSP_SECRET");
    Deno.env.delete("MM_TEST_LSP_PLAIN");
    await removeProjects();
  }
});
