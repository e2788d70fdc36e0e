/**
 * What a server says a request cost (its `usage`, llama.cpp's `timings`, Ollama's counts), read
 * leniently: a count that is missing, zero, negative or absurd is no count, and mm estimates in
 * its place (lib/agent/model_call.ts).
 */

/** The server's count of one request. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens the server had cached (not read again). */
  cachedTokens?: number;
  /** Generation speed as the server measured it. */
  tokensPerSecond?: number;
}

/** More tokens than any window holds: a count above it is a server's fault. */
const ABSURD = 100_000_000;

/** `n` when it is a whole count from `min` below the absurd; undefined otherwise. */
function count(n: unknown, min: number): number | undefined {
  return typeof n === "number" && Number.isInteger(n) && n >= min && n < ABSURD ? n : undefined;
}

/** `n` when it is a speed a machine can have; undefined otherwise. */
function speed(n: unknown): number | undefined {
  return typeof n === "number" && Number.isFinite(n) && n > 0 && n < 1_000_000 ? n : undefined;
}

/**
 * The usage of an OpenAI-compatible answer (`usage`, with llama.cpp's `timings` beside it), or
 * undefined when it names no believable prompt count.
 */
export function openaiUsage(usage: unknown, timings?: unknown): Usage | undefined {
  // deno-lint-ignore no-explicit-any
  const u = usage as any;
  // deno-lint-ignore no-explicit-any
  const t = timings as any;
  const prompt = count(u?.prompt_tokens, 1);
  const completion = count(u?.completion_tokens, 0);
  if (prompt === undefined || completion === undefined) return undefined;
  const out: Usage = { promptTokens: prompt, completionTokens: completion };
  const cached = count(u?.prompt_tokens_details?.cached_tokens, 0) ?? count(t?.cache_n, 0);
  if (cached !== undefined && cached <= prompt) out.cachedTokens = cached;
  const tps = speed(t?.predicted_per_second);
  if (tps !== undefined) out.tokensPerSecond = tps;
  return out;
}

/** The usage of Ollama's last native line (`prompt_eval_count`, `eval_count`, `eval_duration` ns). */
export function ollamaUsage(done: unknown): Usage | undefined {
  // deno-lint-ignore no-explicit-any
  const d = done as any;
  const prompt = count(d?.prompt_eval_count, 1);
  const completion = count(d?.eval_count, 0);
  if (prompt === undefined || completion === undefined) return undefined;
  const out: Usage = { promptTokens: prompt, completionTokens: completion };
  const ns = count(d?.eval_duration, 1);
  const tps = ns !== undefined ? speed(completion / (ns / 1e9)) : undefined;
  if (tps !== undefined) out.tokensPerSecond = tps;
  return out;
}
