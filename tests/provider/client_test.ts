/** Choosing the chat path and the window: the rule of docs/small-models.md, and the switch. */

import { assertEquals } from "../helpers/assert.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { type Config, defaultConfig, type ProviderName } from "../../lib/config/config.ts";
import type { ChatRequest } from "../../lib/provider/chat.ts";
import type { Message } from "../../lib/history.ts";
import {
  chatAPIText,
  contextLine,
  contextReport,
  createClient,
  planContext,
  RAISE_CAP,
  raisedNumCtx,
} from "../../lib/provider/client.ts";
import type { ContextWindowInfo } from "../../lib/provider/context_window.ts";

function config(provider: ProviderName, url: string, changes: Partial<Config> = {}): Config {
  return { ...defaultConfig(), provider, url, ...changes };
}

const hello: Message[] = [{ role: "user", content: "hi" }];

function request(promptTokens?: number): ChatRequest {
  return {
    messages: hello,
    tools: [],
    signal: new AbortController().signal,
    onDelta: () => {},
    promptTokens,
  };
}

Deno.test("planContext: which API and which window", async (t) => {
  const url = "http://127.0.0.1:1";
  const plan = (provider: ProviderName, info: ContextWindowInfo, changes: Partial<Config> = {}) => {
    const p = planContext(config(provider, url, changes), info);
    return { api: p.api, window: p.window, startWindow: p.startWindow, numCtx: p.numCtx };
  };
  const defaultWindow: ContextWindowInfo = {
    modelMax: 131072,
    serverWindow: 4096,
    serverSource: "default",
  };
  await t.step("contextSize on Ollama: the native API with num_ctx", () => {
    assertEquals(plan("ollama", defaultWindow, { contextSize: 8192 }), {
      api: "ollama",
      window: 8192,
      startWindow: undefined,
      numCtx: 8192,
    });
    assertEquals(plan("llmman", {}, { contextSize: 65536 }).api, "ollama");
  });
  await t.step("contextSize elsewhere: the OpenAI API, the window declared", () => {
    assertEquals(
      plan("llamacpp", { serverWindow: 4096, serverSource: "props" }, { contextSize: 16384 }),
      {
        api: "openai",
        window: 16384,
        startWindow: undefined,
        numCtx: undefined,
      },
    );
  });
  await t.step("Ollama's default below the model's maximum: auto, up to the cap", () => {
    assertEquals(plan("ollama", defaultWindow), {
      api: "auto",
      window: RAISE_CAP,
      startWindow: 4096,
      numCtx: undefined,
    });
    assertEquals(plan("ollama", { ...defaultWindow, modelMax: 16384 }).window, 16384);
  });
  await t.step("Ollama's window already at the cap or the maximum: the OpenAI API", () => {
    assertEquals(
      plan("ollama", { modelMax: 131072, serverWindow: 32768, serverSource: "modelfile" }),
      {
        api: "openai",
        window: 32768,
        startWindow: undefined,
        numCtx: undefined,
      },
    );
    assertEquals(
      plan("ollama", { modelMax: 4096, serverWindow: 4096, serverSource: "default" }).api,
      "openai",
    );
  });
  await t.step("unknown stays unknown", () => {
    assertEquals(plan("ollama", {}).window, undefined);
    assertEquals(plan("openai", {}).api, "openai");
    assertEquals(plan("dmr", { modelMax: 40960 }).window, undefined);
  });
  await t.step("the banner's line, doctor's line and --json's fields", () => {
    const p = (provider: ProviderName, info: ContextWindowInfo, changes: Partial<Config> = {}) =>
      planContext(config(provider, url, changes), info);
    const line = (
      provider: ProviderName,
      info: ContextWindowInfo,
      changes: Partial<Config> = {},
    ) => contextLine(p(provider, info, changes), provider);
    assertEquals(
      line("ollama", defaultWindow, { contextSize: 8192 }),
      "context: 8192 tokens (contextSize) · chat: Ollama's native /api/chat with num_ctx 8192",
    );
    assertEquals(
      line("ollama", defaultWindow),
      "context: 4096 tokens (Ollama's default), raised up to 32768 when needed · chat: OpenAI-compatible /v1/chat/completions, then Ollama's native /api/chat with num_ctx",
    );
    assertEquals(
      line("llamacpp", { serverWindow: 8192, serverSource: "props" }),
      "context: 8192 tokens (llama-server's /props) · chat: OpenAI-compatible /v1/chat/completions",
    );
    assertEquals(
      line("ollama", { modelMax: 32768, serverWindow: 32768, serverSource: "modelfile" }),
      "context: 32768 tokens (the Modelfile's num_ctx) · chat: OpenAI-compatible /v1/chat/completions",
    );
    assertEquals(
      line("openai", {}, { contextSize: 128000 }),
      "context: 128000 tokens (contextSize) · chat: OpenAI-compatible /chat/completions",
    );
    assertEquals(
      line("openai", {}),
      "context: unknown · chat: OpenAI-compatible /chat/completions",
    );
    assertEquals(
      line("dmr", { modelMax: 40960 }),
      "context: unknown (the model holds up to 40960 tokens) · chat: OpenAI-compatible /engines/v1/chat/completions",
    );
    assertEquals(
      line("dmr", { modelMax: 40960, serverWindow: 16384, serverSource: "dmr" }),
      "context: 16384 tokens (the model's context_size) · chat: OpenAI-compatible /engines/v1/chat/completions",
    );
    assertEquals(
      chatAPIText(p("ollama", defaultWindow)),
      "chat API: OpenAI-compatible while the conversation fits 4096 tokens (Ollama's default), then Ollama's native /api/chat with num_ctx raised up to 32768",
    );
    assertEquals(
      chatAPIText(p("llamacpp", { serverWindow: 8192, serverSource: "props" })),
      "chat API: OpenAI-compatible, context 8192 tokens (llama-server's /props)",
    );
    assertEquals(contextReport(p("ollama", defaultWindow)), {
      contextWindow: 32768,
      chatAPI: "auto",
    });
    assertEquals(contextReport(p("openai", {})), { contextWindow: null, chatAPI: "openai" });
  });
});

