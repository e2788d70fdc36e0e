/** Learning the context window from the server: Ollama, llama.cpp, DMR, contextSize, a dead server. */

import { assertEquals } from "../helpers/assert.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { type Config, defaultConfig, type ProviderName } from "../../lib/config/config.ts";
import {
  discoverContextWindow,
  OLLAMA_DEFAULT_CONTEXT,
} from "../../lib/provider/context_window.ts";

function config(provider: ProviderName, url: string, changes: Partial<Config> = {}): Config {
  return { ...defaultConfig(), provider, url, ...changes };
}

const qwen = (max: number, parameters?: string) => ({
  model_info: {
    "general.architecture": "qwen2",
    "qwen2.context_length": max,
    "qwen2.block_count": 28,
  },
  ...(parameters ? { parameters } : {}),
});

Deno.test("context window discovery", async (t) => {
  const server = ScriptedServer.start();
  try {
    await t.step(
      "ollama: the model's maximum, and Ollama's default when nothing says more",
      async () => {
        server.show["cw-plain"] = qwen(32768);
        const info = await discoverContextWindow(config("ollama", server.url), "cw-plain");
        assertEquals(info, {
          modelMax: 32768,
          serverWindow: OLLAMA_DEFAULT_CONTEXT,
          serverSource: "default",
        });
        const asked = server.requests.filter((r) =>
          r.body?.model === "cw-plain" || r.path === "/api/ps"
        );
        assertEquals(asked.map((r) => r.path).sort(), ["/api/ps", "/api/show"]);
      },
    );

    await t.step("ollama: a Modelfile's num_ctx", async () => {
      server.show["cw-modelfile"] = qwen(
        131072,
        'num_ctx                        16384\nstop "<|im_end|>"',
      );
      const info = await discoverContextWindow(config("llmman", server.url), "cw-modelfile");
      assertEquals(info, { modelMax: 131072, serverWindow: 16384, serverSource: "modelfile" });
    });

    await t.step("ollama: a loaded model's context_length in /api/ps", async () => {
      const loaded = ScriptedServer.start();
      try {
        loaded.show["cw-loaded:7b"] = qwen(131072);
        loaded.sideReplies["/api/ps"] = {
          status: 200,
          body: {
            models: [
              { name: "other:latest", model: "other:latest", context_length: 2048 },
              { name: "cw-loaded:7b", model: "cw-loaded:7b", context_length: 65536 },
            ],
          },
        };
        const info = await discoverContextWindow(config("ollama", loaded.url), "cw-loaded:7b");
        assertEquals(info, { modelMax: 131072, serverWindow: 65536, serverSource: "loaded" });
      } finally {
        await loaded.close();
      }
    });

    await t.step("ollama: never more than the model holds", async () => {
      server.show["cw-small"] = qwen(2048);
      const info = await discoverContextWindow(config("ollama", server.url), "cw-small");
      assertEquals(info, { modelMax: 2048, serverWindow: 2048, serverSource: "default" });
    });

    await t.step("ollama: a model /api/show does not know: unknown", async () => {
      const info = await discoverContextWindow(config("ollama", server.url), "cw-nowhere");
      assertEquals(info, {});
    });

    await t.step("contextSize is carried beside what the server says", async () => {
      server.show["cw-set"] = qwen(32768);
      const info = await discoverContextWindow(
        config("ollama", server.url, { contextSize: 8192 }),
        "cw-set",
      );
      assertEquals(info.contextSize, 8192);
      assertEquals(info.modelMax, 32768);
    });

    await t.step("llama.cpp: /props n_ctx and /v1/models n_ctx_train", async () => {
      const llama = ScriptedServer.start();
      try {
        llama.props = { default_generation_settings: { n_ctx: 8192 }, total_slots: 1 };
        llama.sideReplies["/v1/models"] = {
          status: 200,
          body: {
            object: "list",
            data: [{ id: "qwen.gguf", object: "model", meta: { n_ctx_train: 40960, n_vocab: 1 } }],
          },
        };
        const info = await discoverContextWindow(config("llamacpp", llama.url), "qwen.gguf");
        assertEquals(info, { serverWindow: 8192, serverSource: "props", modelMax: 40960 });
        llama.props = undefined;
        const onlyModels = await discoverContextWindow(config("llamacpp", llama.url), "qwen.gguf");
        assertEquals(onlyModels, { modelMax: 40960 });
      } finally {
        await llama.close();
      }
    });

    await t.step("dmr: the model's context_size and its GGUF context_length", async () => {
      server.sideReplies["/models/ai/qwen3"] = {
        status: 200,
        body: {
          id: "sha256:1",
          tags: ["ai/qwen3:latest"],
          config: {
            format: "gguf",
            context_size: 8192,
            gguf: { "general.architecture": "qwen3", "qwen3.context_length": "40960" },
          },
        },
      };
      const info = await discoverContextWindow(config("dmr", server.url), "ai/qwen3");
      assertEquals(info, { serverWindow: 8192, serverSource: "dmr", modelMax: 40960 });
      const unknown = await discoverContextWindow(config("dmr", server.url), "ai/other");
      assertEquals(unknown, {});
    });

    await t.step("openai: nothing is asked", async () => {
      const before = server.requests.length;
      const info = await discoverContextWindow(
        config("openai", `${server.url}/v1`, { contextSize: 128000 }),
        "gpt",
      );
      assertEquals(info, { contextSize: 128000 });
      assertEquals(server.requests.length, before);
    });
  } finally {
    await server.close();
  }
});

Deno.test("context window discovery: a server that is down or silent is unknown, quickly", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  assertEquals(await discoverContextWindow(config("ollama", `http://127.0.0.1:${port}`), "m"), {});

  const gone = new AbortController();
  const silent = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {}, signal: gone.signal },
    () =>
      new Promise<Response>((resolve) =>
        gone.signal.addEventListener("abort", () => resolve(new Response("late")))
      ),
  );
  try {
    const started = Date.now();
    const info = await discoverContextWindow(
      config("llamacpp", `http://127.0.0.1:${silent.addr.port}`),
      "m",
      200,
    );
    assertEquals(info, {});
    assertEquals(Date.now() - started < 2_000, true, "the timeout ends the wait");
  } finally {
    gone.abort();
    await silent.finished;
  }
});
