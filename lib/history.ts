/**
 * The history as it is sent and stored: its messages in the OpenAI chat shape, and the markers a
 * stored history holds (the `/compact` texts, hook context, bash's read-back of a very large output),
 * shared by the agent core, the processes that write them, session files and search_memory.
 */

/** A tool call the model made, with its arguments as the raw text it streamed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of the history, in the OpenAI chat shape. */
export type Message =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
    role: "assistant";
    content: string | null;
    tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    /** What the model thought before it wrote this message (its reasoning), when it did. */
    reasoning_content?: string;
  }
  | { role: "tool"; tool_call_id: string; content: string };

/**
 * Which assistant messages' reasoning a request sends back (`sendReasoning`): `auto`, those after
 * the last question (the turn in progress, as chat templates render it); `always`, every one;
 * `never`, none.
 */
export type SendReasoning = "auto" | "always" | "never";

/**
 * `messages` as a request sends them: the reasoning of assistant messages kept only where `mode`
 * says, every message at its index.
 */
export function sentReasoning(messages: Message[], mode: SendReasoning): Message[] {
  if (mode === "always") return messages;
  let lastUser = -1;
  if (mode === "auto") messages.forEach((m, i) => m.role === "user" && (lastUser = i));
  const keep = (i: number) => mode === "auto" && i > lastUser;
  if (!messages.some((m, i) => hasReasoning(m) && !keep(i))) return messages;
  return messages.map((m, i) => keep(i) ? m : withoutReasoning(m));
}

/** `m` without its reasoning (compaction drops it). */
export function withoutReasoning(m: Message): Message {
  if (!hasReasoning(m)) return m;
  const { reasoning_content: _, ...rest } = m as Extract<Message, { role: "assistant" }>;
  return rest;
}

function hasReasoning(m: Message): boolean {
  return m.role === "assistant" && m.reasoning_content !== undefined;
}

/** The first line of a `/compact` summary in the history; search_memory leaves it out. */
export const COMPACT_WRAPPER = "[mm: summary of the conversation so far, made by /compact]";

/** What the model answers to a summary, so the conversation reads naturally. */
export const COMPACT_ACK = "Understood. I will continue from this summary.";

/** What `/compact` asks the model. */
export const COMPACT_REQUEST =
  "Summarise our conversation so far so that you can continue the work from the summary alone: " +
  "the user's goal, what was done (files changed, commands run and what they showed), what is " +
  "left to do, and the facts you will need. Plain text, concise, no preamble.";

/** The line before hook context in a prompt or an output; search_memory stops at it. */
export const HOOK_CONTEXT_MARKER = "[context added by a hook]";

/** Put between the two ends of an output too large to read back (tools.md, `bash`). */
export const TOO_LARGE_MARKER = "\n[... output too large to read back in full ...]\n";

/** The answer to a call that never ran: its turn stopped first (or its run crashed). */
export const NOT_RUN = "[error: not run: the turn was stopped]";

/**
 * `messages` (a stored history, each with its turn) with every tool call that has no `tool`
 * answer answered by {@linkcode NOT_RUN}, right after the answers its step has: a run killed in the
 * middle of a call (`kill -9`) leaves such a call, and OpenAI and strict chat templates refuse a
 * history that holds one. A `tool` answer whose call is not right before it (a session file edited
 * by hand) is left out, for the same reason.
 */
export function answerUnanswered<T extends { message: Message }>(
  messages: readonly T[],
  answer: (id: string, like: T) => T,
): T[] {
  const out: T[] = [];
  let open: { ids: Set<string>; like: T } | undefined;
  const close = () => {
    if (open) { for (const id of open.ids) out.push(answer(id, open.like)); }
    open = undefined;
  };
  for (const item of messages) {
    const m = item.message;
    if (m.role === "tool" && open?.ids.has(m.tool_call_id)) {
      open.ids.delete(m.tool_call_id);
      out.push(item);
      continue;
    }
    if (m.role === "tool") continue; // an answer without its call
    close();
    out.push(item);
    if (m.role === "assistant" && m.tool_calls?.length) {
      open = { ids: new Set(m.tool_calls.map((c) => c.id)), like: item };
    }
  }
  close();
  return out;
}

/** A message of a stored history with the turn it belongs to. */
export interface TurnMessage {
  message: Message;
  turn: number;
}

/**
 * A stored history as it may be sent again when a conversation resumes: every call without its
 * answer answered by {@linkcode NOT_RUN} in its turn (see {@linkcode answerUnanswered}).
 */
export function resumable(earlier: readonly TurnMessage[]): TurnMessage[] {
  return answerUnanswered(earlier, (id, like) => ({
    message: { role: "tool", tool_call_id: id, content: NOT_RUN },
    turn: like.turn,
  }));
}

/**
 * `messages` as strict chat templates accept them: a question left without an answer (its turn
 * failed or was cancelled before the model wrote anything) and the question after it go out as one
 * user message, joined by a blank line, so that roles alternate. The history keeps both.
 */
export function alternating(messages: Message[]): Message[] {
  if (!messages.some((m, i) => m.role === "user" && messages[i - 1]?.role === "user")) {
    return messages;
  }
  const out: Message[] = [];
  for (const m of messages) {
    const last = out.at(-1);
    if (m.role === "user" && last?.role === "user") {
      out[out.length - 1] = { role: "user", content: `${last.content}\n\n${m.content}` };
    } else out.push(m);
  }
  return out;
}

/** A failure recorded for the session file's `errors` array. */
export interface RecordedError {
  time: string;
  where: "generation" | "tool" | "hook" | "session";
  message: string;
}

/** What a compacted past becomes: the summary under its wrapper line, and its acknowledgement. */
export function summaryMessages(notes: string): Message[] {
  return [
    { role: "user", content: `${COMPACT_WRAPPER}\n${notes}` },
    { role: "assistant", content: COMPACT_ACK },
  ];
}

/** One turn of the conversation: its number and its prompt. */
export interface TurnPrompt {
  turn: number;
  prompt: string;
}

/** The turns of a history (`turns[i]` the turn of `history[i]`), oldest first, with their prompts. */
export function turnPrompts(history: readonly Message[], turns: readonly number[]): TurnPrompt[] {
  const out: TurnPrompt[] = [];
  history.forEach((m, i) => {
    const turn = turns[i];
    if (turn < 1 || m.role !== "user" || out.at(-1)?.turn === turn) return;
    out.push({ turn, prompt: typeof m.content === "string" ? m.content : "" });
  });
  return out;
}
