/**
 * Tool calls a model wrote as text, for servers that pass them through (no tool-call parser for the
 * model's template): Hermes `<tool_call>` JSON, Qwen3-Coder `<function=…>` blocks, Mistral
 * `[TOOL_CALLS]`, a message that is nothing but call JSON or Python calls, and the special-token
 * dialects of tokens.ts (Llama, gpt-oss, DeepSeek, Granite, Kimi, LFM2, Nemotron, Command R, Gemma's
 * `tool_code`), GLM's inside `<tool_call>`. Only declared tool names count, and a
 * call shown in a code block or an inline code span mid-prose is an example, never a call
 * (docs/small-models.md, "Text-form tool calls").
 */

import { declared, findTextCalls, type KnownTools, type TextCall } from "./dialects.ts";
import { proseOutside } from "./prose.ts";

/** The calls a message holds, and its prose outside them ("" when there is none). */
export interface TextCalls {
  calls: TextCall[];
  text: string;
}

/** How the answer is read. */
export interface TextCallOptions {
  /**
   * The answer must be JSON (`structuredOutput` is set): a message that is only JSON, bare or in
   * one fence, is the answer and never a call. Calls after a marker still count.
   */
  jsonAnswer?: boolean;
}

/** The calls `text` holds as text, with the prose left around them, or undefined when none. */
export function textToolCalls(
  text: string,
  tools: KnownTools,
  options: TextCallOptions = {},
): TextCalls | undefined {
  const found = findTextCalls(text, declared(tools), !options.jsonAnswer);
  return found && { calls: found.calls, text: proseOutside(text, found.spans) };
}
