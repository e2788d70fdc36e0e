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
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { AgentRef, Config } from "../config/config.ts";
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

/** What a child's permission request is answered with: allowed or not. */
export type Decide = (title: string, signal: AbortSignal) => Promise<boolean>;

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

/** How one question ended. */
export type AskResult =
  | { kind: "answered"; answer: string }
  | { kind: "failed"; reason: string }
  | { kind: "stopped"; answer: string; reason: string };

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
  /** The text collected per session, and the decision of its permission requests. */
  #sessions = new Map<
    string,
    { text: string; decide: Decide; question?: AskQuestion; signal: AbortSignal }
  >();

  /** An agent of `config.mmConfigs`, not started yet. */
  constructor(name: string, ref: AgentRef, config: Config) {
    this.name = name;
    this.file = agentFilePath(ref, config);
    this.yolo = childYolo(ref, config);
  }

  /** Asks `prompt` in a fresh session in `cwd`; never throws. */
  async ask(
    prompt: string,
    cwd: string,
    signal: AbortSignal,
    decide: Decide,
    question?: AskQuestion,
  ): Promise<AskResult> {
    try {
      await this.#start();
    } catch (e) {
      return { kind: "failed", reason: this.#reason(e) };
    }
    const agent = this.#agent!;
    const { methods } = await loadAcp();
    let sessionId: string;
    try {
      sessionId = (await agent.request(methods.agent.session.new, { cwd, mcpServers: [] }))
        .sessionId;
    } catch (e) {
      return { kind: "failed", reason: this.#reason(e) };
    }
    const state = { text: "", decide, question, signal };
    this.#sessions.set(sessionId, state);
    const onAbort = () => {
      agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
    };
    signal.addEventListener("abort", onAbort);
    try {
      const r = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: prompt }],
      });
      if (r.stopReason === "end_turn") return { kind: "answered", answer: state.text.trim() };
      const reason = r.stopReason === "cancelled" ? "cancelled" : `stopped (${r.stopReason})`;
      return { kind: "stopped", answer: state.text.trim(), reason };
    } catch (e) {
      const reason = signal.aborted ? "cancelled" : this.#reason(e);
      return { kind: "stopped", answer: state.text.trim(), reason };
    } finally {
      signal.removeEventListener("abort", onAbort);
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
        const u = params.update;
        if (!s || u.sessionUpdate !== "agent_message_chunk") return;
        if (u.content.type === "text") s.text += u.content.text;
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

  async #permission(req: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const s = this.#sessions.get(req.sessionId);
    const title = req.toolCall.title ?? "a tool call";
    if (req.options.some((o) => !PERMISSION_IDS.has(o.optionId))) {
      // A question of the child's ask_user, as buttons: the asking agent's user answers it.
      const choices = req.options.filter((o) =>
        o.kind !== "reject_once" && o.kind !== "reject_always"
      );
      const chosen = s?.question
        ? await s.question(title, choices.map((o) => o.name), s.signal).catch(() => undefined)
        : undefined;
      const option = choices.find((o) => o.name === chosen) ??
        req.options.find((o) => o.kind.startsWith("reject"));
      if (!option) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    }
    const allowed = s ? await s.decide(title, s.signal).catch(() => false) : false;
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
