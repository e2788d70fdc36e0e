/**
 * Asking an agent of `mmConfigs` (tools.md, `ask_agent`; mm.md §1 `mm --ask`): the depth check,
 * the preAsk hooks, the question to the child `mm -acp`, the postAsk hooks, and the texts of how it
 * ended. One sequence for `ask_agent`, `/ask` (which runs ask_agent) and `mm --ask`, reached through
 * the tools' `agents` port ({@linkcode Agents}).
 */

import type { AgentRef, Config } from "../config/config.ts";
import { loadConfig } from "../config/load.ts";
import { runHooks, withHookContext } from "../hooks/run.ts";
import { truncateMiddle as truncate } from "../text.ts";
import type {
  AgentAnswer,
  AgentQuestion,
  Agents,
  AskingContext,
  ToolContext,
  ToolResult,
} from "../tool.ts";
import { agentFilePath, ChildAgent, silenceReason, silenceText } from "./child.ts";
import type { AskResult, Decide } from "./child_question.ts";
import { nestedEvent } from "./updates.ts";
import { warningText } from "../presentation.ts";

/** What mm knows of an asked agent's file without starting it. */
export interface AgentInfo {
  name: string;
  ref: AgentRef;
  /** `<description>`, else the file's `acp.title` unless built in, else `(no description)`. */
  purpose: string;
  /** The agent file's `acp.title`, unless it is the built-in one. */
  title?: string;
  provider?: string;
  model?: string;
  /** Why its file cannot start it (missing, not a file, invalid); absent when it can. */
  fault?: string;
}

/** How deep asked agents may nest: the top agent is level 0, its asked agents level 1, theirs 2. */
export const MAX_ASK_DEPTH = 2;

/** This process's level of asking (`MM_ASK_DEPTH` of `env`, 0 when unset). */
export function askDepth(env: Record<string, string | undefined>): number {
  const n = Number(env.MM_ASK_DEPTH ?? "0");
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The reason a question is refused for depth, or undefined when it may be asked. */
export function depthRefusal(depth: number): string | undefined {
  if (depth < MAX_ASK_DEPTH) return undefined;
  return `asked agents nest at most ${MAX_ASK_DEPTH} levels deep and this agent is already at level ${depth} (MM_ASK_DEPTH) — do the task yourself`;
}

/** The error for an agent that could not be asked. */
export function failedText(agent: string, reason: string): string {
  return `[ask_agent: ${agent} failed: ${reason}]`;
}

/** The error for an agent that answered nothing. */
export function noAnswerText(agent: string): string {
  return `[ask_agent: ${agent} gave no answer]`;
}

/** The line after what a cancelled or broken run answered. */
export function stoppedText(agent: string, reason: string): string {
  return `[ask_agent: ${agent} stopped before finishing: ${reason}]`;
}

/** What the model reads when a preAsk hook denies the question. */
export function askDeniedText(reason: string): string {
  return `[ask denied by a hook: ${reason}]`;
}

/** The call's own output in the front ends once the answer has streamed (tools.md, Result, Hooks). */
export function answeredText(agent: string, answer: string, replaced = false): string {
  const n = [...answer].length;
  return replaced
    ? `${agent} answered; a hook replaced the answer (${n} characters)`
    : `${agent} answered (${n} characters)`;
}

/**
 * The text of an ask's result for the model (before hooks). A run that stopped shows only its
 * stop line: what it answered has streamed. A silent one also ends the asking turn (`stop`).
 */
export function resultText(agent: string, result: AskResult, max: number): ToolResult {
  if (result.kind === "failed") return { output: failedText(agent, result.reason), failed: true };
  if (result.kind === "stopped" || result.kind === "silent") {
    const reason = result.kind === "silent" ? silenceReason(result.ms) : result.reason;
    const line = stoppedText(agent, reason);
    const answered = result.answer ? `${truncate(result.answer, max)}\n` : "";
    return {
      output: `${answered}${line}`,
      failed: true,
      ...(answered ? { display: line } : {}),
      ...(result.kind === "silent" ? { stop: silenceText(agent, result.ms) } : {}),
    };
  }
  if (!result.answer) return { output: noAnswerText(agent), failed: true };
  return { output: truncate(result.answer, max), display: answeredText(agent, result.answer) };
}

/**
 * Decides a child's permission requests: its yolo, else the asking agent's user (asked
 * `<agent> asks: <title>`), else reject.
 */
export function decider(
  yolo: boolean,
  agent: string,
  ctx: Pick<ToolContext, "askPermission">,
): Decide {
  return async (title, _signal, callId, change) => {
    if (yolo) return true;
    if (!ctx.askPermission) return false;
    const answer = await ctx.askPermission(
      `${agent} · ${title}`,
      `${agent} asks: ${title}`,
      {},
      { agent, callId },
      change,
    );
    return answer.kind !== "reject";
  };
}

/** Reads the agents' files cheaply (parse only) for their purpose, provider, model and fault. */
export function agentInfos(
  config: Config,
  env: Record<string, string>,
  cwd: string,
): AgentInfo[] {
  return Object.keys(config.mmConfigs).sort().map((name) => {
    const ref = config.mmConfigs[name];
    const read = readAgentFile(ref, config, env, cwd);
    const file = read.ok ? read.config : undefined;
    const title = file && file.acp.title !== "mm" ? file.acp.title : undefined;
    const purpose = ref.description?.trim() || title || "(no description)";
    return {
      name,
      ref,
      purpose,
      title,
      provider: file?.provider,
      model: file?.model,
      ...(read.ok ? {} : { fault: read.fault }),
    };
  });
}

/**
 * An asked agent's file, read the way its `mm -acp` reads it, or why it cannot start it: `<path>
 * does not exist`, `<path> is not a file`, or the file's own error (`<path>:<line>:<column>: …`).
 */
export function readAgentFile(
  ref: AgentRef,
  config: Config,
  env: Record<string, string>,
  cwd: string,
): { ok: true; config: Config } | { ok: false; fault: string } {
  const path = agentFilePath(ref, config);
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return { ok: false, fault: `${path} does not exist` };
  }
  if (!info.isFile) return { ok: false, fault: `${path} is not a file` };
  try {
    return { ok: true, config: loadConfig({ flag: path, env, cwd }) };
  } catch (e) {
    return { ok: false, fault: e instanceof Error ? e.message : String(e) };
  }
}

