/** The bounded line reader (lib/bounded/lines.ts): line ends across chunks, UTF-8, limits, linear time. */

import { readBody, readLines, type SkippedLine, TooLarge } from "../../lib/bounded/lines.ts";
import { MAX_STREAM_LINE, MiB, sizeText } from "../../lib/bounded/limits.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";

const encoder = new TextEncoder();

/** `bytes` as a stream of chunks of `size` bytes. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** The stream of these chunks, as they are. */
function pieces(...parts: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const chunks = parts.map((p) => typeof p === "string" ? encoder.encode(p) : p);
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

async function all(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

Deno.test("readLines", async (t) => {
  await t.step("LF, CR and CRLF end lines; an empty line is a line", async () => {
    const body = pieces("a\nb\rc\r\n\r\nd");
    assertEquals(await all(readLines(body, { max: 100, cr: true })), ["a", "b", "c", "", "d"]);
  });
  await t.step("a CRLF split across chunks is one line end", async () => {
    const body = pieces("a\r", "\nb\r", "", "\nc");
    assertEquals(await all(readLines(body, { max: 100, cr: true })), ["a", "b", "c"]);
  });
  await t.step("a CR at a chunk's end followed by a line", async () => {
    assertEquals(await all(readLines(pieces("a\r", "b\n"), { max: 100, cr: true })), ["a", "b"]);
  });
  await t.step("without cr, a CR is part of the line", async () => {
    assertEquals(await all(readLines(pieces("a\rb\n", "c"), { max: 100 })), ["a\rb", "c"]);
  });
  await t.step("every line end at every chunk border, byte by byte", async () => {
    const text = "data: é€😀\r\n\r\nevent: x\rdata: y\n\ndata: z";
    const bytes = encoder.encode(text);
    const want = ["data: é€😀", "", "event: x", "data: y", "", "data: z"];
    for (const size of [1, 2, 3, 5, 7]) {
      assertEquals(await all(readLines(chunked(bytes, size), { max: 100, cr: true })), want);
    }
  });
  await t.step("a multibyte character split across chunks is whole", async () => {
    const bytes = encoder.encode("€😀\n");
    const body = pieces(bytes.slice(0, 1), bytes.slice(1, 4), bytes.slice(4, 5), bytes.slice(5));
    assertEquals(await all(readLines(body, { max: 100 })), ["€😀"]);
  });
  await t.step("a byte-order mark starts the first line only", async () => {
    assertEquals(await all(readLines(pieces("\uFEFFa\n\uFEFFb"), { max: 100 })), ["a", "\uFEFFb"]);
  });
  await t.step("a line of exactly the limit is read; one byte more stops", async () => {
    assertEquals(await all(readLines(pieces("abcd\nab", "cd"), { max: 4 })), ["abcd", "abcd"]);
    const err = await assertRejects(
      () => all(readLines(pieces("ab", "cde\n"), { max: 4 })),
      TooLarge,
    );
    assertEquals(err.message, "a line longer than 4 bytes");
    assertEquals(err.limit, 4);
  });
  await t.step("the limit counts bytes, not characters", async () => {
    await assertRejects(() => all(readLines(pieces("éé\n"), { max: 3 })), TooLarge);
  });
  await t.step("a line passed over: its length, head and tail; reading goes on", async () => {
    const skipped: SkippedLine[] = [];
    const long = "H" + "x".repeat(20_000) + "T";
    const body = pieces("one\n", long.slice(0, 7000), long.slice(7000), "\ntwo\n");
    const lines = await all(readLines(body, { max: 100, skip: (s) => skipped.push(s) }));
    assertEquals(lines, ["one", "two"]);
    assertEquals(skipped.length, 1);
    assertEquals(skipped[0].bytes, long.length);
    assertEquals(skipped[0].head, long.slice(0, 4096));
    assertEquals(skipped[0].tail, long.slice(-4096));
  });
  // Their speed (linear, not quadratic) is measured by scripts/bench/big_line.ts, not here.
  await t.step("50 MB in one line, and 24 MB of short lines, read whole", async () => {
    const big = encoder.encode("x".repeat(50 * MiB) + "\n");
    const lines = await all(readLines(chunked(big, 64 * 1024), { max: 64 * MiB, cr: true }));
    assertEquals(lines.length, 1);
    assertEquals(lines[0].length, 50 * MiB);
    const many = encoder.encode('data: {"a":1}\r\n\r\n'.repeat(1.5 * MiB));
    let count = 0;
    for await (const _ of readLines(chunked(many, 64 * 1024), { max: 100, cr: true })) count++;
    assertEquals(count, 3 * MiB);
  });
  await t.step("100 MB past the limit stops at the limit, without reading the rest", async () => {
    let sent = 0;
    const chunk = encoder.encode("y".repeat(1 * MiB));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 100) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    await assertRejects(() => all(readLines(body, { max: MAX_STREAM_LINE })), TooLarge);
    if (sent > 10) throw new Error(`read ${sent} MiB for a limit of ${sizeText(MAX_STREAM_LINE)}`);
  });
});

Deno.test("readBody", async (t) => {
  await t.step("the whole body within the limit", async () => {
    assertEquals(new TextDecoder().decode(await readBody(pieces("ab", "cd"), 4)), "abcd");
  });
  await t.step("past the limit: TooLarge naming the body", async () => {
    const err = await assertRejects(
      () => readBody(pieces("ab", "cde"), 4, { what: "an answer" }),
      TooLarge,
    );
    assertEquals(err.message, "an answer longer than 4 bytes");
  });
  await t.step("cut: the first bytes", async () => {
    assertEquals(
      new TextDecoder().decode(await readBody(pieces("ab", "cde"), 4, { cut: true })),
      "abcd",
    );
  });
});

Deno.test("sizeText", () => {
  assertEquals([sizeText(8 * MiB), sizeText(65536), sizeText(100)], [
    "8 MiB",
    "64 KiB",
    "100 bytes",
  ]);
});
