/**
 * What the server tells about a model's context window (issue 11, docs/small-models.md): the
 * model's maximum, the window the server gives a request that does not ask for one, and the agent
 * file's `contextSize`. One or two short side requests, never fatal: unknown is a valid answer.
 */

import type { Config } from "../config/config.ts";
import { serverRoot } from "./endpoints.ts";
import { type LmStudioModel, lmstudioModels } from "./lmstudio.ts";
import { requestServer } from "./http.ts";
import { sameOllamaModel } from "./unload.ts";

/**
 * The window Ollama gives a model whose Modelfile sets no `num_ctx` and whose server has no
 * `OLLAMA_CONTEXT_LENGTH`: 4096 tokens on a machine with less than 24 GiB of VRAM (Ollama's
 * docs/context-length.mdx; larger GPUs get 32k or 256k, which `/api/ps` shows once it is loaded).
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/** Milliseconds each side request of the discovery may take at start-up. */
export const DISCOVERY_TIMEOUT = 3_000;

/** Where the server's window comes from. */
export type WindowSource =
  /** Ollama: `num_ctx` in the model's Modelfile (`/api/show` `parameters`). */
  | "modelfile"
  /** Ollama: the loaded model's `context_length` in `/api/ps`. */
  | "loaded"
  /** Ollama: nothing told, so its documented default ({@linkcode OLLAMA_DEFAULT_CONTEXT}). */
  | "default"
  /** llama.cpp: `/props` `default_generation_settings.n_ctx`. */
  | "props"
  /** Docker Model Runner: the model's configured `context_size`. */
  | "dmr"
  /** LM Studio: the loaded instance's context length (`/api/v1/models`, else `/api/v0/models`). */
  | "lmstudio"
  /** vLLM: `/v1/models` `max_model_len`. */
  | "vllm";

/** What is known of the context window; every field may be missing. */
export interface ContextWindowInfo {
  /** The model's maximum (its trained context), in tokens. */
  modelMax?: number;
  /** The window the server gives a request that asks for none, in tokens. */
  serverWindow?: number;
  /** Where {@linkcode ContextWindowInfo.serverWindow} comes from. */
  serverSource?: WindowSource;
  /** The agent file's `contextSize`, which overrides both. */
  contextSize?: number;
  /** llama.cpp: whether its chat template handles tools (`/props` `chat_template_caps`). */
  templateTools?: boolean;
  /**
   * llama.cpp: whether the model's chat template thinks (`/props` `chat_template` writes `<think>`
   * or reads `enable_thinking`, or `chat_template_caps` says it takes a reasoning effort).
   */
  templateThinks?: boolean;
  /** llama.cpp: true for a router of several models (its `/v1/models` gives each a status). */
  router?: boolean;
}

/** Learns what the server tells about `model`'s window; never throws. */
export async function discoverContextWindow(
  config: Config,
  model: string,
  timeout = DISCOVERY_TIMEOUT,
): Promise<ContextWindowInfo> {
  const info = await serverWindow(config, model, timeout).catch(() => ({}));
  return config.contextSize ? { ...info, contextSize: config.contextSize } : info;
}

async function serverWindow(
  config: Config,
  model: string,
  timeout: number,
): Promise<ContextWindowInfo> {
  const base = serverRoot(config.provider, config.url);
  switch (config.provider) {
    case "ollama":
    case "llmman":
      return await ollamaWindow(config, base, model, timeout);
    case "llamacpp":
      return await llamacppWindow(config, base, model, timeout);
    case "dmr":
      return await dmrWindow(config, base, model, timeout);
    case "lmstudio":
      return await lmstudioWindow(config, base, model, timeout);
    case "vllm":
      return await vllmWindow(config, base, model, timeout);
    case "openai":
      return {};
  }
}

/** Ollama: `/api/show` (the maximum, a Modelfile `num_ctx`) and `/api/ps` (a loaded model's). */
async function ollamaWindow(
  config: Config,
  base: string,
  model: string,
  timeout: number,
): Promise<ContextWindowInfo> {
  const [show, loaded] = await Promise.all([
    sideJSON(config, `${base}/api/show`, timeout, { model }),
    ollamaLoadedContext(config, model, timeout),
  ]);
  if (show === undefined && loaded === undefined) return {};
  const info: ContextWindowInfo = {};
  const max = ollamaModelMax(show);
  if (max) info.modelMax = max;
  const modelfile = ollamaModelfileContext(show);
  if (modelfile) {
    info.serverWindow = modelfile;
    info.serverSource = "modelfile";
  } else if (loaded) {
    info.serverWindow = loaded;
    info.serverSource = "loaded";
  } else if (show !== undefined) {
    info.serverWindow = OLLAMA_DEFAULT_CONTEXT;
    info.serverSource = "default";
  }
  // Ollama never gives a model more than it was trained for.
  if (info.serverWindow && info.modelMax && info.serverWindow > info.modelMax) {
    info.serverWindow = info.modelMax;
  }
  return info;
}

