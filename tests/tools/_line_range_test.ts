import { assertEquals } from "../helpers/assert.ts";
import { streamLines } from "../../tools/_line_range.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (lines: Uint8Array[]) => lines.map((l) => new TextDecoder().decode(l));

/** `text` in chunks of `size` bytes. */
async function* chunks(text: string, size: number): AsyncIterable<Uint8Array> {
  const bytes = enc(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

Deno.test("streamLines", async (t) => {
  const FIVE = "one\ntwo\nthree\nfour\nfive\n";
  for (const size of [1, 2, 3, 5, 64]) {
    await t.step(`chunks of ${size}: a range, the end, the whole`, async () => {
      const mid = await streamLines(chunks(FIVE, size), 2, 3, 1000);
      assertEquals(dec(mid.lines), ["two", "three"]);
      assertEquals([mid.cut, mid.total], [false, undefined]);
      const tail = await streamLines(chunks(FIVE, size), 4, Infinity, 1000);
      assertEquals(dec(tail.lines), ["four", "five"]);
      assertEquals([tail.total, tail.finalNewline], [5, true]);
      const last = await streamLines(chunks(FIVE, size), 5, 5, 1000);
      assertEquals([dec(last.lines), last.total, last.finalNewline], [["five"], 5, true]);
      const open = await streamLines(chunks("a\nb", size), 1, 9, 1000);
      assertEquals([dec(open.lines), open.total, open.finalNewline], [["a", "b"], 2, false]);
    });
  }
  await t.step("past the end: no lines, the total", async () => {
    const r = await streamLines(chunks(FIVE, 4), 9, 12, 1000);
    assertEquals([r.lines, r.total], [[], 5]);
    assertEquals((await streamLines(chunks("", 4), 1, 2, 10)).total, 0);
  });
  await t.step("the cap cuts a long line and stops the read", async () => {
    let read = 0;
    async function* endless(): AsyncIterable<Uint8Array> {
      while (true) {
        read++;
        yield new Uint8Array(100).fill(0x78);
      }
    }
    const r = await streamLines(endless(), 1, 3, 250);
    assertEquals([r.lines.length, r.lines[0].length, r.cut, r.total, read], [
      1,
      250,
      true,
      undefined,
      3,
    ]);
  });
  await t.step("the read stops after the range's end", async () => {
    let read = 0;
    async function* counted(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 1000; i++) {
        read++;
        yield enc(`line ${i}\n`);
      }
    }
    const r = await streamLines(counted(), 3, 4, 1000);
    assertEquals([dec(r.lines), read], [["line 2", "line 3"], 5]);
  });
  await t.step("the head holds the first bytes (a BOM)", async () => {
    const r = await streamLines(chunks("\uFEFFx\n", 1), 1, 1, 100);
    assertEquals([...r.head], [0xef, 0xbb, 0xbf, 0x78]);
  });
});
