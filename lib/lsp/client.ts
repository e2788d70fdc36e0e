/**
 * One language server over stdio: the process, the JSON-RPC connection (`vscode-jsonrpc`), the
 * `initialize` handshake, the documents it was told about, and the diagnostics it published.
 *
 * The server runs in its own process group (lib/exec/spawn.ts, the one starter), in the project root, with
 * `processId` set to mm's pid so that a server outliving mm by accident (mm killed with SIGKILL)
 * notices and exits. {@linkcode LspClient.close} sends `shutdown` and `exit`, waits for the process,
 * kills it (then its group) when it lingers, and reaps it: no server is left behind, not even as a
 * zombie.
 */

import { fileURLToPath, pathToFileURL } from "node:url";
import { basename } from "node:path";
import type { MessageConnection } from "npm:vscode-jsonrpc@10.0.0/node";
import type {
  ClientCapabilities,
  ConfigurationParams,
  InitializeParams,
  InitializeResult,
  PublishDiagnosticsParams,
  ServerCapabilities,
} from "npm:vscode-languageserver-protocol@3.18.5";
import type { LspServerConfig } from "../config/config.ts";
import type { Publication, SyncResult } from "../tool.ts";
import { within } from "../wait.ts";
import { startProblem } from "../exec/program.ts";
import { type Spawned, spawnProcess } from "../exec/spawn.ts";
import { type NodePipes, nodePipes } from "../exec/node_streams.ts";
import { sizeText } from "../bounded/limits.ts";
import { ContentLengthGuard } from "./framing.ts";

/**
 * What went wrong with a server: `server` (it answered with an error), `gone` (it stopped), `timeout`,
 * `cancelled` (the turn was), `start` (it could not be started).
 */
export type LspErrorKind = "server" | "gone" | "timeout" | "cancelled" | "start";

/** A failure of a language server, in a few words the tool puts after `<server>: <action> failed: `. */
export class LspError extends Error {
  /** What went wrong. */
  readonly kind: LspErrorKind;
  /** The JSON-RPC error code of a `server` error (-32601: the server has no such method). */
  readonly code?: number;

  /** `reason` is the text shown to the model. */
  constructor(reason: string, kind: LspErrorKind = "server", code?: number) {
    super(reason);
    this.name = "LspError";
    this.kind = kind;
    this.code = code;
  }
}

/** How a client is started; the times are milliseconds. */
export interface LspClientOptions {
  /** The project root: the server's working directory and workspace folder (absolute). */
  root: string;
  /** Time for the server to answer `initialize`. Default 60 s. */
  startTimeout?: number;
  /** Time for the server to answer any other request. Default 30 s. */
  requestTimeout?: number;
  /** The environment of the server process; default mm's own without its secrets. */
  env?: Record<string, string>;
}

/** Default time for a server to answer `initialize`. */
export const START_TIMEOUT = 60_000;
/** Default time for a server to answer a request. */
export const REQUEST_TIMEOUT = 30_000;
/** Quiet time after a publication before a diagnostics wait ends (see waitForPublication). */
export const SETTLE = 500;
/** vscode-jsonrpc's code for a request it could not write (EPIPE): not an answer of the server. */
const MESSAGE_WRITE_ERROR = -32099;

/** Time `shutdown` gets at close, then the process after `exit`, before it is killed. */
export const CLOSE_GRACE = 2_000;

/** The capabilities mm announces: what the six actions of the lsp tool use. */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ["utf-16"] },
  textDocument: {
    synchronization: { dynamicRegistration: false, willSave: false, didSave: false },
    definition: { dynamicRegistration: false, linkSupport: true },
    references: { dynamicRegistration: false },
    hover: { dynamicRegistration: false, contentFormat: ["markdown", "plaintext"] },
    documentSymbol: {
      dynamicRegistration: false,
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: Array.from({ length: 26 }, (_, i) => (i + 1) as 1) },
    },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    rename: { dynamicRegistration: false, prepareSupport: false },
  },
  workspace: {
    workspaceFolders: true,
    configuration: true,
    applyEdit: false,
    workspaceEdit: { documentChanges: true },
  },
  window: { workDoneProgress: false },
};

