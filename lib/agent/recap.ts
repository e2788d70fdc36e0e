/** The counters shown after a turn (tools.md, "Counters shown after a turn"). */

import type { Counter } from "../tool.ts";

/** How many responses of each kind a turn had. */
export type Counters = Record<Counter, number>;

/** Counters at zero. */
export function emptyCounters(): Counters {
  return { commands: 0, fileOps: 0, skills: 0, lsp: 0 };
}

/** The recap line: the counters that are not zero, e.g. `⚙ 2 command(s) · 📝 1 file op(s)`. */
export function recapLine(c: Counters): string {
  const parts: string[] = [];
  if (c.commands) parts.push(`⚙ ${c.commands} command(s)`);
  if (c.fileOps) parts.push(`📝 ${c.fileOps} file op(s)`);
  if (c.skills) parts.push(`📖 ${c.skills} skill(s)`);
  if (c.lsp) parts.push(`🔎 ${c.lsp} lsp call(s)`);
  return parts.join(" · ");
}

/** What one model request cost: the server's count, or mm's estimate (`estimated`). */
export interface RequestUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the server had cached, when it says. */
  cachedTokens?: number;
  /** The context window the request had, when known. */
  contextWindow?: number;
  /** Generation speed: the server's, else completion tokens over the time they took. */
  tokensPerSecond?: number;
  /** True when the server gave no believable count and these are mm's estimates. */
  estimated: boolean;
}

/** A turn's requests summed: tokens in all, the window's fill after the last, the mean speed. */
export interface TurnUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Summed over the requests whose server said; absent when none did. */
  cachedTokens?: number;
  /** The last request's prompt and answer: what the window holds now. */
  contextTokens: number;
  contextWindow?: number;
  tokensPerSecond?: number;
  /** True when any request's count was mm's estimate. */
  estimated: boolean;
  /** Seconds of generation behind `tokensPerSecond` (for the sum). */
  generationSeconds?: number;
}

/** A speed as the events carry it: two decimals (`3333.33`, not `3333.3333333333335`). */
export function roundedSpeed(n: number): number {
  return Math.round(n * 100) / 100;
}

/** A turn with no request yet. */
export function emptyUsage(): TurnUsage {
  return { requests: 0, promptTokens: 0, completionTokens: 0, contextTokens: 0, estimated: false };
}

/** `turn` with request `u` added. */
export function addUsage(turn: TurnUsage, u: RequestUsage): TurnUsage {
  const out: TurnUsage = {
    requests: turn.requests + 1,
    promptTokens: turn.promptTokens + u.promptTokens,
    completionTokens: turn.completionTokens + u.completionTokens,
    contextTokens: u.promptTokens + u.completionTokens,
    estimated: turn.estimated || u.estimated,
  };
  if (u.cachedTokens !== undefined || turn.cachedTokens !== undefined) {
    out.cachedTokens = (turn.cachedTokens ?? 0) + (u.cachedTokens ?? 0);
  }
  const window = u.contextWindow ?? turn.contextWindow;
  if (window !== undefined) out.contextWindow = window;
  let seconds = turn.generationSeconds ?? 0;
  let tokens = turn.tokensPerSecond ? seconds * turn.tokensPerSecond : 0;
  if (u.tokensPerSecond && u.completionTokens > 0) {
    seconds += u.completionTokens / u.tokensPerSecond;
    tokens += u.completionTokens;
  }
  if (seconds > 0) {
    out.generationSeconds = seconds;
    out.tokensPerSecond = roundedSpeed(tokens / seconds);
  }
  return out;
}

/** A count of tokens as the recap shows it: `950`, `3.1k`, `32k`. */
export function tokenCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  return `${Math.round(n / 1000)}k`;
}

/**
 * The recap's figures of a turn: `ctx 3.1k/8k (39%) · cache 94% · 41 tok/s`; an estimate of mm's
 * own (the server counted nothing) reads `~`. Empty when the turn made no request.
 */
export function usageLine(u: TurnUsage): string {
  if (!u.requests) return "";
  const est = u.estimated ? "~" : "";
  const parts: string[] = [];
  const used = tokenCount(u.contextTokens);
  if (u.contextWindow) {
    const pct = Math.round(u.contextTokens / u.contextWindow * 100);
    parts.push(`ctx ${est}${used}/${tokenCount(u.contextWindow)} (${pct}%)`);
  } else parts.push(`ctx ${est}${used}`);
  if (u.cachedTokens !== undefined && u.promptTokens > 0) {
    parts.push(`cache ${Math.round(u.cachedTokens / u.promptTokens * 100)}%`);
  }
  if (u.tokensPerSecond) parts.push(`${est}${Math.round(u.tokensPerSecond)} tok/s`);
  return parts.join(" · ");
}

/** Line mode's recap: the counters, then the turn's figures (`… · ctx 3.1k/8k (39%) · 41 tok/s`). */
export function recapWithUsage(c: Counters, usage?: TurnUsage): string {
  return [recapLine(c), usage ? usageLine(usage) : ""].filter(Boolean).join(" · ");
}
