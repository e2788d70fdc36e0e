/** Listing a server's models, and picking the model when the agent file names none. */

import type { Config } from "../config/config.ts";
import { lmstudioModels } from "./lmstudio.ts";
import { modelsURL, serverRoot } from "./endpoints.ts";
import { errorWords, ProviderError, reachReason, statusHint, unreachable } from "./errors.ts";
import { requestServer } from "./http.ts";
import { redactUrl } from "../secrets.ts";

/**
 * The names of the models the server serves (Ollama's `/api/tags`, else the OpenAI `/models`;
 * LM Studio's chat models from its native `/api/v1/models` when it answers one).
 */
export async function listModels(config: Config, signal?: AbortSignal): Promise<string[]> {
  if (config.provider === "lmstudio") {
    const native = await lmstudioChatModels(config, signal);
    if (native !== undefined) return native.map((m) => m.key);
  }
  const url = modelsURL(config.provider, config.url);
  const target = { provider: config.provider, url: config.url, model: "" };
  const answer = await requestServer({
    url,
    apiKey: config.apiKey,
    signal: signal ?? AbortSignal.timeout(30_000),
  });
  if (answer.kind === "failed") {
    if (answer.stage === "body") throw answer.error;
    throw unreachable(target, reachReason(answer.error, url));
  }
  if (answer.kind === "http") throw listError(config, url, answer.status, errorWords(answer.text));
  const names = modelNames(answer.json);
  if (names === undefined) {
    throw listError(config, url, answer.status, "the model list is not JSON");
  }
  return names;
}

/** The sentence of a model list the server would not give. */
function listError(config: Config, url: string, status: number, words: string): ProviderError {
  const hint = statusHint(
    status,
    words,
    config.provider === "openai"
      ? "check `url`: it must end in the API's base, such as /v1"
      : "check `url` and `provider` in the agent file",
  );
  return new ProviderError(
    "http",
    `the ${config.provider} server at ${
      redactUrl(config.url)
    } answered HTTP ${status} for its model list (${redactUrl(url)}): ${words} — ${hint}`,
    status,
  );
}

/** The names in a model list (`models` or `data`), or undefined when it is not JSON of that shape. */
function modelNames(json: unknown): string[] | undefined {
  if (json === undefined) return undefined;
  try {
    const body = json as { models?: ModelEntry[]; data?: ModelEntry[] };
    const list: ModelEntry[] = body.models ?? body.data ?? [];
    return list.map((m) => m.name ?? m.id ?? m.model ?? "").filter((n) => n !== "");
  } catch {
    return undefined;
  }
}

/** One model of a list: Ollama names it, the OpenAI API gives its id. */
type ModelEntry = { name?: string; id?: string; model?: string };

/** A chat model of LM Studio's native list, and whether an instance of it is loaded. */
export interface LmStudioChatModel {
  key: string;
  loaded: boolean;
}

/**
 * LM Studio's language models (`type` "llm", embeddings left out) from `GET /api/v1/models`, or
 * undefined when the server gives no such list (an older LM Studio, another server).
 */
export async function lmstudioChatModels(
  config: Config,
  signal?: AbortSignal,
): Promise<LmStudioChatModel[] | undefined> {
  const answer = await requestServer({
    url: `${serverRoot(config.provider, config.url)}/api/v1/models`,
    apiKey: config.apiKey,
    signal: signal ?? AbortSignal.timeout(30_000),
    discardErrorBody: true,
  });
  if (answer.kind !== "ok") return undefined;
  const models = lmstudioModels(answer.json);
  if (models === undefined) return undefined;
  return models.filter((m) => m.type !== "embedding" && typeof m.key === "string").map((m) => ({
    key: m.key as string,
    loaded: (m.loaded_instances ?? []).length > 0,
  }));
}

/**
 * The model to use: the agent file's, else the only one the server lists (LM Studio: else the only
 * one it has loaded).
 */
export async function resolveModel(config: Config): Promise<string> {
  if (config.model) return config.model;
  if (config.provider === "lmstudio") {
    const native = await lmstudioChatModels(config);
    const loaded = native?.filter((m) => m.loaded) ?? [];
    if (native?.length !== 1 && loaded.length === 1) return loaded[0].key;
  }
  const models = await listModels(config);
  if (models.length === 1) return models[0];
  const where = `the ${config.provider} server at ${redactUrl(config.url)}`;
  if (models.length === 0) {
    const how = config.provider === "ollama" || config.provider === "llmman"
      ? "pull one with `ollama pull <model>`"
      : "load a model on the server";
    throw new ProviderError("noModel", `${where} lists no model — ${how}, then run mm again`);
  }
  throw new ProviderError(
    "noModel",
    `no model chosen and ${where} lists ${models.length}: ${
      models.join(", ")
    } — set \`model\` in the agent file or pass --model`,
  );
}
