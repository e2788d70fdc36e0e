/** writeAtomic: whole or nothing, and never a temporary file left, even on a full disk. */

import { isTempName, tempPathFor, writeAtomic } from "../lib/atomic.ts";
import { assertEquals, assertRejects } from "./helpers/assert.ts";
import { mountTmpfs, NO_TMPFS, tempFiles } from "./helpers/tmpfs.ts";

Deno.test("writeAtomic", async (t) => {
  const dir = await Deno.makeTempDir();
  await t.step("writes text or bytes whole, replacing the file", async () => {
    await writeAtomic(`${dir}/a.txt`, "first");
    await writeAtomic(`${dir}/a.txt`, new TextEncoder().encode("second"));
    assertEquals(await Deno.readTextFile(`${dir}/a.txt`), "second");
    assertEquals(await tempFiles(dir), []);
  });
  await t.step("sets the mode asked for", async () => {
    await writeAtomic(`${dir}/run.sh`, "echo\n", { mode: 0o100750 });
    assertEquals((await Deno.stat(`${dir}/run.sh`)).mode! & 0o777, 0o750);
  });
  await t.step("a failed rename (a directory at the path) leaves no temporary file", async () => {
    await Deno.mkdir(`${dir}/sub`);
    await assertRejects(() => writeAtomic(`${dir}/sub`, "x"));
    assertEquals(await tempFiles(dir), []);
  });
  await t.step("the temporary name is hidden, beside the file, and recognised", () => {
    const temp = tempPathFor(`${dir}/s.json`);
    assertEquals(temp.startsWith(`${dir}/.s.json.mm-`), true, temp);
    assertEquals(isTempName(temp.slice(dir.length + 1)), true);
    assertEquals(isTempName("s.json"), false);
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "writeAtomic on a full tmpfs: rejects, removes its partial file, the old file stays",
  ignore: NO_TMPFS !== undefined,
  async fn() {
    const fs = await mountTmpfs(256 * 1024);
    try {
      await writeAtomic(`${fs.dir}/s.json`, "old\n");
      const filler = await fs.fill(64 * 1024);
      // Bigger than what is free: the write gets part of the way, then ENOSPC.
      const err = await assertRejects(() => writeAtomic(`${fs.dir}/s.json`, "x".repeat(200_000)));
      assertEquals((err as { code?: string }).code, "ENOSPC");
      assertEquals(await tempFiles(fs.dir), []);
      assertEquals(await Deno.readTextFile(`${fs.dir}/s.json`), "old\n");
      // The space the partial file took is free again: a small write still fits.
      await writeAtomic(`${fs.dir}/small.txt`, "y".repeat(32 * 1024));
      await Deno.remove(filler);
      await writeAtomic(`${fs.dir}/s.json`, "x".repeat(200_000));
      assertEquals((await Deno.stat(`${fs.dir}/s.json`)).size, 200_000);
    } finally {
      await fs.close();
    }
  },
});
if (NO_TMPFS) console.log(`writeAtomic on a full tmpfs: ignored (${NO_TMPFS})`);
