/** Where each provider serves chat and lists its models (mm.md §3). */

import type { ProviderName } from "../config/config.ts";

/**
 * The server's root as mm builds its paths on it: `url` without a trailing `/`, nor the API path
 * mm adds itself when the agent file wrote it too (`http://host:8080/v1` for llama.cpp, Ollama or
 * llmman; `…/engines/v1` for DMR), a common copy from an OpenAI-style setup.
 */
export function serverRoot(provider: ProviderName, url: string): string {
  const base = url.replace(/\/+$/, "");
  switch (provider) {
    case "ollama":
    case "llmman":
    case "llamacpp":
    case "lmstudio":
    case "vllm":
      return base.replace(/\/v1$/, "");
    case "dmr":
      return base.replace(/\/engines(\/v1)?$/, "");
    case "openai":
      return base;
  }
}

/** The base URL the OpenAI client is given: `/chat/completions` is appended to it. */
export function chatBaseURL(provider: ProviderName, url: string): string {
  const base = serverRoot(provider, url);
  switch (provider) {
    case "ollama":
    case "llmman":
    case "llamacpp":
    case "lmstudio":
    case "vllm":
      return `${base}/v1`;
    case "dmr":
      return `${base}/engines/v1`;
    case "openai":
      return base;
  }
}

/** The URL that lists the server's models. */
export function modelsURL(provider: ProviderName, url: string): string {
  const base = serverRoot(provider, url);
  switch (provider) {
    case "ollama":
    case "llmman":
      return `${base}/api/tags`;
    case "llamacpp":
    case "lmstudio":
    case "vllm":
      return `${base}/v1/models`;
    case "dmr":
      return `${base}/engines/v1/models`;
    case "openai":
      return `${base}/models`;
  }
}

/** How a person starts each provider's server, for the "server is down" sentence. */
export function startHint(provider: ProviderName): string {
  switch (provider) {
    case "ollama":
      return "start it with `ollama serve`";
    case "llmman":
      return "start llmman";
    case "llamacpp":
      return "start it with `llama-server -m <model.gguf>`";
    case "lmstudio":
      return "start LM Studio's server with `lms server start`";
    case "vllm":
      return "start it with `vllm serve <model>`";
    case "dmr":
      return "enable Docker Model Runner (`docker desktop enable model-runner --tcp 12434`)";
    case "openai":
      return "check the server is running and that `url` includes `/v1`";
  }
}

/** How a person gets a missing model onto each provider's server. */
export function pullHint(provider: ProviderName, model: string): string {
  switch (provider) {
    case "ollama":
    case "llmman":
      return `pull it with \`ollama pull ${model}\``;
    case "llamacpp":
      return "start llama-server with that model, or set `model` to one it serves";
    case "lmstudio":
      return `download it with \`lms get ${model}\`, or set \`model\` to one LM Studio lists`;
    case "vllm":
      return "start vllm serve with that model, or set `model` to one it serves";
    case "dmr":
      return `pull it with \`docker model pull ${model}\``;
    case "openai":
      return "set `model` to one the server lists";
  }
}
