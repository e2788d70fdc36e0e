import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { lockPath, SessionBusyError, SessionLock } from "../../lib/session/lock.ts";

Deno.test("SessionLock", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "mm-lock-" });

  await t.step("held: a second taker waits, then refuses with the holder's pid", async () => {
    const lock = await SessionLock.acquire(dir, "s1");
    assertEquals((await Deno.readTextFile(await lockPath(dir, "s1"))).trim(), String(Deno.pid));
    const busy = await assertRejects(() => SessionLock.acquire(dir, "s1", 100), SessionBusyError);
    assertEquals(busy.message, `session s1 is in use by another mm (pid ${Deno.pid})`);
    await lock.release();
    assertEquals(await Deno.readTextFile(await lockPath(dir, "s1")), "");
    await (await SessionLock.acquire(dir, "s1", 0)).release();
  });

  await t.step("the lock file is not in the sessions directory", async () => {
    const lock = await SessionLock.acquire(dir, "s3");
    assertEquals([...Deno.readDirSync(dir)], []);
    assertEquals((await lockPath(dir, "s3")).includes("/mm-session-locks/"), true);
    await lock.release();
  });

  await t.step("a holder killed with SIGKILL leaves no lock behind", async () => {
    const code = `const f = await Deno.open(${JSON.stringify(await lockPath(dir, "s2"))}, ` +
      `{ read: true, write: true, create: true }); await f.tryLock(true); ` +
      `console.log("held"); setInterval(() => {}, 1000);`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    await reader.read();
    await assertRejects(() => SessionLock.acquire(dir, "s2", 0), SessionBusyError);
    child.kill("SIGKILL");
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel();
    await (await SessionLock.acquire(dir, "s2", 0)).release();
  });

  await Deno.remove(dir, { recursive: true });
});
