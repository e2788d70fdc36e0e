/**
 * Downloading a page for fetch_content: `GET` with `User-Agent: mm/<version>`, robots.txt read
 * before the page and before every redirection target, at most 10 redirections, one deadline for
 * the whole fetch, and a size limit checked while the body streams in. Failures are values with
 * the code of tools.md (1 conversion, 2 input), never thrown.
 */

import { formatDuration } from "../config/duration.ts";
import type { Http } from "../tool.ts";
import { VERSION } from "../version.ts";
import { HTML_TYPES, mediaType, sniffsAsHtml } from "./encoding.ts";
import {
  parseRobotsTxt,
  policyAllows,
  RobotsCache,
  type RobotsPolicy,
  rulesFor,
} from "./robots.ts";

/** The `User-Agent` of every request mm makes for a page or a robots.txt. */
export const USER_AGENT = `mm/${VERSION}`;
/** The product token looked up in robots.txt. */
export const PRODUCT_TOKEN = "mm";
/** Redirections followed before giving up. */
export const MAX_REDIRECTS = 10;
/** Milliseconds for the whole fetch: robots.txt files, redirections and the page's body. */
export const FETCH_TIMEOUT = 30_000;
/** The largest page read: 5 MiB. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Milliseconds one robots.txt may take (within the fetch's own deadline). */
export const ROBOTS_TIMEOUT = 10_000;
/** Bytes of a robots.txt read; the rest is ignored (RFC 9309 asks for at least 500 KiB). */
export const MAX_ROBOTS_BYTES = 512 * 1024;
/** Redirections followed for a robots.txt (RFC 9309: at least five). */
export const MAX_ROBOTS_REDIRECTS = 5;

/** The robots.txt answers of this process, by origin. */
export const processRobotsCache: RobotsCache = new RobotsCache();

/** A page read in full. */
export interface FetchedPage {
  ok: true;
  /** The final URL, after redirections. */
  url: string;
  /** The `Content-Type` header, or null when there was none. */
  contentType: string | null;
  bytes: Uint8Array;
}

/** Why there is no page: code 1 (conversion: not HTML, too large) or 2 (input: the rest). */
export interface FetchFailure {
  ok: false;
  code: 1 | 2;
  reason: string;
}

/** What {@linkcode fetchPage} returns. */
export type FetchOutcome = FetchedPage | FetchFailure;

