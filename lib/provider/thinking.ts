/**
 * What a request asks of a model's thinking (`thinking`, `reasoningEffort`; docs/small-models.md,
 * "Thinking"): llama.cpp's and vLLM's `chat_template_kwargs.enable_thinking`, the OpenAI-compatible
 * `reasoning_effort`, Ollama's native `think`. `thinking: auto` without an effort asks nothing.
 */

import type { Config } from "../config/config.ts";

/** The fields of an OpenAI-compatible chat request that ask for (or against) thinking. */
export function thinkingFields(config: Config): Record<string, unknown> {
  const { thinking, reasoningEffort: effort } = config;
  const out: Record<string, unknown> = {};
  const ollama = config.provider === "ollama" || config.provider === "llmman";
  if (thinking !== "auto" && !ollama) {
    out.chat_template_kwargs = { enable_thinking: thinking === "on" };
  }
  if (thinking === "off") {
    // Ollama's OpenAI endpoint turns thinking off with an effort of "none".
    if (ollama) out.reasoning_effort = "none";
  } else if (effort) out.reasoning_effort = effort;
  return out;
}

/** Ollama's native `think`: false, true, or the effort's level; undefined asks nothing. */
export function ollamaThink(config: Config): boolean | string | undefined {
  if (config.thinking === "off") return false;
  if (config.reasoningEffort) return config.reasoningEffort;
  if (config.thinking === "on") return true;
  return undefined;
}
