/**
 * An agent of `mmConfigs` run as a child `mm -acp` (tools.md, `ask_agent`): started on its first
 * question and reused, a fresh ACP session per question, stopped when mm exits. The child's
 * `agent_message_chunk` text is the answer; its permission requests are decided by `decide`.
 */

import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  ClientContext,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { AgentRef, Config } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { VERSION } from "../version.ts";

type AcpModule = typeof import("npm:@agentclientprotocol/sdk@2.4.0");
let acpModule: Promise<AcpModule> | undefined;

/** The ACP SDK, loaded on the first question: most runs never ask an agent. */
function loadAcp(): Promise<AcpModule> {
  return acpModule ??= import("npm:@agentclientprotocol/sdk@2.4.0");
}

/** How deep asked agents may nest: the top agent is level 0, its asked agents level 1, theirs 2. */
export const MAX_ASK_DEPTH = 2;

/** This process's level of asking (`MM_ASK_DEPTH`, 0 when unset). */
export function askDepth(): number {
  const n = Number(Deno.env.get("MM_ASK_DEPTH") ?? "0");
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The reason a question is refused for depth, or undefined when it may be asked. */
export function depthRefusal(depth = askDepth()): string | undefined {
  if (depth < MAX_ASK_DEPTH) return undefined;
  return `asked agents nest at most ${MAX_ASK_DEPTH} levels deep and this agent is already at level ${depth} (MM_ASK_DEPTH) — do the task yourself`;
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

/** What a child's permission request for its call `id` is answered with: allowed or not. */
export type Decide = (title: string, signal: AbortSignal, id: string) => Promise<boolean>;

/**
 * A question of the child's ask_user put as a dialog (options other than the permission buttons):
 * the option chosen, or undefined to decline.
 */
export type AskQuestion = (
  title: string,
  options: string[],
  signal: AbortSignal,
) => Promise<string | undefined>;

/** The option ids of mm's own permission dialog (lib/frontend/acp/permission.ts). */
const PERMISSION_IDS = new Set(["allow_once", "allow_always", "reject_once"]);

/** How one question ended; `silent`: the watchdog stopped it after `ms` without an update. */
export type AskResult =
  | { kind: "answered"; answer: string }
  | { kind: "failed"; reason: string }
  | { kind: "stopped"; answer: string; reason: string }
  | { kind: "silent"; answer: string; ms: number };

/** How one question is asked. */
export interface AskOptions {
  /** The session's working directory. */
  cwd: string;
  /** Cancels the question (`session/cancel`). */
  signal: AbortSignal;
  /** Answers the child's permission requests. */
  decide: Decide;
  /** Answers the child's questions; absent: they are declined. */
  question?: AskQuestion;
  /** Every `session/update` of the question's session, as it comes. */
  onUpdate?: (update: SessionUpdate) => void;
  /**
   * Milliseconds the child may stay silent (no update, no request) once the prompt is sent before
   * the question is cancelled: the asking agent's `watchdogTimeout`. Waiting for the user's answer
   * to a request of the child does not count.
   */
  watchdog?: number;
}

/** The reason a silent child's answer stops, for the model: `it sent nothing for 2m (watchdogTimeout)`. */
export function silenceReason(ms: number): string {
  return `it sent nothing for ${formatDuration(ms)} (watchdogTimeout)`;
}

/** The error that ends the asking turn when the asked agent stays silent. */
export function silenceText(agent: string, ms: number): string {
  const d = formatDuration(ms);
  return `[error: ${agent} sent nothing for ${d} — turn stopped by the watchdog (watchdogTimeout: ${d}); its model may still be loading or its server overloaded: try again, or raise watchdogTimeout]`;
}

/** The state of one question's session, for the notification and request handlers. */
interface SessionState {
  text: string;
  opts: AskOptions;
  /** A sign of life: the watchdog starts again. */
  beat(): void;
  /** The user is being asked: the watchdog waits until `resume`. */
  pause(): void;
  resume(): void;
}

/** One asked agent's child process and connection. */
export class ChildAgent {
  readonly name: string;
  readonly file: string;
  readonly yolo: boolean;
  #child?: Deno.ChildProcess;
  #agent?: ClientContext;
  #starting?: Promise<void>;
  #stderr = "";
  #exited = false;
  /** The open questions, by ACP session id. */
  #sessions = new Map<string, SessionState>();

  /** An agent of `config.mmConfigs`, not started yet. */
  constructor(name: string, ref: AgentRef, config: Config) {
    this.name = name;
    this.file = agentFilePath(ref, config);
    this.yolo = childYolo(ref, config);
  }

  /** Asks `prompt` in a fresh session in `opts.cwd`; never throws. */
  async ask(prompt: string, opts: AskOptions): Promise<AskResult> {
    try {
      await this.#start();
    } catch (e) {
      return { kind: "failed", reason: this.#reason(e) };
    }
    const agent = this.#agent!;
    const { methods } = await loadAcp();
    let sessionId: string;
    try {
      sessionId = (await agent.request(methods.agent.session.new, {
        cwd: opts.cwd,
        mcpServers: [],
      })).sessionId;
    } catch (e) {
      return { kind: "failed", reason: this.#reason(e) };
    }
    const cancel = () => {
      agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
    };
    let silent: (ms: number) => void = () => {};
    const silence = new Promise<{ silent: number }>((resolve) => {
      silent = (ms) => resolve({ silent: ms });
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waiting = 0;
    const ms = opts.watchdog;
    const state: SessionState = {
      text: "",
      opts,
      beat: () => {
        clearTimeout(timer);
        if (ms && waiting === 0) timer = setTimeout(() => silent(ms), ms);
      },
      pause: () => {
        waiting++;
        clearTimeout(timer);
      },
      resume: () => {
        waiting--;
        state.beat();
      },
    };
    this.#sessions.set(sessionId, state);
    opts.signal.addEventListener("abort", cancel);
    try {
      const request = agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: prompt }],
      });
      request.catch(() => {});
      state.beat();
      const r = await Promise.race([request, silence]);
      const answer = state.text.trim();
      if ("silent" in r) {
        cancel();
        return { kind: "silent", answer, ms: r.silent };
      }
      if (r.stopReason === "end_turn") return { kind: "answered", answer };
      const reason = r.stopReason === "cancelled" ? "cancelled" : `stopped (${r.stopReason})`;
      return { kind: "stopped", answer, reason };
    } catch (e) {
      const reason = opts.signal.aborted ? "cancelled" : this.#reason(e);
      return { kind: "stopped", answer: state.text.trim(), reason };
    } finally {
      clearTimeout(timer);
      opts.signal.removeEventListener("abort", cancel);
      this.#sessions.delete(sessionId);
    }
  }

  /** Stops the child: closes its stdin, then kills it if it lingers. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exited) return;
    await child.stdin.close().catch(() => {});
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }, 2_000);
    await child.status.catch(() => {});
    clearTimeout(timer);
  }

  /** Kills the child at once (at exit). */
  kill(): void {
    if (!this.#child || this.#exited) return;
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
  }

  #reason(e: unknown): string {
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
    }
    this.#starting ??= this.#spawn();
    return this.#starting;
  }

  async #spawn(): Promise<void> {
    const { program, args } = mmCommand();
    const child = new Deno.Command(program, {
      args: [...args, "-acp", "-c", this.file, `--yolo=${this.yolo}`],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { MM_ASK_DEPTH: String(askDepth() + 1) },
    }).spawn();
    this.#child = child;
    child.status.then(() => {
      this.#exited = true;
    });
    (async () => {
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
        s.beat();
        const u = params.update;
        if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
          s.text += u.content.text;
        }
        s.opts.onUpdate?.(u);
      })
      .onRequest(methods.client.session.requestPermission, async ({ params }) => {
        return await this.#permission(params);
      });
    this.#agent = app.connect(ndJsonStream(child.stdin, child.stdout)).agent;
    await this.#agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: "mm", version: VERSION },
    });
  }

  /** A request of the child: the watchdog waits while the user is asked. */
  async #permission(req: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const s = this.#sessions.get(req.sessionId);
    s?.pause();
    try {
      return await this.#answer(req, s);
    } finally {
      s?.resume();
    }
  }

  async #answer(
    req: RequestPermissionRequest,
    s: SessionState | undefined,
  ): Promise<RequestPermissionResponse> {
    const title = req.toolCall.title ?? "a tool call";
    if (req.options.some((o) => !PERMISSION_IDS.has(o.optionId))) {
      // A question of the child's ask_user, as buttons: the asking agent's user answers it.
      const choices = req.options.filter((o) =>
        o.kind !== "reject_once" && o.kind !== "reject_always"
      );
      const ask = s?.opts.question;
      const chosen = ask
        ? await ask(title, choices.map((o) => o.name), s.opts.signal).catch(() => undefined)
        : undefined;
      const option = choices.find((o) => o.name === chosen) ??
        req.options.find((o) => o.kind.startsWith("reject"));
      if (!option) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    }
    const allowed = s
      ? await s.opts.decide(title, s.opts.signal, req.toolCall.toolCallId).catch(() => false)
      : false;
    const option =
      req.options.find((o) => allowed ? o.kind === "allow_once" : o.kind === "reject_once") ??
        req.options.find((o) => o.kind.startsWith(allowed ? "allow" : "reject"));
    if (!option) return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  }
}

/** The children of this process, by `mmConfigs` name; all of them are stopped at exit. */
const children = new Map<string, ChildAgent>();
let exitHook = false;

/** The running (or ready to start) child of agent `name`. */
export function childAgent(name: string, ref: AgentRef, config: Config): ChildAgent {
  let child = children.get(name);
  if (!child) {
    child = new ChildAgent(name, ref, config);
    children.set(name, child);
  }
  if (!exitHook) {
    exitHook = true;
    globalThis.addEventListener("unload", () => {
      for (const c of children.values()) c.kill();
    });
  }
  return child;
}

/** Stops every child (a front end that ends calls it; exit kills them anyway). */
export async function closeChildren(): Promise<void> {
  await Promise.all([...children.values()].map((c) => c.close()));
  children.clear();
}
