import { join } from "node:path";
import { assertEquals, assertRejects } from "./helpers/assert.ts";
import {
  errorReason,
  exists,
  existsSync,
  keepsInode,
  ReadOnlyError,
  readOnlyReason,
  realFiles,
  writeBits,
} from "../lib/files.ts";
import { NotAFileError } from "../lib/tool.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) =>
  data === undefined ? undefined : new TextDecoder().decode(data);

Deno.test("realFiles", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mm-files-test-" }));
  const fs = realFiles(dir);
  await Deno.writeTextFile(join(dir, "a.txt"), "hello\n");
  await Deno.mkdir(join(dir, "sub"));

  await t.step("resolve: relative to the working directory; absolute kept", () => {
    assertEquals(fs.resolve("a.txt"), join(dir, "a.txt"));
    assertEquals(fs.resolve("sub/../b/c.txt"), join(dir, "b/c.txt"));
    assertEquals(fs.resolve("/etc/hosts"), "/etc/hosts");
  });

  await t.step("stat: file, directory, nothing", async () => {
    const mode = (await Deno.stat(join(dir, "a.txt"))).mode! & 0o7777;
    assertEquals(await fs.stat("a.txt"), { isFile: true, isDirectory: false, size: 6, mode });
    assertEquals((await fs.stat("sub"))?.isDirectory, true);
    assertEquals(await fs.stat("missing.txt"), undefined);
    assertEquals(await fs.stat("a.txt/under-a-file"), undefined);
  });

  await t.step("read: the bytes, or undefined when missing", async () => {
    assertEquals(text(await fs.read("a.txt")), "hello\n");
    assertEquals(await fs.read("missing.txt"), undefined);
    assertEquals(await fs.read("a.txt/x"), undefined);
  });

  await t.step("read: at most `limit` bytes, whatever the size", async () => {
    assertEquals(text(await fs.read("a.txt", 3)), "hel");
    assertEquals(text(await fs.read("a.txt", 100)), "hello\n");
    assertEquals(text(await fs.read("a.txt", 0)), "");
  });

  await t.step(
    "a named pipe, a device: stat says what it is; read and write refuse at once",
    async () => {
      const fifo = join(dir, "pipe");
      assertEquals((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success, true);
      assertEquals(await fs.stat("pipe"), {
        isFile: false,
        isDirectory: false,
        special: "named pipe",
        size: 0,
      });
      assertEquals((await fs.stat("/dev/zero"))?.special, "character device");
      const pipe = await assertRejects(() => fs.read("pipe"), NotAFileError);
      assertEquals([pipe.message, pipe.kind], ["pipe is a named pipe, not a file", "named pipe"]);
      assertEquals(errorReason(pipe), "it is a named pipe, not a file");
      await assertRejects(() => fs.read("/dev/zero", 10), NotAFileError);
      await assertRejects(() => fs.writeAtomic("pipe", bytes("x")), NotAFileError);
      assertEquals((await Deno.stat(fifo)).isFifo, true);
      await Deno.remove(fifo);
    },
  );

  await t.step("read: a directory is refused as one", async () => {
    const err = await assertRejects(() => fs.read("sub"));
    assertEquals(errorReason(err), "is a directory");
  });

  await t.step("writeAtomic: creates missing parent directories", async () => {
    await fs.writeAtomic("new/deep/b.txt", bytes("b\n"));
    assertEquals(await Deno.readTextFile(join(dir, "new/deep/b.txt")), "b\n");
  });

  await t.step("writeAtomic: replaces the whole file, leaves no temporary file", async () => {
    await fs.writeAtomic("a.txt", bytes("x"));
    assertEquals(await Deno.readTextFile(join(dir, "a.txt")), "x");
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assertEquals(names.sort(), ["a.txt", "new", "sub"]);
  });

  await t.step("writeAtomic: keeps the existing file's mode", async () => {
    const script = join(dir, "run.sh");
    await Deno.writeTextFile(script, "echo 1\n");
    await Deno.chmod(script, 0o750);
    await fs.writeAtomic("run.sh", bytes("echo 2\n"));
    assertEquals((await Deno.stat(script)).mode! & 0o7777, 0o750);
    assertEquals(await Deno.readTextFile(script), "echo 2\n");
  });

  await t.step("writeAtomic: a new file is not executable", async () => {
    await fs.writeAtomic("plain.txt", bytes(""));
    assertEquals((await Deno.stat(join(dir, "plain.txt"))).mode! & 0o111, 0);
  });

  await t.step("writeAtomic: through a symbolic link, the link stays", async () => {
    await Deno.symlink("a.txt", join(dir, "link.txt"));
    await fs.writeAtomic("link.txt", bytes("via link"));
    assertEquals((await Deno.lstat(join(dir, "link.txt"))).isSymlink, true);
    assertEquals(await Deno.readTextFile(join(dir, "a.txt")), "via link");
  });

  await t.step("writeAtomic: a directory at the path rejects, nothing left behind", async () => {
    const err = await assertRejects(() => fs.writeAtomic("sub", bytes("x")));
    assertEquals(errorReason(err), "is a directory");
    const names = [];
    for await (const entry of Deno.readDir(join(dir))) names.push(entry.name);
    assertEquals(names.filter((n) => n.endsWith(".tmp")), []);
  });

  await t.step("writeAtomic: a file where a parent should be rejects", async () => {
    const err = await assertRejects(() => fs.writeAtomic("plain.txt/c.txt", bytes("x")));
    assertEquals(errorReason(err), "not a directory");
  });

  await t.step("errorReason: plain words for the usual failures", () => {
    assertEquals(errorReason(new Deno.errors.NotFound("x")), "no such file or directory");
    assertEquals(errorReason(new Deno.errors.PermissionDenied("x")), "permission denied");
    assertEquals(
      errorReason(Object.assign(new Error("x"), { code: "EROFS" })),
      "read-only file system",
    );
    assertEquals(errorReason(new Error("something else")), "something else");
    assertEquals(errorReason("odd"), "odd");
  });

  await Deno.remove(dir, { recursive: true });
});

