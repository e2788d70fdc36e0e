/**
 * A scripted OpenAI-compatible server for tests: real HTTP and SSE on 127.0.0.1. Replies are queued
 * per model name, so concurrent tests that use different model names never see each other's script.
 * Every request is recorded, so a test asserts what mm sent. It also plays Ollama's native
 * `POST /api/chat` (streamed NDJSON, tool calls whole with object arguments) from the same queues.
 */

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  /** The arguments exactly as streamed (an object is JSON-encoded). */
  arguments: string | Record<string, unknown>;
  id?: string;
}

/** One scripted answer to a chat request. */
export type Reply =
  | {
    text?: string;
    thought?: string;
    /** `reasoning_content` (llama.cpp, DeepSeek) or `reasoning` (Ollama, vLLM). */
    thoughtField?: "reasoning_content" | "reasoning";
    toolCalls?: ScriptedCall[];
    /** Characters per delta: small values split names and arguments over many chunks. */
    chunkSize?: number;
    /** Leave `index` out of tool-call deltas, as some servers do. */
    noIndex?: boolean;
    /** Milliseconds before the first byte of the response. */
    delay?: number;
    /** Milliseconds between chunks. */
    gap?: number;
    usage?: { prompt_tokens: number; completion_tokens: number };
    /** After the text: an error in the stream (`data: {"error":…}`, or Ollama's `{"error":…}` line). */
    streamError?: string;
  }
  | { status: number; body: unknown }
  /** Stream `text` then break the connection. */
  | { drop: true; text?: string }
  /** Stream `repeat` forever (until the client goes away) inside one tool call's arguments. */
  | { runaway: string; name: string }
  /** Send the headers, then nothing, until the client goes away. */
  | { hang: true };

/** A request the server received. */
export interface Recorded {
  method: string;
  path: string;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** The scripted server. */
export class ScriptedServer {
  /** Base URL, `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: Recorded[] = [];
  /** What the model listings return. */
  models: string[] = ["scripted"];
  /**
   * The models in memory: Ollama's `GET /api/ps` lists them, `POST /api/generate` with
   * `keep_alive: 0` unloads one (and loads one that was not there, as Ollama does), llama.cpp's
   * `POST /models/unload` unloads one in router mode.
   */
  loaded: string[] = [];
  /** llama.cpp router mode: `/models/unload` exists; a single-model server answers it 404. */
  router = false;
  /** llama.cpp's `GET /props`; unset: 404. */
  props?: unknown;
  /** Ollama's `POST /api/show`, by model name; a model not here: 404. */
  show: Record<string, unknown> = {};
  /** Fixed answers by path (`/api/ps`, `/models/unload`, …), over every route above. */
  sideReplies: Record<string, { status: number; body: unknown }> = {};
  #queues = new Map<string, Reply[]>();
  #server: Deno.HttpServer;

  private constructor(server: Deno.HttpServer, url: string) {
    this.#server = server;
    this.url = url;
  }

  /** Starts a server on a free loopback port. */
  static start(): ScriptedServer {
    let self: ScriptedServer | undefined = undefined;
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => self!.#handle(req),
    );
    self = new ScriptedServer(server, `http://127.0.0.1:${server.addr.port}`);
    return self;
  }

  /** Queues replies for requests naming `model`. */
  script(model: string, replies: Reply[]): void {
    this.#queues.set(model, [...(this.#queues.get(model) ?? []), ...replies]);
  }

  /** The chat requests that named `model`. */
  chats(model: string): Recorded[] {
    return this.requests.filter((r) =>
      r.path.endsWith("/chat/completions") && r.body?.model === model
    );
  }

  /** The requests to Ollama's native `/api/chat` that named `model`. */
  nativeChats(model: string): Recorded[] {
    return this.requests.filter((r) => r.path === "/api/chat" && r.body?.model === model);
  }

  /** Stops the server. */
  async close(): Promise<void> {
    await this.#server.shutdown();
  }

