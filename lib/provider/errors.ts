/**
 * Provider failures as one clear sentence each: the URL (its credentials, if it holds some, shown
 * as `***`), the model, and what to do.
 */

import type { ProviderName } from "../config/config.ts";
import { pullHint, startHint } from "./endpoints.ts";
import { redactUrl } from "../secrets.ts";
import { UserError } from "../presentation.ts";
import { sizeText } from "../bounded/limits.ts";

/** What went wrong with the server. */
export type ProviderErrorKind =
  | "unreachable"
  | "model"
  | "http"
  | "overflow"
  | "dropped"
  | "noModel"
  | "stream"
  | "notStream"
  | "rateLimited"
  | "tooLarge";

/** A failure of the model server, rendered once by the front end. */
export class ProviderError extends UserError {
  /** The kind of failure. */
  kind: ProviderErrorKind;
  /** The HTTP status, when the server answered one. */
  status?: number;
  /** The server's own words, when it gave some (an overflow's). */
  serverMessage?: string;

  /** Builds the error from its one-sentence message. */
  constructor(kind: ProviderErrorKind, message: string, status?: number) {
    super(message, 1);
    this.name = "ProviderError";
    this.kind = kind;
    this.status = status;
  }
}

/** Where the request went, for the sentences. */
export interface Target {
  provider: ProviderName;
  url: string;
  model: string;
  /** The agent file's `contextSize`, when the server is not told it (an overflow's advice). */
  contextSize?: number;
  /** The window the server said it gives (llama.cpp's `/props`, …), when it told one. */
  serverWindow?: number;
  /** The prompt's size the server measured (llama.cpp's `n_prompt_tokens`), for an overflow. */
  promptTokens?: number;
}

/** The server cannot be reached at all. */
export function unreachable(t: Target, reason: string): ProviderError {
  return new ProviderError(
    "unreachable",
    `cannot reach the ${t.provider} server at ${redactUrl(t.url)} (${reason}) — ${
      startHint(t.provider)
    }, or set \`url\` in the agent file`,
  );
}

/**
 * The server took the request and closed the connection without an answer (reset, or closed
 * before its reply): a server that crashed on it (out of memory, a failed assert), not one that is
 * not running.
 */
export function closedUnanswered(t: Target): ProviderError {
  return new ProviderError(
    "dropped",
    `the ${t.provider} server at ${
      redactUrl(t.url)
    } closed the connection without answering "${t.model}" — it may have crashed on this request (out of memory, a failed assert): look at its log, and start it again if it stopped`,
  );
}

/** Whether a failed request's error says the connection was reset or closed before the reply. */
export function isClosedUnanswered(e: unknown): boolean {
  return /connection reset|ECONNRESET|closed before message completed|unexpected eof|broken pipe|EPIPE/i
    .test(errorChain(e));
}

/** The server does not have the model. */
export function modelMissing(t: Target, serverMessage: string): ProviderError {
  return new ProviderError(
    "model",
    `the model "${t.model}" is not available on the ${t.provider} server at ${
      redactUrl(t.url)
    } (${serverMessage}) — ${pullHint(t.provider, t.model)}`,
    404,
  );
}

/**
 * llama.cpp does not have the model: a router lists the models it serves (`names`), a single
 * server names its one model by `--alias`, else by its `-m` path.
 */
export function llamaModelMissing(
  t: Target,
  serverMessage: string,
  names: string[],
): ProviderError {
  const serves = names.length
    ? `it serves ${names.map((n) => `"${n}"`).join(", ")}: set \`model\` to one of them`
    : "set `model` to one it serves";
  return new ProviderError(
    "model",
    `the model "${t.model}" is not available on the llamacpp server at ${
      redactUrl(t.url)
    } (${serverMessage}) — ${serves} (a llama-server of one model names it by \`--alias\`, else by its \`-m\` path)`,
    404,
  );
}

/** A llama.cpp router that does not load models by itself (`--no-models-autoload`) has not loaded it. */
export function llamaNotLoaded(t: Target, serverMessage: string): ProviderError {
  const base = redactUrl(t.url).replace(/\/+$/, "");
  return new ProviderError(
    "model",
    `the model "${t.model}" is not loaded on the llamacpp server at ${
      redactUrl(t.url)
    } (${serverMessage}) — load it with \`curl -X POST ${base}/models/load -d '{"model": "${t.model}"}'\`, or start the router without \`--no-models-autoload\``,
    400,
  );
}

