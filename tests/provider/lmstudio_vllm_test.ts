/**
 * LM Studio and vLLM against the scripted server: the window from LM Studio's native REST API
 * (v1, else v0; the loaded instance's first) and from vLLM's `max_model_len`, LM Studio's chat
 * models and its unload, and the generic behaviour when those routes answer 404.
 */

import { assertEquals } from "../helpers/assert.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { type Config, defaultConfig, type ProviderName } from "../../lib/config/config.ts";
import { discoverContextWindow } from "../../lib/provider/context_window.ts";
import { listModels, resolveModel } from "../../lib/provider/models.ts";
import { unloadModel } from "../../lib/provider/unload.ts";
import { planContext } from "../../lib/provider/client.ts";
import type { Http } from "../../lib/tool.ts";

function config(provider: ProviderName, url: string, changes: Partial<Config> = {}): Config {
  return { ...defaultConfig(), provider, url, ...changes };
}

const http: Http = { fetch: (url, init) => fetch(url, init) };

Deno.test("lmstudio: the loaded instance's context length from /api/v1/models", async () => {
  const server = ScriptedServer.start();
  try {
    server.lmstudio = "v1";
    server.models = ["qwen/qwen3-4b", "gemma-3"];
    server.loaded = ["qwen/qwen3-4b"];
    server.loadedContext["qwen/qwen3-4b"] = 16384;
    server.maxContext["qwen/qwen3-4b"] = 262144;
    const cfg = config("lmstudio", `${server.url}/v1`);
    const info = await discoverContextWindow(cfg, "qwen/qwen3-4b");
    assertEquals(info, { modelMax: 262144, serverWindow: 16384, serverSource: "lmstudio" });
    assertEquals(planContext(cfg, info).window, 16384);
    // Not loaded: only its maximum (LM Studio loads it with its own settings).
    assertEquals(await discoverContextWindow(cfg, "gemma-3"), { modelMax: 32768 });
    assertEquals(server.requests.some((r) => r.path === "/api/v0/models"), false);
  } finally {
    await server.close();
  }
});

Deno.test("lmstudio: an older server's /api/v0/models loaded_context_length", async () => {
  const server = ScriptedServer.start();
  try {
    server.lmstudio = "v0";
    server.models = ["qwen3-8b"];
    server.loaded = ["qwen3-8b"];
    server.loadedContext["qwen3-8b"] = 8192;
    server.maxContext["qwen3-8b"] = 40960;
    const info = await discoverContextWindow(config("lmstudio", server.url), "qwen3-8b");
    assertEquals(info, { modelMax: 40960, serverWindow: 8192, serverSource: "lmstudio" });
    assertEquals(server.requests.map((r) => r.path), ["/api/v1/models", "/api/v0/models"]);
    server.loaded = [];
    assertEquals(await discoverContextWindow(config("lmstudio", server.url), "qwen3-8b"), {
      modelMax: 40960,
    });
  } finally {
    await server.close();
  }
});

Deno.test("lmstudio and vllm: routes answering 404 or other shapes leave the window unknown", async () => {
  const server = ScriptedServer.start();
  try {
    assertEquals(await discoverContextWindow(config("lmstudio", server.url), "scripted"), {});
    server.sideReplies["/api/v1/models"] = { status: 200, body: { data: "nope" } };
    server.sideReplies["/api/v0/models"] = { status: 200, body: ["x"] };
    assertEquals(await discoverContextWindow(config("lmstudio", server.url), "scripted"), {});
    // vLLM without max_model_len: the generic /v1/models.
    assertEquals(await discoverContextWindow(config("vllm", server.url), "scripted"), {});
    const plan = planContext(config("vllm", server.url), {});
    assertEquals(plan.window, undefined);
  } finally {
    await server.close();
  }
});

Deno.test("vllm: the window is /v1/models max_model_len", async () => {
  const server = ScriptedServer.start();
  try {
    server.models = ["Qwen/Qwen3-8B"];
    server.maxModelLen = 32768;
    const cfg = config("vllm", `${server.url}/v1/`);
    const info = await discoverContextWindow(cfg, "Qwen/Qwen3-8B");
    assertEquals(info, { serverWindow: 32768, serverSource: "vllm" });
    assertEquals(server.requests.map((r) => r.path), ["/v1/models"]);
    assertEquals(planContext(cfg, info).window, 32768);
  } finally {
    await server.close();
  }
});

Deno.test("lmstudio: the chat models of its native list; the only loaded one when none is set", async () => {
  const server = ScriptedServer.start();
  try {
    server.lmstudio = "v1";
    server.models = ["qwen/qwen3-4b", "gemma-3"];
    server.loaded = ["gemma-3"];
    const cfg = config("lmstudio", server.url, { model: "" });
    assertEquals(await listModels(cfg), ["qwen/qwen3-4b", "gemma-3"]);
    assertEquals(await resolveModel(cfg), "gemma-3");
    // Without the native API: the OpenAI-compatible list, as for openai.
    server.lmstudio = undefined;
    assertEquals(await listModels(cfg), ["qwen/qwen3-4b", "gemma-3"]);
    assertEquals(server.requests.at(-1)?.path, "/v1/models");
  } finally {
    await server.close();
  }
});

Deno.test("lmstudio: unload through /api/v1/models/unload", async () => {
  const server = ScriptedServer.start();
  try {
    server.lmstudio = "v1";
    server.models = ["qwen/qwen3-4b"];
    server.loaded = ["qwen/qwen3-4b"];
    const req = {
      config: config("lmstudio", server.url),
      model: "qwen/qwen3-4b",
      http,
      signal: new AbortController().signal,
    };
    assertEquals(await unloadModel(req), { kind: "unloaded" });
    assertEquals(server.loaded, []);
    const asked = server.requests.find((r) => r.path === "/api/v1/models/unload");
    assertEquals(asked?.body, { instance_id: "qwen/qwen3-4b" });
    // Not loaded: never asked to unload.
    const before = server.requests.length;
    assertEquals(await unloadModel(req), { kind: "notLoaded" });
    assertEquals(server.requests.slice(before).map((r) => r.path), ["/api/v1/models"]);
    // An LM Studio before 0.4 (no /api/v1): it cannot.
    server.lmstudio = "v0";
    assertEquals(await unloadModel(req), {
      kind: "cannot",
      failure: { kind: "unsupported", provider: "lmstudio" },
    });
  } finally {
    await server.close();
  }
});