  async #handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const text = req.method === "POST" ? await req.text() : "";
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    this.requests.push({ method: req.method, path, headers: req.headers, body });
    const side = this.#sideAPI(path, body);
    if (side) return side;
    if (path === "/api/tags") {
      return Response.json({ models: this.models.map((name) => ({ name, model: name })) });
    }
    if (path.endsWith("/models")) {
      return Response.json({
        object: "list",
        data: this.models.map((id) => ({ id, object: "model" })),
      });
    }
    const native = path === "/api/chat";
    if (!native && !path.endsWith("/chat/completions")) {
      return new Response("not found", { status: 404 });
    }
    // deno-lint-ignore no-explicit-any
    const model = (body as any)?.model ?? "";
    const reply = this.#queues.get(model)?.shift();
    if (native) {
      if (!reply) {
        return Response.json({ error: `model "${model}" not found, try pulling it first` }, {
          status: 404,
        });
      }
      if ("status" in reply) return Response.json(reply.body, { status: reply.status });
      return ndjson(reply, model);
    }
    if (!reply) {
      return Response.json({
        error: { message: `model "${model}" not found, try pulling it first` },
      }, {
        status: 404,
      });
    }
    if ("status" in reply) return Response.json(reply.body, { status: reply.status });
    return sse(reply, model);
  }

  /** The side APIs of mm.md §3 (unload, context size), or undefined for the other paths. */
  #sideAPI(path: string, body: unknown): Response | undefined {
    const fixed = this.sideReplies[path];
    if (fixed) return Response.json(fixed.body, { status: fixed.status });
    // deno-lint-ignore no-explicit-any
    const model: string = (body as any)?.model ?? "";
    const unload = (name: string) => {
      const before = this.loaded.length;
      this.loaded = this.loaded.filter((m) => m !== name);
      return this.loaded.length < before;
    };
    switch (path) {
      case "/api/ps":
        return Response.json({
          models: this.loaded.map((name) => ({ name, model: name, size: 1, expires_at: "" })),
        });
      case "/api/generate": {
        // deno-lint-ignore no-explicit-any
        const keepAlive = (body as any)?.keep_alive;
        const was = unload(model);
        if (keepAlive !== 0 || !was) this.loaded.push(model);
        const reason = keepAlive === 0 && was ? "unload" : "load";
        return Response.json({
          model,
          created_at: new Date().toISOString(),
          response: "",
          done: true,
          done_reason: reason,
        });
      }
      case "/models/unload":
        if (!this.router) {
          return Response.json({
            error: { message: "File Not Found", type: "not_found_error", code: 404 },
          }, { status: 404 });
        }
        if (unload(model)) return Response.json({ success: true });
        return Response.json({
          error: { code: 400, message: "model is not running", type: "invalid_request_error" },
        }, { status: 400 });
      case "/props":
        if (this.props === undefined) return new Response("not found", { status: 404 });
        return Response.json(this.props);
      case "/api/show":
        if (!(model in this.show)) {
          return Response.json({ error: `model '${model}' not found` }, { status: 404 });
        }
        return Response.json(this.show[model]);
    }
    return undefined;
  }
}

