/** The texts of `/compact`, shared by the agent core and search_memory. */

/** The first line of a `/compact` summary in the history; search_memory leaves it out. */
export const COMPACT_WRAPPER = "[mm: summary of the conversation so far, made by /compact]";

/** What the model answers to a summary, so the conversation reads naturally. */
export const COMPACT_ACK = "Understood. I will continue from this summary.";

/** What `/compact` asks the model. */
export const COMPACT_REQUEST =
  "Summarise our conversation so far so that you can continue the work from the summary alone: " +
  "the user's goal, what was done (files changed, commands run and what they showed), what is " +
  "left to do, and the facts you will need. Plain text, concise, no preamble.";
