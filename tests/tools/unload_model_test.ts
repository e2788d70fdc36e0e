import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { toolLine } from "../../lib/frontend/terminal/display.ts";
import { UNLOAD_TIMEOUT, unloadModel as unloadOnServer } from "../../lib/provider/unload.ts";
import type { Http } from "../../lib/tool.ts";
import { VERSION } from "../../lib/version.ts";
import { BUILTIN_TOOLS, declaredTools } from "../../tools/mod.ts";
import {
  cannotUnloadText,
  MODEL_DESCRIPTION,
  notLoadedText,
  unloadedText,
  unloadModel,
} from "../../tools/unload_model.ts";

const URL_ = "http://models.test:11434";

/** A request the fake HTTP saw. */
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

type Route = (body: unknown) => Response | Promise<Response>;

/** An Http that answers by `METHOD path` and records every request; an unknown route is a 404. */
function fakeHttp(routes: Record<string, Route>): Http & { seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    async fetch(url, init) {
      const u = new URL(String(url));
      const method = init?.method ?? "GET";
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      seen.push({
        method,
        url: String(url),
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        body,
      });
      const route = routes[`${method} ${u.pathname}`];
      if (!route) return new Response("not found", { status: 404 });
      return await route(body);
    },
  };
}

function ctxFor(provider: Config["provider"], http: Http, config: Partial<Config> = {}) {
  return fakeContext({ config: { provider, url: URL_, model: "agent-model", ...config }, http });
}

const ps = (...names: string[]) => () =>
  Response.json({ models: names.map((name) => ({ name, model: name })) });

const generate = (reason: string) => () =>
  Response.json({ model: "m", response: "", done: true, done_reason: reason });

