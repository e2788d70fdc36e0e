/** ask_user: puts one to four questions to the user and returns the answers (tools.md, `ask_user`). */

import { yesNo } from "../lib/text.ts";
import type { AskOutcome, Question, Tool, ToolResult } from "../lib/tool.ts";
import { plainKey } from "../lib/tool_input.ts";

/** Input of ask_user as the core hands it over: the questions as sent, cleaned by `run`. */
export interface AskUserInput {
  questions: unknown[];
}

/** The most questions one call may ask. */
export const MAX_QUESTIONS = 4;

/** The tool's description, as the model reads it. */
export const ASK_USER_DESCRIPTION =
  "Ask the user 1 to 4 questions and wait for the answers. Use it only when you cannot go on without them.";

/** The `questions` field's description: the question's fields in words, never as `properties`. */
export const QUESTIONS_DESCRIPTION =
  "1 to 4 objects, each with: question; type (choice, multi, text or confirm); options (for choice and multi); default.";

/**
 * The declared schema. The items have no `properties`: llama.cpp would impose them in alphabetical
 * order (`default` before `question`), so the fields are described in words.
 */
export const ASK_USER_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    questions: { type: "array", description: QUESTIONS_DESCRIPTION, items: { type: "object" } },
  },
  required: ["questions"],
};

/** The error for a call without any question. */
export const NO_QUESTION_TEXT =
  "[ask_user: no question — send questions: [{question, type, options}]]";

/** The error for more than four questions. */
export function tooManyText(n: number): string {
  return `[ask_user: ${n} questions — ask at most ${MAX_QUESTIONS} at a time]`;
}

/** The error for question `n` (1-based) without text. */
export function noTextText(n: number): string {
  return `[ask_user: question ${n} has no text]`;
}

/** The error for a `choice` or `multi` question with fewer than two options. */
export function fewOptionsText(n: number, type: "choice" | "multi"): string {
  return `[ask_user: question ${n} is a ${type} question — give it at least two options]`;
}

/** The error for a type that is none of the four nor a synonym; `type` as sent, trimmed. */
export function badTypeText(n: number, type: string): string {
  return `[ask_user: question ${n} has type "${type}" — use choice, multi, text or confirm]`;
}

/** The result when the user declined. */
export const DECLINED_TEXT =
  "[the user declined to answer: do not ask the same thing again; go on without it or stop]";

/** The result when the turn stopped while the question waited. */
export const CANCELLED_TEXT = "[the question was cancelled before the user answered]";

/** The result when nobody can be asked (one-shot mode, `mm --ask`, an editor without forms). */
export const NOBODY_TEXT =
  "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]";

/** The result of answered questions: `The user answered:` then `- <question> → <answer>` lines. */
export function answeredText(questions: Question[], answers: string[]): string {
  const lines = questions.map((q, i) => `- ${q.question} → ${answers[i] ?? ""}`);
  return ["The user answered:", ...lines].join("\n");
}

/** The model's output for how the asking ended; anything but an answer is failed. */
export function outcomeResult(questions: Question[], outcome: AskOutcome): ToolResult {
  switch (outcome.kind) {
    case "answered":
      return { output: answeredText(questions, outcome.answers) };
    case "declined":
      return { output: DECLINED_TEXT, failed: true };
    case "cancelled":
      return { output: CANCELLED_TEXT, failed: true };
    case "nobody":
      return { output: NOBODY_TEXT, failed: true };
  }
}

/** Synonyms of the four types, keyed without case, spaces, `-` or `_` (`Yes-No` is `yesno`). */
const TYPES: Record<string, Question["type"]> = {
  choice: "choice",
  single: "choice",
  select: "choice",
  radio: "choice",
  enum: "choice",
  one: "choice",
  multi: "multi",
  multiple: "multi",
  multiselect: "multi",
  checkbox: "multi",
  checkboxes: "multi",
  many: "multi",
  text: "text",
  input: "text",
  string: "text",
  free: "text",
  freetext: "text",
  confirm: "confirm",
  yesno: "confirm",
  boolean: "confirm",
  bool: "confirm",
  confirmation: "confirm",
};

/** The type a name stands for, ignoring case, spaces, `-` and `_`; undefined when unknown. */
export function questionType(name: string): Question["type"] | undefined {
  const key = name.toLowerCase().replace(/[\s_-]+/g, "");
  return Object.hasOwn(TYPES, key) ? TYPES[key] : undefined;
}

/**
 * `o` with its field names as compared (`Questions`, `Type` are `questions`, `type`), the name
 * written exactly winning when both come.
 */
