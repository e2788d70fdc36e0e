import { assertEquals, assertRejects } from "../helpers/assert.ts";
import {
  lockPath,
  SessionBusyError,
  SessionLock,
  SessionLockError,
} from "../../lib/session/lock.ts";

Deno.test("SessionLock", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "mm-lock-" });

  await t.step("held: a second taker waits, then refuses with the holder's pid", async () => {
    const lock = await SessionLock.acquire(dir, "s1");
    assertEquals((await Deno.readTextFile(lockPath(dir, "s1"))).trim(), String(Deno.pid));
    const busy = await assertRejects(() => SessionLock.acquire(dir, "s1", 100), SessionBusyError);
    assertEquals(busy.message, `session s1 is in use by another mm (pid ${Deno.pid})`);
    await lock.release();
    assertEquals(await Deno.stat(lockPath(dir, "s1")).catch(() => "gone"), "gone");
    await (await SessionLock.acquire(dir, "s1", 0)).release();
  });

  await t.step("the lock file is beside the session file, only while it is held", async () => {
    const lock = await SessionLock.acquire(dir, "s3");
    assertEquals(lockPath(dir, "s3"), `${dir}/s3.lock`);
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), ["s3.lock"]);
    assertEquals((await Deno.stat(lockPath(dir, "s3"))).mode! & 0o777, 0o600);
    await lock.release();
    assertEquals([...Deno.readDirSync(dir)], []);
  });

  await t.step("a holder killed with SIGKILL leaves no lock behind", async () => {
    const code = `const f = await Deno.open(${JSON.stringify(lockPath(dir, "s2"))}, ` +
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

  await t.step(
    "a waiter on a released file takes the lock of the file that replaced it",
    async () => {
      const first = await SessionLock.acquire(dir, "s4");
      const second = SessionLock.acquire(dir, "s4", 2000);
      await new Promise((r) => setTimeout(r, 120)); // the second has opened the first's file
      await first.release();
      const third = await SessionLock.acquire(dir, "s4", 2000).catch((e) => e);
      const got = await second.catch((e) => e);
      // Exactly one of them holds it; the other is refused as busy.
      const held = [got, third].filter((l) => l instanceof SessionLock);
      assertEquals(held.length, 1, String([got, third]));
      assertEquals([got, third].filter((l) => l instanceof SessionBusyError).length, 1);
      await (held[0] as SessionLock).release();
    },
  );

  await t.step("a planted symbolic link is refused, and its target untouched", async () => {
    const target = `${dir}/precious.txt`;
    await Deno.writeTextFile(target, "keep me\n");
    await Deno.symlink(target, lockPath(dir, "s5"));
    const err = await assertRejects(() => SessionLock.acquire(dir, "s5", 0), SessionLockError);
    assertEquals(
      err.message,
      `session s5 cannot be locked: ${dir}/s5.lock cannot be used (it is a symbolic link) — check sessions.dir in the agent file`,
    );
    assertEquals(await Deno.readTextFile(target), "keep me\n");
    // A dangling link is never created through either.
    await Deno.remove(lockPath(dir, "s5"));
    await Deno.symlink(`${dir}/nowhere.txt`, lockPath(dir, "s5"));
    await assertRejects(() => SessionLock.acquire(dir, "s5", 0), SessionLockError);
    assertEquals(await Deno.stat(`${dir}/nowhere.txt`).catch(() => "absent"), "absent");
    await Deno.remove(lockPath(dir, "s5"));
    await Deno.remove(target);
  });

  await t.step("a hard link to another file, a named pipe: refused, untouched", async () => {
    const target = `${dir}/other.txt`;
    await Deno.writeTextFile(target, "keep me too\n");
    await Deno.link(target, lockPath(dir, "s6"));
    const err = await assertRejects(() => SessionLock.acquire(dir, "s6", 0), SessionLockError);
    assertEquals(err.message.includes("(it has other hard links)"), true, err.message);
    assertEquals(await Deno.readTextFile(target), "keep me too\n");
    await Deno.remove(lockPath(dir, "s6"));
    await Deno.remove(target);
    await new Deno.Command("mkfifo", { args: [lockPath(dir, "s7")] }).output();
    const fifo = await assertRejects(() => SessionLock.acquire(dir, "s7", 0), SessionLockError);
    assertEquals(fifo.message.includes("(it is a named pipe, not a file)"), true, fifo.message);
    await Deno.remove(lockPath(dir, "s7"));
  });

  await t.step("a file where the directory should be: one sentence", async () => {
    await Deno.writeTextFile(`${dir}/file`, "");
    const err = await assertRejects(
      () => SessionLock.acquire(`${dir}/file`, "s8", 0),
      SessionLockError,
    );
    assertEquals(
      err.message,
      `session s8 cannot be locked: ${dir}/file/s8.lock cannot be used (a file is where its directory should be) — check sessions.dir in the agent file`,
    );
    await Deno.remove(`${dir}/file`);
  });

  await Deno.remove(dir, { recursive: true });
});
