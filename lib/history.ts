/**
 * The history as it is sent and stored: its messages in the OpenAI chat shape, and the markers a
 * stored history holds (the `/compact` texts, shared by the agent core, session files and
 * search_memory).
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
  }
  | { role: "tool"; tool_call_id: string; content: string };

/** The first line of a `/compact` summary in the history; search_memory leaves it out. */
export const COMPACT_WRAPPER = "[mm: summary of the conversation so far, made by /compact]";

/** What the model answers to a summary, so the conversation reads naturally. */
export const COMPACT_ACK = "Understood. I will continue from this summary.";

/** What `/compact` asks the model. */
export const COMPACT_REQUEST =
  "Summarise our conversation so far so that you can continue the work from the summary alone: " +
  "the user's goal, what was done (files changed, commands run and what they showed), what is " +
  "left to do, and the facts you will need. Plain text, concise, no preamble.";
