/** mm doctor's context window line for the servers that tell their window (lib/commands/doctor.ts). */

import { assertEquals } from "../helpers/assert.ts";
import { type Config, defaultConfig, type ProviderName } from "../../lib/config/config.ts";
import { checkLine, contextCheck } from "../../lib/commands/doctor.ts";

function config(provider: ProviderName, changes: Partial<Config> = {}): Config {
  return { ...defaultConfig(), provider, ...changes };
}

Deno.test("doctor: LM Studio's loaded context length", () => {
  const info = { modelMax: 262144, serverWindow: 16384, serverSource: "lmstudio" as const };
  assertEquals(
    checkLine(contextCheck(config("lmstudio"), "qwen/qwen3-4b", info)!),
    "✔ context window: 16384 tokens (LM Studio's loaded model); the model was trained for 262144",
  );
  const small = { ...info, serverWindow: 4096 };
  assertEquals(
    checkLine(contextCheck(config("lmstudio"), "qwen/qwen3-4b", small)!),
    "✘ context window: LM Studio runs qwen/qwen3-4b with 4096 tokens (trained for 262144), too few for mm's prompt, tools and a task — reload it with `lms load qwen/qwen3-4b --context-length 16384` (or more)",
  );
  // Not loaded: LM Studio tells only the maximum, no line.
  assertEquals(contextCheck(config("lmstudio"), "m", { modelMax: 32768 }), undefined);
});

Deno.test("doctor: vLLM's max_model_len", () => {
  const info = { serverWindow: 32768, serverSource: "vllm" as const };
  assertEquals(
    checkLine(contextCheck(config("vllm"), "Qwen/Qwen3-8B", info)!),
    "✔ context window: 32768 tokens (vLLM's max_model_len)",
  );
  assertEquals(
    checkLine(contextCheck(config("vllm", { contextSize: 65536 }), "Qwen/Qwen3-8B", info)!),
    "✘ context window: contextSize 65536 is more than vLLM's 32768 tokens — restart vllm serve with --max-model-len 65536, or lower contextSize to 32768",
  );
  // Unknown (a 404, another shape): no line, as for openai.
  assertEquals(contextCheck(config("vllm"), "m", {}), undefined);
});
