/** Listing a server's models, and picking the model when the agent file names none. */

import type { Config } from "../config/config.ts";
import { VERSION } from "../version.ts";
import { modelsURL } from "./endpoints.ts";
import { httpError, ProviderError, unreachable } from "./errors.ts";

/** The names of the models the server serves (Ollama's `/api/tags`, else the OpenAI `/models`). */
export async function listModels(config: Config, signal?: AbortSignal): Promise<string[]> {
  const url = modelsURL(config.provider, config.url);
  const target = { provider: config.provider, url: config.url, model: "(none)" };
  const headers: Record<string, string> = { "User-Agent": `mm/${VERSION}` };
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: signal ?? AbortSignal.timeout(30_000) });
  } catch (e) {
    throw unreachable(target, (e as Error).message.replace(/\s+/g, " "));
  }
  const text = await response.text();
  if (!response.ok) throw httpError(target, response.status, text.trim().slice(0, 300));
  try {
    const body = JSON.parse(text);
    const list: { name?: string; id?: string; model?: string }[] = body.models ?? body.data ?? [];
    return list.map((m) => m.name ?? m.id ?? m.model ?? "").filter((n) => n !== "");
  } catch {
    throw httpError(target, response.status, `the model list at ${url} is not JSON`);
  }
}

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
