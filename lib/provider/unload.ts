/**
 * Unloading a model through each provider's side API (mm.md §3, tools.md `unload_model`): what
 * the server said, as plain data. The sentences the model reads live with the tool.
 */

import type { Config, ProviderName } from "../config/config.ts";
import type { Http } from "../tool.ts";
import { lmstudioModels } from "./lmstudio.ts";
import { serverRoot } from "./endpoints.ts";
import { causeText } from "./errors.ts";
import { requestServer } from "./http.ts";

/** Milliseconds one request to the server may take (tools.md: 30 s per request). */
export const UNLOAD_TIMEOUT = 30_000;

/** Why a model could not be unloaded. */
export type UnloadFailure =
  /** vllm, dmr and openai (and an LM Studio before 0.4) have no way to unload a model. */
  | { kind: "unsupported"; provider: ProviderName }
  /** The request did not reach the server. */
  | { kind: "unreachable"; provider: ProviderName; url: string; detail: string }
  /** The server did not answer in time. */
  | { kind: "timeout"; provider: ProviderName; url: string; ms: number }
  /** The turn was cancelled while waiting. */
  | { kind: "cancelled" }
  /** The server answered an HTTP error, with its own message. */
  | { kind: "http"; provider: ProviderName; url: string; status: number; message: string }
  /** A llama.cpp server started with one model: `/models/unload` exists in router mode only. */
  | { kind: "singleModel"; url: string }
  /** The server answered, but did not say the model was unloaded. */
  | { kind: "unconfirmed"; provider: ProviderName; url: string; got: string };

/** How an unload ended. */
export type UnloadOutcome =
  | { kind: "unloaded" }
  | { kind: "notLoaded" }
  | { kind: "cannot"; failure: UnloadFailure };

/** What an unload needs: the configuration (provider, url, apiKey), HTTP, the turn's signal. */
export interface UnloadRequest {
  config: Config;
  model: string;
  http: Http;
  signal: AbortSignal;
  /** Milliseconds per request; {@linkcode UNLOAD_TIMEOUT} unless a test says otherwise. */
  timeout?: number;
}

/** Unloads `model` from the configured server; never throws for an ordinary failure. */
export function unloadModel(req: UnloadRequest): Promise<UnloadOutcome> {
  switch (req.config.provider) {
    case "ollama":
    case "llmman":
      return unloadOllama(req);
    case "llamacpp":
      return unloadLlamaCpp(req);
    case "lmstudio":
      return unloadLmStudio(req);
    case "vllm":
    case "dmr":
    case "openai":
      return Promise.resolve(cannot({ kind: "unsupported", provider: req.config.provider }));
  }
}

/** Ollama and llmman: `GET /api/ps`, then, only when loaded, `POST /api/generate` keep_alive 0. */
async function unloadOllama(req: UnloadRequest): Promise<UnloadOutcome> {
  const ps = await call(req, "/api/ps");
  if ("failure" in ps) return cannot(ps.failure);
  const loaded = loadedNames(ps.json);
  if (loaded === undefined) return cannot(unconfirmed(req, "a /api/ps answer without models"));
  if (!loaded.some((name) => sameOllamaModel(name, req.model))) return { kind: "notLoaded" };
  const gen = await call(req, "/api/generate", { model: req.model, keep_alive: 0 });
  if ("failure" in gen) return cannot(gen.failure);
  const reason = doneReason(gen.text);
  if (reason === "unload") return { kind: "unloaded" };
  return cannot(
    unconfirmed(req, reason === undefined ? "no done_reason" : `done_reason "${reason}"`),
  );
}

/** llama.cpp: `POST /models/unload` (router mode); 404 means a single-model server. */
async function unloadLlamaCpp(req: UnloadRequest): Promise<UnloadOutcome> {
  const res = await call(req, "/models/unload", { model: req.model });
  if ("failure" in res) {
    const f = res.failure;
    if (f.kind === "http" && f.status === 404) return cannot({ kind: "singleModel", url: f.url });
    if (f.kind === "http" && f.status === 400 && /not (running|loaded)/i.test(f.message)) {
      return { kind: "notLoaded" };
    }
    return cannot(f);
  }
  const body = res.json as { success?: unknown } | undefined;
  if (body?.success !== true) {
    return cannot(unconfirmed(req, `${res.text.trim().slice(0, 200) || "an empty answer"}`));
  }
  // The router says so before the model's own server has stopped: a request sent at once would
  // meet it stopping (`proxy error`). Wait until the router lists it unloaded.
  await untilUnloaded(req);
  return { kind: "unloaded" };
}

/**
 * LM Studio (0.4 and later): `GET /api/v1/models` for the model's loaded instances (by its key, or
 * an instance id), then `POST /api/v1/models/unload {"instance_id"}` for each, which answers with
 * the `instance_id` it unloaded. A server without that list (404: LM Studio before 0.4, whose
 * REST API cannot unload) is "unsupported".
 */
