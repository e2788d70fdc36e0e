/**
 * The tools a conversation declares to the model: those it starts with, those known only once
 * their servers have started (MCP: asked for once, by the first turn or command), less those the
 * server refused the grammar of (found once, before the first answer). The list changes only at
 * those two moments: a changed list throws away the server's prompt cache.
 */

import type { Message } from "../history.ts";
import type { ChatClient, ToolSchema } from "../provider/chat.ts";
import type { AnyTool, MoreTools, UnknownToolAnswer } from "../tool.ts";
import { grammarDroppedText, isGrammarRefusal, refusedTools } from "./grammar.ts";

/** The declared tools of one conversation. */
export class Toolset {
  /** The tools declared now. */
  tools: AnyTool[];
  /** The answer to a name of the more tools' that is not declared. */
  unknown?: UnknownToolAnswer;
  #more?: (signal: AbortSignal) => Promise<MoreTools>;
  #grammarChecked = false;

  /** The tools a conversation starts with, and those to ask for when it first needs them. */
  constructor(tools: AnyTool[], more?: (signal: AbortSignal) => Promise<MoreTools>) {
    this.tools = tools;
    this.#more = more;
  }

  /**
   * Adds the tools of `more`, asked for once; a wait the turn's cancellation interrupts asks again
   * next time. Whether the list (or the unknown-name answer) changed.
   */
  async addMore(signal: AbortSignal): Promise<boolean> {
    const more = this.#more;
    if (!more) return false;
    this.#more = undefined;
    const extra = await more(signal);
    if (signal.aborted) {
      this.#more = more;
      return false;
    }
    this.unknown = extra.unknown;
    if (!extra.tools.length && !extra.unknown) return false;
    this.tools = [...this.tools, ...extra.tools];
    return true;
  }

  /**
   * When `error` is the server refusing the tools' grammar: once in a conversation, before
   * `history` has any answer, the tools at fault are found and left out (docs/mcp.md). The warning
   * to show, or undefined when it was another error or none can be left out (nothing changed).
   */
  async dropRefused(
    error: unknown,
    chat: ChatClient,
    schemas: ToolSchema[],
    history: readonly Message[],
    signal: AbortSignal,
  ): Promise<string | undefined> {
    if (!isGrammarRefusal(error) || signal.aborted || this.#grammarChecked) return undefined;
    if (history.some((m) => m.role === "assistant")) return undefined;
    this.#grammarChecked = true;
    const refused = await refusedTools(chat, schemas, signal);
    if (!refused.length) return undefined;
    const names = refused.map((i) => this.tools[i].name);
    this.tools = this.tools.filter((_, i) => !refused.includes(i));
    return grammarDroppedText(names);
  }
}
