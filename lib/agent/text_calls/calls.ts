/**
 * A recognised call and what the recogniser knows of the declared tools; the JSON call objects
 * every dialect reads (`{"name", "arguments"|"parameters"}`, the OpenAI shape, Command R's
 * `tool_name`).
 */

import { parseToolArguments } from "../../tool_input.ts";
import { matchToolName } from "../tool_name.ts";

/** What the recogniser knows of a declared tool: its name, and its parameters' types when known. */
export interface KnownTool {
  name: string;
  parameters?: Record<string, { type: string }>;
}

/** The declared tools, as names or as tools (a tool's parameter types decode `<parameter=…>`). */
export type KnownTools = readonly (string | KnownTool)[];

/** One recognised call: the declared tool's name and its arguments as a JSON object's text. */
export interface TextCall {
  name: string;
  arguments: string;
}

/** Calls and the `[start, end)` ranges of the text they were written in. */
export interface Found {
  calls: TextCall[];
  spans: [number, number][];
}

/** The declared tools as the recogniser reads them. */
export interface Declared {
  names: string[];
  tools: Map<string, KnownTool>;
}

/** `tools` as the recogniser reads them: their names, and each tool by its name. */
export function declared(tools: KnownTools): Declared {
  const list = tools.map((t) => typeof t === "string" ? { name: t } : t);
  return { names: list.map((t) => t.name), tools: new Map(list.map((t) => [t.name, t])) };
}

/** Keys a bare JSON call may have; any other key (`version`, `description`…) makes it data. */
export const CALL_KEYS = new Set(["name", "arguments", "parameters", "type", "id"]);

/**
 * The calls a parsed JSON value stands for: one call object, or an array of them (every element a
 * call). `strict` is for bare JSON: only call keys, arguments present and an object.
 */
export function callsOfValue(
  value: unknown,
  known: Declared,
  strict: boolean,
): TextCall[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (!items.length) return undefined;
  const calls: TextCall[] = [];
  for (const item of items) {
    const call = callOfObject(item, known, strict);
    if (!call) return undefined;
    calls.push(call);
  }
  return calls;
}

function callOfObject(value: unknown, known: Declared, strict: boolean): TextCall | undefined {
  if (!isObject(value)) return undefined;
  let o = value;
  // The OpenAI shape: {"type": "function", "function": {"name", "arguments"}}.
  if (o.name === undefined && isObject(o.function)) {
    if (Object.keys(o).some((k) => k !== "type" && k !== "function" && k !== "id")) {
      return undefined;
    }
    o = o.function;
  }
  if (strict && Object.keys(o).some((k) => !CALL_KEYS.has(k))) return undefined;
  if (o.type !== undefined && o.type !== "function") return undefined;
  // Command R names the tool `tool_name`.
  const called = o.name ?? (strict ? undefined : o.tool_name);
  if (typeof called !== "string") return undefined;
  const name = matchToolName(called.trim(), known.names);
  if (!name) return undefined;
  const raw = o.arguments ?? o.parameters;
  if (raw === undefined) return strict ? undefined : { name, arguments: "{}" };
  const args = argumentsText(raw, strict);
  return args === undefined ? undefined : { name, arguments: args };
}

/**
 * The arguments as JSON text: an object as it is, a string holding JSON repaired and re-encoded.
 * Outside `strict`, anything else is passed on as it came: the call's refusal tells the model.
 */
export function argumentsText(raw: unknown, strict: boolean): string | undefined {
  if (isObject(raw)) return JSON.stringify(raw);
  if (typeof raw === "string") {
    const parsed = parseToolArguments(raw);
    if (parsed.ok) return JSON.stringify(parsed.value);
    return strict ? undefined : raw;
  }
  return strict ? undefined : JSON.stringify(raw);
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
