/**
 * An agent of `mmConfigs` run as a child `mm -acp` (tools.md, `ask_agent`): started on its first
 * question and reused, a fresh ACP session per question, stopped when mm exits. The child's own
 * `agent_message_chunk` text after its last tool call is the answer; its permission requests are
 * decided by `decide`, its forms put to the asking agent's user (docs/acp.md, "Agents that ask
 * agents").
 */

import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  ClientContext,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { AgentRef, Config } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { parseConfig } from "../config/load.ts";
import { type Spawned, spawnProcess } from "../exec/spawn.ts";
import type { AskOutcome } from "../tool.ts";
import { VERSION } from "../version.ts";
import { formQuestions, formResponse } from "./forms.ts";
import { type AskOptions, type AskResult, QuestionState, Watchdog } from "./child_question.ts";
import { contentDiff } from "./updates.ts";
import { ALIVE_METHOD, aliveParams, askUserMeta, turnFailure } from "../acp/mm_ext.ts";

let trustHandedOn = false;

/** This run's project file is trusted for the run: asked agents get `MM_TRUST=1` (and only they). */
export function handTrustToAgents(): void {
  trustHandedOn = true;
}

type AcpModule = typeof import("npm:@agentclientprotocol/sdk@2.4.0");
let acpModule: Promise<AcpModule> | undefined;

/** The ACP SDK, loaded on the first question: most runs never ask an agent. */
function loadAcp(): Promise<AcpModule> {
  return acpModule ??= import("npm:@agentclientprotocol/sdk@2.4.0");
}

/** The absolute path of an `mmConfigs` entry's file: relative to the asking agent file's directory. */
export function agentFilePath(ref: AgentRef, config: Config): string {
  const base = config.file ? dirname(config.file) : Deno.cwd();
  return resolve(base, ref.file);
}

/** Whether the asked agent runs its calls without asking: its entry's `yolo`, else this agent's. */
export function childYolo(ref: AgentRef, config: Config): boolean {
  return ref.yolo ?? config.yolo;
}

/** The argv that starts `mm -acp` the way this mm runs: from source (deno run) or compiled. */
export function mmCommand(): { program: string; args: string[] } {
  const program = Deno.execPath();
  const main = new URL("../../main.ts", import.meta.url);
  const deno = /^deno(\.exe)?$/i.test(basename(program));
  if (!deno) return { program, args: [] };
  const target = main.protocol === "file:" ? fileURLToPath(main) : main.href;
  return { program, args: ["run", "--allow-all", "--no-config", "--quiet", target] };
}

/**
 * What a child `mm -acp` needs of mm's secrets: `MM_API_KEY` when its agent file has no `apiKey`
 * of its own (it then uses the variable, as when run from a shell), nothing otherwise — its own
 * key is in its file, and the parent's must not go to another server.
 */
export function childKey(file: string): Record<string, string> {
  let key: string | undefined;
  try {
    key = Deno.env.get("MM_API_KEY");
  } catch {
    return {}; // no env permission: nothing to hand on
  }
  if (!key) return {};
  try {
    const own = parseConfig(Deno.readTextFileSync(file), file, {}).apiKey;
    return own ? {} : { MM_API_KEY: key };
  } catch {
    return {}; // a file that cannot be read fails in the child, with its own sentence
  }
}

/** The option ids of mm's own permission dialog (lib/frontend/acp/permission.ts). */
const PERMISSION_IDS = new Set(["allow_once", "allow_always", "reject_once"]);

/** The reason a silent child's answer stops, for the model: `it sent nothing for 2m (watchdogTimeout)`. */
export function silenceReason(ms: number): string {
  return `it sent nothing for ${formatDuration(ms)} (watchdogTimeout)`;
}

/** The error that ends the asking turn when the asked agent stays silent. */
export function silenceText(agent: string, ms: number): string {
  const d = formatDuration(ms);
  return `[error: ${agent} sent nothing for ${d} — turn stopped by the watchdog (watchdogTimeout: ${d}); its model may still be loading or its server overloaded: try again, or raise watchdogTimeout]`;
}

