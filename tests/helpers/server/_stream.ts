/**
 * What the SSE and the NDJSON stream bodies share: a response body written chunk by chunk that
 * notices when the client goes away, the scripted delay before the headers, and the pieces a text
 * is cut into.
 */

import type { Reply } from "./mod.ts";

/** A scripted reply that streams (every kind but a fixed status and body). */
export type StreamedReply = Exclude<
  Reply,
  { status: number } | { fixture: unknown } | { raw: unknown } | { huge: unknown }
>;

/** What a stream body writes with. */
export interface StreamOut {
  /** Aborted when the client goes away (the stream is cancelled). */
  signal: AbortSignal;
  /** Sends `text` as it is. */
  send(text: string): void;
  /** Waits `ms` milliseconds. */
  wait(ms: number): Promise<unknown>;
  /** Ends the stream. */
  close(): void;
  /** Resolves when the client goes away: what a hanging server does. */
  untilGone(): Promise<unknown>;
  /** Waits a little, then breaks the connection. */
  drop(): Promise<void>;
  /** Sends `text` over and over until the client goes away (at most 100,000 times), then ends. */
  flood(text: string): Promise<void>;
}

const encoder = new TextEncoder();

/**
 * A streamed response with `headers`, its body written by `write` (which starts at once, and stops
 * quietly when the client goes away), sent after the reply's `delay`.
 */
export function streamedResponse(
  reply: StreamedReply,
  headers: Record<string, string>,
  write: (out: StreamOut) => Promise<void>,
): Response | Promise<Response> {
  const gone = new AbortController();
  const signal = gone.signal;
  const stream = new ReadableStream<Uint8Array>({
    cancel() {
      gone.abort();
    },
    async start(controller) {
      const send = (s: string) => controller.enqueue(encoder.encode(s));
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const out: StreamOut = {
        signal,
        send,
        wait,
        close: () => controller.close(),
        untilGone: () => new Promise((r) => signal.addEventListener("abort", r)),
        drop: async () => {
          await wait(20);
          controller.error(new Error("dropped by the scripted server"));
        },
        flood: async (text) => {
          for (let i = 0; i < 100_000 && !signal.aborted; i++) {
            send(text);
            if (i % 16 === 0) await wait(1);
          }
          controller.close();
        },
      };
      try {
        await write(out);
      } catch {
        // The client went away.
      }
    },
  });
  const delay = "delay" in reply ? reply.delay ?? 0 : 0;
  const response = () => new Response(stream, { headers });
  if (!delay) return response();
  return new Promise<Response>((r) => setTimeout(() => r(response()), delay));
}

/** `text` cut into pieces of `size` characters (none for an empty text). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
