/** Provider failures as one clear sentence each: the URL, the model, and what to do. */

import type { ProviderName } from "../config/config.ts";
import { pullHint, startHint } from "./endpoints.ts";

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
}

/** The server cannot be reached at all. */
export function unreachable(t: Target, reason: string): ProviderError {
  return new ProviderError(
    "unreachable",
    `cannot reach the ${t.provider} server at ${t.url} (${reason}) — ${
      startHint(t.provider)
    }, or set \`url\` in the agent file`,
  );
}

/** The server does not have the model. */
export function modelMissing(t: Target, serverMessage: string): ProviderError {
  return new ProviderError(
    "model",
    `the model "${t.model}" is not available on the ${t.provider} server at ${t.url} (${serverMessage}) — ${
      pullHint(t.provider, t.model)
    }`,
    404,
  );
}

/** The prompt no longer fits the model's context window. */
export function overflow(t: Target, serverMessage: string): ProviderError {
  return new ProviderError(
    "overflow",
    `the conversation no longer fits the context window of "${t.model}" at ${t.url} (${serverMessage}) — raise \`contextSize\`, or start a new conversation`,
    400,
  );
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
    `the ${t.provider} server at ${t.url} answered HTTP ${status} for "${t.model}": ${serverMessage} — ${hint}`,
    status,
  );
}

/** The connection broke while the answer was streaming. */
export function dropped(t: Target, reason: string): ProviderError {
  return new ProviderError(
    "dropped",
    `the connection to the ${t.provider} server at ${t.url} dropped while "${t.model}" was answering (${reason}) — try again; if it keeps happening, look at the server's log`,
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
