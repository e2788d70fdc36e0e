/** search_memory: words looked up in the saved conversations (tools.md, `search_memory`). */

import { EMPTY_QUERY_TEXT, searchSessions } from "../lib/session/search.ts";
import { sessionsDir } from "../lib/session/store.ts";
import type { Tool } from "../lib/tool.ts";

/** Input of search_memory, after coercion; a left-out `limit` is undefined. */
export interface SearchMemoryInput {
  query: string;
  limit?: number;
}

/** The tool's description, as the model reads it. */
export const SEARCH_MEMORY_DESCRIPTION =
  "Search the earlier conversations (saved sessions) for words: questions, answers and summaries that hold them.";

/** The `query` field's description (tools.md, `search_memory`). */
export const QUERY_DESCRIPTION = "The words to look for.";
/** The `limit` field's description (tools.md, `search_memory`). */
export const LIMIT_DESCRIPTION = "How many hits at most. 0 or absent: 10; capped at 50.";

/** search_memory: reads the session files under `sessions.dir`; never asks, changes nothing. */
export const searchMemory: Tool<SearchMemoryInput> = {
  name: "search_memory",
  kind: "search",
  emoji: "🔎",
  asks: false,
  declared: (config) => config.sessions.enabled && config.sessions.autoSearchMemory,
  description: SEARCH_MEMORY_DESCRIPTION,
  parameters: {
    query: { type: "string", description: QUERY_DESCRIPTION, aliases: ["words", "q", "text"] },
    limit: { type: "integer", description: LIMIT_DESCRIPTION, optional: true },
  },
  summary: (input) => `"${input.query}"`,
  async run(input, ctx) {
    const output = await searchSessions({
      dir: sessionsDir(ctx.cwd, ctx.config.sessions.dir),
      query: input.query,
      limit: input.limit,
      exclude: ctx.conversation?.history ?? [],
      maxOutput: ctx.config.maxOutput,
      signal: ctx.signal,
    });
    return output === EMPTY_QUERY_TEXT ? { output, failed: true } : { output };
  },
};