/**
 * The prompt no longer fits the model's context window; `serverWindow` is the window the refusal
 * itself names (llama.cpp's `n_ctx`), when it names one.
 */
export function overflow(
  t: Target,
  serverMessage: string,
  serverWindow?: number,
  promptTokens?: number,
): ProviderError {
  const target = {
    ...t,
    ...(serverWindow !== undefined ? { serverWindow } : {}),
    ...(promptTokens !== undefined ? { promptTokens } : {}),
  };
  const e = new ProviderError(
    "overflow",
    `the conversation no longer fits the context window of "${t.model}" at ${
      redactUrl(t.url)
    } (${serverMessage}) — ${overflowAdvice(target)}`,
    400,
  );
  e.serverMessage = serverMessage;
  return e;
}

/**
 * What to do about an overflow: give the model a larger window, the way its server is told one
 * (llama.cpp and DMR at start, Ollama through `contextSize`, which mm sends as `num_ctx`); but when
 * `contextSize` is set and the server did not say it has that much, its window is the smaller one
 * (mm budgets for `contextSize`).
 */
function overflowAdvice(t: Target): string {
  const size = t.contextSize;
  const server = t.serverWindow;
  if (!size || (server !== undefined && server >= size)) return largerWindowAdvice(t);
  const larger = largerWindowHint(t.provider, t.model, size);
  if (server === undefined) {
    return `the server's window is probably smaller than \`contextSize\` (${size}): lower \`contextSize\` to the server's, or ${larger}`;
  }
  return `the server runs the model with ${server} tokens, fewer than \`contextSize\` (${size}): lower \`contextSize\` to ${server}, or ${larger}`;
}

/**
 * The window to ask for instead of `now`: twice it, or more when the prompt the server measured
 * needs more (its size and a quarter, to the next 1024), so the advice is one that works.
 */
export function largerWindow(now: number, promptTokens?: number): number {
  const needed = promptTokens ? Math.ceil((promptTokens * 1.25) / 1024) * 1024 : 0;
  return Math.max(now * 2, needed);
}

/** How to give the model a larger window than it has now, on each provider's server. */
function largerWindowAdvice(t: Target): string {
  const now = t.serverWindow ?? t.contextSize;
  switch (t.provider) {
    case "ollama":
    case "llmman":
      return now
        ? `raise \`contextSize\` above ${now} (mm sends it to Ollama as num_ctx), or send a shorter prompt`
        : "raise `contextSize` (mm sends it to Ollama as num_ctx), or send a shorter prompt";
    case "llamacpp":
      return now
        ? `restart llama-server with \`-c ${
          largerWindow(now, t.promptTokens)
        }\` (it runs the model with ${now} tokens${
          t.promptTokens ? `, the prompt needs ${t.promptTokens}` : ""
        }), or send a shorter prompt`
        : "restart llama-server with a larger `-c`, or send a shorter prompt";
    case "dmr":
      return now
        ? `run \`docker model configure --context-size ${
          largerWindow(now, t.promptTokens)
        } ${t.model}\` (it runs the model with ${now} tokens${
          t.promptTokens ? `, the prompt needs ${t.promptTokens}` : ""
        }), or send a shorter prompt`
        : `run \`docker model configure --context-size <tokens> ${t.model}\`, or send a shorter prompt`;
    case "lmstudio":
      return `load the model in LM Studio with a larger context length${
        now ? ` than its ${now} tokens` : ""
      } (\`lms load ${t.model} --context-length <tokens>\`), or send a shorter prompt`;
    case "vllm":
      return `restart vllm serve with a larger \`--max-model-len\`${
        now ? ` than its ${now} tokens` : ""
      }, or send a shorter prompt`;
    case "openai":
      return `start the server with a larger window${
        now ? ` than its ${now} tokens` : ""
      } (llama-server \`-c\`, vLLM \`--max-model-len\`, LM Studio's context length), or send a shorter prompt`;
  }
}