Deno.test("realFiles: files as they are on disk", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mm-files-disk-" }));
  const fs = realFiles(dir);
  const path = (name: string) => join(dir, name);

  await t.step("a read-only file (0444) in a writable folder: refused, not replaced", async () => {
    await Deno.writeTextFile(path("ro.txt"), "keep\n");
    await Deno.chmod(path("ro.txt"), 0o444);
    const before = (await Deno.stat(path("ro.txt"))).ino;
    assertEquals(await fs.stat("ro.txt"), {
      isFile: true,
      isDirectory: false,
      size: 5,
      mode: 0o444,
      readOnly: true,
    });
    const err = await assertRejects(() => fs.writeAtomic("ro.txt", bytes("lost\n")));
    assertEquals(err instanceof ReadOnlyError, true);
    assertEquals(errorReason(err), "it is read-only (mode 0444)");
    assertEquals(await Deno.readTextFile(path("ro.txt")), "keep\n");
    assertEquals((await Deno.stat(path("ro.txt"))).ino, before);
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assertEquals(names, ["ro.txt"]);
  });

  await t.step("a hard-linked file is written in place: every link sees it", async () => {
    await Deno.writeTextFile(path("a.txt"), "one\ntwo\n");
    await Deno.link(path("a.txt"), path("b.txt"));
    const ino = (await Deno.stat(path("a.txt"))).ino;
    await fs.writeAtomic("a.txt", bytes("three\n"));
    assertEquals(await Deno.readTextFile(path("b.txt")), "three\n");
    assertEquals((await Deno.stat(path("a.txt"))).ino, ino);
    assertEquals((await Deno.stat(path("a.txt"))).nlink, 2);
    await fs.writeAtomic("b.txt", bytes("longer than before\n"));
    assertEquals(await Deno.readTextFile(path("a.txt")), "longer than before\n");
  });

  await t.step("a file of another owner is written in place: the owner stays", async () => {
    if (Deno.uid() !== 0) return; // only root can give a file away
    await Deno.writeTextFile(path("theirs.txt"), "x\n");
    await Deno.chown(path("theirs.txt"), 65534, 65534);
    await fs.writeAtomic("theirs.txt", bytes("y\n"));
    const info = await Deno.stat(path("theirs.txt"));
    assertEquals([info.uid, info.gid], [65534, 65534]);
    assertEquals(await Deno.readTextFile(path("theirs.txt")), "y\n");
  });

  await t.step("a file of mm's own, one link: the atomic rename, a new inode", async () => {
    await Deno.writeTextFile(path("own.txt"), "x\n");
    const ino = (await Deno.stat(path("own.txt"))).ino;
    await fs.writeAtomic("own.txt", bytes("y\n"));
    assertEquals((await Deno.stat(path("own.txt"))).ino === ino, false);
  });

  await t.step("readChunks: the bytes in order, in chunks of 1 MiB", async () => {
    const data = new Uint8Array(3 * 1024 * 1024 + 5).map((_, i) => i % 251);
    await Deno.writeFile(path("big.bin"), data);
    const parts: Uint8Array[] = [];
    for await (const chunk of fs.readChunks!("big.bin")) parts.push(chunk.slice());
    assertEquals(parts.length, 4);
    const joined = new Uint8Array(data.length);
    let at = 0;
    for (const p of parts) joined.set(p, (at += p.length) - p.length);
    assertEquals(joined, data);
  });

  await t.step("writeBits and keepsInode: the rules", () => {
    const file = (mode: number, uid: number) => ({ isFile: true, mode, uid });
    assertEquals(writeBits(file(0o100444, 0), 0), { mode: 0o444, readOnly: true });
    assertEquals(writeBits(file(0o100644, 5), 0), { mode: 0o644 });
    assertEquals(writeBits(file(0o100464, 1000), 1000), { mode: 0o464, readOnly: true });
    // Another user's file: the kernel decides when it is opened in place.
    assertEquals(writeBits(file(0o100444, 5), 1000), { mode: 0o444 });
    assertEquals(keepsInode({ nlink: 2, uid: 1000 }, 1000), true);
    assertEquals(keepsInode({ nlink: 1, uid: 5 }, 1000), true);
    assertEquals(keepsInode({ nlink: 1, uid: 1000 }, 1000), false);
    assertEquals(readOnlyReason(0o100400), "it is read-only (mode 0400)");
  });

  await Deno.remove(dir, { recursive: true });
});

Deno.test("exists and existsSync: a file, a folder, a dangling link; nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mm-exists-" });
  await Deno.writeTextFile(`${dir}/f`, "x");
  await Deno.symlink(`${dir}/nowhere`, `${dir}/dangling`);
  for (const name of ["f", "dangling", ""]) {
    assertEquals(await exists(`${dir}/${name}`), true, name);
    assertEquals(existsSync(`${dir}/${name}`), true, name);
  }
  assertEquals(await exists(`${dir}/missing`), false);
  assertEquals(existsSync(`${dir}/missing`), false);
  await Deno.remove(dir, { recursive: true });
});
