/** mm init's starter file and probes (lib/commands/init.ts). */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { DEFAULT_PROBES, probeServer, probesFrom, starterFile } from "../../lib/commands/init.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

/** The file with every commented key line uncommented (systemFile left out: not with system). */
function uncommented(text: string): string {
  return text.split("\n").map((line) => {
    const m = line.match(/^# ( *)([A-Za-z]+:|- )(.*)$/);
    if (!m || m[2] === "systemFile:" || m[2] === "model:") return line;
    return `${m[1]}${m[2]}${m[3]}`;
  }).join("\n");
}

Deno.test("mm init", async (t) => {
  await t.step("the probes: Ollama, llama.cpp, DMR, LM Studio, vLLM on their default ports", () => {
    assertEquals(DEFAULT_PROBES, [
      { provider: "ollama", url: "http://localhost:11434" },
      { provider: "llamacpp", url: "http://localhost:8080" },
      { provider: "dmr", url: "http://localhost:12434" },
      { provider: "lmstudio", url: "http://localhost:1234" },
      { provider: "vllm", url: "http://localhost:8000" },
    ]);
    assertEquals(probesFrom(undefined), DEFAULT_PROBES);
    assertEquals(probesFrom(""), DEFAULT_PROBES);
  });

  await t.step("$MM_INIT_PROBE replaces them; a bad entry is refused", () => {
    assertEquals(probesFrom("llamacpp=http://127.0.0.1:9/, dmr=http://h:1"), [
      { provider: "llamacpp", url: "http://127.0.0.1:9" },
      { provider: "dmr", url: "http://h:1" },
    ]);
    for (const bad of ["ollama", "olama=http://x", "ollama=localhost:1"]) {
      let message = "";
      try {
        probesFrom(bad);
      } catch (e) {
        message = (e as Error).message;
      }
      assertStringIncludes(message, `MM_INIT_PROBE: "${bad}" is not provider=url`);
    }
  });

  await t.step("a found server: its provider, url and first model, the others named", () => {
    const text = starterFile({ provider: "llamacpp", url: "http://gpu:8080", models: ["a", "b"] });
    const config = parseConfig(text, "mm.yaml", {});
    assertEquals([config.provider, config.url, config.model], ["llamacpp", "http://gpu:8080", "a"]);
    assertStringIncludes(text, "model: a # the server also has: b\n");
  });

  await t.step("nothing found: Ollama, the model commented with how to pull one", () => {
    const text = starterFile(undefined);
    const config = parseConfig(text, "mm.yaml", {});
    assertEquals([config.provider, config.url, config.model], [
      "ollama",
      "http://localhost:11434",
      undefined,
    ]);
    assertStringIncludes(
      text,
      "# model: qwen2.5-coder:7b # pull it with `ollama pull qwen2.5-coder:7b`, then uncomment this line\n",
    );
  });

  await t.step("the sandbox is offered, off", () => {
    const text = starterFile(undefined);
    assertStringIncludes(
      text,
      "# sandbox: off                # workspace: bash and declared tools write only here and in a\n",
    );
    const c = parseConfig(
      uncommented(text).replace("sandbox: off", "sandbox: workspace"),
      "mm.yaml",
      {},
    );
    assertEquals([c.sandbox, c.sandboxNetwork], ["workspace", true]);
  });

  await t.step("as written, every other key is at its default", () => {
    const config = parseConfig(starterFile(undefined), "mm.yaml", {});
    assertEquals({ ...config, file: undefined }, { ...defaultConfig(), file: undefined });
  });

  await t.step("every commented key, uncommented, is valid and shows its default", () => {
    const text = uncommented(starterFile({ provider: "ollama", url: "http://x:1", models: ["m"] }));
    const c = parseConfig(text, "mm.yaml", {});
    const d = defaultConfig();
    const keys = [
      "yolo",
      "bashTool",
      "bashTimeout",
      "editTools",
      "maxOutput",
      "previewLines",
      "maxTurns",
      "watchdogTimeout",
      "skillsDir",
      "fetchContentTool",
      "askUserTool",
      "saveAnswerTool",
      "unloadModels",
      "sessions",
      "acp",
      "sandbox",
      "sandboxNetwork",
    ] as const;
    for (const key of keys) assertEquals(c[key], d[key], key);
    assertEquals(c.lsp.servers.map((s) => s.name), ["deno"]);
    assertEquals([c.apiKey, c.temperature, c.topP, c.maxTokens, c.contextSize], [
      "sk-example",
      0.2,
      0.9,
      4096,
      16384,
    ]);
  });
});

Deno.test("mm init: LM Studio's chat models (loaded first), vLLM's list", async () => {
  const server = ScriptedServer.start();
  try {
    server.lmstudio = "v1";
    server.models = ["qwen/qwen3-4b", "gemma-3"];
    server.loaded = ["gemma-3"];
    const probe = { provider: "lmstudio" as const, url: server.url };
    assertEquals(await probeServer(probe), { ...probe, models: ["gemma-3", "qwen/qwen3-4b"] });
    server.lmstudio = undefined; // an older LM Studio: its OpenAI-compatible list
    assertEquals(await probeServer(probe), { ...probe, models: ["qwen/qwen3-4b", "gemma-3"] });
    const vllm = { provider: "vllm" as const, url: server.url };
    assertEquals(await probeServer(vllm), { ...vllm, models: ["qwen/qwen3-4b", "gemma-3"] });
  } finally {
    await server.close();
  }
});
