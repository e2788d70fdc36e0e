/**
 * Word search over the session files (tools.md, `search_memory`): the search behind the
 * `search_memory` tool and the `/memory <words>` command. Apart from reading the files, which it
 * does one at a time, each dropped once searched, it is plain functions of plain data.
 */

import { join } from "node:path";
import { setImmediate } from "node:timers";
import { COMPACT_WRAPPER, HOOK_CONTEXT_MARKER } from "../history.ts";
import type { Message } from "../history.ts";
import { excerpt, whole } from "./excerpt.ts";
import { countBits, queryWords, WordMatcher } from "./fold.ts";
import {
  FileReader,
  skimCanonical,
  type SkimmedMessage,
  type SkimmedSession,
  skimSession,
} from "./skim.ts";

/** The first line of a `/compact` summary: the notes follow it. Not searched itself. */
export const SUMMARY_WRAPPER = COMPACT_WRAPPER;

/** The line a `preGeneration` hook's context follows in a question: from it on, nothing is searched. */
export const HOOK_CONTEXT_LINE = HOOK_CONTEXT_MARKER;

/** How mm's own notes start (a blocked prompt's marker is one): never searched. */
export const NOTE_PREFIX = "[mm: ";

/** Hits shown when `limit` is 0 or absent. */
export const DEFAULT_LIMIT = 10;
/** The most hits one search shows. */
export const MAX_LIMIT = 50;

/** Milliseconds of searching between two yields to the event loop (cancellation, display). */
export const YIELD_EVERY = 10;

/** The result of a query with no word in it. */
export const EMPTY_QUERY_TEXT = "⚠️ nothing to search: give one or more words";

/** The advice under "no hit". */
export const NO_HIT_ADVICE =
  "The search matches words, not meanings: try again with other words — synonyms, or the words in the language the earlier conversation was likely held in (often English).";

/** The query as the result lines quote it: on one line, trimmed. */
export function quotedQuery(query: string): string {
  return query.replace(/\s+/g, " ").trim();
}

/** `🔎 N hit(s) for "<query>" in <dir>`. */
export function hitsHeadline(n: number, query: string, dir: string): string {
  return `🔎 ${n} hit(s) for "${quotedQuery(query)}" in ${dir}`;
}

/** `🔎 no hit for "<query>" in <dir>`, then the advice on the next line. */
export function noHitText(query: string, dir: string): string {
  return `🔎 no hit for "${quotedQuery(query)}" in ${dir}\n${NO_HIT_ADVICE}`;
}

/** The note after the hits when more matched than `limit` lets through. */
export function moreHitsText(n: number, limit: number): string {
  return limit >= MAX_LIMIT
    ? `[${n} more hit(s) not shown: give more words]`
    : `[${n} more hit(s) not shown: give more words, or a higher limit (at most ${MAX_LIMIT})]`;
}

/** The note after the hits when `maxOutput` cut the list. */
export function cutHitsText(n: number): string {
  return `[${n} more hit(s) not shown: the output reached maxOutput]`;
}

/** The last line when session files could not be read or parsed: up to three names. */
export function skippedText(names: readonly string[]): string {
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? ", …" : "");
  return `[skipped ${names.length} unreadable session file(s): ${shown}]`;
}

// ---------------------------------------------------------------------------------------------
// What is searched in a session

/** What a hit is. */
export type HitKind = "question" | "answer" | "summary";

/** One message that holds at least one word. */
export interface Hit {
  session: string;
  /** The session's `updated`, as stored. */
  updated: string;
  /** `updated` in milliseconds (NaN when it cannot be read). */
  time: number;
  turn: number;
  kind: HitKind;
  /** The searched text (a question without hook context, a summary without its wrapper). */
  text: string;
  /** The answer a question carries, if its turn ended on one. */
  answer?: string;
  /** How many distinct words it holds (a question: with its answer's). */
  score: number;
  /** The message's index in the file, the last tie-breaker. */
  index: number;
}

