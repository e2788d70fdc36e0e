import { join } from "node:path";
import { realFiles, SYSTEM_PATH_REASON } from "../../lib/files.ts";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeContext, MemoryFiles } from "../helpers/fake_context.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import type { FileInfo } from "../../lib/tool.ts";
import {
  binaryText,
  emptyText,
  encodingNote,
  END_DESCRIPTION,
  endBeforeStartText,
  longLineNote,
  NUMBERED_DESCRIPTION,
  pastEndText,
  PATH_DESCRIPTION,
  readFile,
  START_DESCRIPTION,
  streamedLongLineNote,
  streamedNote,
  tooLargeText,
  truncatedNote,
} from "../../tools/read_file.ts";
import { NUMBER_PREFIX, numberLine } from "../../tools/_lines.ts";
import { directoryText, missingText, READ_LIMIT } from "../../tools/_files.ts";

const FIVE = "one\ntwo\nthree\nfour\nfive\n";

Deno.test("read_file", async (t) => {
  await t.step("declared when editTools: true", () => {
    assertEquals(readFile.declared(defaultConfig()), true);
    assertEquals(readFile.declared({ ...defaultConfig(), editTools: false }), false);
  });

  await t.step("fields: path, start, end, numbered with the spec's descriptions", () => {
    assertEquals(readFile.name, "read_file");
    assertEquals(Object.keys(readFile.parameters), ["path", "start", "end", "numbered"]);
    assertEquals(PATH_DESCRIPTION, "File path, relative to the working directory.");
    assertEquals(START_DESCRIPTION, "First line (1-based); 0 = from the start.");
    assertEquals(END_DESCRIPTION, "Last line (1-based, inclusive); 0 = to the end.");
    assertEquals(NUMBERED_DESCRIPTION, "Prefix each line with its number.");
    const p = readFile.parameters;
    assertEquals([p.path.type, p.start.type, p.end.type, p.numbered.type], [
      "string",
      "integer",
      "integer",
      "boolean",
    ]);
    assertEquals(
      [p.path.description, p.start.description, p.end.description, p.numbered.description],
      [PATH_DESCRIPTION, START_DESCRIPTION, END_DESCRIPTION, NUMBERED_DESCRIPTION],
    );
    assertEquals([p.path.optional, p.start.optional, p.end.optional, p.numbered.optional], [
      undefined,
      true,
      true,
      true,
    ]);
  });

  await t.step("missing file: <path> does not exist. Create it with write_file", async () => {
    const ctx = fakeContext();
    assertEquals(
      missingText("src/nope.ts"),
      "src/nope.ts does not exist. Create it with write_file",
    );
    assertEquals(await readFile.run({ path: "src/nope.ts" }, ctx), {
      output: "src/nope.ts does not exist. Create it with write_file",
      failed: true,
      locations: ["/work/project/src/nope.ts"],
    });
    const under = await readFile.run(
      { path: "./a.txt/b" },
      fakeContext({ files: { "a.txt": "" } }),
    );
    assertEquals(under.output, "./a.txt/b does not exist. Create it with write_file");
  });

  await t.step("output: the whole file, its final newline kept", async () => {
    const ctx = fakeContext({ files: { "a.txt": FIVE } });
    assertEquals(await readFile.run({ path: "a.txt" }, ctx), {
      output: FIVE,
      locations: ["/work/project/a.txt"],
    });
    assertEquals((await readFile.run({ path: "a.txt", start: 0, end: 0 }, ctx)).output, FIVE);
  });

  await t.step("output: a file without a final newline has none", async () => {
    const ctx = fakeContext({ files: { "a.txt": "one\ntwo" } });
    assertEquals((await readFile.run({ path: "a.txt" }, ctx)).output, "one\ntwo");
  });

  await t.step(
    "range: the final newline is kept only when the end of the file is shown",
    async () => {
      const ctx = fakeContext({ files: { "a.txt": FIVE } });
      const read = async (start: number, end: number) =>
        (await readFile.run({ path: "a.txt", start, end }, ctx)).output;
      assertEquals(await read(2, 3), "two\nthree");
      assertEquals(await read(4, 0), "four\nfive\n");
      assertEquals(await read(0, 2), "one\ntwo");
      assertEquals(await read(5, 5), "five\n");
      assertEquals(await read(3, 3), "three");
      assertEquals(await read(4, 99), "four\nfive\n", "an end past the last line is the end");
    },
  );

  await t.step("numbered: right-aligned number, ' │ ', the line", async () => {
    const text = Array.from({ length: 12 }, (_, i) => i === 9 ? "" : `line ${i + 1}`).join("\n") +
      "\n";
    const ctx = fakeContext({ files: { "a.txt": text } });
    const out = (await readFile.run({ path: "a.txt", start: 8, numbered: true }, ctx)).output;
    assertEquals(out, " 8 │ line 8\n 9 │ line 9\n10 │\n11 │ line 11\n12 │ line 12\n");
    const few = (await readFile.run({ path: "a.txt", start: 2, end: 3, numbered: true }, ctx))
      .output;
    assertEquals(few, "2 │ line 2\n3 │ line 3");
    assertEquals(numberLine(7, 3, "  x"), "  7 │   x");
    assertMatch(" 12 │ x", NUMBER_PREFIX);
    assertMatch("10 │", NUMBER_PREFIX);
    assertEquals("  7 │   x".replace(NUMBER_PREFIX, ""), "  x");
  });

  await t.step("output: cut to maxOutput, head kept, a note says where to continue", async () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const ctx = fakeContext({ config: { maxOutput: 200 }, files: { "big.txt": text } });
    const out = (await readFile.run({ path: "big.txt" }, ctx)).output;
    const lines = out.split("\n");
    const note = lines.pop()!;
    assertEquals(lines[0], "line 1");
    const last = lines.length;
    assertEquals(lines.at(-1), `line ${last}`);
    assertEquals(note, truncatedNote(1, last, 100));
    assertEquals(
      truncatedNote(1, 12, 100),
      "[... output truncated to maxOutput: lines 1-12 of 100 shown; continue with start 13]",
    );
    assertEquals(out.length <= 200, true);
    const next = (await readFile.run({ path: "big.txt", start: last + 1, end: 0 }, ctx)).output;
    assertEquals(next.split("\n")[0], `line ${last + 1}`);
  });

  await t.step("output: a first line longer than maxOutput is cut inside the line", async () => {
    const text = "a".repeat(1000) + "\nshort\n";
    const ctx = fakeContext({ config: { maxOutput: 300 }, files: { "min.js": text } });
    const out = (await readFile.run({ path: "min.js" }, ctx)).output;
    const [head, note] = out.split("\n");
    assertEquals(head, "a".repeat(head.length));
    assertEquals(note, longLineNote(1, head.length, 1000, 2));
    assertEquals(out.length <= 300, true);
    assertEquals(
      longLineNote(1, 150, 1000, 2),
      "[... output truncated to maxOutput: line 1 cut after 150 of its 1000 characters; continue with start 2]",
    );
    assertEquals(
      longLineNote(2, 150, 1000, 2),
      "[... output truncated to maxOutput: line 2 cut after 150 of its 1000 characters]",
    );
    const numbered = (await readFile.run({ path: "min.js", numbered: true }, ctx)).output;
    const [first, numberedNote] = numbered.split("\n");
    assertEquals(first.startsWith("1 │ aaa"), true);
    assertEquals(numberedNote, longLineNote(1, first.length - 4, 1000, 2));
  });

  await t.step("directory: said so, nothing listed", async () => {
    const fs = new MemoryFiles("/work/project", { "src/a.ts": "x" });
    const withBash = await readFile.run({ path: "src" }, fakeContext({ fs }));
    assertEquals(withBash, {
      output: "src is a directory, not a file. To see what it holds, run ls with bash.",
      failed: true,
      locations: ["/work/project/src"],
    });
    const noBash = await readFile.run(
      { path: "src" },
      fakeContext({ fs, config: { bashTool: false } }),
    );
    assertEquals(
      noBash.output,
      "src is a directory, not a file. Give the path of a file inside it.",
    );
    assertEquals(directoryText("d", false), noBash.output.replace("src", "d"));
  });

  await t.step("binary file: a NUL byte; said so with the size", async () => {
    const ctx = fakeContext({ files: { "a.png": new Uint8Array([0x89, 0x50, 0x00, 0x4e, 0x47]) } });
    assertEquals(await readFile.run({ path: "a.png" }, ctx), {
      output: "a.png is a binary file (5 bytes); read_file shows text files only.",
      failed: true,
      locations: ["/work/project/a.png"],
    });
    assertEquals(
      binaryText("a.png", 5),
      "a.png is a binary file (5 bytes); read_file shows text files only.",
    );
  });

  await t.step("too large: above 64 MiB, refused without reading", async () => {
    class Huge extends MemoryFiles {
      override stat(): Promise<FileInfo> {
        return Promise.resolve({ isFile: true, isDirectory: false, size: READ_LIMIT + 1 });
      }
      override read(): Promise<Uint8Array> {
        throw new Error("read must not be called");
      }
    }
    const ctx = fakeContext({ fs: new Huge("/work/project") });
    const result = await readFile.run({ path: "dump.sql" }, ctx);
    assertEquals(result.output, tooLargeText("dump.sql", READ_LIMIT + 1));
    assertEquals(
      result.output,
      "dump.sql is too large for read_file (67108865 bytes; the limit is 64 MiB). " +
        "Read a range of its lines with start and end: start 1, end 200 shows its first 200.",
    );
    assertEquals(result.failed, true);
  });

  await t.step("above 64 MiB with start/end: the range is streamed, not refused", async () => {
    /** A file system whose files claim to be above the read limit and cannot be read whole. */
    class Large extends MemoryFiles {
      override async stat(path: string): Promise<FileInfo | undefined> {
        const info = await super.stat(path);
        return info?.isFile ? { ...info, size: READ_LIMIT + 1 } : info;
      }
      override read(): Promise<Uint8Array> {
        throw new Error("read must not be called");
      }
    }
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const fs = new Large("/work/project", { "big.log": lines, "w.log": Uint8Array.of(0xe9, 0x0a) });
    fs.chunkSize = 7;
    const ctx = fakeContext({ fs, config: { maxOutput: 200 } });
    assertEquals(
      await readFile.run({ path: "big.log", start: 500, end: 502 }, ctx),
      { output: "line 500\nline 501\nline 502", locations: ["/work/project/big.log"] },
    );
    assertEquals(
      (await readFile.run({ path: "big.log", start: 999, end: 0, numbered: true }, ctx)).output,
      " 999 │ line 999\n1000 │ line 1000\n",
    );
    const cut = (await readFile.run({ path: "big.log", start: 10, end: 900 }, ctx)).output;
    assertEquals(cut.length <= 200, true);
    assertMatch(
      cut,
      /^line 10\nline 11\n[^]*\n\[\.\.\. output truncated to maxOutput: lines 10-\d+ shown; continue with start \d+\]$/,
    );
    assertEquals(
      (await readFile.run({ path: "big.log", start: 1001, end: 1002 }, ctx)).output,
      pastEndText(1001, "big.log", 1000),
    );
    assertEquals(
      (await readFile.run({ path: "w.log", start: 1, end: 1 }, ctx)).output,
      `${encodingNote("w.log", "windows-1252", false)}\né\n`,
    );
    assertEquals(
      (await readFile.run({ path: "big.log" }, ctx)).output,
      tooLargeText("big.log", READ_LIMIT + 1),
    );
    assertEquals(
      streamedNote(3, 9),
      "[... output truncated to maxOutput: lines 3-9 shown; continue with start 10]",
    );
    assertEquals(
      streamedLongLineNote(4, 120),
      "[... output truncated to maxOutput: line 4 cut after 120 characters; continue with start 5]",
    );
  });

  await t.step("empty file: said so", async () => {
    const ctx = fakeContext({ files: { "e.txt": "" } });
    assertEquals(await readFile.run({ path: "e.txt" }, ctx), {
      output: "e.txt is empty (0 lines).",
      locations: ["/work/project/e.txt"],
    });
    assertEquals(emptyText("x"), "x is empty (0 lines).");
  });

  await t.step("start past the end: the file's line count", async () => {
    const ctx = fakeContext({ files: { "a.txt": FIVE, "one.txt": "x" } });
    assertEquals(await readFile.run({ path: "a.txt", start: 6 }, ctx), {
      output: "start 6 is past the end: a.txt has 5 lines.",
      failed: true,
      locations: ["/work/project/a.txt"],
    });
    assertEquals(pastEndText(3, "one.txt", 1), "start 3 is past the end: one.txt has 1 line.");
    assertEquals(
      (await readFile.run({ path: "one.txt", start: 3 }, ctx)).output,
      pastEndText(3, "one.txt", 1),
    );
  });

  await t.step("end before start: said so", async () => {
    const ctx = fakeContext({ files: { "a.txt": FIVE } });
    const result = await readFile.run({ path: "a.txt", start: 4, end: 2 }, ctx);
    assertEquals(
      result.output,
      "end 2 is before start 4: give an end of at least 4, or 0 for the end of the file.",
    );
    assertEquals(result.output, endBeforeStartText(4, 2));
    assertEquals(result.failed, true);
  });

  await t.step("negative numbers: refused with what 0 means and the line count", async () => {
    const ctx = fakeContext({ files: { "a.txt": FIVE } });
    assertEquals(
      (await readFile.run({ path: "a.txt", start: -3 }, ctx)).output,
      "start -3 is not a line number: lines count from 1, and 0 means from the start. a.txt has 5 lines.",
    );
    const end = await readFile.run({ path: "a.txt", start: 1, end: -1 }, ctx);
    assertEquals(
      end.output,
      "end -1 is not a line number: lines count from 1, and 0 means to the end. a.txt has 5 lines.",
    );
    assertEquals(end.failed, true);
  });

  await t.step(
    "invalid UTF-8 (Windows-1252): decoded as Windows-1252, said on a line before",
    async () => {
      const cp1252 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x93, 0x71, 0x94, 0x0a]);
      const ctx = fakeContext({ files: { "w.txt": cp1252 } });
      assertEquals(
        (await readFile.run({ path: "w.txt" }, ctx)).output,
        "[w.txt is Windows-1252 (Latin-1) text, not UTF-8: shown decoded; edit_file and write_file keep its encoding]\n" +
          "café\n“q”\n",
      );
      assertEquals(
        (await readFile.run({ path: "w.txt", start: 2, numbered: true }, ctx)).output,
        `${encodingNote("w.txt", "windows-1252", false)}\n2 │ “q”\n`,
      );
    },
  );

  await t.step(
    "UTF-16 with a BOM, LE and BE: decoded, BOM not shown, said on a line before",
    async () => {
      const le = Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00, 0xe9, 0x00, 0x0a, 0x00);
      const be = Uint8Array.of(0xfe, 0xff, 0x00, 0x61, 0x00, 0x0a, 0x00, 0xe9, 0x00, 0x0a);
      const ctx = fakeContext({ files: { "le.txt": le, "be.txt": be } });
      assertEquals(
        (await readFile.run({ path: "le.txt" }, ctx)).output,
        "[le.txt is UTF-16 LE text with a byte order mark: shown decoded; edit_file and write_file keep its encoding]\n" +
          "a\né\n",
      );
      assertEquals(
        (await readFile.run({ path: "be.txt", end: 1 }, ctx)).output,
        `${encodingNote("be.txt", "utf-16be", true)}\na`,
      );
    },
  );

  await t.step("UTF-16 that does not decode: refused, no rewrite suggested", async () => {
    const ctx = fakeContext({ files: { "odd.txt": Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0x62) } });
    const result = await readFile.run({ path: "odd.txt" }, ctx);
    assertEquals(
      result.output,
      "odd.txt starts with a UTF-16 LE byte order mark but is not valid UTF-16 LE text (5 bytes): " +
        "the file tools cannot read or change it without damaging it.",
    );
    assertEquals(result.failed, true);
  });

  await t.step("a UTF-8 file, BOM or not, has no note: the output is as before", async () => {
    const ctx = fakeContext({
      files: { "b.txt": Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0x0a), "u.txt": "é\n" },
    });
    assertEquals((await readFile.run({ path: "b.txt" }, ctx)).output, "a\n");
    assertEquals((await readFile.run({ path: "u.txt" }, ctx)).output, "é\n");
  });

  await t.step("the note counts within maxOutput", async () => {
    const text = Array.from({ length: 50 }, (_, i) => `l\xe9ne ${i + 1}`).join("\n") + "\n";
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const ctx = fakeContext({ files: { "w.txt": bytes }, config: { maxOutput: 300 } });
    const out = (await readFile.run({ path: "w.txt" }, ctx)).output;
    assertEquals(out.length <= 300, true, `${out.length}`);
    assertMatch(out, /^\[w\.txt is Windows-1252[^\n]*\nléne 1\n/);
    assertMatch(
      out,
      /\[\.\.\. output truncated to maxOutput: lines 1-\d+ of 50 shown; continue with start \d+\]$/,
    );
  });

  await t.step("CRLF line endings: kept as they are", async () => {
    const ctx = fakeContext({ files: { "w.txt": "a\r\nb\r\nc\r\n" } });
    assertEquals((await readFile.run({ path: "w.txt", end: 2 }, ctx)).output, "a\r\nb\r");
    assertEquals((await readFile.run({ path: "w.txt" }, ctx)).output, "a\r\nb\r\nc\r\n");
  });

  await t.step("unreadable file: the reason, never a throw", async () => {
    const fs = new MemoryFiles("/work/project", { "secret.txt": "x" });
    fs.failures.set(
      "/work/project/secret.txt",
      new Deno.errors.PermissionDenied("Permission denied (os error 13)"),
    );
    assertEquals(await readFile.run({ path: "secret.txt" }, fakeContext({ fs })), {
      output: "cannot read secret.txt: permission denied",
      failed: true,
      locations: ["/work/project/secret.txt"],
    });
  });

  await t.step("a /proc path Deno will not open: bash named only when it is declared", async () => {
    const fs = new MemoryFiles("/work/project", {});
    fs.failures.set(
      "/proc/cpuinfo",
      new Deno.errors.NotCapable(
        'Requires all access to "/proc/cpuinfo", run again with --allow-all',
      ),
    );
    const read = async (bashTool: boolean) =>
      (await readFile.run({ path: "/proc/cpuinfo" }, fakeContext({ fs, config: { bashTool } })))
        .output;
    assertEquals(
      await read(true),
      `cannot read /proc/cpuinfo: ${SYSTEM_PATH_REASON} — read it with bash (cat, head, ls) instead`,
    );
    assertEquals(await read(false), `cannot read /proc/cpuinfo: ${SYSTEM_PATH_REASON}`);
  });

  await t.step(
    "ACP: kind read, the absolute path as location, asked only out of the project",
    async () => {
      assertEquals(readFile.kind, "read");
      assertEquals([readFile.asks, readFile.asksOutside], [false, true]);
      const ctx = fakeContext({ files: { "/elsewhere/x.txt": "x\n" } });
      assertEquals((await readFile.run({ path: "../../elsewhere/x.txt" }, ctx)).locations, [
        "/elsewhere/x.txt",
      ]);
    },
  );

  await t.step("display and recap: 📝, the path, counted as a file op", () => {
    assertEquals(readFile.emoji, "📝");
    assertEquals(readFile.summary({ path: "src/main.ts", start: 3 }), "src/main.ts");
    assertEquals(readFile.counter, "fileOps");
  });
});