function folded(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const key = plainKey(k);
    if (!(key in out) || k === key) out[key] = v;
  }
  return out;
}

/** The questions a call's arguments hold, as sent: the list, or one question at the top level. */
export function rawQuestions(given: Record<string, unknown>): unknown[] {
  const args = folded(given);
  let value = args.questions;
  if (typeof value === "string") {
    const inner = parseJSON(value);
    if (inner !== undefined) value = inner;
  }
  if (Array.isArray(value)) return value;
  if (value !== undefined && value !== null && value !== "") return [value];
  const fields = ["question", "prompt", "type", "options", "choices", "default"];
  return fields.some((f) => f in args) ? [args] : [];
}

/** The questions cleaned (tools.md, `ask_user` fields), or the error text of the first fault. */
export function cleanQuestions(
  raw: unknown[],
): { ok: true; questions: Question[] } | { ok: false; error: string } {
  if (raw.length === 0) return { ok: false, error: NO_QUESTION_TEXT };
  if (raw.length > MAX_QUESTIONS) return { ok: false, error: tooManyText(raw.length) };
  const questions: Question[] = [];
  for (const [i, item] of raw.entries()) {
    const cleaned = cleanQuestion(item, i + 1);
    if (typeof cleaned === "string") return { ok: false, error: cleaned };
    questions.push(cleaned);
  }
  return { ok: true, questions };
}

/** One question cleaned, or its error text; `n` is its 1-based number. */
function cleanQuestion(item: unknown, n: number): Question | string {
  if (typeof item === "string") {
    const inner = item.trim().startsWith("{") ? parseJSON(item) : undefined;
    item = inner ?? { question: item };
  }
  const fields: Record<string, unknown> = item !== null && typeof item === "object" &&
      !Array.isArray(item)
    ? folded(item as Record<string, unknown>)
    : {};
  const question = scalarText(fields.question ?? fields.prompt);
  if (!question) return noTextText(n);
  const options = cleanOptions(fields.options ?? fields.choices);
  const typeName = scalarText(fields.type);
  let type: Question["type"];
  if (typeName) {
    const known = questionType(typeName);
    if (!known) return badTypeText(n, typeName);
    type = known;
  } else type = options.length > 0 ? "choice" : "text";
  if ((type === "choice" || type === "multi") && options.length < 2) {
    return fewOptionsText(n, type);
  }
  const kept = type === "choice" || type === "multi" ? options : [];
  const result: Question = { question, type, options: kept };
  const def = cleanDefault(type, kept, fields.default);
  if (def !== undefined) result.default = def;
  return result;
}

/** The options trimmed, empty ones and duplicates ignoring case dropped; a JSON string is read. */
function cleanOptions(value: unknown): string[] {
  if (typeof value === "string") value = parseJSON(value) ?? value;
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const seen = new Set<string>();
  const options: string[] = [];
  for (const item of list) {
    const text = scalarText(item);
    if (!text || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    options.push(text);
  }
  return options;
}

/** The default when it means something for `type`, else undefined. */
function cleanDefault(
  type: Question["type"],
  options: string[],
  value: unknown,
): string | undefined {
  const text = scalarText(value);
  if (!text) return undefined;
  switch (type) {
    case "choice":
      return options.find((o) => o.toLowerCase() === text.toLowerCase());
    case "confirm":
      return yesNo(text);
    case "text":
      return text;
    case "multi":
      return undefined;
  }
}

/** A string, number or boolean as trimmed text; "" for anything else. */
function scalarText(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** ask_user: cleans the questions, asks them through `ctx.ask`, and reports how it went. */
export const askUser: Tool<AskUserInput> = {
  name: "ask_user",
  kind: "other",
  emoji: "❓",
  asks: false,
  declared: (config) => config.askUserTool && !config.structuredOutput,
  description: ASK_USER_DESCRIPTION,
  parameters: {},
  schema: ASK_USER_SCHEMA,
  parse: (args) => ({ ok: true, input: { questions: rawQuestions(args) } }),
  summary: (input) => `${input.questions.length} question(s)`,
  async run(input, ctx) {
    const cleaned = cleanQuestions(input.questions);
    if (!cleaned.ok) return { output: cleaned.error, failed: true };
    const { questions } = cleaned;
    if (!ctx.ask) return outcomeResult(questions, { kind: "nobody" });
    if (ctx.signal.aborted) return outcomeResult(questions, { kind: "cancelled" });
    return outcomeResult(questions, await ctx.ask(questions, ctx.signal));
  },
};
