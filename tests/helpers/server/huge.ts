/**
 * Answers larger than mm reads (lib/bounded/limits.ts), streamed a MiB at a time as they are
 * pulled, never built whole: one event-stream line (or NDJSON line) of `bytes`, a streamed answer
 * of `bytes` characters in 1 MiB deltas, a JSON completion of `bytes`.
 */

/** What is too large. */
export type HugeKind = "line" | "answer" | "body";

const MiB = 1024 * 1024;
const encoder = new TextEncoder();

/** `size` letters and spaces that never repeat themselves (mm stops a model that does). */
function noise(size: number): string {
  let seed = 12345;
  const out: string[] = [];
  for (let i = 0; i < size; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const r = seed >> 16;
    out.push(r % 7 === 0 ? " " : String.fromCharCode(97 + (r % 26)));
  }
  return out.join("");
}

/** The response of a `huge` reply: for Ollama's native chat (`native`), NDJSON. */
export function hugeResponse(kind: HugeKind, bytes: number, native: boolean): Response {
  const filler = encoder.encode("x".repeat(MiB));
  let chunks: Uint8Array[];
  let fills = Math.ceil(bytes / MiB);
  let type = "text/event-stream";
  if (kind === "body") {
    type = "application/json";
    chunks = [encoder.encode('{"choices":[{"message":{"role":"assistant","content":"')];
  } else if (native) {
    type = "application/x-ndjson";
    chunks = [encoder.encode('{"message":{"role":"assistant","content":"')];
  } else if (kind === "line") {
    chunks = [encoder.encode('data: {"choices":[{"delta":{"content":"')];
  } else {
    chunks = [];
  }
  const event = encoder.encode(`data: {"choices":[{"delta":{"content":"${noise(MiB)}"}}]}\n\n`);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (chunks.length) return controller.enqueue(chunks.shift()!);
      if (fills-- > 0) return controller.enqueue(kind === "answer" && !native ? event : filler);
      controller.enqueue(encoder.encode('"}}]}\n\ndata: [DONE]\n\n'));
      controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": type } });
}
