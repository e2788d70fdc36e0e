/** Listing a server's models, and picking the model when the agent file names none. */

import type { Config } from "../config/config.ts";
import { modelsURL } from "./endpoints.ts";
import { httpError, ProviderError, unreachable } from "./errors.ts";
import { requestServer } from "./http.ts";

/** The names of the models the server serves (Ollama's `/api/tags`, else the OpenAI `/models`). */
export async function listModels(config: Config, signal?: AbortSignal): Promise<string[]> {
  const url = modelsURL(config.provider, config.url);
  const target = { provider: config.provider, url: config.url, model: "(none)" };
  const answer = await requestServer({
    url,
    apiKey: config.apiKey,
    signal: signal ?? AbortSignal.timeout(30_000),
  });
  if (answer.kind === "failed") {
    if (answer.stage === "body") throw answer.error;
    throw unreachable(target, (answer.error as Error).message.replace(/\s+/g, " "));
  }
  if (answer.kind === "http") {
    throw httpError(target, answer.status, answer.text.trim().slice(0, 300));
  }
  const names = modelNames(answer.json);
  if (names === undefined) {
    throw httpError(target, answer.status, `the model list at ${url} is not JSON`);
  }
  return names;
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
  const where = `the ${config.provider} server at ${config.url}`;
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
