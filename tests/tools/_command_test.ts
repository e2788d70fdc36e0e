/** How a command's output ends and reads for the model (tools/_command.ts). */

import { binaryOutputText, commandOutput, NUL_MARK, readableOutput } from "../../tools/_command.ts";
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
    const table = "\0\0\0\u0005\0\0\0\u0007sort_files\0posix-\0main\0" + "x".repeat(200);
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
  await t.step("through commandOutput, which bash and the declared tools use", () => {
    const result = { output: "\0".repeat(100), code: 0, timedOut: false, cancelled: false };
    assertEquals(commandOutput(result, 30_000, 16_000), {
      output: "[binary output: 100 bytes, not shown]",
    });
  });
});
