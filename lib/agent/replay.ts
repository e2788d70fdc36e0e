/**
 * A stored history as the events its live turns emitted (`--continue`, `--session`, ACP
 * `session/load`): one pure function, so that every front end shows a resumed session by the same
 * rules as it showed it live. The history keeps messages, not statuses, thoughts or diffs; what a
 * failed call was is read back from mm's own texts.
 */

import {
  COMPACT_ACK,
  COMPACT_WRAPPER,
  HOOK_CONTEXT_MARKER,
  type Message,
  NOT_RUN,
} from "../history.ts";
import { answeredText } from "../subagent/ask.ts";
import type { AnyTool } from "../tool.ts";
import { ASK_COMMAND_ID } from "./commands.ts";
import { describeCall } from "./dispatch.ts";
import type { AgentEvent } from "./events.ts";

/** One event of a replayed history: a question as typed, or an event of the core. */
export type ReplayEvent =
  /** A question as the user typed it; `context` is what a preGeneration hook added ("" when none). */
  | { type: "prompt"; text: string; context: string }
  | AgentEvent;

/** The note that stands for a compacted past. */
export const COMPACTED_NOTE = "(the conversation before was compacted into a summary)";

/** A stored user message split into what the user typed and the context a preGeneration hook added. */
export function splitPrompt(content: string): { text: string; context: string } {
  const at = content.indexOf(`\n${HOOK_CONTEXT_MARKER}\n`);
  if (at >= 0) {
    return {
      text: content.slice(0, at),
      context: content.slice(at + HOOK_CONTEXT_MARKER.length + 2),
    };
  }
  if (content.startsWith(`${HOOK_CONTEXT_MARKER}\n`)) {
    return { text: "", context: content.slice(HOOK_CONTEXT_MARKER.length + 1) };
  }
  return { text: content, context: "" };
}

/**
 * Whether a stored output is one of mm's failures: an `[error: …]` (a cancelled command's
 * `[error: cancelled]`, a call not run), or a bracketed line of mm's that says the call was
 * refused, denied, cancelled, stopped or failed. The live turn marked these `failed`.
 */
export function failedOutput(output: string): boolean {
  if (output.startsWith("[error:") || output === NOT_RUN) return true;
  const first = output.split("\n", 1)[0];
  const last = output.trimEnd().split("\n").at(-1) ?? "";
  const bracketed = (line: string) => line.startsWith("[") && line.endsWith("]");
  const said =
    /rejected by the user|denied by a hook|was cancelled|stopped before finishing|failed: |gave no answer/;
  return (bracketed(first) && said.test(first)) || (bracketed(last) && /^\[ask_agent: /.test(last));
}

/** The `/ask` exchange of `user` and `answer`, when they are one: the agent and its prompt. */
function askExchange(
  user: string,
  answer: Message | undefined,
): { agent: string; prompt: string; text: string } | undefined {
  const m = user.match(/^\/ask (\S+) ([\s\S]*)$/);
  if (!m || answer?.role !== "assistant" || typeof answer.content !== "string") return undefined;
  const head = `${m[1]} answered:\n`;
  if (!answer.content.startsWith(head)) return undefined;
  return { agent: m[1], prompt: m[2], text: answer.content.slice(head.length) };
}

/**
 * The events `history` (without its system prompt, or with it: it is skipped) would have emitted
 * live: each question as a `prompt` (without the hook's context, which it carries apart); the
 * model's text; each call as `tool_call` then `tool_result` with its stored output, `failed` when
 * it was one of mm's failures; an asked agent's answer as its `nested` text with the call's
 * `<agent> answered (N characters)`; an answered `/ask` as its call; a compacted past as one
 * `notice` ({@linkcode COMPACTED_NOTE}).
 */
export function replay(history: readonly Message[], tools: readonly AnyTool[]): ReplayEvent[] {
  const events: ReplayEvent[] = [];
  const calls = new Map<string, { name: string; agent?: string }>();
  const emojiOf = (name: string) => tools.find((t) => t.name === name)?.emoji ?? "❔";
  for (let i = 0; i < history.length; i++) {
    const m = history[i];
    if (m.role === "system") continue;
    if (m.role === "user") {
      if (m.content.startsWith(COMPACT_WRAPPER)) {
        events.push({ type: "notice", message: COMPACTED_NOTE });
        const ack = history[i + 1];
        if (ack?.role === "assistant" && ack.content === COMPACT_ACK && !ack.tool_calls?.length) {
          i++;
        }
        continue;
      }
      const ask = askExchange(m.content, history[i + 1]);
      if (ask) {
        const d = describeCall(
          tools,
          "ask_agent",
          JSON.stringify({ agent: ask.agent, prompt: ask.prompt }),
        );
        events.push(
          { type: "prompt", text: m.content, context: "" },
          {
            type: "tool_call",
            id: ASK_COMMAND_ID,
            name: "ask",
            kind: "other",
            emoji: "🗣",
            summary: d.summary,
            input: d.input,
          },
          {
            type: "nested",
            call: ASK_COMMAND_ID,
            event: { agent: ask.agent, type: "text", text: ask.text },
          },
          {
            type: "tool_result",
            id: ASK_COMMAND_ID,
            name: "ask",
            output: ask.text,
            failed: false,
            display: answeredText(ask.agent, ask.text),
          },
        );
        i++;
        continue;
      }
      events.push({ type: "prompt", ...splitPrompt(m.content) });
    } else if (m.role === "assistant") {
      if (m.content) events.push({ type: "text", text: m.content });
      for (const call of m.tool_calls ?? []) {
        const d = describeCall(tools, call.function.name, call.function.arguments);
        const input = d.input as { agent?: unknown } | undefined;
        const agent = d.name === "ask_agent" && typeof input?.agent === "string"
          ? input.agent
          : undefined;
        calls.set(call.id, { name: d.name, agent });
        events.push({ type: "tool_call", id: call.id, emoji: emojiOf(d.name), ...d });
      }
    } else {
      const call = calls.get(m.tool_call_id);
      if (!call) continue;
      calls.delete(m.tool_call_id);
      const failed = failedOutput(m.content);
      const tool = tools.find((t) => t.name === call.name);
      if (call.agent && !failed) {
        events.push({
          type: "nested",
          call: m.tool_call_id,
          event: { agent: call.agent, type: "text", text: m.content },
        });
      }
      events.push({
        type: "tool_result",
        id: m.tool_call_id,
        name: call.name,
        output: m.content,
        failed,
        ...(tool?.preview === false ? { preview: false } : {}),
        ...(call.agent && !failed ? { display: answeredText(call.agent, m.content) } : {}),
      });
    }
  }
  return events;
}
