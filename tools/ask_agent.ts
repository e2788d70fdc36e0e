/** ask_agent (tools.md): hands a task to an agent of `mmConfigs` and returns its answer. */

import type { Message } from "../lib/history.ts";
import { type AgentInfo, failedText } from "../lib/subagent/ask.ts";
import type { Conversation, Tool } from "../lib/tool.ts";

/** The input of a call. */
export interface AskAgentInput {
  agent: string;
  prompt: string;
  with_context?: boolean;
}

/** The fixed paragraph that opens the description. */
export const ASK_AGENT_PARAGRAPH =
  "Hand a task to another agent and get its answer back as this tool's result. Use it when a task " +
  "fits one of the agents below better than you do. The agent does not see this conversation " +
  "unless with_context is true: make the prompt complete and self-contained (what to do, where, " +
  "what to answer with).";

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
 * The refusal of a call that cannot ask anyone (an unknown agent, an empty prompt), checked before
 * permission is asked; undefined for a call that may go on.
 */
export function askRefusal(input: AskAgentInput, names: string[]): string | undefined {
  if (!names.includes(input.agent)) return unknownAgentText(input.agent, names);
  if (!input.prompt?.trim()) return emptyPromptText(input.agent);
  return undefined;
}

/**
 * The input as the tool takes it: the agent's name without the spaces a model may add, and as
 * `mmConfigs` spells it when only case or `-`/`_` differ (`Helper` for `helper`).
 */
export function normalInput(input: AskAgentInput, names: string[]): AskAgentInput {
  const agent = String(input.agent ?? "").trim();
  return { ...input, agent: agentName(agent, names) ?? agent };
}

/** `name` as `names` spell it, its case and `-`/`_` forgiven; undefined when none is it. */
export function agentName(name: string, names: readonly string[]): string | undefined {
  const folded = (n: string) => n.toLowerCase().replaceAll("-", "_");
  return names.find((n) => n === name) ?? names.find((n) => folded(n) === folded(name));
}

/** What ask_agent answers when this front end cannot ask agents. */
export const NO_AGENTS = "agents cannot be asked in this mode";

/** The ask_agent tool of the agents found at start-up (their files read once, by lib/subagent/ask.ts). */
export function askAgentTool(infos: AgentInfo[]): Tool<AskAgentInput> {
  const names = infos.map((a) => a.name);
  return {
    name: "ask_agent",
    kind: "other",
    emoji: "🗣",
    // Gated like bash, but a call that will be refused anyway asks nothing first.
    asks: (input) => askRefusal(normalInput(input, names), names) === undefined,
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
      const input = normalInput(raw, names);
      return askSummary(infos.find((a) => a.name === input.agent), input.agent, input.prompt);
    },
    async run(raw, ctx) {
      const input = normalInput(raw, names);
      const refusal = askRefusal(input, names);
      if (refusal !== undefined) return { output: refusal, failed: true };
      if (!ctx.agents) return { output: failedText(input.agent, NO_AGENTS), failed: true };
      const message = input.with_context
        ? childPrompt(input.prompt, ctx.conversation, ctx.config.maxOutput)
        : input.prompt;
      const { result } = await ctx.agents.ask({
        agent: input.agent,
        prompt: input.prompt,
        message,
        maxOutput: ctx.config.maxOutput,
      }, ctx);
      return result;
    },
  };
}