/** The key of a document URI: its path for `file:` URIs (spelling differences vanish), else itself. */
export function uriKey(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** The `file:` URI of an absolute path. */
export function fileUri(path: string): string {
  return pathToFileURL(path).href;
}

/**
 * The answer to one item of `workspace/configuration`, taken from the server's
 * `initializationOptions`: the value at the dotted `section` when the options have it; the options
 * themselves when the section is the server's own (its `name`, or its command's file name: `deno`
 * asks for `deno`); else null (the server's defaults).
 */
export function configurationSection(
  server: LspServerConfig,
  section: string | undefined,
): unknown {
  const options = server.initializationOptions;
  if (section === undefined || section === "") return options ?? null;
  let value: unknown = options;
  for (const key of section.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !(key in value)) {
      const own = section === server.name || section === basename(server.command);
      return own ? options ?? null : null;
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** Keeps the end of a growing text: the last `max` characters. */
function tail(text: string, max: number): string {
  return text.length <= max ? text : text.slice(text.length - max);
}

/** A running language server. */
export class LspClient {
  /** The configured server. */
  readonly server: LspServerConfig;
  /** The server process's id. */
  readonly pid: number;
  /** What the server said it can do. */
  capabilities: ServerCapabilities = {};
  #options: LspClientOptions;
  #process: Spawned;
  #child: NodePipes;
  #conn?: MessageConnection;
  #rpc?: typeof import("npm:vscode-jsonrpc@10.0.0/node");
  #exit: Promise<void>;
  #exitStatus?: string;
  #closedConnection = false;
  /** Why mm stopped reading the server: a message past its limit. */
  #refused?: string;
  #closing?: Promise<void>;
  #stderr = "";
  #docs = new Map<string, { version: number; text: string; sentAt: number }>();
  #published = new Map<string, Publication>();
  #seq = 0;
  #waiters = new Set<() => void>();

  private constructor(server: LspServerConfig, process: Spawned, options: LspClientOptions) {
    this.server = server;
    this.#process = process;
    this.#child = nodePipes(process);
    this.pid = process.pid;
    this.#options = options;
    this.#exit = process.status.then(({ code, signal }) => {
      this.#exitStatus = signal ? `killed by ${signal}` : `exit code ${code}`;
      this.#wake();
    });
  }

  /** Starts the server and completes `initialize`; throws an {@linkcode LspError} when it cannot. */
  static async start(server: LspServerConfig, options: LspClientOptions): Promise<LspClient> {
    const rpc = await import("npm:vscode-jsonrpc@10.0.0/node");
    const argv = [server.command, ...server.args];
    const problem = await startProblem(argv, options.root);
    if (problem !== undefined) {
      throw new LspError(`cannot start ${server.command}: ${problem}`, "start");
    }
    let process: Spawned;
    try {
      process = await spawnProcess({
        argv,
        cwd: options.root,
        ...(options.env ? { wholeEnv: options.env } : {}),
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      });
    } catch (err) {
      throw new LspError(`cannot start ${server.command}: ${(err as Error).message}`, "start");
    }
    const client = new LspClient(server, process, options);
    const child = client.#child;
    child.stdin!.on("error", () => {}); // EPIPE when the server died: the connection says so
    child.stdout!.on("error", () => {});
    child.stderr!.on("error", () => {});
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (d: string) => client.#stderr = tail(client.#stderr + d, 4000));
    const conn = rpc.createMessageConnection(
      new rpc.StreamMessageReader(await client.#bounded(child.stdout!)),
      new rpc.StreamMessageWriter(child.stdin!),
    );
    client.#conn = conn;
    client.#rpc = rpc;
    conn.onClose(() => {
      client.#closedConnection = true;
      client.#wake();
    });
    conn.onError(() => {});
    client.#handleServerRequests(conn);
    conn.listen();
    const root = options.root;
    const params: InitializeParams = {
      processId: Deno.pid,
      clientInfo: { name: "mm" },
      rootUri: fileUri(root),
      rootPath: root,
      workspaceFolders: [{ uri: fileUri(root), name: basename(root) || root }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: server.initializationOptions,
    };
    try {
      const result = await client.request<InitializeResult>(
        "initialize",
        params,
        undefined,
        options.startTimeout ?? START_TIMEOUT,
      );
      client.capabilities = result?.capabilities ?? {};
      client.notify("initialized", {});
    } catch (err) {
      await client.close();
      throw new LspError(`${(err as Error).message}${client.#stderrLine()}`, "start");
    }
    return client;
  }

  /** Whether the process runs and the connection is open. */
  get alive(): boolean {
    return this.#exitStatus === undefined && !this.#closedConnection && this.#closing === undefined;
  }

  /** Answers the requests a server makes of its client. */
  #handleServerRequests(conn: MessageConnection): void {
    conn.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      this.#published.set(uriKey(p.uri), {
        seq: ++this.#seq,
        version: p.version ?? undefined,
        diagnostics: p.diagnostics ?? [],
      });
      this.#wake();
    });
    const root = fileUri(this.#options.root);
    conn.onRequest(
      "workspace/configuration",
      (p: ConfigurationParams) =>
        p.items.map((item) => configurationSection(this.server, item.section)),
    );
    conn.onRequest("workspace/workspaceFolders", () => [{
      uri: root,
      name: basename(this.#options.root) || this.#options.root,
    }]);
    conn.onRequest("workspace/applyEdit", () => ({
      applied: false,
      failureReason: "mm applies edits itself",
    }));
    // registerCapability, workDoneProgress/create, showMessageRequest, the refresh requests...
    conn.onRequest(() => null);
  }

  /**
   * The server's output with its messages bounded (lib/lsp/framing.ts): one announced longer than
   * {@linkcode MAX_LSP_MESSAGE} ends the stream there, the connection closes with the reason, and
   * the pool starts the server again on its next use.
   */
  async #bounded(stdout: NodeJS.ReadableStream): Promise<NodeJS.ReadableStream> {
    const { Transform } = await import("node:stream");
    const guard = new ContentLengthGuard();
    const bounded = new Transform({
      transform: (chunk: Uint8Array, _encoding, done) => {
        const refused = guard.feed(chunk);
        if (refused === undefined) return done(null, chunk);
        this.#refused = `the server sent a message of ${refused} bytes, larger than ${
          sizeText(guard.limit)
        }, more than mm reads: mm stopped reading the server`;
        done(new Error(this.#refused));
      },
    });
    bounded.on("error", () => {});
    stdout.pipe(bounded);
    return bounded;
  }

  /** The end of what the server wrote on stderr, as ` (stderr: …)`, or "". */
  #stderrLine(): string {
    const lines = this.#stderr.trim().split("\n").map((l) => l.trim()).filter((l) => l);
    return lines.length ? ` (stderr: ${lines.at(-1)!.slice(0, 300)})` : "";
  }

  /** The error of a server that went away, once its exit status is known (or 2 s passed). */
  async #gone(): Promise<LspError> {
    await within(this.#exit, CLOSE_GRACE);
    return new LspError(this.#goneReason(), "gone");
  }

  /** Why the connection is gone: the exit status when the process ended. */
  #goneReason(): string {
    if (this.#refused) return this.#refused;
    const status = this.#exitStatus ? ` (${this.#exitStatus})` : "";
    return `the server stopped${status}${this.#stderrLine()}`;
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  /** Sends a notification; a server that is gone is not an error here (the next request says so). */
  notify(method: string, params?: unknown): void {
    try {
      this.#conn?.sendNotification(method, params).catch(() => {});
    } catch {
      // "Connection is closed" is thrown, not returned as a rejection.
    }
  }

  /**
   * Sends a request and waits for its answer, at most `timeout` ms; `signal` cancels it. Throws an
   * {@linkcode LspError} whose message is the server's error, `no answer within 30s`, `cancelled`,
   * or why the server went away.
   */
  async request<R>(
    method: string,
    params: unknown,
    signal?: AbortSignal,
    timeout = this.#options.requestTimeout ?? REQUEST_TIMEOUT,
  ): Promise<R> {
    if (!this.#conn || this.#closedConnection || this.#exitStatus !== undefined) {
      throw new LspError(this.#goneReason(), "gone");
    }
    if (signal?.aborted) throw new LspError("cancelled", "cancelled");
    const source = new this.#rpc!.CancellationTokenSource();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    let stop: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        source.cancel();
        reject(new LspError(`no answer within ${Math.round(timeout / 1000)}s`, "timeout"));
      }, timeout);
      onAbort = () => {
        source.cancel();
        reject(new LspError("cancelled", "cancelled"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      stop = () => {
        if (this.#closedConnection || this.#exitStatus !== undefined) this.#gone().then(reject);
      };
      this.#waiters.add(stop);
    });
    try {
      const sent = params === undefined
        ? this.#conn.sendRequest<R>(method, source.token)
        : this.#conn.sendRequest<R>(method, params, source.token);
      return await Promise.race([sent, stopped]);
    } catch (err) {
      if (err instanceof LspError) throw err;
      if (this.#closedConnection || this.#exitStatus !== undefined) throw await this.#gone();
      const code = (err as { code?: unknown }).code;
      if (!(err instanceof this.#rpc!.ResponseError) || code === MESSAGE_WRITE_ERROR) {
        // Not an answer of the server: the pipe failed (EPIPE) or the connection is going away.
        if (await within(this.#exit, 1000) || this.#closedConnection) throw await this.#gone();
      }
      throw new LspError(
        oneLine((err as Error).message ?? String(err)),
        "server",
        typeof code === "number" ? code : undefined,
      );
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      if (stop) this.#waiters.delete(stop);
      stopped.catch(() => {});
      source.dispose();
    }
  }

  /**
   * Tells the server the document's content: `didOpen` the first time, a whole-document
   * `didChange` when it differs from what the server has, nothing when it is the same.
   */
  sync(path: string, languageId: string, text: string): SyncResult {
    const uri = fileUri(path);
    const key = uriKey(uri);
    const doc = this.#docs.get(key);
    if (doc === undefined) {
      const opened = { version: 1, text, sentAt: this.#seq };
      this.#docs.set(key, opened);
      this.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
      return { sent: "opened", version: 1, sentAt: opened.sentAt };
    }
    if (doc.text === text) return { sent: "unchanged", version: doc.version, sentAt: doc.sentAt };
    doc.version++;
    doc.text = text;
    doc.sentAt = this.#seq;
    this.notify("textDocument/didChange", {
      textDocument: { uri, version: doc.version },
      contentChanges: [{ text }],
    });
    return { sent: "changed", version: doc.version, sentAt: doc.sentAt };
  }

  /** The text the server was last told of the document at `path` (undefined: never told). */
  syncedText(path: string): string | undefined {
    return this.#docs.get(uriKey(fileUri(path)))?.text;
  }

  /** Whether the server was told about the document at `path`. */
  isOpen(path: string): boolean {
    return this.#docs.has(uriKey(fileUri(path)));
  }

  /** The server's last publication for the document at `path`, if any. */
  published(path: string): Publication | undefined {
    return this.#published.get(uriKey(fileUri(path)));
  }

  /**
   * Waits up to `ms` for a publication for `path` that answers the content sent at `sync`: one that
   * arrived after it and, when the server gives versions, is about that version or a later one.
   * Some servers publish a file in parts (typescript-language-server: syntax first, types later),
   * so after each answer the wait goes on while publications keep coming less than `settle` ms
   * apart, within `ms` in all. Undefined when none came in time, the server went away, or `signal`
   * aborted.
   */
  async waitForPublication(
    path: string,
    sync: SyncResult,
    ms: number,
    signal?: AbortSignal,
    settle = SETTLE,
  ): Promise<Publication | undefined> {
    const answers = (p: Publication | undefined): p is Publication =>
      p !== undefined && p.seq > sync.sentAt &&
      (p.version === undefined || p.version >= sync.version);
    const deadline = Date.now() + ms;
    const current = this.published(path);
    let last = answers(current) ? current : undefined;
    while (this.alive && !signal?.aborted) {
      const now = Date.now();
      const until = last ? Math.min(deadline, now + settle) : deadline;
      if (until <= now) break;
      const seen = last?.seq ?? -1;
      const newer = () => {
        const p = this.published(path);
        return answers(p) && p.seq > seen;
      };
      if (!await this.#until(newer, until - now, signal)) break;
      last = this.published(path);
    }
    return last;
  }

  /** Waits until `done()` holds (true), or `ms` pass, the server goes away or `signal` aborts (false). */
  async #until(done: () => boolean, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (done()) return true;
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => finish = resolve);
    const check = () => {
      if (done() || !this.alive || signal?.aborted) finish();
    };
    const timer = setTimeout(finish, ms);
    this.#waiters.add(check);
    signal?.addEventListener("abort", check);
    try {
      await finished;
    } finally {
      clearTimeout(timer);
      this.#waiters.delete(check);
      signal?.removeEventListener("abort", check);
    }
    return done();
  }

  /**
   * Stops the server: `shutdown`, `exit`, then SIGTERM and SIGKILL when the process lingers, then
   * SIGKILL to what is left of its process group. Resolves once the process has been reaped.
   */
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    const running = this.#exitStatus === undefined && !this.#closedConnection && this.#conn;
    if (running) {
      try {
        await this.#requestWhileClosing("shutdown", CLOSE_GRACE);
      } catch {
        // A server that cannot shut down is killed below.
      }
      this.notify("exit");
    }
    const waited = (ms: number) => within(this.#exit, ms);
    if (!await waited(running ? CLOSE_GRACE : 0)) {
      this.#kill("SIGTERM");
      if (!await waited(CLOSE_GRACE / 2)) this.#kill("SIGKILL");
      await this.#exit;
    }
    this.#process.kill("SIGKILL"); // what the server started and left behind (tsserver, workers)
    this.#process.end();
    this.#conn?.dispose();
    this.#child.stdin?.destroy();
    this.#child.stdout?.destroy();
    this.#child.stderr?.destroy();
    this.#wake();
  }

  /** A request sent while closing (the client no longer counts as alive). */
  async #requestWhileClosing(method: string, timeout: number): Promise<void> {
    const conn = this.#conn!;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        conn.sendRequest(method),
        this.#exit,
        new Promise((_, reject) => timer = setTimeout(() => reject(new Error("timeout")), timeout)),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  #kill(signal: "SIGTERM" | "SIGKILL"): void {
    if (this.#exitStatus !== undefined) return;
    this.#process.kill(signal);
  }
}

/** A message on one line, for the model. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
