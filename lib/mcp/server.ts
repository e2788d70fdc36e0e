/**
 * One MCP server: started (its process, or its HTTP endpoint), its tools listed leniently, its
 * calls made with the call's timeout and the turn's cancellation (the SDK sends
 * `notifications/cancelled`), and closed. A server that fails to start or dies keeps the reason,
 * in a few words a user can act on (the last line of its stderr, the timeout, the HTTP status);
 * its tools then answer with it.
 *
 * Listing and calling go through the SDK's `request` with a lenient result schema, not
 * `listTools()`/`callTool()`: `listTools()` rejects the whole server when one tool's schema lacks
 * `type: "object"` (lib/mcp/list.ts repairs or drops tools one by one), and a structured result
 * without its output schema must reach the model as whatever text it has, not as a thrown error.
 */

import { resolve } from "node:path";
import type { McpServerConfig } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import type { McpCallOutcome, McpResult, McpServerPort } from "../tool.ts";
import { VERSION } from "../version.ts";
import { serverEnv } from "./env.ts";
import { type Listing, readListing } from "./list.ts";
import { ANY_RESULT, loadSdk, type SdkClient, type SdkTransport } from "./sdk.ts";
import { within } from "../wait.ts";
import { type ProcessEnd, StdioTransport } from "./stdio.ts";
import { boundedFetch } from "./oversize.ts";
import { guardAnswers, MALFORMED_CODE, resultProblem } from "./shape.ts";

/** Where a server is in its life. */
export type McpState =
  | { kind: "starting" }
  | { kind: "running" }
  /** It never started. */
  | { kind: "failed"; reason: string }
  /** It started, then went away. */
  | { kind: "dead"; reason: string }
  | { kind: "closed" };

/** What a server tells its owner as it goes. */
export interface ServerEvents {
  /** It failed to start (`started` false) or died after starting; `reason` says why. */
  down?(server: McpServer, reason: string, started: boolean): void;
  /** It said its tools changed (`notifications/tools/list_changed`) and was listed again. */
  changed?(server: McpServer): void;
}

/** How a server is started. */
export interface ServerOptions {
  /** The working directory: a stdio server's `cwd` is relative to it. */
  cwd: string;
  /** mm's environment: what a stdio server's minimal environment is taken from. */
  env: Record<string, string>;
  events?: ServerEvents;
}

/** Milliseconds between two starts of `tools/list` after `tools/list_changed`, at least. */
export const RELIST_EVERY = 1000;

/** Pages of `tools/list` read at most. */
const MAX_PAGES = 64;

/** The `clientInfo` mm sends. */
const CLIENT_INFO = { name: "mm", version: VERSION };

/** Why a call or a start failed, as the SDK threw it. */
interface SdkFailure {
  code?: unknown;
  status?: unknown;
  statusText?: unknown;
  message?: unknown;
}

/** One server of `mcpServers` (or of the editor's `session/new`). */
export class McpServer implements McpServerPort {
  readonly name: string;
  readonly config: McpServerConfig;
  /** Settles when the server runs or has failed; never rejects. */
  readonly started: Promise<void>;
  #state: McpState = { kind: "starting" };
  #listing: Listing = { tools: [], notes: [] };
  #client?: SdkClient;
  #stdio?: StdioTransport;
  #transport?: SdkTransport;
  #opts: ServerOptions;
  #closing?: Promise<void>;
  /** Coalescing `tools/list_changed`: when the last listing began, one running, one to come. */
  #relistedAt = -Infinity;
  #relisting = false;
  #relistTimer?: ReturnType<typeof setTimeout>;
  #relistAgain = false;

  /** Starts server `name` at once. */
  constructor(name: string, config: McpServerConfig, opts: ServerOptions) {
    this.name = name;
    this.config = config;
    this.#opts = opts;
    this.started = this.#start();
  }

  /** Whether its calls ask for permission when `yolo: false`. */
  get ask(): boolean {
    return this.config.ask;
  }