/** The start-up warning of an agent of `mmConfigs` whose file cannot start it. */
export function agentFaultWarning(name: string, fault: string): string {
  return warningText(`agent ${name} of mmConfigs cannot be asked: ${fault}`);
}

/**
 * The agents of `config.mmConfigs` for this process (at asking depth `depth`): each started as a
 * child `mm -acp` on its first question and reused, all of them stopped at exit (the one
 * registry of lib/exec/registry.ts sends them SIGTERM).
 */
export class Subagents implements Agents {
  #config: Config;
  #depth: number;
  #children = new Map<string, ChildAgent>();

  /** The agents of `config`, asked from a process at asking depth `depth`. */
  constructor(config: Config, depth: number) {
    this.#config = config;
    this.#depth = depth;
  }

  /**
   * Asks an agent: the depth check, preAsk (which may deny or add context), the question, and
   * postAsk (which may replace the answer or add context). Never throws.
   */
  async ask(q: AgentQuestion, ctx: AskingContext): Promise<AgentAnswer> {
    const ref = this.#config.mmConfigs[q.agent];
    if (!ref) return { result: { output: failedText(q.agent, "no such agent"), failed: true } };
    const depth = depthRefusal(this.#depth);
    if (depth) return { result: { output: failedText(q.agent, depth), failed: true } };
    // An agent not started yet whose file cannot start it is told so, before any hook runs.
    if (!this.#children.has(q.agent)) {
      const read = readAgentFile(ref, this.#config, Deno.env.toObject(), ctx.cwd);
      if (!read.ok) return { result: { output: failedText(q.agent, read.fault), failed: true } };
    }
    const { hooks, bashTimeout, watchdogTimeout } = ctx.config;
    const session = ctx.sessionId ? { session: ctx.sessionId } : {};
    const { agent, prompt } = q;
    const pre = await runHooks(
      hooks.preAsk,
      {
        event: "preAsk",
        agent,
        prompt,
        cwd: ctx.cwd,
        ...session,
      },
      bashTimeout,
      ctx.signal,
    );
    for (const f of pre.failures) ctx.hookFailure?.(f);
    // A turn cancelled while its hook ran never asks.
    if (pre.cancelled || ctx.signal.aborted) {
      return { result: { output: stoppedText(q.agent, "cancelled"), failed: true } };
    }
    if (pre.denied !== undefined) {
      return { result: { output: askDeniedText(pre.denied), failed: true } };
    }
    const child = this.#child(q.agent, ref);
    const result = await child.ask(withHookContext(q.message, pre.context), {
      cwd: ctx.cwd,
      signal: ctx.signal,
      decide: decider(child.yolo, q.agent, ctx),
      ...(ctx.ask ? { ask: ctx.ask } : {}),
      onUpdate: (update) => {
        const event = nestedEvent(q.agent, update);
        if (event) ctx.emit?.(event);
      },
      watchdog: watchdogTimeout,
    });
    const out = resultText(q.agent, result, q.maxOutput);
    if (out.failed) return { result: out };
    const post = await runHooks(
      hooks.postAsk,
      {
        event: "postAsk",
        agent,
        prompt,
        answer: out.output,
        cwd: ctx.cwd,
        ...session,
      },
      bashTimeout,
      ctx.signal,
    );
    for (const f of post.failures) ctx.hookFailure?.(f);
    if (post.replace === undefined) {
      return {
        result: { ...out, output: withHookContext(out.output, post.context) },
        answer: out.output,
      };
    }
    return {
      result: {
        output: withHookContext(post.replace, post.context),
        display: answeredText(q.agent, post.replace, true),
      },
      answer: post.replace,
    };
  }

  /** Stops every child (a front end that ends calls it; exit kills them anyway). */
  async close(): Promise<void> {
    await Promise.all([...this.#children.values()].map((c) => c.close()));
    this.#children.clear();
  }

  /** The running (or ready to start) child of agent `name`. */
  #child(name: string, ref: AgentRef): ChildAgent {
    let child = this.#children.get(name);
    if (!child) {
      child = new ChildAgent(name, ref, this.#config, this.#depth);
      this.#children.set(name, child);
    }
    return child;
  }
}