/** How a person gives the model a window of `size` tokens on each provider's server. */
function largerWindowHint(provider: ProviderName, model: string, size: number): string {
  switch (provider) {
    case "llamacpp":
      return `restart llama-server with \`-c ${size}\``;
    case "dmr":
      return `run \`docker model configure --context-size ${size} ${model}\``;
    case "ollama":
    case "llmman":
      return `start Ollama with \`OLLAMA_CONTEXT_LENGTH=${size}\``;
    case "lmstudio":
      return `load the model with \`lms load ${model} --context-length ${size}\``;
    case "vllm":
      return `restart vllm serve with \`--max-model-len ${size}\``;
    case "openai":
      return `start the server with a window of ${size} tokens (llama-server \`-c\`, vLLM \`--max-model-len\`, LM Studio's context length)`;
  }
}

/**
 * What to do about an HTTP error status, in a few words: the key, a server setting, a server still
 * loading, a server that failed; `otherwise` for the rest (a client error of the request).
 */
export function statusHint(status: number, serverMessage: string, otherwise: string): string {
  if (status === 401 || status === 403) return "check `apiKey` or $MM_API_KEY";
  if (/tools param requires --jinja/i.test(serverMessage)) {
    return "the server was started without its chat template's tool support: restart llama-server with `--jinja` (or without `--no-jinja`)";
  }
  if (status === 503 && /loading/i.test(serverMessage)) {
    return "the server is still loading its model: wait a moment, then run mm again";
  }
  if (status >= 500) return "the server failed: try again, or look at its log";
  return otherwise;
}

/** Any other HTTP error, with the server's own message. */
export function httpError(t: Target, status: number, serverMessage: string): ProviderError {
  const hint = statusHint(status, serverMessage, "check `model` and the options in the agent file");
  return new ProviderError(
    "http",
    `the ${t.provider} server at ${
      redactUrl(t.url)
    } answered HTTP ${status} for "${t.model}": ${serverMessage} — ${hint}`,
    status,
  );
}

/** The connection broke while the answer was streaming. */
export function dropped(t: Target, reason: string): ProviderError {
  return new ProviderError(
    "dropped",
    `the connection to the ${t.provider} server at ${
      redactUrl(t.url)
    } dropped while "${t.model}" was answering (${reason}) — try again; if it keeps happening, look at the server's log`,
  );
}

/** The server failed while the answer was streaming: its own error, inside the stream. */
export function streamFailed(t: Target, serverMessage: string): ProviderError {
  const e = new ProviderError(
    "stream",
    `the ${t.provider} server at ${
      redactUrl(t.url)
    } failed while "${t.model}" was answering: ${serverMessage} — look at the server's log`,
  );
  e.serverMessage = serverMessage;
  return e;
}

/** HTTP 200 that is not an answer: a proxy's page, or a server that is not a model server. */
export function notAStream(
  t: Target,
  url: string,
  contentType: string,
  firstLine: string,
): ProviderError {
  const what = contentType ? contentType.split(";")[0].trim() : "no content type";
  const line = firstLine ? `, starting "${firstLine}"` : ", empty";
  return new ProviderError(
    "notStream",
    `${url} answered HTTP 200 with ${what}${line}, not a model's answer — check \`url\`: it must be the ${t.provider} server itself, not a proxy's or a login page`,
    200,
  );
}

/** What mm reads no more of than its limit (lib/bounded/limits.ts). */
export type TooLargeWhat = "a line" | "an answer" | "a body";

/**
 * The server sent more than mm reads: one line of its stream, a streamed answer, or an answer
 * that is not streamed, past its limit; mm stopped reading there rather than hold it all.
 */
export function tooLarge(t: Target, what: TooLargeWhat, limit: number): ProviderError {
  const hint = what === "an answer"
    ? "set `maxTokens` in the agent file to keep answers shorter, or look at the server's log"
    : "look at the server's log: a model server does not send that much at once";
  return new ProviderError(
    "tooLarge",
    `the ${t.provider} server at ${redactUrl(t.url)} sent ${what} of more than ${
      sizeText(limit)
    } for "${t.model}", mm's limit — mm stopped reading it: ${hint}`,
  );
}

/** The server kept answering HTTP 429 after mm waited as it asked. */
export function rateLimited(t: Target, serverMessage: string, tries: number): ProviderError {
  return new ProviderError(
    "rateLimited",
    `the ${t.provider} server at ${
      redactUrl(t.url)
    } rate-limited "${t.model}" (HTTP 429: ${serverMessage}) ${tries} times in a row, waiting as it asked — try again later, or lower how often you call it`,
    429,
  );
}

