/**
 * Provider failures as one clear sentence each: the URL (its credentials, if it holds some, shown
 * as `***`), the model, and what to do.
 */

import type { ProviderName } from "../config/config.ts";
import { pullHint, startHint } from "./endpoints.ts";
import { redactUrl } from "../secrets.ts";

/** What went wrong with the server. */
export type ProviderErrorKind =
  | "unreachable"
  | "model"
  | "http"
  | "overflow"
  | "dropped"
  | "noModel";

/** A failure of the model server, rendered once by the front end. */
export class ProviderError extends Error {
  /** The kind of failure. */
  kind: ProviderErrorKind;
  /** The HTTP status, when the server answered one. */
  status?: number;
  /** The server's own words, when it gave some (an overflow's). */
  serverMessage?: string;

  /** Builds the error from its one-sentence message. */
  constructor(kind: ProviderErrorKind, message: string, status?: number) {
    super(message);
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

/** The prompt no longer fits the model's context window. */
export function overflow(t: Target, serverMessage: string): ProviderError {
  const e = new ProviderError(
    "overflow",
    `the conversation no longer fits the context window of "${t.model}" at ${
      redactUrl(t.url)
    } (${serverMessage}) — ${overflowAdvice(t)}`,
    400,
  );
  e.serverMessage = serverMessage;
  return e;
}

/**
 * What to do about an overflow: raise `contextSize`; but when `contextSize` is set and the server
 * did not say it has that much, its window is the smaller one (mm budgets for `contextSize`).
 */
function overflowAdvice(t: Target): string {
  const size = t.contextSize;
  const server = t.serverWindow;
  if (!size || (server !== undefined && server >= size)) {
    return "raise `contextSize`, or start a new conversation";
  }
  const larger = largerWindowHint(t.provider, t.model, size);
  if (server === undefined) {
    return `the server's window is probably smaller than \`contextSize\` (${size}): lower \`contextSize\` to the server's, or ${larger}`;
  }
  return `the server runs the model with ${server} tokens, fewer than \`contextSize\` (${size}): lower \`contextSize\` to ${server}, or ${larger}`;
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
    case "openai":
      return `start the server with a window of ${size} tokens (llama-server \`-c\`, vLLM \`--max-model-len\`, LM Studio's context length)`;
  }
}

/** Any other HTTP error, with the server's own message. */
export function httpError(t: Target, status: number, serverMessage: string): ProviderError {
  const hint = status === 401 || status === 403
    ? "check `apiKey` or $MM_API_KEY"
    : status >= 500
    ? "the server failed: try again, or look at its log"
    : "check `model` and the options in the agent file";
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
