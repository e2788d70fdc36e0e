import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { fakeContext, MemoryFiles } from "../helpers/fake_context.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { rejectedText } from "../../lib/permissions/prompt.ts";
import {
  CONTENT_DESCRIPTION,
  createdText,
  PATH_DESCRIPTION,
  replacedBinaryText,
  writeFile,
  wroteText,
} from "../../tools/write_file.ts";
import { unchangedText, writeErrorText } from "../../tools/_files.ts";
import { lineDiff } from "../../lib/diff.ts";
import type { FileInfo } from "../../lib/tool.ts";

Deno.test("write_file", async (t) => {
  await t.step("declared when editTools: true", () => {
    assertEquals(writeFile.declared(defaultConfig()), true);
    assertEquals(writeFile.declared({ ...defaultConfig(), editTools: false }), false);
  });

  await t.step("fields: path and content with the spec's descriptions", () => {
    assertEquals(writeFile.name, "write_file");
    assertEquals(Object.keys(writeFile.parameters), ["path", "content"]);
    assertEquals(
      PATH_DESCRIPTION,
      "File path, relative to the working directory; parent directories are created.",
    );
    assertEquals(CONTENT_DESCRIPTION, "The whole content of the file.");
    assertEquals(writeFile.parameters.path, {
      type: "string",
      description: PATH_DESCRIPTION,
      aliases: ["file", "file_path"],
      path: true,
    });
    assertEquals(writeFile.parameters.content.description, CONTENT_DESCRIPTION);
    assertEquals(writeFile.parameters.content.type, "string");
  });

  await t.step("new file: parent directories created; headline and every line added", async () => {
    const ctx = fakeContext();
    const result = await writeFile.run({ path: "notes/deep/a.txt", content: "a\nb\nc\n" }, ctx);
    assertEquals(result, {
      output: "created notes/deep/a.txt (3 lines)\n@@ -0,0 +1,3 @@\n+a\n+b\n+c",
      diff: { path: "/work/project/notes/deep/a.txt", newText: "a\nb\nc\n" },
      locations: ["/work/project/notes/deep/a.txt"],
    });
    assertEquals(ctx.fs.text("notes/deep/a.txt"), "a\nb\nc\n");
    assertEquals(ctx.fs.writes, ["/work/project/notes/deep/a.txt"]);
    assertEquals(createdText("x", 1), "created x (1 line)");
  });

  await t.step("new file without a final newline, and an empty new file", async () => {
    const ctx = fakeContext();
    assertEquals(
      (await writeFile.run({ path: "b.txt", content: "one" }, ctx)).output,
      "created b.txt (1 line)\n@@ -0,0 +1,1 @@\n+one\n\\ No newline at end of file",
    );
    const empty = await writeFile.run({ path: "empty.txt", content: "" }, ctx);
    assertEquals(empty.output, "created empty.txt (empty)");
    assertEquals(ctx.fs.text("empty.txt"), "");
  });

  await t.step("existing file: entirely replaced; headline and diff", async () => {
    const ctx = fakeContext({ files: { "a.txt": "a\nb\nc\n" } });
    const result = await writeFile.run({ path: "a.txt", content: "a\nx\ny\nc\n" }, ctx);
    assertEquals(result, {
      output: "wrote a.txt: 2 lines added, 1 deleted\n@@ -1,3 +1,4 @@\n a\n-b\n+x\n+y\n c",
      diff: { path: "/work/project/a.txt", oldText: "a\nb\nc\n", newText: "a\nx\ny\nc\n" },
      locations: ["/work/project/a.txt"],
    });
    assertEquals(ctx.fs.text("a.txt"), "a\nx\ny\nc\n");
    assertEquals(wroteText("a.txt", 1, 0), "wrote a.txt: 1 line added, 0 deleted");
    const shorter = await writeFile.run({ path: "a.txt", content: "" }, ctx);
    assertEquals(
      shorter.output,
      "wrote a.txt: 0 lines added, 4 deleted\n@@ -1,4 +0,0 @@\n-a\n-x\n-y\n-c",
    );
    assertEquals(ctx.fs.text("a.txt"), "");
  });

  await t.step("identical content: nothing is written; the result says so", async () => {
    const ctx = fakeContext({ files: { "a.txt": "same\n" } });
    assertEquals(await writeFile.run({ path: "a.txt", content: "same\n" }, ctx), {
      output: "a.txt already has this content — nothing was written",
      locations: ["/work/project/a.txt"],
    });
    assertEquals(ctx.fs.writes, []);
    assertEquals(unchangedText("b"), "b already has this content — nothing was written");
  });

  await t.step("output: truncated to maxOutput", async () => {
    const content = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const ctx = fakeContext({ config: { maxOutput: 300 } });
    const result = await writeFile.run({ path: "big.txt", content }, ctx);
    assertEquals(result.output.length, 300);
    assertEquals(
      result.output.startsWith("created big.txt (500 lines)\n@@ -0,0 +1,500 @@\n+line 0"),
      true,
    );
    assertStringIncludes(result.output, "output truncated to maxOutput");
    assertEquals(result.diff?.newText, content);
  });

  await t.step("a directory at the path: text, nothing written", async () => {
    const fs = new MemoryFiles("/work/project", { "src/a.ts": "x" });
    const ctx = fakeContext({ fs });
    assertEquals(await writeFile.run({ path: "src", content: "x" }, ctx), {
      output: "cannot write src: it is a directory — nothing was written",
      failed: true,
      locations: ["/work/project/src"],
    });
    assertEquals(fs.writes, []);
  });

  await t.step("a file where a parent directory should be: text, never a throw", async () => {
    const ctx = fakeContext({ files: { "a.txt": "x" } });
    assertEquals(
      (await writeFile.run({ path: "a.txt/b.txt", content: "y" }, ctx)).output,
      "cannot write a.txt/b.txt: not a directory — nothing was written",
    );
  });

  await t.step("permission error: text, never a throw", async () => {
    const fs = new MemoryFiles("/work/project", { "ro.txt": "old" });
    fs.failures.set(
      "/work/project/ro.txt",
      new Deno.errors.PermissionDenied("Permission denied (os error 13)"),
    );
    assertEquals(await writeFile.run({ path: "ro.txt", content: "new" }, fakeContext({ fs })), {
      output: "cannot write ro.txt: permission denied — nothing was written",
      failed: true,
      locations: ["/work/project/ro.txt"],
    });
    assertEquals(writeErrorText("x", "y"), "cannot write x: y — nothing was written");
  });

  await t.step("replacing a binary file: no diff of its bytes", async () => {
    const ctx = fakeContext({ files: { "a.bin": new Uint8Array([1, 0, 2]) } });
    const result = await writeFile.run({ path: "a.bin", content: "text\n" }, ctx);
    assertEquals(result.output, "wrote a.bin: replaced a binary file of 3 bytes with 1 line");
    assertEquals(result.output, replacedBinaryText("a.bin", 3, 1));
    // The diff says what it replaces, so no front end shows it as a new file.
    assertEquals(result.diff, {
      path: "/work/project/a.bin",
      newText: "text\n",
      replaces: "a binary file of 3 bytes",
    });
  });

  await t.step("CRLF and a byte order mark: bytes compared, the change shows", async () => {
    const ctx = fakeContext({ files: { "w.txt": "a\r\nb\r\n", "bom.txt": "\uFEFFx\n" } });
    assertEquals(
      (await writeFile.run({ path: "w.txt", content: "a\r\nb\r\n" }, ctx)).output,
      unchangedText("w.txt"),
    );
    const bom = await writeFile.run({ path: "bom.txt", content: "x\n" }, ctx);
    assertEquals(
      bom.output,
      "wrote bom.txt: 1 line added, 1 deleted\n@@ -1,1 +1,1 @@\n-\uFEFFx\n+x",
    );
  });

  await t.step("a Windows-1252 file is written in Windows-1252, byte for byte", async () => {
    const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
    const ctx = fakeContext({ files: { "w.txt": latin1("caf\xe9\n\x93q\x94\n") } });
    const result = await writeFile.run({ path: "w.txt", content: "café\n“q” €\n" }, ctx);
    assertEquals(ctx.fs.files.get("/work/project/w.txt"), latin1("caf\xe9\n\x93q\x94 \x80\n"));
    assertEquals(
      result.output,
      "wrote w.txt: 1 line added, 1 deleted\n@@ -1,2 +1,2 @@\n café\n-“q”\n+“q” €",
    );
    assertEquals(result.diff, {
      path: "/work/project/w.txt",
      oldText: "café\n“q”\n",
      newText: "café\n“q” €\n",
    });
    assertEquals(
      (await writeFile.run({ path: "w.txt", content: "café\n“q” €\n" }, ctx)).output,
      unchangedText("w.txt"),
    );
  });

  await t.step("a character Windows-1252 lacks: refused, nothing written", async () => {
    const before = Uint8Array.of(0x63, 0xe9, 0x0a);
    const ctx = fakeContext({ files: { "w.txt": before } });
    const result = await writeFile.run({ path: "w.txt", content: "a → b\n" }, ctx);
    assertEquals(result, {
      output:
        'cannot write w.txt: it is Windows-1252 (Latin-1) text, which has no "→" (U+2192) — ' +
        "nothing was written. Write that character another way (in ASCII, or as the file's format escapes it).",
      failed: true,
      locations: ["/work/project/w.txt"],
    });
    assertEquals(ctx.fs.files.get("/work/project/w.txt"), before);
    assertEquals(ctx.fs.writes, []);
  });

  await t.step("UTF-16 LE and BE with a BOM: written in UTF-16, the BOM kept", async () => {
    const le = Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00);
    const be = Uint8Array.of(0xfe, 0xff, 0x00, 0x61, 0x00, 0x0a);
    const ctx = fakeContext({ files: { "le.txt": le, "be.txt": be } });
    const result = await writeFile.run({ path: "le.txt", content: "a\n→\n" }, ctx);
    assertEquals(result.output, "wrote le.txt: 1 line added, 0 deleted\n@@ -1,1 +1,2 @@\n a\n+→");
    assertEquals(
      ctx.fs.files.get("/work/project/le.txt"),
      Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00, 0x92, 0x21, 0x0a, 0x00),
    );
    await writeFile.run({ path: "be.txt", content: "\uFEFFé\n" }, ctx);
    assertEquals(
      ctx.fs.files.get("/work/project/be.txt"),
      Uint8Array.of(0xfe, 0xff, 0x00, 0xe9, 0x00, 0x0a),
    );
  });

  await t.step("a read-only file: refused with its mode, nothing written", async () => {
    class ReadOnly extends MemoryFiles {
      override async stat(path: string): Promise<FileInfo | undefined> {
        const info = await super.stat(path);
        return info?.isFile ? { ...info, mode: 0o444, readOnly: true } : info;
      }
    }
    const fs = new ReadOnly("/work/project", { "ro.txt": "a\n" });
    const result = await writeFile.run({ path: "ro.txt", content: "b\n" }, fakeContext({ fs }));
    assertEquals(result, {
      output: "cannot write ro.txt: it is read-only (mode 0444) — nothing was written",
      failed: true,
      locations: ["/work/project/ro.txt"],
    });
    assertEquals(fs.writes, []);
  });

  await t.step("lineDiff: counts and hunks", () => {
    assertEquals(lineDiff("a\n", "a\nb\n"), {
      hunks: "@@ -1,1 +1,2 @@\n a\n+b",
      added: 1,
      deleted: 0,
    });
  });

  await t.step("ACP: kind edit, permission requested, refusal text", () => {
    assertEquals(writeFile.kind, "edit");
    assertEquals(writeFile.asks, true);
    assertEquals(rejectedText("write_file"), "[write_file rejected by the user]");
  });

  await t.step("display and recap: 📝, the path, counted as a file op", () => {
    assertEquals(writeFile.emoji, "📝");
    assertEquals(writeFile.summary({ path: "a/b.md", content: "long" }), "a/b.md");
    assertEquals(writeFile.counter, "fileOps");
  });
});