/**
 * A server's own words from an error body: the `message` of a JSON error, else the first
 * meaningful line of its text (an HTML page's title or first heading), at most 300 characters.
 */
export function errorWords(text: string): string {
  const json = parseJSON(text.trim());
  const fromJSON = messageOf(json);
  if (fromJSON !== undefined) return cut(fromJSON);
  if (/<[a-z!][^>]*>/i.test(text)) {
    const title = text.match(/<title[^>]*>([\s\S]*?)<\/title>/i)?.[1] ??
      text.match(/<h1[^>]*>([\s\S]*?)<\/h1>/i)?.[1];
    const shown = title ??
      text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, "").replace(/<[^>]*>/g, "\n");
    const line = firstMeaningfulLine(decodeEntities(shown));
    return cut(line || "an HTML page");
  }
  // A Python traceback says what went wrong on its last line.
  if (/^\s*Traceback \(most recent call last\)/.test(text)) {
    const last = text.trim().split(/\r?\n/).at(-1)?.trim();
    if (last) return cut(last);
  }
  return cut(firstMeaningfulLine(text) || "no message");
}

/** The message of a JSON error body (`{"error": {"message"}}`, `{"error": "…"}`, `{"message"}`, `{"detail"}`). */
function messageOf(json: unknown): string | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const o = json as { error?: unknown; message?: unknown; detail?: unknown };
  const err = o.error as { message?: unknown } | string | undefined;
  if (typeof err === "string") return err;
  if (err && typeof err === "object" && typeof err.message === "string") return err.message;
  if (typeof o.message === "string") return o.message;
  if (typeof o.detail === "string") return o.detail;
  return undefined;
}

/** The first line of `text` with words in it, trimmed. */
function firstMeaningfulLine(text: string): string {
  return text.split(/\r?\n/).map((l) => l.replace(/\s+/g, " ").trim()).find((l) => /\w/.test(l)) ??
    "";
}

/** `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;` and `&nbsp;` as the characters they stand for. */
function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|nbsp);/g,
    (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " })[e] ?? "",
  );
}

/** At most 300 characters, `…` when cut. */
function cut(text: string): string {
  const chars = [...text.trim()];
  return chars.length > 300 ? `${chars.slice(0, 299).join("")}…` : chars.join("");
}

/** The JSON value of `text`, or undefined. */
function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why a request got no answer at all, in words a person acts on: `nothing listens on
 * 127.0.0.1:8080` for a refused connection, `cannot resolve <host>` for a name that does not
 * resolve, else the innermost message of the error.
 */
export function reachReason(e: unknown, url: string): string {
  const all = errorChain(e);
  let host = url;
  try {
    const u = new URL(url);
    host = `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
  } catch {
    // Not a URL: name it as it is.
  }
  if (/connection refused|ECONNREFUSED/i.test(all)) return `nothing listens on ${host}`;
  if (/dns error|failed to lookup|ENOTFOUND|Name or service not known/i.test(all)) {
    return `cannot resolve ${host.replace(/:\d+$/, "")}`;
  }
  return causeText(e);
}

/** Every message of an error and its causes, joined. */
function errorChain(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    if (!(cur instanceof Error)) {
      parts.push(String(cur));
      break;
    }
    parts.push(cur.message);
    cur = (cur as Error & { cause?: unknown }).cause;
  }
  return parts.join(" ");
}

/** Whether a server message says the context window overflowed. */
export function isOverflowMessage(message: string): boolean {
  return /context[_ ](length|size|window)|exceeds? (the )?(available )?context|too many tokens|maximum context|prompt is too long|exceed_context_size/i
    .test(message);
}

/** Whether a server message says the model is not there. */
export function isModelMissingMessage(message: string): boolean {
  return /model.*(not found|does not exist|not exist|unknown|no such)|(not found|unknown).*model|try pulling/i
    .test(message);
}

/** The innermost message of an error and its causes, on one line: why a request failed. */
export function causeText(e: unknown): string {
  let cur: unknown = e;
  let text = "";
  for (let i = 0; i < 5 && cur; i++) {
    if (cur instanceof Error) {
      text = cur.message || text;
      cur = (cur as Error & { cause?: unknown }).cause;
    } else break;
  }
  const fallback = e instanceof Error || e == null ? "no reason given" : String(e);
  return text.replace(/\s+/g, " ").trim() || fallback;
}