/** A question's text without the context a `preGeneration` hook appended (from its line on). */
export function withoutHookContext(text: string): string {
  let at = text.startsWith(HOOK_CONTEXT_LINE) ? 0 : -1;
  for (let from = 0; at < 0;) {
    const i = text.indexOf(`\n${HOOK_CONTEXT_LINE}`, from);
    if (i < 0) return text;
    const next = text.charAt(i + 1 + HOOK_CONTEXT_LINE.length);
    if (next === "" || next === "\n" || next === "\r") at = i;
    else from = i + 1;
  }
  return text.slice(0, at).trimEnd();
}

/** A message as far as the search cares: a role, a text, whether it carries tool calls. */
type Searchable = Pick<SkimmedMessage, "role" | "content" | "toolCalls">;

/** Whether a message is a `/compact` summary: a user message whose first line is the wrapper. */
export function isSummary(m: Searchable): boolean {
  return m.role === "user" && typeof m.content === "string" &&
    (m.content === SUMMARY_WRAPPER || m.content.startsWith(`${SUMMARY_WRAPPER}\n`));
}

/** Whether a message is an answer: the model's text, without tool calls, not one of mm's notes. */
export function isAnswer(m: Searchable): boolean {
  return m.role === "assistant" && !m.toolCalls && typeof m.content === "string" &&
    /\S/.test(m.content) && !m.content.startsWith(NOTE_PREFIX);
}

/** The messages to leave out, told apart by their role and their text. */
export class Excluded {
  #roles = new Map<string, Set<string>>();
  #lengths = new Set<number>();

  /** The messages of `conversation` that have a text. */
  constructor(conversation: readonly Message[] = []) {
    for (const m of conversation) {
      if (typeof m.content !== "string") continue;
      this.#lengths.add(m.content.length);
      const texts = this.#roles.get(m.role) ?? new Set();
      texts.add(m.content);
      this.#roles.set(m.role, texts);
    }
  }

  /** Whether `m` is one of them: same role, same text. */
  has(m: { role: string; content?: unknown }): boolean {
    return typeof m.content === "string" && this.#lengths.has(m.content.length) &&
      (this.#roles.get(m.role)?.has(m.content) ?? false);
  }
}

/**
 * The turn of each message: as stored, or, in a file where a message has none (written by hand or
 * by another tool), counted: each user message starts the next turn.
 */
export function turnNumbers(messages: readonly SkimmedMessage[]): number[] {
  if (messages.every((m) => m.turn >= 1)) return messages.map((m) => m.turn);
  let turn = 0;
  return messages.map((m) => m.role === "user" ? ++turn : turn);
}

/**
 * The hits of one session: its questions (each carrying the answer its turn ended on, then not a
 * hit of its own), its other answers, its summaries' notes. Messages whose role and text are in
 * `excluded` are neither hits nor carried.
 */
export function sessionHits(
  session: SkimmedSession,
  matcher: WordMatcher,
  excluded: Excluded = new Excluded(),
): Hit[] {
  const messages = session.messages;
  const turns = turnNumbers(messages);
  const time = Date.parse(session.updated);
  const lastAnswer = new Map<number, number>();
  const acks = new Set<number>();
  messages.forEach((m, i) => {
    if (isSummary(m) && messages[i + 1]?.role === "assistant") acks.add(i + 1);
    else if (isAnswer(m) && !acks.has(i)) lastAnswer.set(turns[i], i);
  });
  const hit = (i: number, kind: HitKind, text: string, score: number, answer?: string): Hit => ({
    session: session.id,
    updated: session.updated,
    time,
    turn: turns[i],
    kind,
    text,
    answer,
    score,
    index: i,
  });
  const hits: Hit[] = [];
  const carried = new Set<number>();
  messages.forEach((m, i) => {
    if (m.role !== "user" || typeof m.content !== "string") return;
    if (isSummary(m)) {
      const notes = m.content.slice(SUMMARY_WRAPPER.length + 1);
      const n = countBits(matcher.mask(notes));
      if (n > 0 && !excluded.has(m)) hits.push(hit(i, "summary", notes, n));
      return;
    }
    if (m.content.startsWith(NOTE_PREFIX)) return;
    const question = withoutHookContext(m.content);
    const held = matcher.mask(question);
    if (held === 0 || excluded.has(m)) return;
    const a = lastAnswer.get(turns[i]);
    if (a === undefined || a < i || excluded.has(messages[a])) {
      hits.push(hit(i, "question", question, countBits(held)));
      return;
    }
    const answer = messages[a].content as string;
    carried.add(a);
    hits.push(hit(i, "question", question, countBits(held | matcher.mask(answer)), answer));
  });
  messages.forEach((m, i) => {
    if (!isAnswer(m) || acks.has(i) || carried.has(i)) return;
    const text = m.content as string;
    const n = countBits(matcher.mask(text));
    if (n > 0 && !excluded.has(m)) hits.push(hit(i, "answer", text, n));
  });
  return hits;
}

/** The order of hits: more words first, then the newer session, then the later turn. */
export function compareHits(a: Hit, b: Hit): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.time !== b.time && !Number.isNaN(a.time) && !Number.isNaN(b.time)) return b.time - a.time;
  if (a.updated !== b.updated) return a.updated < b.updated ? 1 : -1;
  if (a.turn !== b.turn) return b.turn - a.turn;
  if (a.session !== b.session) return a.session < b.session ? 1 : -1;
  return b.index - a.index;
}

