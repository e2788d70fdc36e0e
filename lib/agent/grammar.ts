/**
 * A server that refuses the grammar of a tool's schema (llama.cpp turns every tool's parameters
 * into a grammar, and some builds fail on keywords mm's sanitising leaves, or on schemas it never
 * sees: docs/mcp.md): the tools at fault found once, by halving the declarations over small
 * requests, so that the conversation can go on without them.
 */

import type { ChatClient, ToolSchema } from "../provider/chat.ts";
import { ProviderError } from "../provider/errors.ts";
import { warningText } from "../presentation.ts";

/** Whether `e` is the server refusing a request for its tools' grammar. */
export function isGrammarRefusal(e: unknown): e is ProviderError {
  return e instanceof ProviderError && e.kind === "http" && /grammar/i.test(e.message);
}

/** The warning that names the tools left out, and why. */
export function grammarDroppedText(names: string[]): string {
  const list = names.join(", ");
  return warningText(
    `the server cannot parse the grammar of ${list}: left out of this conversation — mm doctor names what to exclude`,
  );
}

/** Whether the server takes a request declaring `tools`: its first delta is enough. */
async function takes(chat: ChatClient, tools: ToolSchema[], turn: AbortSignal): Promise<boolean> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  turn.addEventListener("abort", stop);
  try {
    await chat.stream({
      messages: [{ role: "user", content: "Say OK." }],
      tools,
      signal: controller.signal,
      onDelta: stop,
    });
    return true;
  } catch (e) {
    if (controller.signal.aborted && !turn.aborted) return true;
    if (isGrammarRefusal(e)) return false;
    throw e;
  } finally {
    turn.removeEventListener("abort", stop);
  }
}

/**
 * The indices of the declarations the server refuses even alone: the whole list's halves asked in
 * turn, each refused part halved again. Empty when the server takes each part (the refusal was of
 * them together, or of something else).
 */
export async function refusedTools(
  chat: ChatClient,
  tools: ToolSchema[],
  signal: AbortSignal,
): Promise<number[]> {
  const refused: number[] = [];
  const search = async (part: number[]): Promise<void> => {
    if (!part.length || await takes(chat, part.map((i) => tools[i]), signal)) return;
    if (part.length === 1) {
      refused.push(part[0]);
      return;
    }
    const half = Math.ceil(part.length / 2);
    await search(part.slice(0, half));
    await search(part.slice(half));
  };
  const all = tools.map((_, i) => i);
  const half = Math.ceil(all.length / 2);
  await search(all.slice(0, half));
  await search(all.slice(half));
  return refused;
}
