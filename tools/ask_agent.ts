/** ask_agent (tools.md): hands a task to an agent of `mmConfigs` and returns its answer. */

import type { AgentRef, Config } from "../lib/config/config.ts";
import { loadConfig } from "../lib/config/load.ts";
import { runHooks, withHookContext } from "../lib/hooks/run.ts";
import type { Message } from "../lib/history.ts";
import { truncateMiddle as truncate } from "../lib/text.ts";
import type { Conversation, Tool, ToolContext, ToolResult } from "../lib/tool.ts";
import {
  agentFilePath,
  childAgent,
  depthRefusal,
  silenceReason,
  silenceText,
} from "../lib/subagent/child.ts";
import { type AskResult, type Decide } from "../lib/subagent/child_question.ts";
import { nestedEvent } from "../lib/subagent/updates.ts";

/** The input of a call. */
export interface AskAgentInput {
  agent: string;
  prompt: string;
  with_context?: boolean;
}

/** What mm knows of an asked agent's file without starting it. */
export interface AgentInfo {
  name: string;
  ref: AgentRef;
  /** `<description>`, else the file's `acp.title` unless built in, else `(no description)`. */
  purpose: string;
  provider?: string;
  model?: string;
}

/** The fixed paragraph that opens the description. */
export const ASK_AGENT_PARAGRAPH =
  "Hand a task to another agent and get its answer back as this tool's result. Use it when a task " +
  "fits one of the agents below better than you do. The agent does not see this conversation " +
  "unless with_context is true: make the prompt complete and self-contained (what to do, where, " +
  "what to answer with).";

/** Reads the agents' files cheaply (parse only) for their purpose, provider and model. */
export function agentInfos(config: Config): AgentInfo[] {
  const env = Deno.env.toObject();
  return Object.keys(config.mmConfigs).sort().map((name) => {
    const ref = config.mmConfigs[name];
    let file: Config | undefined;
    try {
      file = loadConfig({ flag: agentFilePath(ref, config), env, cwd: Deno.cwd() });
    } catch {
      file = undefined;
    }
    const title = file && file.acp.title !== "mm" ? file.acp.title : undefined;
    const purpose = ref.description?.trim() || title || "(no description)";
    return { name, ref, purpose, provider: file?.provider, model: file?.model };
  });
}

/** The tool's description: the paragraph, then one line per agent. */
export function askAgentDescription(infos: AgentInfo[]): string {
  return `${ASK_AGENT_PARAGRAPH}\n\nAgents:\n${
    infos.map((a) => `  ${a.name} — ${a.purpose}`).join("\n")
  }`;
}

/** The error for an agent `mmConfigs` does not name. */
export function unknownAgentText(name: string, names: string[]): string {
  return `[ask_agent: unknown agent "${name}" — agents: ${names.join(", ")}]`;
}

/** The error for an empty prompt. */
export function emptyPromptText(agent: string): string {
  return `[ask_agent: the prompt is empty — say what ${agent} must do]`;
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

/**
 * The conversation sent before the prompt with `with_context`: the history the turn started from,
 * up to and including the turn's question (nothing the turn did after it, so never this call), as
 * questions, answers and one line per tool call, never tool outputs. Whole lines are kept, newest
 * first, within `max` characters; a newest line longer than that keeps its end, after `…`.
 */
export function contextText(history: readonly Message[], max: number): string {
  const question = history.findLastIndex((m) => m.role === "user");
  const lines: string[] = [];
  for (const m of history.slice(0, question + 1)) {
    if (m.role === "user") lines.push(`User: ${m.content}`);
    else if (m.role === "assistant") {
      if (m.content?.trim()) lines.push(`Assistant: ${m.content.trim()}`);
      for (const c of m.tool_calls ?? []) {
        lines.push(`Tool call: ${c.function.name} ${c.function.arguments.replace(/\s+/g, " ")}`);
      }
    }
  }
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const chars = [...lines[i]];
    const cost = chars.length + (kept.length ? 1 : 0);
    if (size + cost > max) {
      if (kept.length === 0 && max > 1) {
        kept.push(`…${chars.slice(chars.length - max + 1).join("")}`);
      }
      break;
    }
    kept.unshift(lines[i]);
    size += cost;
  }
  return kept.join("\n");
}

/** The prompt the asked agent receives. */
export function childPrompt(prompt: string, conversation: Conversation | undefined, max: number) {
  if (!conversation) return prompt;
  const context = contextText(conversation.history, max);
  if (!context) return prompt;
  return `The conversation so far, for context:\n${context}\n\nYour task:\n${prompt}`;
}