/** What a fetch needs and may change. */
export interface FetchPageOptions {
  http: Http;
  /** Where robots.txt answers are kept; {@linkcode processRobotsCache} by default. */
  robots?: RobotsCache;
  /** The caller's cancellation (the turn's). */
  signal?: AbortSignal;
  /** Milliseconds for the whole fetch; {@linkcode FETCH_TIMEOUT} by default. */
  timeout?: number;
  /** Largest body in bytes; {@linkcode MAX_PAGE_BYTES} by default. */
  maxBytes?: number;
  /** Milliseconds for one robots.txt; {@linkcode ROBOTS_TIMEOUT} by default. */
  robotsTimeout?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The headers of every request. */
export function requestHeaders(): Record<string, string> {
  return {
    "User-Agent": USER_AGENT,
    "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
  };
}

/** A failure with its code and reason. */
function fail(code: 1 | 2, reason: string): FetchFailure {
  return { ok: false, code, reason };
}

/** Thrown inside this module only, when the deadline or the caller's signal ends the fetch. */
class Stopped extends Error {}

/**
 * Fetches `url` as a page: robots.txt first (for the page and each redirection target), then
 * `GET` with redirections followed by hand, then the body, refused past `maxBytes`.
 */
export async function fetchPage(url: URL, options: FetchPageOptions): Promise<FetchOutcome> {
  const timeout = options.timeout ?? FETCH_TIMEOUT;
  const deadline = AbortSignal.timeout(timeout);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  // The URL being checked, fetched or read: the timeout's reason names it.
  let current = url;
  try {
    const walk = await followRedirects(url, {
      http: options.http,
      signal,
      max: MAX_REDIRECTS,
      refuse: async (next) => {
        current = next;
        const policy = await robotsPolicy(next, options, signal);
        if (policyAllows(policy, next)) return undefined;
        const robotsUrl = `${next.origin}/robots.txt`;
        return fail(
          2,
          policy.kind === "forbidAll"
            ? robotsUnreadableText(robotsUrl, policy.reason)
            : robotsForbidsText(next.href, robotsUrl),
        );
      },
    });
    if ("ok" in walk) return walk;
    switch (walk.kind) {
      case "unreachable":
        if (signal.aborted) throw new Stopped();
        return fail(2, unreachableText(walk.url, walk.error));
      case "redirect":
        return fail(
          2,
          walk.next === undefined
            ? badRedirectText(walk.url.href, walk.location)
            : tooManyRedirectsText(walk.next.href),
        );
      case "answer":
        return await readPage(walk.url, walk.response, options.maxBytes ?? MAX_PAGE_BYTES, signal);
    }
  } catch (err) {
    if (!(err instanceof Stopped) && !signal.aborted) throw err;
    if (options.signal?.aborted && !deadline.aborted) return fail(2, CANCELLED_TEXT);
    return fail(2, timeoutText(current.href, timeout));
  }
}

/**
 * The page in the final answer from `url`: a 2xx of an HTML type (or none, and HTML inside), of
 * at most `maxBytes`. Throws Stopped when `signal` ends the reading.
 */
async function readPage(
  url: URL,
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<FetchOutcome> {
  if (response.status >= 300 || response.status < 200) {
    await discard(response);
    return fail(2, statusText(url.href, response.status, response.statusText));
  }
  const contentType = response.headers.get("content-type");
  const type = contentType === null ? "" : mediaType(contentType);
  if (type !== "" && !HTML_TYPES.includes(type)) {
    await discard(response);
    return fail(1, notHtmlText(url.href, contentType!));
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readBody(response, maxBytes, signal);
  } catch (err) {
    if (signal.aborted) throw new Stopped();
    return fail(2, brokenText(url, err));
  }
  if (bytes === undefined) return fail(1, tooLargeText(url.href, maxBytes));
  if (type === "" && !sniffsAsHtml(bytes)) return fail(1, notHtmlText(url.href, null));
  return { ok: true, url: url.href, contentType, bytes };
}

/** Where following the redirections from a URL ended. */
type Walk =
  /** `url` answered something other than a redirection; its body is still unread. */
  | { kind: "answer"; url: URL; response: Response }
  /** The request for `url` threw `error` (the end of the signal among the reasons). */
  | { kind: "unreachable"; url: URL; error: unknown }
  /**
   * `url` answered a redirection `status` that is not followed: to `location`, which is not an
   * http or https URL (`next` undefined), or to `next`, one redirection more than allowed.
   */
  | { kind: "redirect"; url: URL; status: number; location: string; next?: URL };

/** How to follow redirections: the HTTP, the signal, the limit, and a check before each request. */
interface WalkOptions<Refusal> {
  http: Http;
  signal: AbortSignal;
  /** Redirections followed before giving up. */
  max: number;
  /** Asked before each request (the first too): a refusal ends the walk with it. */
  refuse?: (url: URL) => Promise<Refusal | undefined>;
}

/**
 * `GET` of `start` with redirections followed by hand, each target checked before it is asked
 * for; the bodies of the redirections let go. Throws only what `refuse` throws.
 */
async function followRedirects<Refusal = never>(
  start: URL,
  options: WalkOptions<Refusal>,
): Promise<Walk | Refusal> {
  const { http, signal } = options;
  let url = start;
  for (let redirects = 0;; redirects++) {
    if (options.refuse) {
      // Awaited only when there is one: without, the request starts in the caller's tick, before a
      // cancellation can land (raced lets go of a fetch begun after its signal ended, unhandled).
      const refusal = await options.refuse(url);
      if (refusal !== undefined) return refusal;
    }
    let response: Response;
    try {
      response = await raced(
        http.fetch(url, { redirect: "manual", headers: requestHeaders(), signal }),
        signal,
      );
    } catch (error) {
      return { kind: "unreachable", url, error };
    }
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) {
      return { kind: "answer", url, response };
    }
    await discard(response);
    const { status } = response;
    const next = httpURL(location, url);
    if (next === undefined) return { kind: "redirect", url, status, location };
    if (redirects >= options.max) return { kind: "redirect", url, status, location, next };
    url = next;
  }
}

/** `location` resolved against `base`, when it is an http or https URL. */
function httpURL(location: string, base: URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}

/** The robots.txt policy for `url`'s origin: from the cache, or read now (and cached). */
async function robotsPolicy(
  url: URL,
  options: FetchPageOptions,
  signal: AbortSignal,
): Promise<RobotsPolicy> {
  const cache = options.robots ?? processRobotsCache;
  const cached = cache.get(url.origin);
  if (cached) return cached;
  const policy = await readRobots(url.origin, options, signal);
  // A failure is not kept: the next call asks again rather than staying locked out for a day.
  if (policy.kind !== "forbidAll") cache.set(url.origin, policy);
  return policy;
}

/**
 * Reads `<origin>/robots.txt` (RFC 9309 §2.3): a 2xx gives its rules for mm, a 4xx (or too many
 * redirections) allows everything, a 5xx or no answer forbids everything. Throws Stopped when the
 * whole fetch's signal ends it.
 */
async function readRobots(
  origin: string,
  options: FetchPageOptions,
  outer: AbortSignal,
): Promise<RobotsPolicy> {
  const limit = options.robotsTimeout ?? ROBOTS_TIMEOUT;
  const own = AbortSignal.timeout(limit);
  const signal = AbortSignal.any([outer, own]);
  const unanswered = (err: unknown): RobotsPolicy => {
    if (outer.aborted) throw new Stopped();
    const why = own.aborted ? `no answer within ${formatDuration(limit)}` : unreachableReason(err);
    return { kind: "forbidAll", reason: why };
  };
  const walk = await followRedirects(new URL("/robots.txt", origin), {
    http: options.http,
    signal,
    max: MAX_ROBOTS_REDIRECTS,
  });
  if (walk.kind === "unreachable") return unanswered(walk.error);
  if (walk.kind === "redirect") return { kind: "allowAll", status: walk.status };
  const { response } = walk;
  if (response.status >= 500) {
    await discard(response);
    return { kind: "forbidAll", reason: httpStatus(response.status, response.statusText) };
  }
  if (response.status < 200 || response.status >= 300) {
    await discard(response);
    return { kind: "allowAll", status: response.status };
  }
  let bytes: Uint8Array;
  try {
    bytes = await readBody(response, MAX_ROBOTS_BYTES, signal, true) ?? new Uint8Array();
  } catch (err) {
    return unanswered(err);
  }
  const text = new TextDecoder().decode(bytes);
  return { kind: "rules", rules: rulesFor(parseRobotsTxt(text), PRODUCT_TOKEN) };
}

/**
 * The body, chunk by chunk: undefined as soon as it passes `max` bytes (or when
 * `Content-Length` says it will), or its first `max` bytes when `truncate`.
 */
async function readBody(
  response: Response,
  max: number,
  signal: AbortSignal,
  truncate = false,
): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (!truncate && Number.isFinite(declared) && declared > max) {
    await discard(response);
    return undefined;
  }
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await raced(reader.read(), signal);
      if (done) break;
      if (total + value.length > max) {
        if (!truncate) return undefined;
        chunks.push(value.subarray(0, max - total));
        total = max;
        break;
      }
      chunks.push(value);
      total += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** Lets go of a response's body without reading it. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already gone.
  }
}

