/** The Content-Length guard of a language server's output (lib/lsp/framing.ts). */

import { ContentLengthGuard } from "../../lib/lsp/framing.ts";
import { assertEquals } from "../helpers/assert.ts";

const encoder = new TextEncoder();
const frame = (body: string, length = encoder.encode(body).length) =>
  `Content-Length: ${length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}`;

/** What the guard says of each chunk of `text` cut every `size` bytes. */
function fed(guard: ContentLengthGuard, text: string, size: number): (number | undefined)[] {
  const bytes = encoder.encode(text);
  const out: (number | undefined)[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(guard.feed(bytes.slice(at, at + size)));
  return out.filter((r) => r !== undefined);
}

Deno.test("ContentLengthGuard", async (t) => {
  await t.step("messages within the limit pass, at every chunk size", () => {
    const text = frame('{"a":"é"}') + frame("{}") + frame('{"b":1}');
    for (const size of [1, 2, 3, 7, 1000]) {
      assertEquals(fed(new ContentLengthGuard(10), text, size), []);
    }
  });
  await t.step("a message announced over the limit is refused at its header", () => {
    const text = frame("{}") + frame("", 11);
    assertEquals(fed(new ContentLengthGuard(10), text, 5), [11]);
  });
  await t.step("a body's bytes are never read as headers", () => {
    const body = '{"t":"Content-Length: 99\\r\\n\\r\\n"}';
    assertEquals(fed(new ContentLengthGuard(50), frame(body) + frame("{}"), 4), []);
  });
  await t.step("headers that never end are refused", () => {
    assertEquals(fed(new ContentLengthGuard(10), "X".repeat(70_000), 1000).length > 0, true);
  });
});
