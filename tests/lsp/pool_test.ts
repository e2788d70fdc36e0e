/** The pool of clients, against the scripted server of fake_server.ts; a file's server. */

import { assertEquals } from "../helpers/assert.ts";
import { languageId, LspPool, normalizeExtension, serverForPath } from "../../lib/lsp/pool.ts";
import {
  fakeServer,
  groupGone,
  project,
  rejection,
  removeProjects,
} from "../helpers/lsp/fixtures.ts";

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
    await rejection(first.request("fake/log", {})); // the dead client fails, it does not hang
    // Until the exit is seen (late on a loaded machine), the pool may hand out the dead client.
    const deadline = Date.now() + 10_000;
    let live = await pool.client(server);
    while ((live === first || !live.alive) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      live = await pool.client(server);
    }
    assertEquals(live.alive, true);
    assertEquals(live.pid !== first.pid, true);
    assertEquals(first.alive, false);
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
});
