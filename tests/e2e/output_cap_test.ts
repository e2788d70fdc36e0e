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
});

/** Waits until `ready` says so, or fails after 30 s: a guard, not a measure. */
async function poll(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("mm -p: a job a command leaves (`yes &`) keeps running, and its output stays bounded after mm exits", async () => {
  const tmp = await tempDir("mm-tmp-");
  const dir = await workdir(`url: ${server.url}\nmodel: yes-job\n`);
  server.script("yes-job", [
    {
      toolCalls: [{
        name: "bash",
        arguments: { command: "yes & echo $! > yes.pid; sleep 0.2; echo bye" },
      }],
    },
    { text: "done" },
  ]);
  const run = await runMM(["-p", "go"], { cwd: dir, env: { TMPDIR: tmp } });
  assertEquals(run.code, 0, run.stderr);
  const pid = (await Deno.readTextFile(`${dir}/yes.pid`)).trim();
  try {
    // mm has exited; the job has not (tools.md: it keeps running), and what it writes into the
    // command's output file is emptied as it comes. Unbounded, it grew by gigabytes a second and
    // never shrank; now it shrinks again and again.
    let peak = 0;
    let shrank = 0;
    let last = 0;
    for (let look = 0; look < 50; look++) {
      const info = await Deno.stat(`/proc/${pid}/fd/1`);
      peak = Math.max(peak, info.size, (info.blocks ?? 0) * 512);
      if (info.size < last) shrank++;
      last = info.size;
      await new Promise((r) => setTimeout(r, 20));
    }
    assertEquals(await Deno.stat(`/proc/${pid}`).then(() => true, () => false), true);
    assertEquals(shrank >= 3, true, `the job's output file shrank ${shrank} times in 50 looks`);
    assertEquals(peak < 1024 ** 3, true, `the job's output file reached ${peak} bytes`);
  } finally {
    Deno.kill(Number(pid), "SIGKILL");
  }
  // Once the job is gone, so is its output file.
  await poll(() => [...Deno.readDirSync(tmp)].length === 0, "the output file to go");
  await server.close();
});