// ---------------------------------------------------------------------------------------------
// Reading the directory

/** A JSON escape that may stand for a letter: any `\\u` but those of control characters. */
const LETTER_ESCAPE = /\\u(?!00[01][0-9a-f])/i;

/**
 * Whether the raw text of a session file could hold a word in a question, an answer or a summary.
 * False only when no part of the file holds one: JSON escapes stand for characters that are not
 * letters, except `\\u` ones, which let the file through (JSON.stringify writes them only for
 * control characters, which are not, and for lone surrogates).
 */
export function mayHold(raw: string, matcher: WordMatcher): boolean {
  return matcher.any(raw) || LETTER_ESCAPE.test(raw);
}

/** What a search found: the best hits, how many in all, the files that could not be used. */
export interface Found {
  /** The best hits, at most `limit`, in order. */
  hits: Hit[];
  /** Every hit found. */
  total: number;
  /** Names of the files that could not be read, or parsed when they had to be. */
  skipped: string[];
}

/** The `*.json` names of `dir`, sorted (none when it does not exist). */
async function jsonNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.name.endsWith(".json") && (e.isFile || e.isSymlink)) names.push(e.name);
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return [];
    throw e;
  }
  return names.sort();
}

/**
 * Searches every session file of `dir`, one at a time, each dropped once searched: only the best
 * `limit` hits are kept. A file in mm's layout is skimmed ({@linkcode skimCanonical}); any other
 * is parsed only when its raw text could hold a word. A file that cannot be read, or that has to
 * be parsed and cannot, is skipped and named.
 */
export async function findHits(
  dir: string,
  matcher: WordMatcher,
  limit: number,
  exclude: readonly Message[] = [],
  signal?: AbortSignal,
): Promise<Found> {
  const excluded = new Excluded(exclude);
  const names = await jsonNames(dir);
  const best: Hit[] = [];
  const skipped: string[] = [];
  let total = 0;
  const keep = (h: Hit) => {
    total++;
    if (best.length === limit && compareHits(h, best[limit - 1]) >= 0) return;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareHits(best[mid], h) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, h);
    if (best.length > limit) best.pop();
  };
  const reader = new FileReader();
  let since = performance.now();
  for (const name of names) {
    if (performance.now() - since > YIELD_EVERY) {
      // setImmediate, not setTimeout: a nested setTimeout(0) is clamped to 4 ms.
      await new Promise((r) => setImmediate(r));
      since = performance.now();
    }
    if (signal?.aborted) break;
    const path = join(dir, name);
    let raw: string;
    try {
      raw = reader.read(path);
    } catch {
      skipped.push(name);
      continue;
    }
    // mm's own layout is skimmed at once: cheaper than looking for the words in the raw text.
    let session = skimCanonical(raw);
    if (!session) {
      if (!mayHold(raw, matcher)) continue;
      try {
        session = skimSession(path, raw);
      } catch {
        skipped.push(name);
        continue;
      }
    }
    for (const h of sessionHits(session, matcher, excluded)) keep(h);
  }
  return { hits: best, total, skipped };
}

