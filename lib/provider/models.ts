/** Listing a server's models, and picking the model when the agent file names none. */

import type { Config } from "../config/config.ts";
import { modelsURL } from "./endpoints.ts";
import { errorWords, ProviderError, reachReason, statusHint, unreachable } from "./errors.ts";
import { requestServer } from "./http.ts";
import { redactUrl } from "../secrets.ts";

/** The names of the models the server serves (Ollama's `/api/tags`, else the OpenAI `/models`). */
export async function listModels(config: Config, signal?: AbortSignal): Promise<string[]> {
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

/** The model to use: the agent file's, else the only one the server lists. */
export async function resolveModel(config: Config): Promise<string> {
  if (config.model) return config.model;
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