/** The display's summary: `<agent> (<provider>/<model>) — <first line of the prompt>`. */
export function askSummary(info: AgentInfo | undefined, agent: string, prompt: string): string {
  const target = info?.provider ? ` (${info.provider}${info.model ? `/${info.model}` : ""})` : "";
  const first = (prompt ?? "").trim().split("\n")[0] ?? "";
  // No prompt: no empty tail; the call's error says what is missing.
  return first ? `${agent}${target} — ${first}` : `${agent}${target}`;
}

/**
 * Decides a child's permission requests: its yolo, else the asking agent's user (asked
 * `<agent> asks: <title>`), else reject.
 */
export function decider(yolo: boolean, agent: string, ctx: ToolContext): Decide {
  return async (title, _signal, callId) => {
    if (yolo) return true;
    if (!ctx.askPermission) return false;
    const answer = await ctx.askPermission(
      `${agent} · ${title}`,
      `${agent} asks: ${title}`,
      {},
      { agent, callId },
    );
    return answer.kind !== "reject";
  };
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
 * The refusal of a call that cannot ask anyone (an unknown agent, an empty prompt), checked before
 * permission is asked; undefined for a call that may go on.
 */
export function askRefusal(input: AskAgentInput, names: string[]): string | undefined {
  if (!names.includes(input.agent)) return unknownAgentText(input.agent, names);
  if (!input.prompt?.trim()) return emptyPromptText(input.agent);
  return undefined;
}

/** The input as the tool takes it: the agent's name without the spaces a model may add. */
export function normalInput(input: AskAgentInput): AskAgentInput {
  return { ...input, agent: String(input.agent ?? "").trim() };
}

/** The ask_agent tool of `config`'s agents (built at start-up: it reads their files). */
export function askAgentTool(config: Config): Tool<AskAgentInput> {
  const infos = agentInfos(config);
  const names = infos.map((a) => a.name);
  return {
    name: "ask_agent",
    kind: "other",
    emoji: "🗣",
    // Gated like bash, but a call that will be refused anyway asks nothing first.
    asks: (input) => askRefusal(normalInput(input), names) === undefined,
    declared: (c) => Object.keys(c.mmConfigs).length > 0,
    description: askAgentDescription(infos),
    parameters: {
      agent: { type: "string", description: `The agent to ask: one of ${names.join(", ")}.` },
      prompt: {
        type: "string",
        description: "The task, complete and self-contained.",
        aliases: ["task", "question"],
      },
      with_context: {
        type: "boolean",
        description:
          "Send this conversation (questions, answers, tool calls) before the prompt. Default false.",
        optional: true,
      },
    },
    summary: (raw) => {
      const input = normalInput(raw);
      return askSummary(infos.find((a) => a.name === input.agent), input.agent, input.prompt);
    },
    async run(raw, ctx) {
      const input = normalInput(raw);
      const refusal = askRefusal(input, names);
      if (refusal !== undefined) return { output: refusal, failed: true };
      const info = infos.find((a) => a.name === input.agent)!;
      const agent = info.name;
      const depth = depthRefusal();
      if (depth) return { output: failedText(agent, depth), failed: true };
      const hooks = ctx.config.hooks;
      const timeout = ctx.config.bashTimeout;
      const session = ctx.sessionId ? { session: ctx.sessionId } : {};
      const pre = await runHooks(hooks.preAsk, {
        event: "preAsk",
        agent,
        prompt: input.prompt,
        cwd: ctx.cwd,
        ...session,
      }, timeout);
      for (const f of pre.failures) ctx.hookFailure?.(f);
      if (pre.denied !== undefined) {
        return { output: `[ask denied by a hook: ${pre.denied}]`, failed: true };
      }
      const prompt = withHookContext(
        input.with_context
          ? childPrompt(input.prompt, ctx.conversation, ctx.config.maxOutput)
          : input.prompt,
        pre.context,
      );
      const child = childAgent(agent, info.ref, ctx.config);
      const result = await child.ask(prompt, {
        cwd: ctx.cwd,
        signal: ctx.signal,
        decide: decider(child.yolo, agent, ctx),
        ...(ctx.ask ? { ask: ctx.ask } : {}),
        onUpdate: (update) => {
          const event = nestedEvent(agent, update);
          if (event) ctx.emit?.(event);
        },
        watchdog: ctx.config.watchdogTimeout,
      });
      const out = resultText(agent, result, ctx.config.maxOutput);
      if (out.failed) return out;
      const post = await runHooks(hooks.postAsk, {
        event: "postAsk",
        agent,
        prompt: input.prompt,
        answer: out.output,
        cwd: ctx.cwd,
        ...session,
      }, timeout);
      for (const f of post.failures) ctx.hookFailure?.(f);
      if (post.replace === undefined) {
        return { ...out, output: withHookContext(out.output, post.context) };
      }
      return {
        output: withHookContext(post.replace, post.context),
        display: answeredText(agent, post.replace, true),
      };
    },
  };
}
