/** How a command's output reads for the model (tools/_readable.ts). */

import { binaryOutputText, NUL_MARK, readableOutput } from "../../tools/_readable.ts";
import { assertEquals, assertMatch } from "../helpers/assert.ts";

Deno.test("readableOutput", async (t) => {
  await t.step("text is left as it is", () => {
    assertEquals(readableOutput("a\tb\nc — é\n"), "a\tb\nc — é\n");
  });
  await t.step(
    "NUL bytes (head -c 6000 /dev/zero): one line, not 36,000 characters of escapes",
    () => {
      assertEquals(readableOutput("\0".repeat(6000)), "[binary output: 6000 bytes, not shown]");
      assertEquals(binaryOutputText(12), "[binary output: 12 bytes, not shown]");
    },
  );
  await t.step("bytes that are not UTF-8 (cat of a binary file)", () => {
    const decoded = new TextDecoder().decode(
      new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0xff, 0xfe, 0x00, 0x80]),
    );
    assertEquals(readableOutput(decoded), "[binary output: 8 bytes, not shown]");
  });
  await t.step("text with a few NUL bytes (find -print0): marked", () => {
    assertEquals(
      readableOutput("./a.txt\0./b.txt\0./some/longer/path/c.txt\0"),
      `./a.txt${NUL_MARK}./b.txt${NUL_MARK}./some/longer/path/c.txt${NUL_MARK}`,
    );
  });
  await t.step("a binary file among text: the text stays, the binary part is one line", () => {
    const notes = "first note\nsecond note\n";
    const icon = "\0\0\u0001\0\ufffd\ufffd\0\0\0\0\n\0\0\ufffd\0\0";
    assertEquals(
      readableOutput(notes + icon + "\nafter\n"),
      "first note\nsecond note\n[binary output: 17 bytes, not shown]\nafter\n",
    );
  });
  await t.step("NULs beside raw control bytes are an executable's tables, not text", () => {
    const table = "x".repeat(200) + "\0\0\0\u0005\0\0\0\u0007sort_files\0posix-\0main\0";
    assertEquals(readableOutput(`ok\n${table}\n`), `ok\n${binaryOutputText(table.length + 1)}\n`);
  });
  await t.step("the scraps between binary lines belong to them: one line, not dozens", () => {
    const bin = "\0\ufffd\0\0\ufffd\0\0\0";
    const output = `notes\n${bin}\nab\n\n${bin}\n\u0003 some words here\n${bin}\nlater text\n`;
    assertEquals(readableOutput(output), `notes\n${binaryOutputText(49)}\nlater text\n`);
  });
  await t.step(
    "an executable (cat /bin/sh; echo done): one line, then what came after",
    async () => {
      const sh = await Deno.readFile(await Deno.realPath("/bin/sh"));
      const output = new TextDecoder().decode(sh) + "\ndone\n";
      // The count is of what was decoded: a run of bytes that are not UTF-8 may be one U+FFFD.
      assertMatch(readableOutput(output), /^\[binary output: \d+ bytes, not shown\]\ndone\n$/);
    },
  );
  await t.step("text after the binary part of the last line is kept", () => {
    const icon = "\0\0\u0001\0\ufffd\ufffd\0\0\0\0";
    assertEquals(
      readableOutput(`notes 1\nnotes 2\n${icon}done\n`),
      `notes 1\nnotes 2\n${binaryOutputText(10)}\ndone\n`,
    );
    // Text in the middle of a binary part is not: random bytes end in letters often enough.
    assertEquals(
      readableOutput(`${icon}abc\n${icon}\n`),
      `${binaryOutputText(25)}\n`,
    );
  });
  await t.step("words between NULs are text, marked, however short", () => {
    assertEquals(readableOutput("ok\0tail\n"), `ok${NUL_MARK}tail\n`);
    assertEquals(
      readableOutput("d/a\0d/b\0d/c\0d/d\0"),
      `d/a${NUL_MARK}d/b${NUL_MARK}d/c${NUL_MARK}d/d${NUL_MARK}`,
    );
    assertEquals(readableOutput("\0\0\0\0"), binaryOutputText(4));
  });
  await t.step("colour and cursor escapes are left out", () => {
    assertEquals(
      readableOutput("\x1b[31mred\x1b[0m and \x1b[1;32mgreen\x1b[m\x1b]0;title\x07\x1b[2K\n"),
      "red and green\n",
    );
  });
  await t.step("a progress bar redrawn with \\r is its last frame; other CRs stay", () => {
    const frames = Array.from(
      { length: 50 },
      (_, i) => `\r[${"#".repeat(i % 10)}${" ".repeat(9 - i % 10)}] ${i}%`,
    );
    assertEquals(
      readableOutput(`get\n${frames.join("")}\nfinished\n`),
      "get\n[#########] 49%\nfinished\n",
    );
    assertEquals(readableOutput("a\r\nb\r\n"), "a\r\nb\r\n");
    // Lines of different lengths are not frames (a file with old Mac line ends).
    assertEquals(
      readableOutput("first line\rsecond, longer line\rx\r"),
      "first line\rsecond, longer line\rx\r",
    );
  });
});
