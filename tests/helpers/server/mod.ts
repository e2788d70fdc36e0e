/**
 * A scripted OpenAI-compatible server for tests: real HTTP and SSE on 127.0.0.1. Replies are queued
 * per model name, so concurrent tests that use different model names never see each other's script.
 * Every request is recorded, so a test asserts what mm sent. It also plays Ollama's native
 * `POST /api/chat` (streamed NDJSON, tool calls whole with object arguments) from the same queues,
 * and the side APIs beside the chat (model lists, props, show, ps, unload).
 *
 * Here: the server, its script and its routing. The bodies: `openai_sse.ts` (SSE),
 * `ollama_ndjson.ts` (NDJSON), `side_apis.ts` (everything but the chat).
 */

import { COMPACT_REQUEST } from "../../../lib/history.ts";
import { type FixtureName, fixtureResponse } from "./fixtures.ts";
import { ollamaModelNotFound, ollamaStream } from "./ollama_ndjson.ts";
import { openaiModelNotFound, openaiStream } from "./openai_sse.ts";
import { sideAnswer, type SideState } from "./side_apis.ts";
import { type HugeKind, hugeResponse } from "./huge.ts";

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
    /**
     * The last chunk's `usage` (`prompt_tokens_details.cached_tokens` too); Ollama's counts. Any
     * value is sent as it is (a server's zero, negative or absurd count).
     */
    usage?: {
      prompt_tokens: unknown;
      completion_tokens: unknown;
      prompt_tokens_details?: { cached_tokens: unknown };
    };
    /** llama.cpp's `timings` beside the usage (`cache_n`, `predicted_per_second`, …). */
    timings?: Record<string, number>;
    /** Ollama's `eval_duration` in nanoseconds, on its last line. */
    evalDuration?: number;
    /** After the text: an error in the stream (`data: {"error":…}`, or Ollama's `{"error":…}` line). */
    streamError?: string;
  }
  | { status: number; body: unknown }
  /** Stream `text` then break the connection. */
  | { drop: true; text?: string }
  /** Stream `repeat` forever (until the client goes away) inside one tool call's arguments. */
  | { runaway: string; name: string }
  /** Send the headers, then nothing, until the client goes away. */
  | { hang: true }
  /** Answer as llama-server answered in a captured exchange (tests/fixtures/llama-server/). */
  | { fixture: FixtureName }
  /** Answer exactly this: a proxy's page, a server that ignores `stream`. */
  | { raw: { status: number; headers: Record<string, string>; body: string } }
  /** More than mm reads: a line, an answer or a body of `bytes` (./huge.ts). */
  | { huge: HugeKind; bytes: number };

/** A request the server received. */
export interface Recorded {
  method: string;
  path: string;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** The scripted server. */
export class ScriptedServer implements SideState {
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
  /** LM Studio's native REST API: "v1" (0.4 and later: v1 and v0), "v0"; unset: 404. */
  lmstudio?: "v1" | "v0";
  /** LM Studio: each model's `max_context_length`, by name (32768 unless set). */
  maxContext: Record<string, number> = {};
  /** LM Studio: each loaded model's context length, by name (4096 unless set). */
  loadedContext: Record<string, number> = {};
  /** vLLM: the `max_model_len` of every `/v1/models` entry; unset: none. */
  maxModelLen?: number;
  /** Fixed answers by path (`/api/ps`, `/models/unload`, …), over every route above. */
  sideReplies: Record<string, { status: number; body: unknown } | { fixture: FixtureName }> = {};
  /**
   * As llama-server with its chat template: a history whose assistant tool call has arguments that
   * are not a JSON object is refused with HTTP 500 (tests/fixtures/llama-server/
   * broken-call-in-history.http), whatever was scripted.
   */
  strictHistory = true;
  /**
   * When set, a request for a summary (its last message is mm's `/compact` request) is answered
   * with this text, whatever was scripted: a long turn compacts when it likes.
   */
  summaries?: string;
  /**
   * An answer chosen from a chat request's body (a llama-server refusing some tools' grammar),
   * before the queue of its model; undefined: the queue answers.
   */
  // deno-lint-ignore no-explicit-any
  answer?: (body: any) => Reply | undefined;
  /**
   * The answer to a warm-up (a chat request for one token: lib/provider/warmup.ts) by model, which
   * never takes a scripted reply of its model; a model not here: one token of text. `hang` holds
   * the connection until mm lets it go ({@linkcode ScriptedServer.warmupGone}).
   */
  warmReplies: Record<string, Reply> = {};
  #queues = new Map<string, Reply[]>();
  #arrived: (() => void)[] = [];
  #gone = new Map<string, () => void>();
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

  /** The chat requests that named `model`, warm-ups left out. */
  chats(model: string): Recorded[] {
    return this.requests.filter((r) =>
      r.path.endsWith("/chat/completions") && r.body?.model === model && !isWarmup(r)
    );
  }

