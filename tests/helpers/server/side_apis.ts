/**
 * The answers beside the chat (mm.md §3): the model lists (Ollama's `GET /api/tags`, the
 * OpenAI-compatible `GET /v1/models`), llama.cpp's `GET /props` and router-mode
 * `POST /models/unload`, Ollama's `POST /api/show`, `GET /api/ps` and `POST /api/generate` (the
 * unload with `keep_alive: 0`), LM Studio's `GET /api/v1/models`, `GET /api/v0/models` and
 * `POST /api/v1/models/unload`, vLLM's `max_model_len`. One function per answer, from the server's
 * settings.
 */

/** The server's settings these answers read (and `loaded`, which the unloads change). */
export interface SideState {
  /** What the model listings return. */
  models: string[];
  /** The models in memory. */
  loaded: string[];
  /** llama.cpp router mode: `/models/unload` exists. */
  router: boolean;
  /** llama.cpp's `GET /props`; unset: 404. */
  props?: unknown;
  /** Ollama's `POST /api/show`, by model name. */
  show: Record<string, unknown>;
  /** LM Studio's native REST API: "v1" (0.4 and later: v1 and v0), "v0"; unset: 404. */
  lmstudio?: "v1" | "v0";
  /** LM Studio: each model's `max_context_length`, by name. */
  maxContext: Record<string, number>;
  /** LM Studio: each loaded model's context length, by name. */
  loadedContext: Record<string, number>;
  /** vLLM: the `max_model_len` of every `/v1/models` entry; unset: none. */
  maxModelLen?: number;
}

/** The answer to a side API at `path` for a request with `body`, or undefined for the other paths. */
export function sideAnswer(state: SideState, path: string, body: unknown): Response | undefined {
  // deno-lint-ignore no-explicit-any
  const model: string = (body as any)?.model ?? "";
  switch (path) {
    case "/api/ps":
      return ollamaPs(state);
    case "/api/generate":
      // deno-lint-ignore no-explicit-any
      return ollamaGenerate(state, model, (body as any)?.keep_alive);
    case "/models/unload":
      return llamaUnload(state, model);
    case "/props":
      return llamaProps(state);
    case "/api/show":
      return ollamaShow(state, model);
    case "/api/tags":
      return ollamaTags(state);
    case "/api/v1/models":
      return state.lmstudio === "v1" ? lmstudioV1Models(state) : notFound();
    case "/api/v0/models":
      return state.lmstudio ? lmstudioV0Models(state) : notFound();
    case "/api/v1/models/unload": {
      const id = (body as { instance_id?: unknown } | undefined)?.instance_id;
      return state.lmstudio === "v1" ? lmstudioUnload(state, id) : notFound();
    }
  }
  if (path.endsWith("/models")) return openaiModels(state);
  return undefined;
}

/** Takes `name` out of `state.loaded`; whether it was there. */
function unload(state: SideState, name: string): boolean {
  const before = state.loaded.length;
  state.loaded = state.loaded.filter((m) => m !== name);
  return state.loaded.length < before;
}

/** Ollama's `GET /api/ps`: the loaded models. */
function ollamaPs(state: SideState): Response {
  return Response.json({
    models: state.loaded.map((name) => ({ name, model: name, size: 1, expires_at: "" })),
  });
}

/**
 * Ollama's `POST /api/generate` without a prompt: `keep_alive: 0` unloads the model, and loads one
 * that was not there, as Ollama does; any other `keep_alive` loads it.
 */
function ollamaGenerate(state: SideState, model: string, keepAlive: unknown): Response {
  const was = unload(state, model);
  if (keepAlive !== 0 || !was) state.loaded.push(model);
  const reason = keepAlive === 0 && was ? "unload" : "load";
  return Response.json({
    model,
    created_at: new Date().toISOString(),
    response: "",
    done: true,
    done_reason: reason,
  });
}

/** llama.cpp's `POST /models/unload`: 404 on a single-model server, 400 for a model not running. */
function llamaUnload(state: SideState, model: string): Response {
  if (!state.router) {
    return Response.json({
      error: { message: "File Not Found", type: "not_found_error", code: 404 },
    }, { status: 404 });
  }
  if (unload(state, model)) return Response.json({ success: true });
  return Response.json({
    error: { code: 400, message: "model is not running", type: "invalid_request_error" },
  }, { status: 400 });
}

/** llama.cpp's `GET /props`, or 404 when unset. */
function llamaProps(state: SideState): Response {
  if (state.props === undefined) return new Response("not found", { status: 404 });
  return Response.json(state.props);
}

/** A route this server does not have. */
function notFound(): Response {
  return new Response("not found", { status: 404 });
}

/**
 * LM Studio's `GET /api/v1/models` (its docs' shape): each model with its `max_context_length`
 * and, while loaded, one instance named as the model with its `config.context_length`.
 */
function lmstudioV1Models(state: SideState): Response {
  return Response.json({
    models: state.models.map((key) => ({
      type: "llm",
      publisher: "lmstudio-community",
      key,
      display_name: key,
      loaded_instances: state.loaded.includes(key)
        ? [{ id: key, config: { context_length: state.loadedContext[key] ?? 4096 } }]
        : [],
      max_context_length: state.maxContext[key] ?? 32768,
      format: "gguf",
    })),
  });
}

/** LM Studio's older `GET /api/v0/models`: `state`, `max_context_length`, `loaded_context_length`. */
function lmstudioV0Models(state: SideState): Response {
  return Response.json({
    object: "list",
    data: state.models.map((id) => ({
      id,
      object: "model",
      type: "llm",
      state: state.loaded.includes(id) ? "loaded" : "not-loaded",
      max_context_length: state.maxContext[id] ?? 32768,
      ...(state.loaded.includes(id)
        ? { loaded_context_length: state.loadedContext[id] ?? 4096 }
        : {}),
    })),
  });
}

/** LM Studio's `POST /api/v1/models/unload {"instance_id"}`: the id back, or 404 for no such one. */
function lmstudioUnload(state: SideState, id: unknown): Response {
  if (typeof id === "string" && unload(state, id)) return Response.json({ instance_id: id });
  return Response.json({ error: { message: `No loaded model with instance id ${id}` } }, {
    status: 404,
  });
}

/** Ollama's `POST /api/show` for `model`, or 404 for a model it does not know. */
function ollamaShow(state: SideState, model: string): Response {
  if (!(model in state.show)) {
    return Response.json({ error: `model '${model}' not found` }, { status: 404 });
  }
  return Response.json(state.show[model]);
}

/** Ollama's `GET /api/tags`: the models. */
function ollamaTags(state: SideState): Response {
  return Response.json({ models: state.models.map((name) => ({ name, model: name })) });
}

/**
 * The OpenAI-compatible `GET /v1/models` (any path ending in `/models`): the models; in llama.cpp's
 * router mode each with its `status` (loaded, else unloaded), as tests/fixtures/llama-server/
 * router-v1-models.http shows.
 */
function openaiModels(state: SideState): Response {
  return Response.json({
    object: "list",
    data: state.models.map((id) => ({
      id,
      object: "model",
      ...(state.maxModelLen ? { max_model_len: state.maxModelLen } : {}),
      ...(state.router
        ? { status: { value: state.loaded.includes(id) ? "loaded" : "unloaded" } }
        : {}),
    })),
  });
}
