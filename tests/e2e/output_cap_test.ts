/**
 * Output that would fill the disk (issue 17): `yes` through the real `mm -p` keeps both ends of
 * its output and counts what it dropped, and the temporary file never holds more than a few MiB.
 */

import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

Deno.test("mm -p: `yes` until its timeout leaves a bounded file and a counted output", async () => {
  const tmp = await tempDir("mm-tmp-");
  const dir = await workdir(`url: ${server.url}\nmodel: yes\nbashTimeout: 3s\n`);
  server.script("yes", [
    { toolCalls: [{ name: "bash", arguments: { command: "echo first; yes" } }] },
    { text: "done" },
  ]);
  let peak = 0;
  let running = true;
  const watch = (async () => {
    while (running) {
      for await (const entry of Deno.readDir(tmp)) {
        const info = await Deno.stat(`${tmp}/${entry.name}`).catch(() => undefined);
        peak = Math.max(peak, (info?.blocks ?? 0) * 512);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const run = await runMM(["-p", "go"], { cwd: dir, env: { TMPDIR: tmp } });
  running = false;
  await watch;
  assertEquals(run.code, 0, run.stderr);
  const tool = server.chats("yes")[1].body.messages.find((m: { role: string }) =>
    m.role === "tool"
  );
  assertEquals(tool.content.startsWith("first\ny\ny\n"), true);
  assertStringIncludes(tool.content, "[... output too large to read back in full ...]\n");
  assertMatch(
    tool.content,
    /\n\[\.\.\. (at least )?\d+ bytes dropped between the two ends \.\.\.\]\n/,
  );
  assertEquals(tool.content.endsWith("y\n[error: 3s timeout exceeded]"), true);
  // Gigabytes were printed; the file never held more than the limit and what 25 ms let in.
  assertEquals(peak < 512 * 1024 * 1024, true, `peak ${peak} bytes on disk`);
  assertEquals([...Deno.readDirSync(tmp)], []);
  await server.close();
});
