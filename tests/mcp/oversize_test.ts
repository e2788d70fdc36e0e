/**
 * An MCP server's messages past the limit (lib/mcp/oversize.ts): the id of a message passed over,
 * the bounded fetch of the HTTP transports, and a Streamable HTTP server answering a call with a
 * 40 MB event-stream line through the real McpServer.
 */

import { McpServer } from "../../lib/mcp/server.ts";
import { boundedFetch, skippedId, tooLargeReply, tooLargeText } from "../../lib/mcp/oversize.ts";
import { TooLarge } from "../../lib/bounded/lines.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { serverConfig } from "../helpers/mcp/servers.ts";

const NEVER = new AbortController().signal;
const TEXT =
  "its answer is larger than 32 MiB, more than mm reads, and was not read — ask for less (a narrower query, a smaller range)";

Deno.test("tooLargeText: the words the model reads", () => {
  assertEquals(tooLargeText(), TEXT);
  assertEquals(tooLargeReply(7), {
    jsonrpc: "2.0",
    id: 7,
    error: { code: -32000, message: TEXT },
  });
});

Deno.test("skippedId: the id of a message passed over, from its first or last bytes", () => {
  const at = (head: string, tail: string) => skippedId({ bytes: 1, head, tail });
  assertEquals(at('{"jsonrpc":"2.0","id":12,"result":{"content":[', "]}}"), 12);
  assertEquals(at('{ "id" : "a\\"b", "result"', "}"), 'a"b');
  assertEquals(at('{"result":{"content":[{"text":"', 'xx"}]},"jsonrpc":"2.0","id":3}'), 3);
  assertEquals(at('{"result":{', '"}]},"id":-4,"jsonrpc":"2.0"}\r'), -4);
  // An "id" inside the result's text is no id.
  assertEquals(at('{"result":{"text":"\\"id\\":5', 'x"}}'), undefined);
  assertEquals(at('{"method":"notifications/message","params":', "}}"), undefined);
});

/** A fetch answering `body` with `type`, as a server would. */
function answering(type: string, body: string): typeof fetch {
  return (() =>
    Promise.resolve(new Response(body, { headers: { "content-type": type } }))) as typeof fetch;
}

const POST = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "x" }) };

Deno.test("boundedFetch", async (t) => {
  await t.step("a JSON body within the limit passes whole", async () => {
    const f = boundedFetch(100, answering("application/json", '{"a":1}'));
    assertEquals(await (await f("http://x/", POST)).json(), { a: 1 });
  });
  await t.step("a JSON body past the limit: the error of the request posted", async () => {
    const f = boundedFetch(
      10,
      answering("application/json", JSON.stringify({ a: "x".repeat(50) })),
    );
    const response = await f("http://x/", POST);
    assertEquals(await response.json(), tooLargeReply(9, 10));
  });
  await t.step(
    "an event stream: a data line past the limit becomes its request's error",
    async () => {
      const long = `data: {"jsonrpc":"2.0","id":4,"result":{"t":"${"y".repeat(200)}"}}`;
      const body = `event: message\r\nid: 1\r\n${long}\r\n\r\ndata: {"ok":1}\n\n`;
      const f = boundedFetch(100, answering("text/event-stream", body));
      assertEquals(
        await (await f("http://x/", POST)).text(),
        `event: message\nid: 1\ndata: ${
          JSON.stringify(tooLargeReply(4, 100))
        }\n\ndata: {"ok":1}\n\n`,
      );
    },
  );
  await t.step(
    "an event stream's last line past the limit, naming no id: the posted one",
    async () => {
      const f = boundedFetch(10, answering("text/event-stream", `data: ${"z".repeat(50)}`));
      assertEquals(
        await (await f("http://x/", POST)).text(),
        `data: ${JSON.stringify(tooLargeReply(9, 10))}\n\n`,
      );
    },
  );
  await t.step("another type past the limit: the body ends with TooLarge", async () => {
    const f = boundedFetch(10, answering("text/plain", "w".repeat(50)));
    await assertRejects(async () => await (await f("http://x/")).text(), TooLarge);
  });
});

/**
 * A Streamable HTTP MCP server by hand: JSON answers, no session, no GET stream; `big` answers
 * with one event-stream line of 40 MB, streamed a MiB at a time.
 */
function bigServer() {
  const json = (body: unknown) => Response.json(body);
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const m = await req.json();
    if (m.id === undefined) return new Response(null, { status: 202 });
    if (m.method === "initialize") {
      return json({
        jsonrpc: "2.0",
        id: m.id,
        result: {
          protocolVersion: m.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "big", version: "1" },
        },
      });
    }
    if (m.method === "tools/list") {
      return json({
        jsonrpc: "2.0",
        id: m.id,
        result: {
          tools: [{ name: "big", inputSchema: { type: "object" } }, {
            name: "small",
            inputSchema: { type: "object" },
          }],
        },
      });
    }
    if (m.params?.name === "small") {
      return json({
        jsonrpc: "2.0",
        id: m.id,
        result: { content: [{ type: "text", text: "ok" }] },
      });
    }
    const encoder = new TextEncoder();
    const chunk = encoder.encode("b".repeat(1024 * 1024));
    let left = 40;
    const parts = [
      encoder.encode(
        `event: message\ndata: {"jsonrpc":"2.0","id":${m.id},"result":{"content":[{"type":"text","text":"`,
      ),
    ];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (parts.length) return controller.enqueue(parts.shift()!);
        if (left-- > 0) return controller.enqueue(chunk);
        controller.enqueue(encoder.encode('"}]}}\n\n'));
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
}

Deno.test("an MCP server over Streamable HTTP answering 40 MB: an error the model reads", async () => {
  const http = bigServer();
  const url = `http://127.0.0.1:${http.addr.port}/mcp`;
  const server = new McpServer("big", serverConfig({ type: "http", url, timeout: 60_000 }), {
    cwd: "/tmp",
    env: {},
  });
  try {
    await server.started;
    assertEquals(server.state, { kind: "running" });
    const began = performance.now();
    assertEquals(await server.call("big", {}, NEVER), { kind: "error", message: TEXT });
    const seconds = (performance.now() - began) / 1000;
    if (seconds > 20) throw new Error(`took ${seconds} s`);
    assertEquals(await server.call("small", {}, NEVER), {
      kind: "result",
      result: { content: [{ type: "text", text: "ok" }], isError: false },
    });
  } finally {
    await server.close();
    await http.shutdown();
  }
});