// ---------------------------------------------------------------------------------------------
// The result text

/** A session's `updated` as `YYYY-MM-DD HH:MM`, in UTC; as stored when it is not a date. */
export function hitDate(updated: string): string {
  const t = Date.parse(updated);
  return Number.isNaN(t) ? updated : new Date(t).toISOString().slice(0, 16).replace("T", " ");
}

/** One hit's lines: `<id> · <date> · turn <n> · <kind>`, the excerpt, `→ <answer>` for a question. */
export function formatHit(hit: Hit, words: readonly string[]): string {
  const lines = [
    `${hit.session} · ${hitDate(hit.updated)} · turn ${hit.turn} · ${hit.kind}`,
    excerpt(hit.text, words),
  ];
  if (hit.answer !== undefined) lines.push(`→ ${excerpt(hit.answer, words)}`);
  return lines.join("\n");
}

/**
 * The result text of what was found: the headline, a blank line, then the hits separated by blank
 * lines, a note when hits were left out, and the skipped files; within `maxOutput` characters.
 */
export function formatFound(
  found: Found,
  query: string,
  dir: string,
  words: readonly string[],
  limit: number,
  maxOutput = Infinity,
): string {
  const tail = found.skipped.length ? `\n${skippedText(found.skipped)}` : "";
  if (found.total === 0) return capText(noHitText(query, dir) + tail, maxOutput);
  const blocks = found.hits.map((h) => formatHit(h, words));
  const compose = (k: number) => {
    const parts = [hitsHeadline(k, query, dir), ...blocks.slice(0, k)];
    const more = found.total - k;
    if (more > 0) parts.push(k < blocks.length ? cutHitsText(more) : moreHitsText(more, limit));
    return parts.join("\n\n") + tail;
  };
  for (let k = blocks.length; k >= 1; k--) {
    const text = compose(k);
    if (text.length <= maxOutput) return text;
  }
  return capText(compose(1), maxOutput);
}

/** `text` cut to `max` characters, ending with `…` when cut. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  return text.slice(0, whole(text, max - 1, -1)) + "…";
}

/** The inputs of a search. */
export interface SearchOptions {
  /** The sessions directory, already resolved: it is quoted in the result. */
  dir: string;
  query: string;
  /** Hits at most: 0 or absent is 10, capped at 50. */
  limit?: number;
  /** The conversation in progress: its messages are left out wherever they are stored. */
  exclude?: readonly Message[];
  /** Characters of the result at most; absent: no cap. */
  maxOutput?: number;
  /** Stops reading files when aborted; what was found so far is returned. */
  signal?: AbortSignal;
}

/** The number of hits to show for a `limit` as given. */
export function effectiveLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit) || limit <= 0) return DEFAULT_LIMIT;
  return Math.min(Math.floor(limit), MAX_LIMIT);
}

/**
 * The whole search: the result text of tools.md `search_memory` for `query` over the session
 * files of `dir`, leaving out the conversation in progress.
 */
export async function searchSessions(opts: SearchOptions): Promise<string> {
  const words = queryWords(opts.query);
  if (words.length === 0) return EMPTY_QUERY_TEXT;
  const limit = effectiveLimit(opts.limit);
  const matcher = new WordMatcher(words);
  const found = await findHits(opts.dir, matcher, limit, opts.exclude ?? [], opts.signal);
  return formatFound(found, opts.query, opts.dir, matcher.words, limit, opts.maxOutput);
}
