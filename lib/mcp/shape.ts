/**
 * Answers of the wrong shape, said in a few bounded words: a JSON-RPC result that is not an
 * object (which the SDK would drop as an unknown message, leaving the request to its timeout) is
 * turned into an error that names it ({@linkcode guardAnswers}); a `tools/call` result whose
 * content is not an array of blocks is found by {@linkcode resultProblem}.
 */

import type { SdkTransport } from "./sdk.ts";

/** The JSON-RPC error code of an answer that is not an object (an implementation-defined one). */
export const MALFORMED_CODE = -32099;

/** Requests remembered awaiting their answer: past this, the oldest are forgotten. */
const MAX_ASKED = 1000;

/** Characters shown of a value in a problem's words. */
const PREVIEW = 60;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value in a few words: `a string ("ok")`, `an array ([1,2])`, `null`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (isObject(value)) return "an object";
  let json: string;
  if (typeof value === "string") {
    json = JSON.stringify(value.length > PREVIEW ? value.slice(0, PREVIEW + 1) : value);
  } else {
    try {
      json = JSON.stringify(value) ?? String(value);
    } catch {
      json = String(value);
    }
  }
  const shown = json.length > PREVIEW + 2 ? `${json.slice(0, PREVIEW + 1)}…` : json;
  const kind = Array.isArray(value) ? "an array" : `a ${typeof value}`;
  return `${kind} (${shown})`;
}

/** What is wrong with a `tools/call` result's shape, or undefined when mm can read it. */
export function resultProblem(raw: Record<string, unknown>): string | undefined {
  const content = raw.content;
  if (content === undefined) {
    // The older protocol's `toolResult`, or structured content alone, are read as they are.
    if (raw.toolResult !== undefined || raw.structuredContent !== undefined) return undefined;
    return "it has no content";
  }
  if (!Array.isArray(content)) return `content is ${describeValue(content)}, not an array`;
  for (const [i, block] of content.entries()) {
    if (!isObject(block)) return `content[${i}] is ${describeValue(block)}, not an object`;
    if (typeof block.type !== "string") return `content[${i}] has no type`;
    if (block.type === "text" && typeof block.text !== "string") {
      return `content[${i}].text is ${describeValue(block.text)}, not a string`;
    }
  }
  return undefined;
}

/**
 * Makes `transport` answer a request whose result is not an object with an error of
 * {@linkcode MALFORMED_CODE} (`answered initialize with a string ("ok"), not an object`) instead
 * of a message the SDK drops. Call it before the client connects.
 */
export function guardAnswers(transport: SdkTransport): void {
  const t = transport as unknown as {
    send(message: unknown, options?: unknown): Promise<void>;
    onmessage?: (message: unknown, extra?: unknown) => void;
  };
  const asked = new Map<unknown, string>();
  const send = t.send.bind(t);
  t.send = (message, options) => {
    if (isObject(message) && message.id !== undefined && typeof message.method === "string") {
      asked.set(message.id, message.method);
      if (asked.size > MAX_ASKED) asked.delete(asked.keys().next().value);
    }
    return send(message, options);
  };
  let handler: ((message: unknown, extra?: unknown) => void) | undefined = t.onmessage;
  Object.defineProperty(t, "onmessage", {
    configurable: true,
    get: () => handler && ((message: unknown, extra?: unknown) => handler?.(fix(message), extra)),
    set: (h) => handler = h,
  });
  const fix = (message: unknown): unknown => {
    if (!isObject(message) || message.method !== undefined || !asked.has(message.id)) {
      return message;
    }
    const method = asked.get(message.id)!;
    asked.delete(message.id);
    if (!("result" in message) || isObject(message.result)) return message;
    const what = describeValue(message.result);
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: MALFORMED_CODE,
        message: `answered ${method} with ${what}, not an object`,
        data: { what },
      },
    };
  };
}