Deno.test("unload_model", async (t) => {
  await t.step("declared when unloadModels, except beside a structuredOutput", () => {
    assertEquals(unloadModel.declared(defaultConfig()), true);
    assertEquals(unloadModel.declared({ ...defaultConfig(), unloadModels: false }), false);
    assertEquals(
      unloadModel.declared({ ...defaultConfig(), structuredOutput: { type: "object" } }),
      false,
    );
    assertEquals(BUILTIN_TOOLS.includes(unloadModel), true);
    assertEquals(declaredTools(defaultConfig()).at(-1)?.name, "unload_model");
  });

  await t.step("one optional field, model; kind other; never asks; 🧹", () => {
    assertEquals(unloadModel.name, "unload_model");
    assertEquals(Object.keys(unloadModel.parameters), ["model"]);
    assertEquals(
      MODEL_DESCRIPTION,
      "The model to unload, as the server names it. Empty: the agent's own model.",
    );
    assertEquals(unloadModel.parameters.model.optional, true);
    assertEquals([unloadModel.kind, unloadModel.asks, unloadModel.emoji], ["other", false, "🧹"]);
  });

  await t.step("terminal display: 🧹 unload_model: <model>, (own model) when empty", () => {
    const line = (model?: string) =>
      toolLine(unloadModel.emoji, unloadModel.name, unloadModel.summary({ model }));
    assertEquals(line("qwen3:8b"), "🧹 unload_model: qwen3:8b");
    assertEquals(line(""), "🧹 unload_model: (own model)");
    assertEquals(line(undefined), "🧹 unload_model: (own model)");
  });

  await t.step("result texts", () => {
    assertEquals(unloadedText("m"), "unloaded m");
    assertEquals(notLoadedText("m"), "m was not loaded: nothing to unload");
    assertEquals(cannotUnloadText("m", "why"), "cannot unload m: why");
  });

  for (const provider of ["ollama", "llmman"] as const) {
    await t.step(`${provider}: loaded — /api/ps, then /api/generate keep_alive 0`, async () => {
      const http = fakeHttp({
        "GET /api/ps": ps("qwen3:8b", "other:latest"),
        "POST /api/generate": generate("unload"),
      });
      const result = await unloadModel.run({ model: "qwen3:8b" }, ctxFor(provider, http));
      assertEquals(result, { output: "unloaded qwen3:8b" });
      assertEquals(http.seen.map((s) => `${s.method} ${s.url}`), [
        `GET ${URL_}/api/ps`,
        `POST ${URL_}/api/generate`,
      ]);
      assertEquals(http.seen[1].body, { model: "qwen3:8b", keep_alive: 0 });
      assertEquals(http.seen[0].headers["user-agent"], `mm/${VERSION}`);
      assertEquals(http.seen[1].headers["content-type"], "application/json");
    });
  }

  await t.step(
    "ollama: a model not loaded is never asked for (the request would load it)",
    async () => {
      const http = fakeHttp({
        "GET /api/ps": ps("other:latest"),
        "POST /api/generate": generate("load"),
      });
      const result = await unloadModel.run({ model: "qwen3:8b" }, ctxFor("ollama", http));
      assertEquals(result, { output: "qwen3:8b was not loaded: nothing to unload" });
      assertEquals(http.seen.length, 1);
    },
  );

  await t.step("ollama: qwen3 is qwen3:latest", async () => {
    const http = fakeHttp({
      "GET /api/ps": ps("qwen3:latest"),
      "POST /api/generate": generate("unload"),
    });
    const result = await unloadModel.run({ model: "qwen3" }, ctxFor("ollama", http));
    assertEquals(result, { output: "unloaded qwen3" });
  });

  await t.step("ollama: no confirmation is a failed call", async () => {
    const http = fakeHttp({ "GET /api/ps": ps("m"), "POST /api/generate": generate("stop") });
    const result = await unloadModel.run({ model: "m" }, ctxFor("ollama", http));
    assertEquals(result, {
      output:
        `cannot unload m: the ollama server at ${URL_} did not confirm the unload (done_reason "stop")`,
      failed: true,
    });
  });

  await t.step("ollama: streamed JSON lines are read to their last done_reason", async () => {
    const http = fakeHttp({
      "GET /api/ps": ps("m"),
      "POST /api/generate": () =>
        new Response('{"done":false}\n{"done":true,"done_reason":"unload"}\n'),
    });
    assertEquals(await unloadModel.run({ model: "m" }, ctxFor("ollama", http)), {
      output: "unloaded m",
    });
  });

  await t.step("the server's own error", async () => {
    const http = fakeHttp({
      "GET /api/ps": () => Response.json({ error: "out of cheese" }, { status: 500 }),
    });
    const result = await unloadModel.run({ model: "m" }, ctxFor("ollama", http));
    assertEquals(result, {
      output: `cannot unload m: the ollama server at ${URL_} answered HTTP 500: out of cheese`,
      failed: true,
    });
  });

  await t.step("an unreachable server", async () => {
    const http: Http = { fetch: () => Promise.reject(new TypeError("connection refused")) };
    const result = await unloadModel.run({ model: "m" }, ctxFor("llamacpp", http));
    assertEquals(result, {
      output: `cannot unload m: cannot reach the llamacpp server at ${URL_} (connection refused)`,
      failed: true,
    });
  });

  await t.step("llamacpp: POST /models/unload in router mode", async () => {
    const http = fakeHttp({ "POST /models/unload": () => Response.json({ success: true }) });
    const result = await unloadModel.run({ model: "gemma" }, ctxFor("llamacpp", http));
    assertEquals(result, { output: "unloaded gemma" });
    assertEquals(http.seen.map((s) => [s.method, s.url, s.body]).slice(0, 1), [
      ["POST", `${URL_}/models/unload`, { model: "gemma" }],
    ]);
  });

  await t.step(
    "llamacpp: the router's success comes first; its list says when it stopped",
    async () => {
      // tests/fixtures/llama-server/router-unload.http: success while the instance still runs.
      let asked = 0;
      const http = fakeHttp({
        "POST /models/unload": () => Response.json({ success: true }),
        "GET /v1/models": () => {
          asked++;
          const value = asked < 3 ? "loaded" : "unloaded";
          return Response.json({ data: [{ id: "gemma", status: { value } }] });
        },
      });
      const result = await unloadModel.run({ model: "gemma" }, ctxFor("llamacpp", http));
      assertEquals(result, { output: "unloaded gemma" });
      assertEquals(asked, 3, "asked until the router listed it unloaded");
    },
  );

  await t.step("llamacpp: a model that is not running", async () => {
    const http = fakeHttp({
      "POST /models/unload": () =>
        Response.json({
          error: { code: 400, message: "model is not running", type: "invalid_request_error" },
        }, { status: 400 }),
    });
    const result = await unloadModel.run({ model: "gemma" }, ctxFor("llamacpp", http));
    assertEquals(result, { output: "gemma was not loaded: nothing to unload" });
  });

  await t.step(
    "llamacpp: a single-model server's 404 gives the reason and the alternatives",
    async () => {
      const http = fakeHttp({
        "POST /models/unload": () =>
          Response.json({
            error: { message: "File Not Found", type: "not_found_error", code: 404 },
          }, {
            status: 404,
          }),
      });
      const result = await unloadModel.run({ model: "gemma" }, ctxFor("llamacpp", http));
      assertEquals(result.failed, true);
      assertEquals(
        result.output,
        `cannot unload gemma: the llama.cpp server at ${URL_} serves a single model and has no /models/unload (404: it exists in router mode only) — to free its memory, restart llama-server in router mode (without -m) so models load and unload on demand, or start it with --sleep-idle-seconds N to unload the model after N idle seconds, or stop the server`,
      );
    },
  );

  for (const provider of ["dmr", "openai"] as const) {
    await t.step(`${provider}: cannot, and asks nothing of the server`, async () => {
      const http = fakeHttp({});
      const result = await unloadModel.run({ model: "ai/smollm2" }, ctxFor(provider, http));
      assertEquals(result, {
        output: `cannot unload ai/smollm2: the ${provider} provider cannot unload a model`,
        failed: true,
      });
      assertEquals(http.seen.length, 0);
    });
  }

  await t.step("an empty model is the agent's own model", async () => {
    const http = fakeHttp({
      "GET /api/ps": ps("agent-model"),
      "POST /api/generate": generate("unload"),
    });
    assertEquals(await unloadModel.run({ model: "" }, ctxFor("ollama", http)), {
      output: "unloaded agent-model",
    });
    assertEquals(await unloadModel.run({}, ctxFor("dmr", http)), {
      output: "cannot unload agent-model: the dmr provider cannot unload a model",
      failed: true,
    });
  });

  await t.step("an empty model, no model in the agent file: the one the server lists", async () => {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () => Response.json({ models: [{ name: "picked:latest" }] }),
    );
    try {
      const url = `http://127.0.0.1:${server.addr.port}`;
      const http = fakeHttp({
        "GET /api/ps": ps("picked:latest"),
        "POST /api/generate": generate("unload"),
      });
      const ctx = fakeContext({ config: { provider: "ollama", url, model: undefined }, http });
      assertEquals(await unloadModel.run({}, ctx), { output: "unloaded picked:latest" });
    } finally {
      await server.shutdown();
    }
  });

  await t.step("the API key goes as a bearer token", async () => {
    const http = fakeHttp({ "POST /models/unload": () => Response.json({ success: true }) });
    await unloadModel.run({ model: "g" }, ctxFor("llamacpp", http, { apiKey: "sk-1" }));
    assertEquals(http.seen[0].headers.authorization, "Bearer sk-1");
  });

  await t.step("30 s per request: a server that does not answer in time", async () => {
    assertEquals(UNLOAD_TIMEOUT, 30_000);
    const hang: Http = {
      fetch: (_url, init) =>
        new Promise((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason))
        ),
    };
    const outcome = await unloadOnServer({
      config: { ...defaultConfig(), provider: "llamacpp", url: URL_ },
      model: "g",
      http: hang,
      signal: new AbortController().signal,
      timeout: 50,
    });
    assertEquals(outcome, {
      kind: "cannot",
      failure: { kind: "timeout", provider: "llamacpp", url: URL_, ms: 50 },
    });
  });

  await t.step("cancelling the turn stops the request", async () => {
    const controller = new AbortController();
    let seenSignal: AbortSignal | undefined;
    const hang: Http = {
      fetch: (_url, init) => {
        seenSignal = init?.signal ?? undefined;
        setTimeout(() => controller.abort(), 10);
        return new Promise((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason))
        );
      },
    };
    const ctx = fakeContext({
      config: { provider: "ollama", url: URL_, model: "m" },
      http: hang,
      signal: controller.signal,
    });
    const result = await unloadModel.run({ model: "m" }, ctx);
    assertEquals(result, { output: "cannot unload m: cancelled", failed: true });
    assertMatch(String(seenSignal?.aborted), /true/);
  });
});