const encoder = new TextEncoder();

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return `data: ${
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
  }\n\n`;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sse(
  reply: Exclude<Reply, { status: number }>,
  model: string,
): Response | Promise<Response> {
  // Aborted when the client goes away (the stream is cancelled).
  const gone = new AbortController();
  const signal = gone.signal;
  const stream = new ReadableStream<Uint8Array>({
    cancel() {
      gone.abort();
    },
    async start(controller) {
      const send = (s: string) => controller.enqueue(encoder.encode(s));
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      try {
        if ("hang" in reply) {
          send(": waiting\n\n");
          await new Promise((r) => signal.addEventListener("abort", r));
          return;
        }
        if ("drop" in reply) {
          send(chunk(model, { role: "assistant", content: reply.text ?? "" }));
          await wait(20);
          controller.error(new Error("dropped by the scripted server"));
          return;
        }
        if ("runaway" in reply) {
          send(chunk(model, {
            role: "assistant",
            tool_calls: [{
              index: 0,
              id: "call_run",
              type: "function",
              function: { name: reply.name, arguments: '{"content": "' },
            }],
          }));
          for (let i = 0; i < 100_000 && !signal.aborted; i++) {
            send(
              chunk(model, { tool_calls: [{ index: 0, function: { arguments: reply.runaway } }] }),
            );
            if (i % 16 === 0) await wait(1);
          }
          controller.close();
          return;
        }
        const size = reply.chunkSize ?? 1_000_000;
        const gap = reply.gap ?? 0;
        const tick = () => gap ? wait(gap) : Promise.resolve();
        send(chunk(model, { role: "assistant", content: "" }));
        for (const t of pieces(reply.thought ?? "", size)) {
          send(chunk(model, { [reply.thoughtField ?? "reasoning_content"]: t }));
          await tick();
        }
        for (const t of pieces(reply.text ?? "", size)) {
          send(chunk(model, { content: t }));
          await tick();
        }
        if (reply.streamError !== undefined) {
          send(`data: ${JSON.stringify({ error: { message: reply.streamError } })}\n\n`);
          controller.close();
          return;
        }
        for (const [index, call] of (reply.toolCalls ?? []).entries()) {
          const args = typeof call.arguments === "string"
            ? call.arguments
            : JSON.stringify(call.arguments);
          const names = pieces(call.name, size);
          const at = reply.noIndex ? {} : { index };
          send(chunk(model, {
            tool_calls: [{
              ...at,
              id: call.id ?? `call_${index}`,
              type: "function",
              function: { name: names[0], arguments: "" },
            }],
          }));
          for (const n of names.slice(1)) {
            send(chunk(model, { tool_calls: [{ ...at, function: { name: n } }] }));
          }
          for (const a of pieces(args, size)) {
            send(chunk(model, { tool_calls: [{ ...at, function: { arguments: a } }] }));
            await tick();
          }
        }
        send(chunk(model, {}, reply.toolCalls?.length ? "tool_calls" : "stop"));
        if (reply.usage) {
          send(
            `data: ${
              JSON.stringify({
                id: "chatcmpl-1",
                object: "chat.completion.chunk",
                model,
                choices: [],
                usage: reply.usage,
              })
            }\n\n`,
          );
        }
        send("data: [DONE]\n\n");
        controller.close();
      } catch {
        // The client went away.
      }
    },
  });
  const delay = "delay" in reply ? reply.delay ?? 0 : 0;
  const response = () =>
    new Response(stream, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  if (!delay) return response();
  return new Promise<Response>((r) => setTimeout(() => r(response()), delay));
}

/**
 * Ollama's native streamed answer: one JSON object per line, `message.thinking` and
 * `message.content` in pieces, each tool call whole with its arguments as an object, then a
 * `done` line with `prompt_eval_count` and `eval_count`.
 */
function ndjson(
  reply: Exclude<Reply, { status: number }>,
  model: string,
): Response | Promise<Response> {
  const gone = new AbortController();
  const signal = gone.signal;
  const line = (message: Record<string, unknown>, done = false, extra = {}) =>
    JSON.stringify({
      model,
      created_at: new Date(0).toISOString(),
      message: { role: "assistant", content: "", ...message },
      done,
      ...extra,
    }) + "\n";
  const stream = new ReadableStream<Uint8Array>({
    cancel() {
      gone.abort();
    },
    async start(controller) {
      const send = (s: string) => controller.enqueue(encoder.encode(s));
      const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
      try {
        if ("hang" in reply) {
          await new Promise((r) => signal.addEventListener("abort", r));
          return;
        }
        if ("drop" in reply) {
          send(line({ content: reply.text ?? "" }));
          await wait(20);
          controller.error(new Error("dropped by the scripted server"));
          return;
        }
        if ("runaway" in reply) {
          for (let i = 0; i < 100_000 && !signal.aborted; i++) {
            send(line({ content: reply.runaway }));
            if (i % 16 === 0) await wait(1);
          }
          controller.close();
          return;
        }
        const size = reply.chunkSize ?? 1_000_000;
        const tick = () => reply.gap ? wait(reply.gap) : Promise.resolve();
        for (const t of pieces(reply.thought ?? "", size)) {
          send(line({ thinking: t }));
          await tick();
        }
        for (const t of pieces(reply.text ?? "", size)) {
          send(line({ content: t }));
          await tick();
        }
        if (reply.streamError !== undefined) {
          send(JSON.stringify({ error: reply.streamError }) + "\n");
          controller.close();
          return;
        }
        if (reply.toolCalls?.length) {
          send(line({
            tool_calls: reply.toolCalls.map((call, index) => ({
              ...(call.id ? { id: call.id } : {}),
              function: {
                index,
                name: call.name,
                arguments: typeof call.arguments === "string"
                  ? parsedOr(call.arguments)
                  : call.arguments,
              },
            })),
          }));
        }
        send(line({}, true, {
          done_reason: "stop",
          prompt_eval_count: reply.usage?.prompt_tokens ?? 1,
          eval_count: reply.usage?.completion_tokens ?? 1,
        }));
        controller.close();
      } catch {
        // The client went away.
      }
    },
  });
  const response = () =>
    new Response(stream, { headers: { "content-type": "application/x-ndjson" } });
  const delay = "delay" in reply ? reply.delay ?? 0 : 0;
  if (!delay) return response();
  return new Promise<Response>((r) => setTimeout(() => r(response()), delay));
}

/** Arguments scripted as JSON text, as the object Ollama sends (the text itself when invalid). */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