/** The model's maximum in an `/api/show` answer: `model_info["<arch>.context_length"]`. */
export function ollamaModelMax(show: unknown): number | undefined {
  const info = (show as { model_info?: Record<string, unknown> } | undefined)?.model_info;
  if (!info || typeof info !== "object") return undefined;
  const arch = info["general.architecture"];
  const key = typeof arch === "string" && `${arch}.context_length` in info
    ? `${arch}.context_length`
    : Object.keys(info).find((k) => k.endsWith(".context_length"));
  return key ? positive(info[key]) : undefined;
}

/** `num_ctx` of the Modelfile in an `/api/show` answer (its `parameters` text). */
export function ollamaModelfileContext(show: unknown): number | undefined {
  const parameters = (show as { parameters?: unknown } | undefined)?.parameters;
  if (typeof parameters !== "string") return undefined;
  const m = parameters.match(/^\s*num_ctx\s+"?(\d+)"?\s*$/m);
  return m ? positive(Number(m[1])) : undefined;
}

/** The `context_length` `/api/ps` lists for `model` while it is loaded; undefined otherwise. */
export async function ollamaLoadedContext(
  config: Config,
  model: string,
  timeout = DISCOVERY_TIMEOUT,
): Promise<number | undefined> {
  const base = serverRoot(config.provider, config.url);
  const ps = await sideJSON(config, `${base}/api/ps`, timeout);
  const list = (ps as { models?: unknown } | undefined)?.models;
  if (!Array.isArray(list)) return undefined;
  for (const m of list as { name?: unknown; model?: unknown; context_length?: unknown }[]) {
    const name = typeof m?.name === "string" ? m.name : typeof m?.model === "string" ? m.model : "";
    if (name && sameOllamaModel(name, model)) return positive(m.context_length);
  }
  return undefined;
}

/**
 * llama.cpp: `/props` `default_generation_settings.n_ctx` (what a request gets; in router mode
 * `/props?model=`), and `/v1/models` `meta.n_ctx_train` (the model's maximum).
 */
async function llamacppWindow(
  config: Config,
  base: string,
  model: string,
  timeout: number,
): Promise<ContextWindowInfo> {
  const propsOf = async () => {
    const props = await sideJSON(config, `${base}/props`, timeout);
    if ((props as { role?: unknown } | undefined)?.role !== "router") return props;
    return await sideJSON(config, `${base}/props?model=${encodeURIComponent(model)}`, timeout);
  };
  const [props, models] = await Promise.all([
    propsOf(),
    sideJSON(config, `${base}/v1/models`, timeout),
  ]);
  const info: ContextWindowInfo = {};
  const settings = (props as { default_generation_settings?: { n_ctx?: unknown } } | undefined)
    ?.default_generation_settings;
  const n = positive(settings?.n_ctx);
  if (n) {
    info.serverWindow = n;
    info.serverSource = "props";
  }
  const caps = (props as { chat_template_caps?: { supports_tool_calls?: unknown } } | undefined)
    ?.chat_template_caps;
  if (typeof caps?.supports_tool_calls === "boolean") {
    info.templateTools = caps.supports_tool_calls;
  }
  const thinks = templateThinks(props);
  if (thinks !== undefined) info.templateThinks = thinks;
  const list = (models as { data?: unknown } | undefined)?.data;
  if (Array.isArray(list)) {
    type Entry = { id?: unknown; meta?: { n_ctx_train?: unknown }; status?: unknown };
    const entries = list as Entry[];
    if (entries.some((e) => e?.status !== undefined)) info.router = true;
    const entry = entries.find((e) => e?.id === model) ??
      (entries.length === 1 ? entries[0] : undefined);
    const max = positive(entry?.meta?.n_ctx_train);
    if (max) info.modelMax = max;
  }
  return info;
}

/**
 * Whether a llama.cpp `/props` answer's chat template thinks: it writes `<think>` or reads
 * `enable_thinking` or `reasoning_content` (Qwen3, DeepSeek R1), or its caps take a reasoning
 * effort (gpt-oss); undefined when the answer has no template.
 */
export function templateThinks(props: unknown): boolean | undefined {
  const p = props as
    | { chat_template?: unknown; chat_template_caps?: { supports_reasoning_effort?: unknown } }
    | undefined;
  if (p?.chat_template_caps?.supports_reasoning_effort === true) return true;
  if (typeof p?.chat_template !== "string") return undefined;
  return /<think>|enable_thinking|reasoning_content/.test(p.chat_template);
}