Deno.test("raisedNumCtx: few steps, at least 8192, at most the cap", () => {
  assertEquals(raisedNumCtx(4500, 4096, 32768), 16384);
  assertEquals(raisedNumCtx(3000, 2048, 32768), 8192);
  assertEquals(raisedNumCtx(20000, 16384, 32768), 32768);
  assertEquals(raisedNumCtx(9000, 4096, 12000), 12000);
});

Deno.test("createClient against the scripted server", async (t) => {
  const server = ScriptedServer.start();
  server.show["cl-auto"] = {
    model_info: { "general.architecture": "qwen2", "qwen2.context_length": 131072 },
  };
  server.show["cl-loaded"] = server.show["cl-auto"];
  server.show["cl-set"] = server.show["cl-auto"];
  try {
    await t.step("contextSize: every request through /api/chat with num_ctx", async () => {
      server.script("cl-set", [{ text: "native" }]);
      const chat = await createClient(
        config("ollama", server.url, { contextSize: 8192 }),
        "cl-set",
      );
      assertEquals(chat.contextWindow, 8192);
      const result = await chat.stream(request(100));
      assertEquals(result.text, "native");
      assertEquals(server.nativeChats("cl-set")[0].body.options, { num_ctx: 8192 });
      assertEquals(server.chats("cl-set"), []);
    });

    await t.step(
      "auto: OpenAI while it fits, then native with a raised num_ctx, never back",
      async () => {
        server.script("cl-auto", [
          { text: "one" },
          { text: "two" },
          { text: "three" },
          { text: "four" },
          { text: "five" },
        ]);
        const chat = await createClient(config("ollama", server.url), "cl-auto");
        assertEquals([chat.plan.api, chat.contextWindow], ["auto", 32768]);
        assertEquals((await chat.stream(request(1000))).text, "one");
        assertEquals((await chat.stream(request())).text, "two");
        assertEquals(server.chats("cl-auto").length, 2);
        assertEquals(server.nativeChats("cl-auto"), []);
        // 5000 + 2048 for the answer no longer fits 4096: 16384 (the next power of two above twice).
        assertEquals((await chat.stream(request(5000))).text, "three");
        assertEquals((await chat.stream(request(500))).text, "four");
        assertEquals((await chat.stream(request(20000))).text, "five");
        assertEquals(
          server.nativeChats("cl-auto").map((r) => r.body.options.num_ctx),
          [16384, 16384, 32768],
        );
        assertEquals(server.chats("cl-auto").length, 2);
      },
    );

    await t.step(
      "auto: a loaded model that already has a larger window stays on OpenAI",
      async () => {
        server.script("cl-loaded", [{ text: "big" }]);
        const chat = await createClient(config("ollama", server.url), "cl-loaded");
        assertEquals(chat.plan.api, "auto");
        server.sideReplies["/api/ps"] = {
          status: 200,
          body: {
            models: [{
              name: "cl-loaded:latest",
              model: "cl-loaded:latest",
              context_length: 65536,
            }],
          },
        };
        try {
          assertEquals((await chat.stream(request(9000))).text, "big");
        } finally {
          delete server.sideReplies["/api/ps"];
        }
        assertEquals(server.chats("cl-loaded").length, 1);
        assertEquals(server.nativeChats("cl-loaded"), []);
        assertEquals(chat.contextWindow, 65536);
      },
    );

    await t.step("llama.cpp: the OpenAI API with the window of /props", async () => {
      const llama = ScriptedServer.start();
      try {
        llama.props = { default_generation_settings: { n_ctx: 8192 } };
        llama.script("cl-llama", [{ text: "ok" }]);
        const chat = await createClient(config("llamacpp", llama.url), "cl-llama");
        assertEquals([chat.plan.api, chat.contextWindow], ["openai", 8192]);
        assertEquals((await chat.stream(request(50_000))).text, "ok");
        assertEquals(llama.chats("cl-llama").length, 1);
      } finally {
        await llama.close();
      }
    });
  } finally {
    await server.close();
  }
});
