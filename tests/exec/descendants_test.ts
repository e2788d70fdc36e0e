/** The descendants of a process, found by their parent chain (lib/exec/descendants.ts). */

import { descendantsOf, parseStat, type Proc } from "../../lib/exec/descendants.ts";
import { spawnProcess } from "../../lib/exec/spawn.ts";
import { alive, allGone } from "../helpers/mcp/servers.ts";
import { assertEquals } from "../helpers/assert.ts";
import { tempDir } from "../helpers/mm.ts";

Deno.test("parseStat: a name with spaces and parentheses", () => {
  const stat = "42 (my (odd) name) S 7 42 42 0 -1 4194304 312 131 0 0 0 0 0 0 20 0 1 0 267242 2990";
  assertEquals(parseStat(stat), { pid: 42, ppid: 7, start: "267242" });
  assertEquals(parseStat(""), undefined);
});

Deno.test("descendantsOf: every generation, whatever the session", () => {
  const p = (pid: number, ppid: number): Proc => ({ pid, ppid, start: "1" });
  const table = [p(10, 1), p(11, 10), p(12, 11), p(13, 1), p(14, 12)];
  assertEquals(descendantsOf(10, table).map((x) => x.pid), [11, 12, 14]);
  assertEquals(descendantsOf(13, table), []);
});

Deno.test("a stopped command's grandchild that setsid'd is killed with its group", async () => {
  const file = `${await tempDir()}/pid`;
  const script = `setsid bash -c 'echo $$ > ${file}.tmp && mv ${file}.tmp ${file}; exec sleep 300' &
    while [ ! -s ${file} ]; do sleep 0.01; done; sleep 300`;
  const spawned = await spawnProcess({ argv: ["bash", "-c", script] });
  while (!await Deno.stat(file).then(() => true, () => false)) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const pid = Number(await Deno.readTextFile(file));
  assertEquals(alive(pid), true);
  spawned.stop();
  await spawned.status;
  spawned.end();
  const gone = await allGone([pid], 2000);
  if (!gone) Deno.kill(pid, "SIGKILL");
  assertEquals(gone, true, `${pid} outlived the stop`);
});