/** `promise`, or a rejection as soon as `signal` aborts (for an Http that ignores the signal). */
function raced<V>(promise: Promise<V>, signal: AbortSignal): Promise<V> {
  if (signal.aborted) return Promise.reject(new Stopped());
  return new Promise<V>((resolve, reject) => {
    const onAbort = () => reject(new Stopped());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The reason of a failed connection, in a few words: `connection refused`. */
export function unreachableReason(err: unknown): string {
  const e = err as { message?: string; cause?: unknown };
  const text = `${e?.message ?? err} ${e?.cause ?? ""}`;
  if (/connection refused/i.test(text)) return "connection refused";
  if (/dns error|failed to lookup|name or service not known|no such host|nodename/i.test(text)) {
    return "the host name does not resolve";
  }
  if (/connection reset/i.test(text)) return "connection reset";
  if (/certificate|tls|ssl|handshake/i.test(text)) return "TLS handshake failed";
  if (/timed out/i.test(text)) return "connection timed out";
  const detail = String(e?.cause ?? e?.message ?? err).replace(/^(Type)?Error: /, "");
  return detail.replace(/^Fetch failed: /i, "").replace(/ \(os error \d+\)$/, "").split(": ")
    .pop()!.trim() || "the connection failed";
}

/** `HTTP 503 Service Unavailable`. */
function httpStatus(status: number, text: string): string {
  return text ? `HTTP ${status} ${text}` : `HTTP ${status}`;
}

// The reasons below end the `[fetch_content: error N (<class>) — <reason>]` line.

/** The reason when the turn was cancelled during the fetch. */
export const CANCELLED_TEXT = "cancelled";

/** The reason for a host that cannot be reached: `cannot reach example.com: connection refused`. */
export function unreachableText(url: URL, err: unknown): string {
  return `cannot reach ${url.host}: ${unreachableReason(err)}`;
}

/** The reason for a connection lost while the page was read. */
export function brokenText(url: URL, err: unknown): string {
  return `the connection to ${url.host} broke while reading the page: ${unreachableReason(err)}`;
}

/** The reason when the whole fetch took longer than its deadline. */
export function timeoutText(url: string, timeout: number): string {
  return `${url} did not answer in full within ${formatDuration(timeout)}`;
}

/** The reason for an HTTP status of 300 or more after the redirections. */
export function statusText(url: string, status: number, text: string): string {
  return `${url} answered ${httpStatus(status, text)}`;
}

/** The reason after more than {@linkcode MAX_REDIRECTS} redirections. */
export function tooManyRedirectsText(next: string): string {
  return `more than ${MAX_REDIRECTS} redirections (the next one was to ${next})`;
}

/** The reason for a redirection to something that is not an http or https URL. */
export function badRedirectText(from: string, location: string): string {
  return `${from} redirects to ${location}, which is not an http or https URL`;
}

/** The reason when robots.txt disallows the page for mm. */
export function robotsForbidsText(url: string, robotsUrl: string): string {
  return `${robotsUrl} does not allow mm to fetch ${url}`;
}

/** The reason when robots.txt answered 5xx or nothing, which forbids the whole site. */
export function robotsUnreadableText(robotsUrl: string, why: string): string {
  return `${robotsUrl} cannot be read (${why}), so no page of this site may be fetched`;
}

/** The reason for a page that is not HTML (its `Content-Type`, or none and no HTML inside). */
export function notHtmlText(url: string, contentType: string | null): string {
  return contentType === null
    ? `${url} is not an HTML page (no Content-Type, and the content does not look like HTML)`
    : `${url} is not an HTML page (Content-Type: ${contentType})`;
}

/** The reason for a page above the size limit. */
export function tooLargeText(url: string, max: number): string {
  const size = max % (1024 * 1024) === 0 ? `${max / (1024 * 1024)} MiB` : `${max} bytes`;
  return `${url} is larger than ${size}`;
}
