/**
 * mm's private extensions of the Agent Client Protocol (docs/acp.md, "What mm says to the agent
 * it asks"), written by `mm -acp` and read by an mm that asks it (lib/subagent/). Editors ignore
 * them all. Each extension has one writer and one reader here, so neither side casts.
 */

/** The extension notification of an `mm -acp` whose model streams what shows nothing yet. */
export const ALIVE_METHOD = "_mm/alive";

/** The params of {@linkcode ALIVE_METHOD}. */
export interface AliveParams {
  sessionId: string;
}

/** The params of an {@linkcode ALIVE_METHOD} notification, or undefined when they are not mm's. */
export function aliveParams(params: unknown): AliveParams | undefined {
  const id = (params as { sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof id === "string" ? { sessionId: id } : undefined;
}

/** What `_meta.mm` holds in each place mm writes it. */
export interface MmMeta {
  /** On a `session/prompt` response: the sentence of the failed turn. */
  error?: string | true;
  /** On a `session/update`: the asked agent whose work this update forwards. */
  nested?: string;
  /** On `session/new`: false when nobody can answer the agent's questions. */
  askUser?: boolean;
  /** On an `elicitation/create` answer: nobody could be asked. */
  nobody?: boolean;
  /** On an empty `agent_message_chunk` after each model request: what it cost. */
  usage?: MmUsage;
  /** On an empty `agent_message_chunk` at the end of a turn that answered: its requests summed. */
  turnUsage?: MmUsage;
}

/**
 * A request's (or a turn's) figures, as lib/agent/recap.ts counts them: tokens of the prompt, the
 * answer and the cache, the context window, tokens per second; `estimated` when they are mm's own.
 */
export interface MmUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  contextWindow?: number;
  tokensPerSecond?: number;
  estimated: boolean;
  /** A turn's: how many requests, the window's fill after the last. */
  requests?: number;
  contextTokens?: number;
}

/** `_meta` of the empty chunk that carries a request's usage, or a turn's (`turn`). */
export function usageMeta(usage: MmUsage, turn = false): { mm: MmMeta } {
  return { mm: turn ? { turnUsage: usage } : { usage } };
}

/** The usage an update carries (a request's), or undefined. */
export function usageOf(update: unknown): MmUsage | undefined {
  return mmMeta(update).usage;
}

/** Something that may carry `_meta` (an update, a request's params, a response). */
export type WithMeta = { _meta?: { [key: string]: unknown } | null };

/** The `_meta.mm` of `value`, or an empty one. */
function mmMeta(value: unknown): MmMeta {
  const meta = (value as WithMeta | null | undefined)?._meta;
  const mm = meta?.mm;
  return typeof mm === "object" && mm !== null ? mm as MmMeta : {};
}

/** `_meta` of a `session/prompt` response whose turn failed with `error`. */
export function turnErrorMeta(error: string): { mm: { error: string } } {
  return { mm: { error } };
}

/**
 * The reason of a failed turn from the sentence `mm -acp` put in its `session/prompt` response,
 * without the brackets of `[error: …]`; undefined when the turn did not fail.
 */
export function turnFailure(response: unknown): string | undefined {
  const error = mmMeta(response).error;
  if (typeof error !== "string" || !error.trim()) return undefined;
  return error.trim().replace(/^\[(?:error|mm): ([\s\S]*)\]$/, "$1");
}

/** `_meta` of the agent message chunk that carries a failed turn's sentence. */
export function errorChunkMeta(): { mm: { error: true } } {
  return { mm: { error: true } };
}

/** Whether an update is the sentence of a failed turn: shown in the result, never the answer. */
export function isErrorChunk(update: unknown): boolean {
  return mmMeta(update).error === true;
}

/** `_meta` that marks an update as the work of asked agent `agent`. */
export function nestedMeta(agent: string): { mm: { nested: string } } {
  return { mm: { nested: agent } };
}

/**
 * The asked agent an update comes from when an asked mm forwards the work of an agent it asked in
 * turn; undefined for its own work.
 */
export function nestedAgent(update: unknown): string | undefined {
  const agent = mmMeta(update).nested;
  return typeof agent === "string" ? agent : undefined;
}

/** `_meta` of `session/new`: whether anybody can answer the session's questions. */
export function askUserMeta(askUser: boolean): { mm: { askUser: boolean } } {
  return { mm: { askUser } };
}

/** Whether a `session/new` lets the agent ask its questions: false only when the asker said so. */
export function mayAskUser(params: unknown): boolean {
  return mmMeta(params).askUser !== false;
}

/** `_meta` of a form's answer when nobody could be asked. */
export function nobodyMeta(): { mm: { nobody: true } } {
  return { mm: { nobody: true } };
}

/** Whether a form's answer says nobody could be asked. */
export function isNobody(response: unknown): boolean {
  return mmMeta(response).nobody === true;
}