/**
 * Docker Model Runner: its own `GET /models/{name}` tells the configured `config.context_size`
 * when the model was packaged or configured with one, and the GGUF metadata's
 * `<arch>.context_length` (the maximum). Its llama.cpp engine runs 4096 tokens when nothing is
 * configured, which it does not tell: mm then says "unknown" rather than guess.
 */
async function dmrWindow(
  config: Config,
  base: string,
  model: string,
  timeout: number,
): Promise<ContextWindowInfo> {
  const path = model.split("/").map(encodeURIComponent).join("/");
  const body = await sideJSON(config, `${base}/models/${path}`, timeout);
  const modelConfig = (body as { config?: Record<string, unknown> } | undefined)?.config;
  if (!modelConfig || typeof modelConfig !== "object") return {};
  const info: ContextWindowInfo = {};
  const size = positive(modelConfig.context_size);
  if (size) {
    info.serverWindow = size;
    info.serverSource = "dmr";
  }
  const gguf = modelConfig.gguf as Record<string, unknown> | undefined;
  if (gguf && typeof gguf === "object") {
    const arch = gguf["general.architecture"];
    const key = typeof arch === "string" && `${arch}.context_length` in gguf
      ? `${arch}.context_length`
      : Object.keys(gguf).find((k) => k.endsWith(".context_length"));
    const max = key ? positive(gguf[key]) : undefined;
    if (max) info.modelMax = max;
  }
  return info;
}

/**
 * LM Studio: its native `GET /api/v1/models` (0.4 and later) gives each model its
 * `max_context_length` and its `loaded_instances[].config.context_length`; the older
 * `GET /api/v0/models` gives `max_context_length` and, while loaded, `loaded_context_length`. The
 * loaded window wins; a model not loaded tells only its maximum (LM Studio loads it on demand with
 * its own settings). Another answer (a 404, another shape) tells nothing, as for `openai`.
 */
async function lmstudioWindow(
  config: Config,
  base: string,
  model: string,
  timeout: number,
): Promise<ContextWindowInfo> {
  const v1 = lmstudioV1Entry(await sideJSON(config, `${base}/api/v1/models`, timeout), model);
  if (v1 !== undefined) {
    const loaded = v1.loaded_instances?.map((i) => positive(i?.config?.context_length))
      .find((n) => n !== undefined);
    return windowInfo(loaded, positive(v1.max_context_length), "lmstudio");
  }
  const v0 = await sideJSON(config, `${base}/api/v0/models`, timeout);
  const list = (v0 as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(list)) return {};
  type Entry = { id?: unknown; loaded_context_length?: unknown; max_context_length?: unknown };
  const entry = (list as Entry[]).find((e) => e?.id === model);
  if (!entry) return {};
  return windowInfo(
    positive(entry.loaded_context_length),
    positive(entry.max_context_length),
    "lmstudio",
  );
}

/** `model`'s entry in an `/api/v1/models` answer: by its key, or by a loaded instance's id. */
function lmstudioV1Entry(json: unknown, model: string): LmStudioModel | undefined {
  const models = lmstudioModels(json);
  if (models === undefined) return undefined;
  return models.find((m) => m.key === model) ??
    models.find((m) => m.loaded_instances!.some((i) => i?.id === model)) ??
    {};
}

/** vLLM: `GET /v1/models` gives each model its `max_model_len`, the window every request gets. */
async function vllmWindow(
  config: Config,
  base: string,
  model: string,
  timeout: number,
): Promise<ContextWindowInfo> {
  const body = await sideJSON(config, `${base}/v1/models`, timeout);
  const list = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(list)) return {};
  type Entry = { id?: unknown; max_model_len?: unknown };
  const entries = list as Entry[];
  const entry = entries.find((e) => e?.id === model) ??
    (entries.length === 1 ? entries[0] : undefined);
  return windowInfo(positive(entry?.max_model_len), undefined, "vllm");
}

/** The info of a window (when known) and a maximum (when known). */
function windowInfo(
  window: number | undefined,
  max: number | undefined,
  source: WindowSource,
): ContextWindowInfo {
  const info: ContextWindowInfo = {};
  if (max) info.modelMax = max;
  if (window) {
    info.serverWindow = window;
    info.serverSource = source;
  }
  return info;
}

/** A positive integer from a number or a numeric string (DMR's GGUF metadata are strings). */
function positive(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A side API's JSON answer, or undefined when the server does not give one in time. */
async function sideJSON(
  config: Config,
  url: string,
  timeout: number,
  body?: unknown,
): Promise<unknown> {
  const answer = await requestServer({
    url,
    apiKey: config.apiKey,
    body,
    timeout,
    discardErrorBody: true,
  });
  return answer.kind === "ok" ? answer.json : undefined;
}