Deno.test("read_file: a range of a 200 MB log on disk, streamed in bounded time and memory", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mm-read-large-" });
  try {
    // 1 MiB of 16-byte lines (65536 of them), written 200 times: 13,107,200 lines.
    const block = new Uint8Array(1 << 20);
    for (let i = 0; i < block.length; i += 16) {
      block.set(new TextEncoder().encode("log line 0000ok\n"), i);
    }
    const file = await Deno.open(join(dir, "big.log"), { write: true, create: true });
    for (let i = 0; i < 200; i++) await file.write(block);
    file.close();
    const ctx = { ...fakeContext({ cwd: dir }), fs: realFiles(dir) };
    const rss = Deno.memoryUsage().rss;
    const started = performance.now();
    const result = await readFile.run(
      { path: "big.log", start: 13_000_000, end: 13_000_002, numbered: true },
      ctx,
    );
    const took = performance.now() - started;
    assertEquals(
      result.output,
      [13_000_000, 13_000_001, 13_000_002]
        .map((n) => `${n} │ log line 0000ok`).join("\n"),
    );
    assertEquals(took < 30_000, true, `${took} ms`);
    assertEquals(
      Deno.memoryUsage().rss - rss < 100 * 1024 * 1024,
      true,
      "memory grew past 100 MiB",
    );
    const last = await readFile.run({ path: "big.log", start: 13_107_200 }, ctx);
    assertEquals(last.output, "log line 0000ok\n");
    const whole = await readFile.run({ path: "big.log" }, ctx);
    assertEquals(whole.output, tooLargeText("big.log", 200 * (1 << 20)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