  /** The `n`th warm-up of `model` (0: the first), once it has come. */
  async warmup(model: string, n = 0): Promise<Recorded> {
    for (;;) {
      const found = this.warmups(model)[n];
      if (found) return found;
      await new Promise<void>((resolve) => this.#arrived.push(resolve));
    }
  }

  /** Resolves when mm has let go of a hanging warm-up of `model`. */
  warmupGone(model: string): Promise<void> {
    return new Promise((resolve) => this.#gone.set(model, resolve));
  }

  /** The warm-ups (chat requests for one token, either API) that named `model`. */
  warmups(model: string): Recorded[] {
    return this.requests.filter((r) => isWarmup(r) && r.body?.model === model);
  }

  /** The content of the tool messages of the `n`th chat request for `model` (the last by default). */
  toolOutputs(model: string, n = -1): string[] {
    const messages: { role: string; content: string }[] = this.chats(model).at(n)!.body.messages;
    return messages.filter((m) => m.role === "tool").map((m) => m.content);
  }

  /** The requests to Ollama's native `/api/chat` that named `model`. */
  nativeChats(model: string): Recorded[] {
    return this.requests.filter((r) =>
      r.path === "/api/chat" && r.body?.model === model && !isWarmup(r)
    );
  }

  /** Stops the server. */
  async close(): Promise<void> {
    await this.#server.shutdown();
  }

  /** A stream's headers and one comment, then nothing, until the client goes away. */
  #hanging(model: string, native: boolean): Response {
    const gone = this.#gone;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode(native ? "" : ": waiting\n\n")),
      cancel: () => gone.get(model)?.(),
    });
    const type = native ? "application/x-ndjson" : "text/event-stream";
    return new Response(body, { headers: { "content-type": type } });
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
    for (const resolve of this.#arrived.splice(0)) resolve();
    const fixed = this.sideReplies[path];
    if (fixed && "fixture" in fixed) return fixtureResponse(fixed.fixture);
    if (fixed) return Response.json(fixed.body, { status: fixed.status });
    const side = sideAnswer(this, path, body);
    if (side) return side;
    const native = path === "/api/chat";
    if (!native && !path.endsWith("/chat/completions")) {
      return new Response("not found", { status: 404 });
    }
    // deno-lint-ignore no-explicit-any
    const model = (body as any)?.model ?? "";
    if (isWarmup(this.requests.at(-1)!)) {
      const warm = this.warmReplies[model] ?? { text: "." };
      if ("status" in warm) return Response.json(warm.body, { status: warm.status });
      if ("hang" in warm) return this.#hanging(model, native);
      if ("text" in warm) return native ? ollamaStream(warm, model) : openaiStream(warm, model);
    }
    if (this.strictHistory && !native && hasBrokenCall(body)) {
      return fixtureResponse("broken-call-in-history");
    }
    if (this.summaries !== undefined && !native && isSummaryRequest(body)) {
      return openaiStream({ text: this.summaries }, model);
    }
    const reply = this.answer?.(body) ?? this.#queues.get(model)?.shift();
    if (!reply) return native ? ollamaModelNotFound(model) : openaiModelNotFound(model);
    if ("status" in reply) return Response.json(reply.body, { status: reply.status });
    if ("fixture" in reply) return fixtureResponse(reply.fixture);
    if ("huge" in reply) return hugeResponse(reply.huge, reply.bytes, native);
    if ("raw" in reply) {
      return new Response(reply.raw.body, { status: reply.raw.status, headers: reply.raw.headers });
    }
    return native ? ollamaStream(reply, model) : openaiStream(reply, model);
  }
}

/** Whether a request is a warm-up: a chat for one token (`max_tokens`, Ollama's `num_predict`). */
function isWarmup(r: Recorded): boolean {
  if (r.method !== "POST") return false;
  if (r.path === "/api/chat") return r.body?.options?.num_predict === 1;
  return r.path.endsWith("/chat/completions") && r.body?.max_tokens === 1;
}

/** Whether a chat request's history holds a tool call whose arguments are not a JSON object. */
function hasBrokenCall(body: unknown): boolean {
  const messages = (body as { messages?: unknown[] })?.messages ?? [];
  return messages.some((m) => {
    const calls = (m as { tool_calls?: { function?: { arguments?: unknown } }[] }).tool_calls ?? [];
    return calls.some((c) => {
      try {
        const v = JSON.parse(String(c.function?.arguments));
        return v === null || typeof v !== "object" || Array.isArray(v);
      } catch {
        return true;
      }
    });
  });
}

/** Whether a chat request asks for mm's summary of the conversation (`/compact`, a full window). */
function isSummaryRequest(body: unknown): boolean {
  const messages = (body as { messages?: { content?: unknown }[] })?.messages ?? [];
  return messages.at(-1)?.content === COMPACT_REQUEST;
}
