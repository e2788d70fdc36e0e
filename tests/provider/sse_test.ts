/** The event-stream reader of the provider (lib/provider/sse.ts): events, and its limit. */

import { sseEvents, type SSEvent } from "../../lib/provider/sse.ts";
import { TooLarge } from "../../lib/bounded/lines.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";

function body(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function events(stream: ReadableStream<Uint8Array>, max?: number): Promise<SSEvent[]> {
  const out: SSEvent[] = [];
  for await (const e of sseEvents(stream, max)) out.push(e);
  return out;
}

Deno.test("sseEvents", async (t) => {
  await t.step("data lines joined, event names, comments left out, any line end", async () => {
    const got = await events(
      body(": hi\r\nevent: error\rdata: a\r", "\ndata:b\n\n", "data: [DONE]"),
    );
    assertEquals(got, [{ event: "error", data: "a\nb" }, { event: "message", data: "[DONE]" }]);
  });
  await t.step("a line past the limit: TooLarge", async () => {
    await assertRejects(() => events(body(`data: ${"x".repeat(100)}\n\n`), 50), TooLarge);
  });
  await t.step("an event whose data lines together pass the limit: TooLarge", async () => {
    const line = `data: ${"x".repeat(30)}\n`;
    await assertRejects(() => events(body(line, line, line, "\n"), 50), TooLarge);
    assertEquals((await events(body(line, "\n", line, "\n"), 50)).length, 2);
  });
});
