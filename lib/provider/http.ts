/**
 * One request to a model server's own APIs (its model list, `/api/show`, `/api/ps`, `/props`,
 * unloading): mm's User-Agent and the API key, a JSON body, a timeout and the caller's signal,
 * the status checked and the answer read as text and JSON. It never throws: what went wrong is a
 * value, which each caller words (or ignores) as it needs.
 */

import { VERSION } from "../version.ts";

/** The `User-Agent` of every request mm makes to a model server. */
export const USER_AGENT = `mm/${VERSION}`;

/** A fetch function: the global one, or a tool context's `http.fetch` (which a test can fake). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** The headers of every request to a model server: mm's User-Agent, and the key when there is one. */
export function serverHeaders(apiKey?: string): Record<string, string> {
  const headers: Record<string, string> = { "User-Agent": USER_AGENT };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  return headers;
}

/** One request to a model server. */
export interface ServerRequest {
  /** The whole URL. */
  url: string;
  /** The agent file's `apiKey`, sent as a bearer token. */
  apiKey?: string;
  /** A body, sent as JSON with `POST`; without one the request is a `GET`. */
  body?: unknown;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  /** Milliseconds the request may take, answer included; `timedOut` says when it ran out. */
  timeout?: number;
  /** The fetch to use; the global one by default. */
  fetch?: Fetch;
  /** Whether an HTTP error's body is let go unread (a probe that only asks whether it worked). */
  discardErrorBody?: boolean;
}

/** What became of a request, as a value. */
export type ServerAnswer =
  /** A 2xx: the body's text, and its JSON (undefined when the text is not JSON). */
  | { kind: "ok"; status: number; text: string; json: unknown }
  /** Any other status, with the body's text (empty when it was discarded). */
  | { kind: "http"; status: number; text: string }
  /**
   * No answer: fetch threw (`stage` "request") or reading the body did ("body"); `timedOut`
   * when {@linkcode ServerRequest.timeout} had run out by then.
   */
  | { kind: "failed"; stage: "request" | "body"; error: unknown; timedOut: boolean };

/** Sends one request to a model server and reads its whole answer; never throws. */
export async function requestServer(req: ServerRequest): Promise<ServerAnswer> {
  const timer = req.timeout === undefined ? undefined : AbortSignal.timeout(req.timeout);
  const signals = [req.signal, timer].filter((s): s is AbortSignal => s !== undefined);
  const headers = serverHeaders(req.apiKey);
  if (req.body !== undefined) headers["Content-Type"] = "application/json";
  const send = req.fetch ?? fetch;
  const failed = (stage: "request" | "body", error: unknown): ServerAnswer => ({
    kind: "failed",
    stage,
    error,
    timedOut: timer?.aborted ?? false,
  });
  let response: Response;
  try {
    response = await send(req.url, {
      method: req.body === undefined ? "GET" : "POST",
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
  } catch (e) {
    return failed("request", e);
  }
  let text = "";
  try {
    if (!response.ok && req.discardErrorBody) await response.body?.cancel();
    else text = await response.text();
  } catch (e) {
    return failed("body", e);
  }
  if (!response.ok) return { kind: "http", status: response.status, text };
  return { kind: "ok", status: response.status, text, json: parseJSON(text) };
}

/** The JSON value of `text`, or undefined when it is not JSON (no JSON text parses to undefined). */
function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
