/**
 * Runs the real `mm -acp` with piped stdio and drives it with the ACP SDK's own client connection,
 * the way an editor does; records every update, permission request and form it receives, and the
 * raw stdout, so a test asserts that stdout holds protocol messages only.
 */

import {
  client,
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type McpServer,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import { mmCommand } from "./mm.ts";

/** How the test editor answers and what it advertises. */
export interface EditorOptions {
  /** The directory mm is started in (where its agent file is found). */
  cwd: string;
  /** Answers a permission request; the default allows once. */
  permission?: (
    req: RequestPermissionRequest,
  ) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** Answers a form; when given, the editor advertises `elicitation.form`. */
  elicit?: (
    req: CreateElicitationRequest,
  ) => CreateElicitationResponse | Promise<CreateElicitationResponse>;
  /** Advertise `session.notices`. */
  notices?: boolean;
  env?: Record<string, string>;
}

/** What a finished mm process left behind. */
export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/** A selected permission option. */
export function select(optionId: string): RequestPermissionResponse {
  return { outcome: { outcome: "selected", optionId } };
}

/** A test editor connected to a real `mm -acp`. */
export class Editor {
  /** Calls the agent. */
  readonly agent: ClientContext;
  /** Every `session/update`, in order. */
  readonly updates: SessionNotification[] = [];
  /** Every permission request, in order. */
  readonly permissions: RequestPermissionRequest[] = [];
  /** Every form, in order. */
  readonly forms: CreateElicitationRequest[] = [];
  /** The child process. */
  readonly child: Deno.ChildProcess;
  #stdout: Promise<string>;
  #stderr: Promise<string>;
  #waiters: { test: (n: SessionNotification) => boolean; resolve: () => void }[] = [];
  #initialized?: InitializeResponse;

  private constructor(opts: EditorOptions) {
    this.child = new Deno.Command(Deno.execPath(), {
      ...mmCommand(["-acp"], opts.cwd, opts.env),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const [protocol, raw] = this.child.stdout.tee();
    this.#stdout = new Response(raw).text();
    this.#stderr = new Response(this.child.stderr).text();
    const app = client({ name: "mm-test-editor" })
      .onNotification(methods.client.session.update, ({ params }) => {
        this.updates.push(params);
        this.#waiters = this.#waiters.filter((w) => {
          if (!w.test(params)) return true;
          w.resolve();
          return false;
        });
      })
      .onRequest(methods.client.session.requestPermission, async ({ params }) => {
        this.permissions.push(params);
        return opts.permission ? await opts.permission(params) : select("allow_once");
      });
    if (opts.elicit) {
      const elicit = opts.elicit;
      app.onRequest(methods.client.elicitation.create, async ({ params }) => {
        this.forms.push(params);
        return await elicit(params);
      });
    }
    this.agent = app.connect(ndJsonStream(this.child.stdin, protocol)).agent;
  }

  /** Starts mm and initializes the connection. */
  static async start(opts: EditorOptions): Promise<Editor> {
    const editor = new Editor(opts);
    editor.#initialized = await editor.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        ...(opts.elicit ? { elicitation: { form: {} } } : {}),
        ...(opts.notices ? { session: { notices: {} } } : {}),
      },
      clientInfo: { name: "mm-test-editor", version: "1.0.0" },
    });
    return editor;
  }

  /** The `initialize` answer. */
  get initialized(): InitializeResponse {
    return this.#initialized!;
  }

  /** A new session in `cwd`, with the editor's MCP servers; returns its id. */
  async newSession(cwd: string, mcpServers: McpServer[] = []): Promise<string> {
    const r = await this.agent.request(methods.agent.session.new, { cwd, mcpServers });
    return r.sessionId;
  }

  /** Closes a session (`session/close`). */
  async closeSession(sessionId: string): Promise<void> {
    await this.agent.request(methods.agent.session.close, { sessionId });
  }

  /** Sends a text prompt and returns the stop reason. */
  async prompt(sessionId: string, text: string): Promise<string> {
    const r = await this.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    return r.stopReason;
  }

  /** The updates of one session, in order; its commands (`available_commands_update`) left out. */
  updatesOf(sessionId: string): SessionUpdate[] {
    return this.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update)
      .filter((u) => u.sessionUpdate !== "available_commands_update");
  }

  /** The commands a session was offered (its last `available_commands_update`), by name. */
  commandsOf(sessionId: string): string[] {
    const offers = this.updates.filter((n) =>
      n.sessionId === sessionId && n.update.sessionUpdate === "available_commands_update"
    );
    const last = offers.at(-1)?.update;
    return last?.sessionUpdate === "available_commands_update"
      ? last.availableCommands.map((c) => c.name)
      : [];
  }

  /** Resolves when an update passing `test` has arrived (at once if one already has). */
  waitFor(test: (n: SessionNotification) => boolean): Promise<void> {
    if (this.updates.some(test)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** Closes mm's stdin, as an editor that quits does, and waits for it to exit. */
  async close(): Promise<Finished> {
    await this.child.stdin.close().catch(() => {});
    const status = await this.child.status;
    return { code: status.code, stdout: await this.#stdout, stderr: await this.#stderr };
  }
}

/** The lines of `stdout` that are not JSON-RPC 2.0 messages (none is expected). */
export function strayLines(stdout: string): string[] {
  return stdout.split("\n").filter((line) => {
    if (line === "") return false;
    try {
      const m = JSON.parse(line);
      return !(m && typeof m === "object" && m.jsonrpc === "2.0");
    } catch {
      return true;
    }
  });
}

/** The text of the agent messages (or thoughts) among `updates`, joined. */
export function chunks(
  updates: SessionUpdate[],
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
): string {
  return updates.filter((u) => u.sessionUpdate === kind)
    .map((u) => {
      const c = (u as { content: { type: string; text?: string } }).content;
      return c.type === "text" ? c.text ?? "" : "";
    }).join("");
}
