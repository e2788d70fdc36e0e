/**
 * The core's face for the front ends: the agent and its events, the conversation's commands, the
 * replay of a stored history, the turn's recap and the system prompt. A front end imports nothing
 * else of lib/agent/ (scripts/check_imports.ts).
 */

export { Agent } from "./agent.ts";
export type { AgentEvent } from "./events.ts";
export {
  attachMentions,
  type CommandOutcome,
  commandsOf,
  Conversation,
  findCommand,
  type ModelHost,
  outcomeLines,
  parseCommand,
  RESUME_HEAD,
  RESUME_OFF_AT_START,
  resumeRangeText,
  sessionLines,
  type SlashCommand,
} from "./commands.ts";
export { replay } from "./replay.ts";
export {
  addUsage,
  type Counters,
  emptyCounters,
  emptyUsage,
  recapLine,
  recapWithUsage,
  tokenCount,
  type TurnUsage,
} from "./recap.ts";
export { systemPrompt } from "./prompt.ts";
export {
  type AnswerChecker,
  compileAnswerSchema,
  schemaErrorText,
  schemaRetryPrompt,
  schemaRetryWarning,
} from "./output_schema.ts";
export type { TurnOutcome } from "./texts.ts";
