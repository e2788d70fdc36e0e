/**
 * The chat client of a run, chosen in one place for every front end and `mm doctor`: the
 * OpenAI-compatible endpoint, Ollama's native API with `num_ctx`, or the first until the
 * conversation outgrows Ollama's default window (docs/small-models.md, "The context window").
 */

import type { Config, ProviderName } from "../config/config.ts";
import { type ChatClient, type ChatRequest, type ChatResult, createChatClient } from "./chat.ts";
import {
  type ContextWindowInfo,
  discoverContextWindow,
  ollamaLoadedContext,
} from "./context_window.ts";
import { chatBaseURL } from "./endpoints.ts";
import type { Target } from "./errors.ts";
import { createOllamaChat, type OllamaChat } from "./ollama_native.ts";

/** The most `num_ctx` mm raises a window to by itself: more costs memory a small machine lacks. */
export const RAISE_CAP = 32768;

/** The least `num_ctx` mm raises a window to. */
export const MIN_RAISE = 8192;

/** Tokens kept free for the answer when `maxTokens` is not set. */
export const ANSWER_ROOM = 2048;

/**
 * Which API the client talks: the OpenAI-compatible endpoint, Ollama's native `/api/chat` with
 * `num_ctx`, or the first until a request no longer fits the server's default window ("auto").
 */
export type ChatAPI = "openai" | "ollama" | "auto";

/** What the client will do about the context window, decided at start. */
export interface ContextPlan {
  api: ChatAPI;
  /** The largest window the client can give, in tokens; undefined when unknown. */
  window?: number;
  /** Where the window comes from. */
  source: "contextSize" | "server" | "unknown";
  /** "auto": the server's window, used until a request needs more. */
  startWindow?: number;
  /** "ollama": the `num_ctx` of every request. */
  numCtx?: number;
  /** What discovery found. */
  info: ContextWindowInfo;
}

/** A chat client with the plan it follows (for the banner, `--json` and `mm doctor`). */
export interface Client extends ChatClient {
  plan: ContextPlan;
}

/** Whether the provider speaks Ollama's API. */
export function isOllama(config: Config): boolean {
  return config.provider === "ollama" || config.provider === "llmman";
}

/** The rule of docs/small-models.md: which API, and which window. */
export function planContext(config: Config, info: ContextWindowInfo): ContextPlan {
  if (config.contextSize) {
    return isOllama(config)
      ? {
        api: "ollama",
        window: config.contextSize,
        numCtx: config.contextSize,
        source: "contextSize",
        info,
      }
      : { api: "openai", window: config.contextSize, source: "contextSize", info };
  }
  const server = info.serverWindow;
  if (server === undefined) return { api: "openai", source: "unknown", info };
  if (isOllama(config)) {
    const cap = raiseCap(info);
    if (server < cap) {
      return { api: "auto", window: cap, startWindow: server, source: "server", info };
    }
  }
  return { api: "openai", window: server, source: "server", info };
}

/** The most "auto" may raise `num_ctx` to: the model's maximum, at most {@linkcode RAISE_CAP}. */
function raiseCap(info: ContextWindowInfo): number {
  return Math.min(info.modelMax ?? RAISE_CAP, RAISE_CAP);
}

/**
 * The `num_ctx` for a prompt that needs `needed` tokens (answer included) and no longer fits
 * `current`: the next power of two at or above twice the need (few steps: each change reloads the
 * model), at least {@linkcode MIN_RAISE}, never less than `current`, at most `cap`.
 */
export function raisedNumCtx(needed: number, current: number, cap: number): number {
  let n = MIN_RAISE;
  while (n < needed * 2) n *= 2;
  return Math.min(cap, Math.max(n, current));
}

/** The tokens a request needs: its prompt plus room for the answer; undefined without estimate. */
export function neededTokens(config: Config, request: ChatRequest): number | undefined {
  if (request.promptTokens === undefined) return undefined;
  return request.promptTokens + (config.maxTokens ?? ANSWER_ROOM);
}

/**
 * The client of `config` for `model`: learns the window (unless `info` is given), then builds the
 * client its plan calls for. Never fails for the server's sake; a package that cannot load throws.
 */
export async function createClient(
  config: Config,
  model: string,
  info?: ContextWindowInfo,
): Promise<Client> {
  const plan = planContext(config, info ?? await discoverContextWindow(config, model));
  const target: Target = { provider: config.provider, url: config.url, model };
  if (plan.api === "ollama") {
    const native = createOllamaChat(config, model);
    return {
      target,
      contextWindow: plan.window,
      plan,
      stream: (request) => native.stream(request, plan.numCtx),
    };
  }
  const openai = createChatClient(config, model, plan.info.serverWindow);
  if (plan.api === "openai") {
    return { target, contextWindow: plan.window, plan, stream: openai.stream };
  }
  return new RaisingClient(config, plan, openai);
}

/**
 * "auto": the OpenAI-compatible endpoint while a request fits the server's window; past it,
 * Ollama's native API with a raised `num_ctx`, and never back (that would reload the model).
 */
