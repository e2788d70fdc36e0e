/**
 * The answers beside the chat (mm.md §3): the model lists (Ollama's `GET /api/tags`, the
 * OpenAI-compatible `GET /v1/models`), llama.cpp's `GET /props` and router-mode
 * `POST /models/unload`, Ollama's `POST /api/show`, `GET /api/ps` and `POST /api/generate` (the
 * unload with `keep_alive: 0`). One function per answer, from the server's settings.
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
      ...(state.router
        ? { status: { value: state.loaded.includes(id) ? "loaded" : "unloaded" } }
        : {}),
    })),
  });
}