async function unloadLmStudio(req: UnloadRequest): Promise<UnloadOutcome> {
  const list = await call(req, "/api/v1/models");
  if ("failure" in list) {
    const f = list.failure;
    if (f.kind === "http" && f.status === 404) {
      return cannot({ kind: "unsupported", provider: req.config.provider });
    }
    return cannot(f);
  }
  const models = lmstudioModels(list.json);
  if (models === undefined) {
    return cannot(unconfirmed(req, "a /api/v1/models answer without models"));
  }
  const instances = models.flatMap((m) =>
    (m.loaded_instances ?? []).filter((i) => m.key === req.model || i?.id === req.model)
  ).map((i) => i.id).filter((id): id is string => typeof id === "string");
  if (instances.length === 0) return { kind: "notLoaded" };
  for (const id of instances) {
    const res = await call(req, "/api/v1/models/unload", { instance_id: id });
    if ("failure" in res) return cannot(res.failure);
    const said = (res.json as { instance_id?: unknown } | undefined)?.instance_id;
    if (said !== id) {
      return cannot(unconfirmed(req, res.text.trim().slice(0, 200) || "an empty answer"));
    }
  }
  return { kind: "unloaded" };
}

/** The longest wait for a router to list an unloaded model as such, in milliseconds. */
export const UNLOADED_WAIT = 5_000;

/**
 * Waits until the router's `/v1/models` gives `req.model` a status other than loaded (or says
 * nothing of it), at most {@linkcode UNLOADED_WAIT}; a failure to ask ends the wait.
 */
async function untilUnloaded(req: UnloadRequest): Promise<void> {
  const deadline = Date.now() + UNLOADED_WAIT;
  while (Date.now() < deadline && !req.signal.aborted) {
    const list = await call({ ...req, timeout: 2_000 }, "/v1/models");
    if ("failure" in list) return;
    const data = (list.json as { data?: { id?: unknown; status?: { value?: unknown } }[] })?.data;
    const entry = data?.find((m) => m.id === req.model);
    const status = entry?.status?.value;
    if (typeof status !== "string" || status === "unloaded") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function cannot(failure: UnloadFailure): UnloadOutcome {
  return { kind: "cannot", failure };
}

function unconfirmed(req: UnloadRequest, got: string): UnloadFailure {
  return { kind: "unconfirmed", provider: req.config.provider, url: req.config.url, got };
}

/** Whether two Ollama names are the same model: `qwen3` is `qwen3:latest`. */
export function sameOllamaModel(a: string, b: string): boolean {
  const norm = (n: string) => {
    const name = n.trim().toLowerCase();
    return name.includes(":") ? name : `${name}:latest`;
  };
  return norm(a) === norm(b);
}

/** The names `/api/ps` lists, or undefined when the answer is not that shape. */
function loadedNames(json: unknown): string[] | undefined {
  const models = (json as { models?: unknown } | undefined)?.models;
  if (!Array.isArray(models)) return undefined;
  return models.flatMap((m) => [m?.name, m?.model]).filter((n): n is string =>
    typeof n === "string"
  );
}

/** The `done_reason` of `/api/generate`'s answer: one JSON object, or JSON lines (streamed). */
function doneReason(text: string): string | undefined {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  for (const line of lines.reverse()) {
    try {
      const reason = JSON.parse(line)?.done_reason;
      if (typeof reason === "string") return reason;
    } catch {
      // Not JSON: keep looking.
    }
  }
  return undefined;
}

type CallResult = { text: string; json: unknown } | { failure: UnloadFailure };

/** One request to the server's side API, with its own timeout and the turn's cancellation. */
async function call(req: UnloadRequest, path: string, body?: unknown): Promise<CallResult> {
  const { provider, url } = req.config;
  const ms = req.timeout ?? UNLOAD_TIMEOUT;
  const answer = await requestServer({
    url: `${serverRoot(provider, url)}${path}`,
    apiKey: req.config.apiKey,
    body,
    signal: req.signal,
    timeout: ms,
    fetch: (target, init) => req.http.fetch(target, init),
  });
  switch (answer.kind) {
    case "ok":
      // Ollama may stream JSON lines (no JSON then); the callers read the text.
      return { text: answer.text, json: answer.json };
    case "http":
      return {
        failure: {
          kind: "http",
          provider,
          url,
          status: answer.status,
          message: serverMessage(answer.text),
        },
      };
    case "failed":
      if (req.signal.aborted) return { failure: { kind: "cancelled" } };
      if (answer.timedOut) return { failure: { kind: "timeout", provider, url, ms } };
      return { failure: { kind: "unreachable", provider, url, detail: causeText(answer.error) } };
  }
}

/** The server's own error message: `{"error": {"message"}}`, `{"error": "…"}`, or the text. */
function serverMessage(text: string): string {
  try {
    const body = JSON.parse(text);
    const err = body?.error;
    if (typeof err === "string") return err;
    if (typeof err?.message === "string") return err.message;
    if (typeof body?.message === "string") return body.message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.replace(/\s+/g, " ").trim().slice(0, 300) || "no message";
}