class RaisingClient implements Client {
  readonly target: Target;
  readonly plan: ContextPlan;
  contextWindow?: number;
  /** The `num_ctx` sent, once on the native path. */
  numCtx?: number;
  #config: Config;
  #openai: ChatClient;
  #native?: OllamaChat;
  #serverWindow: number;
  #cap: number;
  #checked = false;

  constructor(config: Config, plan: ContextPlan, openai: ChatClient) {
    this.target = openai.target;
    this.plan = plan;
    this.contextWindow = plan.window;
    this.#config = config;
    this.#openai = openai;
    this.#serverWindow = plan.startWindow!;
    this.#cap = plan.window!;
  }

  /** Streams `request` on the path its size calls for. */
  async stream(request: ChatRequest): Promise<ChatResult> {
    const needed = neededTokens(this.#config, request);
    if (needed !== undefined) await this.#grow(needed);
    if (this.numCtx === undefined) return await this.#openai.stream(request);
    this.#native ??= createOllamaChat(this.#config, this.target.model);
    return await this.#native.stream(request, this.numCtx);
  }

  /** Raises `num_ctx` when `needed` tokens no longer fit; never lowers it. */
  async #grow(needed: number): Promise<void> {
    if (this.numCtx !== undefined) {
      if (needed > this.numCtx && this.numCtx < this.#cap) {
        this.numCtx = raisedNumCtx(needed, this.numCtx, this.#cap);
      }
      return;
    }
    if (needed <= this.#serverWindow || this.#serverWindow >= this.#cap) return;
    if (!this.#checked && this.plan.info.serverSource === "default") {
      // Before the first raise, ask what the loaded model really runs with: a server with more
      // VRAM, or with OLLAMA_CONTEXT_LENGTH, gives more than the documented default.
      this.#checked = true;
      const loaded = await ollamaLoadedContext(this.#config, this.target.model);
      if (loaded !== undefined) {
        this.#serverWindow = loaded;
        if (loaded >= this.#cap) {
          this.contextWindow = Math.min(loaded, this.plan.info.modelMax ?? loaded);
          return;
        }
        if (needed <= loaded) return;
      }
    }
    this.numCtx = raisedNumCtx(needed, this.#serverWindow, this.#cap);
  }
}

/**
 * The banner's line: the window, where it comes from, and the chat path (`· chat: …`, in the words
 * of {@linkcode chatAPIText}). `provider` names the OpenAI-compatible path (DMR's is under
 * `/engines`).
 */
export function contextLine(plan: ContextPlan, provider: ProviderName): string {
  const openai = `OpenAI-compatible ${chatBaseURL(provider, "")}/chat/completions`;
  switch (plan.api) {
    case "ollama":
      return `context: ${plan.window} tokens (contextSize) · chat: Ollama's native /api/chat with num_ctx ${plan.numCtx}`;
    case "auto":
      return `context: ${plan.startWindow} tokens (${
        windowOrigin(plan)
      }), raised up to ${plan.window} when needed · chat: ${openai}, then Ollama's native /api/chat with num_ctx`;
    case "openai": {
      if (plan.window === undefined) {
        const max = plan.info.modelMax;
        return `context: unknown${
          max ? ` (the model holds up to ${max} tokens)` : ""
        } · chat: ${openai}`;
      }
      const origin = plan.source === "contextSize" ? "contextSize" : windowOrigin(plan);
      return `context: ${plan.window} tokens (${origin}) · chat: ${openai}`;
    }
  }
}

/** `mm doctor`'s line on the API mm talks and the window it gets. */
export function chatAPIText(plan: ContextPlan): string {
  switch (plan.api) {
    case "ollama":
      return `chat API: Ollama's native /api/chat with num_ctx ${plan.numCtx} (contextSize)`;
    case "auto":
      return `chat API: OpenAI-compatible while the conversation fits ${plan.startWindow} tokens (${
        windowOrigin(plan)
      }), then Ollama's native /api/chat with num_ctx raised up to ${plan.window}`;
    case "openai":
      return `chat API: OpenAI-compatible, context ${
        plan.window === undefined
          ? "unknown (set contextSize in the agent file)"
          : `${plan.window} tokens (${
            plan.source === "contextSize" ? "contextSize" : windowOrigin(plan)
          })`
      }`;
  }
}

/** Where the server's window was read, in a few words. */
function windowOrigin(plan: ContextPlan): string {
  switch (plan.info.serverSource) {
    case "modelfile":
      return "the Modelfile's num_ctx";
    case "loaded":
      return "the loaded model, /api/ps";
    case "default":
      return "Ollama's default";
    case "props":
      return "llama-server's /props";
    case "dmr":
      return "the model's context_size";
    case "lmstudio":
      return "LM Studio's loaded model";
    case "vllm":
      return "vLLM's max_model_len";
    default:
      return "server";
  }
}

/** What `--json` adds to `turn_start`: the window (null when unknown) and the API. */
export function contextReport(
  plan: ContextPlan,
): { contextWindow: number | null; chatAPI: ChatAPI } {
  return { contextWindow: plan.window ?? null, chatAPI: plan.api };
}
