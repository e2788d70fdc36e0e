/**
 * An MCP server's messages past {@linkcode MAX_MCP_MESSAGE}: never held, over stdio or HTTP. A
 * message too large is passed over, and when it answered a request (its `id` is in its first or
 * last bytes, or the request is known) the request gets a JSON-RPC error in its place, which the
 * model reads; the server goes on. For HTTP, the place to bound is the `fetch` mm gives the SDK's
 * transports ({@linkcode boundedFetch}).
 */

import { MAX_MCP_MESSAGE, sizeText } from "../bounded/limits.ts";
import { readBody, readLines, type SkippedLine, TooLarge } from "../bounded/lines.ts";

/** The JSON-RPC error code of an answer mm did not read (a server error, by JSON-RPC's ranges). */
export const TOO_LARGE_CODE = -32000;

/** What the model reads of an answer too large to read. */
export function tooLargeText(limit = MAX_MCP_MESSAGE): string {
  return `its answer is larger than ${
    sizeText(limit)
  }, more than mm reads, and was not read — ask for less (a narrower query, a smaller range)`;
}

/** A JSON-RPC id: a number or a string. */
export type RpcId = number | string;

const ID = String.raw`("(?:[^"\\]|\\.)*"|-?\d+)`;
/** `{"id": …` or `{"jsonrpc": "2.0", "id": …` at the start of a message. */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** `, "id": …}` or `"id": …, "jsonrpc": "2.0"}` at its end (the SDK's servers write it last). */
const TAIL_ID = new RegExp(
  String.raw`[,{]\s*"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`,
);

/** The id of a message passed over, from its first or last bytes; undefined when neither says it. */
export function skippedId(line: SkippedLine): RpcId | undefined {
  const m = line.tail.match(TAIL_ID) ?? line.head.match(HEAD_ID);
  if (!m) return undefined;
  try {
    const id = JSON.parse(m[1]);
    return typeof id === "number" || typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The error answered in place of a message too large to read, for request `id`. */
export function tooLargeReply(id: RpcId, limit = MAX_MCP_MESSAGE): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: { code: TOO_LARGE_CODE, message: tooLargeText(limit) } };
}

/** What a fetch is for the SDK's transports. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` whose answers are bounded: a JSON body past `limit` is answered by the error of the
 * request it answers (the id of the request mm posted); an event stream is passed on line by line,
 * and a line past `limit` is replaced by the error of its request, or left out when it names
 * none. Anything else past the limit ends its body with an error.
 */
export function boundedFetch(limit = MAX_MCP_MESSAGE, inner: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    if (!response.body) return response;
    const type = response.headers.get("content-type") ?? "";
    const requestId = postedId(init?.body);
    if (/text\/event-stream/i.test(type)) {
      return rebody(response, eventStream(response.body, limit, requestId));
    }
    if (/json/i.test(type)) {
      try {
        return rebody(response, once(await readBody(response.body, limit)));
      } catch (e) {
        if (!(e instanceof TooLarge) || requestId === undefined) throw e;
        const reply = tooLargeReply(requestId, limit);
        return rebody(response, once(new TextEncoder().encode(JSON.stringify(reply))));
      }
    }
    return rebody(response, capped(response.body, limit));
  };
}

/** The id of the JSON-RPC request posted, when the body is one. */
function postedId(body: unknown): RpcId | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === "number" || typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** `response` with another body, its status and headers kept. */
function rebody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const out = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(out, "url", { value: response.url });
  return out;
}

/** A stream of one chunk. */
function once(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** An event stream's lines, each at most `limit` bytes: a longer `data:` line becomes its error. */
function eventStream(
  body: ReadableStream<Uint8Array>,
  limit: number,
  requestId: RpcId | undefined,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let replaced: string | undefined;
  const lines = readLines(body, {
    max: limit,
    cr: true,
    skip: (line) => {
      const id = skippedId({ ...line, head: line.head.replace(/^data:\s?/, "") }) ?? requestId;
      replaced = id === undefined ? "" : `data: ${JSON.stringify(tooLargeReply(id, limit))}`;
    },
  })[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      try {
        const next = await lines.next();
        // A line passed over is told before the line after it: it comes first.
        if (replaced !== undefined) {
          if (replaced) controller.enqueue(encoder.encode(`${replaced}\n${next.done ? "\n" : ""}`));
          replaced = undefined;
        }
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(`${next.value}\n`));
      } catch (e) {
        controller.error(e);
      }
    },
    async cancel(reason) {
      await lines.return?.(reason);
    },
  });
}

/** `body`, ended with {@linkcode TooLarge} once more than `limit` bytes came. */
function capped(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        seen += chunk.length;
        if (seen > limit) return controller.error(new TooLarge(limit, "a message"));
        controller.enqueue(chunk);
      },
    }),
  );
}