  /** Where the server is in its life. */
  get state(): McpState {
    return this.#state;
  }

  /** Its tools as last listed, and what the listing repaired or dropped. */
  get listing(): Listing {
    return this.#listing;
  }

  /** What the server last said on stderr (stdio) that means something (LastLines.summary), if any. */
  lastStderr(): string | undefined {
    return this.#stdio?.stderr.summary();
  }

  async #start(): Promise<void> {
    const { config } = this;
    const controller = new AbortController();
    const limit = formatDuration(config.startupTimeout);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.startupTimeout);
    try {
      const sdk = await loadSdk();
      if (this.#state.kind !== "starting") return; // closed while the SDK loaded: start nothing
      const gone = new Promise<never>((_, reject) => {
        controller.signal.addEventListener("abort", () => reject(new Error("aborted")));
      });
      gone.catch(() => {});
      const connect = async (type: McpServerConfig["type"]) => {
        const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
        client.onerror = () => {}; // a stray line or a failed notification is no reason to stop
        this.#client = client;
        this.#transport = this.#makeTransport(sdk, type);
        guardAnswers(this.#transport); // a result that is not an object: an error, not a silence
        const options = { timeout: config.startupTimeout, signal: controller.signal };
        await Promise.race([client.connect(this.#transport, options), gone]);
      };
      try {
        await connect(config.type);
      } catch (e) {
        if (!legacySseMayAnswer(config, e) || this.#state.kind !== "starting") throw e;
        // MCP's backwards compatibility: a 4xx to Streamable HTTP may be a legacy SSE server.
        await this.#client?.close().catch(() => {});
        try {
          await connect("sse");
        } catch (sse) {
          if (controller.signal.aborted) throw sse;
          throw new Error(
            `${failureText(e, config.url)} (nor does it answer as an SSE server: ${
              failureText(sse, config.url)
            })`,
          );
        }
      }
      const client = this.#client!;
      const listing = await Promise.race([this.#list(controller.signal), gone]);
      if (this.#state.kind !== "starting") return; // closed meanwhile
      this.#listing = listing;
      this.#state = { kind: "running" };
      client.onclose = () => this.#died();
      client.setNotificationHandler("notifications/tools/list_changed", () => this.#listChanged());
      // It may have gone between the handshake and now.
      if (this.#stdio?.end) this.#died();
    } catch (e) {
      if (this.#state.kind !== "starting") return;
      const reason = timedOut
        ? `did not start within ${limit} (startupTimeout)${this.#stderrTail()}`
        : await this.#startFailure(e);
      this.#state = { kind: "failed", reason };
      await this.#shut();
      this.#opts.events?.down?.(this, reason, false);
    } finally {
      clearTimeout(timer);
    }
  }

  #makeTransport(
    sdk: Awaited<ReturnType<typeof loadSdk>>,
    type: McpServerConfig["type"],
  ): SdkTransport {
    const { config } = this;
    if (type === "stdio") {
      const cwd = config.cwd ? resolve(this.#opts.cwd, config.cwd) : this.#opts.cwd;
      this.#stdio = new StdioTransport({
        argv: config.command,
        cwd,
        env: serverEnv(this.#opts.env, config.env),
      });
      return this.#stdio as unknown as SdkTransport;
    }
    const url = new URL(config.url!);
    // Every answer bounded: a message past MAX_MCP_MESSAGE is never held (lib/mcp/oversize.ts).
    const options = { requestInit: { headers: config.headers }, fetch: boundedFetch() };
    return type === "sse"
      ? new sdk.SSEClientTransport(url, options)
      : new sdk.StreamableHTTPClientTransport(url, options);
  }

  /** Every page of `tools/list`, read leniently; none when the server has no tools. */
  async #list(signal?: AbortSignal): Promise<Listing> {
    const client = this.#client!;
    if (!client.getServerCapabilities()?.tools) return { tools: [], notes: [] };
    const entries: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.request(
        { method: "tools/list", ...(cursor ? { params: { cursor } } : {}) },
        ANY_RESULT,
        { timeout: this.config.startupTimeout, signal },
      );
      if (Array.isArray(result.tools)) entries.push(...result.tools);
      cursor = typeof result.nextCursor === "string" && result.nextCursor ? result.nextCursor : "";
      if (!cursor) break;
    }
    return readListing(entries);
  }

  /**
   * `notifications/tools/list_changed`: listed again, at once when no listing began in the last
   * {@linkcode RELIST_EVERY} ms, else once that much has passed; a storm of them is one or two
   * listings, and the last one wins. The new list applies to new conversations.
   */
  #listChanged(): void {
    if (this.#state.kind !== "running") return;
    if (this.#relisting) {
      // Told again while listing: once more after this one, which may have missed the change.
      this.#relistAgain = true;
      return;
    }
    if (this.#relistTimer !== undefined) return;
    const wait = this.#relistedAt + RELIST_EVERY - performance.now();
    if (wait <= 0) {
      this.#relist();
      return;
    }
    this.#relistTimer = setTimeout(() => {
      this.#relistTimer = undefined;
      this.#relist();
    }, wait);
  }

  /** Lists the tools again; tells its owner when they are not what they were. */
  async #relist(): Promise<void> {
    this.#relisting = true;
    this.#relistedAt = performance.now();
    try {
      const listing = await this.#list();
      if (this.#state.kind !== "running") return;
      const same = JSON.stringify(listing) === JSON.stringify(this.#listing);
      this.#listing = listing;
      if (!same) this.#opts.events?.changed?.(this);
    } catch {
      // The old list stays: the server answers for its tools anyway.
    } finally {
      this.#relisting = false;
      if (this.#relistAgain) {
        this.#relistAgain = false;
        this.#listChanged();
      }
    }
  }

  /** The server went away after starting. */
  #died(): void {
    if (this.#state.kind !== "running") return;
    const reason = this.#stdio?.end
      ? endText(this.#stdio.end) + this.#stderrTail()
      : "the connection closed";
    this.#state = { kind: "dead", reason };
    this.#opts.events?.down?.(this, reason, true);
    this.#shut();
  }

  /** Why the start failed, in a few words. */
  async #startFailure(e: unknown): Promise<string> {
    // An answer of the wrong shape says more than the exit that follows when the client closes.
    const malformed = (e as SdkFailure | undefined)?.code === MALFORMED_CODE;
    if (this.#stdio?.pid !== undefined && !malformed) {
      // A process that exited: its status and its last words say more than "Connection closed".
      const end = await within(this.#stdio.ended, 300) ? this.#stdio.end : undefined;
      if (end) return endText(end) + this.#stderrTail();
    }
    return failureText(e, this.config.url) + this.#stderrTail();
  }

  /** ` — <the last line of stderr>`, or nothing. */
  #stderrTail(): string {
    const last = this.lastStderr();
    return last ? `: ${last}` : "";
  }

  /** Why the server is not running (it failed to start, died, or mm is exiting); undefined while it runs or starts. */
  notRunning(): string | undefined {
    const state = this.#state;
    if (state.kind === "failed" || state.kind === "dead") return state.reason;
    return state.kind === "closed" ? "mm is exiting" : undefined;
  }

  /** Calls tool `tool` with `args` within the server's `timeout`; never throws. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpCallOutcome> {
    const down = this.notRunning();
    if (down !== undefined) return { kind: "down", reason: down };
    if (this.#state.kind === "starting") await this.started;
    if (this.#state.kind !== "running") return this.call(tool, args, signal);
    if (signal.aborted) return { kind: "cancelled" };
    const timeout = this.config.timeout;
    try {
      const raw = await this.#client!.request(
        { method: "tools/call", params: { name: tool, arguments: args } },
        ANY_RESULT,
        { signal, timeout, maxTotalTimeout: timeout },
      );
      const problem = resultProblem(raw);
      if (problem !== undefined) return { kind: "malformed", problem };
      return { kind: "result", result: readResult(raw) };
    } catch (e) {
      if (signal.aborted) return { kind: "cancelled" };
      const f = e as SdkFailure & { data?: { what?: unknown } };
      if (f.code === "REQUEST_TIMEOUT") return { kind: "timeout", ms: timeout };
      if (f.code === MALFORMED_CODE && typeof f.data?.what === "string") {
        return { kind: "malformed", problem: `the result is ${f.data.what}, not an object` };
      }
      const now = this.#state as McpState;
      if (now.kind === "dead" || now.kind === "failed") return { kind: "down", reason: now.reason };
      if (f.code === "CONNECTION_CLOSED" || f.code === "NOT_CONNECTED") {
        return { kind: "down", reason: "the connection closed" };
      }
      const text = failureText(e, this.config.url);
      // An HTTP server that went away: not running, for this call at least.
      if (text.startsWith("cannot connect to ")) return { kind: "down", reason: text };
      return { kind: "error", message: text };
    }
  }

  /** Closes the connection and stops the process (its whole group); resolves once it is reaped. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const was = this.#state.kind;
      this.#state = { kind: "closed" };
      if (was !== "failed") await this.#shut();
      await this.started;
    })();
    return this.#closing;
  }

  /** Closes the client and the transport (the process, for stdio). */
  async #shut(): Promise<void> {
    clearTimeout(this.#relistTimer);
    this.#relistTimer = undefined;
    try {
      await this.#client?.close();
    } catch {
      // closed already
    }
    await this.#stdio?.close();
  }
}

/** A `tools/call` result, read leniently. */
export function readResult(raw: Record<string, unknown>): McpResult {
  const content = Array.isArray(raw.content) ? raw.content : [];
  const result: McpResult = { content, isError: raw.isError === true };
  if (raw.structuredContent !== undefined) result.structuredContent = raw.structuredContent;
  // A result of the older protocol: `toolResult` instead of content.
  if (!content.length && raw.toolResult !== undefined && result.structuredContent === undefined) {
    result.structuredContent = raw.toolResult;
  }
  return result;
}

/** How a process ended, in words: `exited with status 1`, `was killed by SIGKILL`. */
export function endText(end: ProcessEnd): string {
  return end.signal ? `was killed by ${end.signal}` : `exited with status ${end.code}`;
}

/** What the SDK threw, in a few words: an HTTP status, a refused connection, the message. */
export function failureText(e: unknown, url?: string): string {
  const f = (e ?? {}) as SdkFailure;
  if (typeof f.status === "number") {
    const text = typeof f.statusText === "string" && f.statusText ? ` ${f.statusText}` : "";
    return `HTTP ${f.status}${text}${url ? ` from ${url}` : ""}`;
  }
  const cause = (e as { cause?: { message?: unknown } } | undefined)?.cause?.message;
  const message = typeof f.message === "string"
    ? f.message + (typeof cause === "string" ? ` (${cause})` : "")
    : String(e);
  const refused = /ECONNREFUSED|Connection refused|os error 111/i.test(message);
  if (refused && url) return `cannot connect to ${url} (connection refused)`;
  // The SSE transport's own errors do not say where they came from.
  if (url && /^SSE error/.test(message)) return `${oneLine(message)} from ${url}`;
  return oneLine(message.replace(/^MCP error -?\d+: /, ""));
}

/**
 * Whether a failure to reach an `http` server may mean it speaks the SSE transport of 2024 at the
 * same URL: it answered the Streamable HTTP POST with a 4xx other than 401 and 403 (which are the
 * headers' fault, whatever the transport).
 */
export function legacySseMayAnswer(config: McpServerConfig, e: unknown): boolean {
  const status = (e as SdkFailure | undefined)?.status ?? (e as SdkFailure | undefined)?.code;
  return config.type === "http" && typeof status === "number" && status >= 400 && status < 500 &&
    status !== 401 && status !== 403;
}

/** A message on one line, cut to a few hundred characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}
