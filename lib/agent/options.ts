/** What the agent core is given: the configuration, the model, the tools and the front end's ways. */

import type { Config } from "../config/config.ts";
import type { AskPermission } from "../permissions/prompt.ts";
import type { ChatClient } from "../provider/chat.ts";
import type { AnyTool, MoreTools, ToolContext } from "../tool.ts";
import type { TurnKeeper } from "../undo/keeper.ts";
import type { Warmup } from "../provider/warmup.ts";
import type { AgentEvent } from "./events.ts";

/** What the core needs from the outside world. */
export interface AgentOptions {
  config: Config;
  chat: ChatClient;
  /** The declared tools. */
  tools: AnyTool[];
  /**
   * Tools known only once their servers have started (MCP): asked for once, by the first turn (or
   * command), and declared after `tools` for the rest of the conversation; their `unknown` answers
   * the names of theirs that are not declared. A wait the turn's `signal` interrupts (it resolves
   * at once) is asked for again by the next turn.
   */
  moreTools?: (signal: AbortSignal) => Promise<MoreTools>;
  systemPrompt: string;
  /** The tools' context for one turn. */
  context(signal: AbortSignal): ToolContext;
  askPermission: AskPermission;
  emit(event: AgentEvent): void;
  /** Called after every step (a message added to the history, an error recorded). */
  onStep?: () => Promise<void>;
  /** The session file's id when sessions are on: the hooks' `session` field. */
  sessionId?: () => string | undefined;
  /** Keeps what each turn changes, for `/undo` (lib/undo/); absent: turns cannot be taken back. */
  keeper?: TurnKeeper;
  /**
   * The warm-ups of the server's cache (line and window mode): the prompt's prefix is sent ahead
   * when the conversation starts, after `/compact` and after a command changed the tools; every
   * turn, command and `/compact` stops the one in flight first.
   */
  warmup?: Warmup;
}