/** Whether `e` is a JSON-RPC error the child answered (its process is still there). */
function isRequestError(e: unknown): boolean {
  return e instanceof Error && typeof (e as { code?: unknown }).code === "number";
}

/** One asked agent's child process and connection. */
export class ChildAgent {
  readonly name: string;
  readonly file: string;
  readonly yolo: boolean;
  #depth: number;
  #child?: Spawned;
  #agent?: ClientContext;
  #starting?: Promise<void>;
  #stderr = "";
  #stderrDone: Promise<void> = Promise.resolve();
  #exited = false;
  /** The open questions, by ACP session id. */
  #sessions = new Map<string, QuestionState>();

  /** An agent of `config.mmConfigs`, not started yet, asked from asking depth `depth`. */
  constructor(name: string, ref: AgentRef, config: Config, depth: number) {
    this.name = name;
    this.#depth = depth;
    this.file = agentFilePath(ref, config);
    this.yolo = childYolo(ref, config);
  }

  /** Asks `prompt` in a fresh session in `opts.cwd`; never throws. */
  async ask(prompt: string, opts: AskOptions): Promise<AskResult> {
    try {
      await this.#start();
    } catch (e) {
      return { kind: "failed", reason: await this.#reason(e) };
    }
    const agent = this.#agent!;
    const { methods } = await loadAcp();
    let sessionId: string;
    try {
      sessionId = (await agent.request(methods.agent.session.new, {
        cwd: opts.cwd,
        mcpServers: [],
        // Nobody to ask: the child's ask_user says so at once (docs/acp.md).
        _meta: askUserMeta(opts.ask !== undefined),
      })).sessionId;
    } catch (e) {
      return { kind: "failed", reason: await this.#reason(e) };
    }
    const cancel = () => {
      agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
    };
    let silent: (ms: number) => void = () => {};
    const silence = new Promise<{ silent: number }>((resolve) => {
      silent = (ms) => resolve({ silent: ms });
    });
    const state = new QuestionState(opts, new Watchdog(opts.watchdog, (ms) => silent(ms)));
    this.#sessions.set(sessionId, state);
    opts.signal.addEventListener("abort", cancel);
    try {
      const request = agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: prompt }],
      });
      request.catch(() => {});
      state.watchdog.beat();
      const r = await Promise.race([request, silence]);
      const answer = state.text.trim();
      if ("silent" in r) {
        cancel();
        return { kind: "silent", answer, ms: r.silent };
      }
      // A failed turn says why, whatever its stop reason (`max_turn_requests` at maxTurns).
      const failure = turnFailure(r);
      if (failure !== undefined && r.stopReason !== "cancelled") {
        return { kind: "failed", reason: failure };
      }
      if (r.stopReason === "end_turn") return { kind: "answered", answer };
      const reason = r.stopReason === "cancelled" ? "cancelled" : `stopped (${r.stopReason})`;
      return { kind: "stopped", answer, reason };
    } catch (e) {
      const reason = opts.signal.aborted ? "cancelled" : await this.#reason(e);
      return { kind: "stopped", answer: state.text.trim(), reason };
    } finally {
      state.watchdog.stop();
      opts.signal.removeEventListener("abort", cancel);
      this.#sessions.delete(sessionId);
    }
  }

  /** Stops the child: closes its stdin, then kills its group if it lingers. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exited) return;
    await child.child.stdin.close().catch(() => {});
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await child.status.catch(() => {});
    clearTimeout(timer);
  }

  /**
   * Why a request failed. Unless the child answered it with an error, the connection broke: the
   * process's end and the rest of its stderr are awaited (2 s at most), so that a child that could
   * not start says why (`its process ended: <last line of its stderr>`).
   */
  async #reason(e: unknown): Promise<string> {
    if (!isRequestError(e) && this.#child) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([this.#child.status, this.#stderrDone]),
        new Promise((resolve) => timer = setTimeout(resolve, 2_000)),
      ]);
      clearTimeout(timer);
    }
    if (this.#exited) {
      const last = this.#stderr.trim().split("\n").filter(Boolean).at(-1);
      return `its process ended${last ? `: ${last}` : ""}`;
    }
    return e instanceof Error ? e.message : String(e);
  }

  #start(): Promise<void> {
    if (this.#exited) {
      this.#exited = false;
      this.#starting = undefined;
      this.#child = undefined;
      this.#stderr = "";
    }
    this.#starting ??= this.#spawn();
    return this.#starting;
  }

  async #spawn(): Promise<void> {
    const { program, args } = mmCommand();
    const spawned = await spawnProcess({
      argv: [program, ...args, "-acp", "-c", this.file, `--yolo=${this.yolo}`],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: {
        MM_ASK_DEPTH: String(this.#depth + 1),
        ...(trustHandedOn ? { MM_TRUST: "1" } : {}),
        ...childKey(this.file),
      },
      // At mm's exit: SIGTERM, so the child kills what it started (its commands, its servers).
      atExit: "SIGTERM",
    });
    this.#child = spawned;
    const child = spawned.child;
    spawned.status.then(() => {
      this.#exited = true;
      spawned.end();
    });
    this.#stderrDone = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(-4_000);
      }
    })().catch(() => {});
    const { client, methods, ndJsonStream } = await loadAcp();
    const app = client({ name: "mm" })
      .onNotification(methods.client.session.update, ({ params }) => {
        const s = this.#sessions.get(params.sessionId);
        if (!s) return;
        s.take(params.update);
        s.opts.onUpdate?.(params.update);
      })
      .onNotification(ALIVE_METHOD, aliveParams, ({ params }) => {
        if (params) this.#sessions.get(params.sessionId)?.watchdog.beat();
      })
      .onRequest(methods.client.session.requestPermission, async ({ params }) => {
        return await this.#permission(params);
      })
      .onRequest(methods.client.elicitation.create, async ({ params }) => {
        return await this.#form(params);
      });
    this.#agent = app.connect(ndJsonStream(child.stdin, child.stdout)).agent;
    await this.#agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {
        fs: { readTextFile: false, writeTextFile: false },
        terminal: false,
        // ask_user's forms, put to this agent's user; warnings as notices, never in the answer.
        elicitation: { form: {} },
        session: { notices: {} },
      },
      clientInfo: { name: "mm", version: VERSION },
    });
  }

  /** A permission request of the child: the watchdog waits while the user is asked. */
  async #permission(req: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const s = this.#sessions.get(req.sessionId);
    // mm's children ask their questions as forms: a dialog of other buttons is not theirs.
    if (!s || req.options.some((o) => !PERMISSION_IDS.has(o.optionId))) {
      return { outcome: { outcome: "cancelled" } };
    }
    s.watchdog.hold();
    try {
      const title = req.toolCall.title ?? "a tool call";
      const change = contentDiff(req.toolCall.content);
      const allowed = await s.opts.decide(title, s.opts.signal, req.toolCall.toolCallId, change)
        .catch(() => false);
      const option = req.options.find((o) =>
        allowed ? o.kind === "allow_once" : o.kind === "reject_once"
      ) ??
        req.options.find((o) => o.kind.startsWith(allowed ? "allow" : "reject"));
      if (!option) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    } finally {
      s.watchdog.release();
    }
  }

  /**
   * A form of the child's ask_user: its questions, prefixed `<agent> asks: `, put to this agent's
   * user; the watchdog waits meanwhile. Nobody to ask answers so (`_meta.mm.nobody`).
   */
  async #form(req: CreateElicitationRequest): Promise<CreateElicitationResponse> {
    const sessionId = (req as { sessionId?: string }).sessionId;
    const s = sessionId !== undefined ? this.#sessions.get(sessionId) : undefined;
    const form = formQuestions(req, `${this.name} asks: `);
    if (!form) return { action: "decline" };
    const ask = s?.opts.ask;
    if (!s || !ask) return formResponse(form.names, form.questions, { kind: "nobody" });
    s.watchdog.hold();
    try {
      const outcome = await ask(form.questions, s.opts.signal)
        .catch((): AskOutcome => ({ kind: "nobody" }));
      return formResponse(form.names, form.questions, outcome);
    } finally {
      s.watchdog.release();
    }
  }
}
