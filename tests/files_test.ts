import { join } from "node:path";
import { assertEquals, assertRejects } from "./helpers/assert.ts";
import { errorReason, realFiles } from "../lib/files.ts";
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
    assertEquals(await fs.stat("a.txt"), { isFile: true, isDirectory: false, size: 6 });
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
