/** Ollama's native `/api/chat` client against the scripted server playing it: NDJSON, tools, errors. */

import { assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import type { Config } from "../../lib/config/config.ts";
import { type Delta, StreamAborted } from "../../lib/provider/chat.ts";
import { type Message } from "../../lib/history.ts";
import { ProviderError } from "../../lib/provider/errors.ts";
import { createOllamaChat, toOllamaMessages } from "../../lib/provider/ollama_native.ts";

function config(url: string, changes: Partial<Config> = {}): Config {
  return { ...defaultConfig(), url, ...changes };
}

function request(messages: Message[], signal = new AbortController().signal) {
  const deltas: Delta[] = [];
  return {
    deltas,
    request: {
      messages,
      tools: [{
        type: "function" as const,
        function: { name: "bash", description: "Run a command.", parameters: { type: "object" } },
      }],
      signal,
      onDelta: (d: Delta) => deltas.push(d),
    },
  };
}

const hello: Message[] = [{ role: "system", content: "sys" }, { role: "user", content: "hi" }];

Deno.test("ollama native chat", async (t) => {
  const server = ScriptedServer.start();
  try {
    await t.step("text and thinking stream as deltas; options and usage", async () => {
      server.script("n-text", [{
        thought: "let me see",
        text: "hello there",
        chunkSize: 4,
        usage: { prompt_tokens: 42, completion_tokens: 7 },
      }]);
      const chat = createOllamaChat(
        config(server.url, { temperature: 0.2, topP: 0.9, maxTokens: 300 }),
        "n-text",
      );
      const { deltas, request: r } = request(hello);
      const result = await chat.stream(r, 8192);
      assertEquals(result.text, "hello there");
      assertEquals(result.thought, "let me see");
      assertEquals(result.toolCalls, []);
      assertEquals(result.usage, { promptTokens: 42, completionTokens: 7 });
      assertEquals(result.finishReason, "stop");
      assertEquals(deltas.filter((d) => d.type === "text").map((d) => "text" in d && d.text), [
        "hell",
        "o th",
        "ere",
      ]);
      assertEquals(deltas[0], { type: "thought", text: "let " });
      const sent = server.nativeChats("n-text")[0];
      assertEquals(sent.body.stream, true);
      assertEquals(sent.body.options, {
        num_ctx: 8192,
        temperature: 0.2,
        top_p: 0.9,
        num_predict: 300,
      });
      assertEquals(sent.body.messages, [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
      ]);
      assertEquals(sent.body.tools[0].function.name, "bash");
      assertEquals("think" in sent.body, false);
      assertEquals(sent.headers.get("user-agent")?.startsWith("mm/"), true);
    });

    await t.step("tool calls arrive whole: object arguments become JSON text", async () => {
      server.script("n-tools", [{
        text: "",
        toolCalls: [
          { name: "bash", arguments: { command: "ls -la" } },
          { name: "read_file", arguments: { path: "a.ts" }, id: "call_kept" },
        ],
      }]);
      const chat = createOllamaChat(config(server.url), "n-tools");
      const { deltas, request: r } = request(hello);
      const result = await chat.stream(r);
      assertEquals(result.toolCalls.map((c) => [c.name, c.arguments]), [
        ["bash", '{"command":"ls -la"}'],
        ["read_file", '{"path":"a.ts"}'],
      ]);
      assertEquals(result.toolCalls[0].id.startsWith("call_0_"), true);
      assertEquals(result.toolCalls[1].id, "call_kept");
      assertEquals(result.finishReason, "tool_calls");
      assertEquals(deltas, [
        { type: "toolCall", index: 0, name: "bash", arguments: '{"command":"ls -la"}' },
        { type: "toolCall", index: 1, name: "read_file", arguments: '{"path":"a.ts"}' },
      ]);
      assertEquals("options" in server.nativeChats("n-tools")[0].body, false);
    });

    await t.step("structuredOutput is sent as format", async () => {
      server.script("n-format", [{ text: "{}" }]);
      const schema = { type: "object" };
      const chat = createOllamaChat(config(server.url, { structuredOutput: schema }), "n-format");
      await chat.stream(request(hello).request);
      assertEquals(server.nativeChats("n-format")[0].body.format, schema);
    });

    await t.step("a model that is not there: the ollama pull sentence", async () => {
      const chat = createOllamaChat(config(server.url), "n-missing");
      const e = await assertRejects(() => chat.stream(request(hello).request), ProviderError);
      assertEquals(e.kind, "model");
      assertEquals(
        e.message,
        `the model "n-missing" is not available on the ollama server at ${server.url} (model "n-missing" not found, try pulling it first) — pull it with \`ollama pull n-missing\``,
      );
    });

    await t.step("HTTP errors: an overflow, a server failure", async () => {
      server.script("n-errors", [
        { status: 400, body: { error: "input length exceeds the context length" } },
        { status: 500, body: { error: "llama runner process has terminated" } },
      ]);
      const chat = createOllamaChat(config(server.url), "n-errors");
      const overflow = await assertRejects(
        () => chat.stream(request(hello).request),
        ProviderError,
      );
      assertEquals(overflow.kind, "overflow");
      assertStringIncludes(overflow.message, "raise `contextSize`");
      const failed = await assertRejects(() => chat.stream(request(hello).request), ProviderError);
      assertEquals([failed.kind, failed.status], ["http", 500]);
      assertEquals(
        failed.message,
        `the ollama server at ${server.url} answered HTTP 500 for "n-errors": llama runner process has terminated — the server failed: try again, or look at its log`,
      );
    });

    await t.step("a proxy's HTML error page: one sentence, nothing printed", async () => {
      const proxy = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        () => new Response("<html>Bad Gateway</html>", { status: 502 }),
      );
      const printed: unknown[] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => printed.push(args);
      try {
        const url = `http://127.0.0.1:${proxy.addr.port}`;
        const chat = createOllamaChat(config(url), "n-proxy");
        const e = await assertRejects(() => chat.stream(request(hello).request), ProviderError);
        assertEquals(e.status, 502);
        assertStringIncludes(
          e.message,
          'answered HTTP 502 for "n-proxy": Bad Gateway —',
        );
      } finally {
        console.log = log;
        await proxy.shutdown();
      }
      assertEquals(printed, []);
    });

    await t.step(
      "an error in the stream, a dropped connection, a server that is down",
      async () => {
        server.script("n-broken", [
          { text: "partial", streamError: "an error was encountered while running the model" },
          { drop: true, text: "half" },
        ]);
        const chat = createOllamaChat(config(server.url), "n-broken");
        const said = await assertRejects(() => chat.stream(request(hello).request), ProviderError);
        // The server's own error inside the stream: its words, not a dropped connection.
        assertEquals(said.kind, "stream");
        assertStringIncludes(
          said.message,
          'failed while "n-broken" was answering: an error was encountered while running the model — look at the server\'s log',
        );
        const drop = await assertRejects(() => chat.stream(request(hello).request), ProviderError);
        assertEquals(drop.kind, "dropped");
        assertStringIncludes(drop.message, `dropped while "n-broken" was answering`);

        const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const port = (l.addr as Deno.NetAddr).port;
        l.close();
        const down = createOllamaChat(config(`http://127.0.0.1:${port}`), "n-down");
        const e = await assertRejects(() => down.stream(request(hello).request), ProviderError);
        assertEquals(e.kind, "unreachable");
        assertStringIncludes(e.message, "— start it with `ollama serve`, or set `url`");
      },
    );

    await t.step("abort: while the answer streams, and before it starts", async () => {
      server.script("n-abort", [{ hang: true }, { text: "late", delay: 1_500 }]);
      const chat = createOllamaChat(config(server.url), "n-abort");
      const hang = new AbortController();
      const first = chat.stream(request(hello, hang.signal).request);
      setTimeout(() => hang.abort(), 50);
      await assertRejects(() => first, StreamAborted);
      const early = new AbortController();
      const started = Date.now();
      const second = chat.stream(request(hello, early.signal).request);
      setTimeout(() => early.abort(), 50);
      await assertRejects(() => second, StreamAborted);
      assertEquals(Date.now() - started < 1_000, true, "aborted before the answer began");
    });
  } finally {
    await server.close();
  }
});

Deno.test("history in Ollama's shape: arguments as objects, tool results named", () => {
  const messages: Message[] = [
    { role: "user", content: "list" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } },
        { id: "c2", type: "function", function: { name: "read_file", arguments: '{"path": ' } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "a.ts\n" },
    { role: "tool", tool_call_id: "c2", content: "invalid call" },
    { role: "tool", tool_call_id: "unknown", content: "?" },
  ];
  assertEquals(toOllamaMessages(messages), [
    { role: "user", content: "list" },
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { function: { name: "bash", arguments: { command: "ls" } } },
        { function: { name: "read_file", arguments: {} } },
      ],
    },
    { role: "tool", content: "a.ts\n", tool_name: "bash" },
    { role: "tool", content: "invalid call", tool_name: "read_file" },
    { role: "tool", content: "?" },
  ]);
});
