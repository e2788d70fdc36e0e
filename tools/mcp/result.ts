/**
 * What the model reads of an MCP call (docs/mcp.md, "What the model sees"): the text content
 * joined; structured content as compact JSON when there is no text; an image, an audio clip or a
 * binary resource as one line (`[image/png, 34 KB, not shown to the model]`); a result marked
 * `isError` as a failed call, its text after `[<tool> failed: …`, so that the model does not read
 * the server's message as what it asked for; every text cut to `maxOutput` like bash's.
 */

import { truncateMiddle } from "../../lib/text.ts";
import type { McpCallOutcome, McpResult, ToolResult } from "../../lib/tool.ts";
import { CANCELLED_TEXT, timeoutText } from "../_command.ts";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A size in the words of the one-line placeholders: `512 bytes`, `34 KB`, `1.2 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The bytes base64 text `data` stands for. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(clean.length * 3 / 4) - padding);
}

/** The line that stands for content the model is not shown: `[image/png, 34 KB, not shown to the model]`. */
export function notShownText(mimeType: string, bytes: number): string {
  return `[${mimeType}, ${sizeText(bytes)}, not shown to the model]`;
}

/** One content block as text. */
function blockText(block: unknown): string {
  if (!isObject(block)) return "";
  const type = typeof block.type === "string" ? block.type : "unknown";
  const data = typeof block.data === "string" ? block.data : "";
  const mime = typeof block.mimeType === "string" && block.mimeType ? block.mimeType : undefined;
  switch (type) {
    case "text":
      return typeof block.text === "string" ? block.text : "";
    case "image":
    case "audio":
      return notShownText(mime ?? type, base64Bytes(data));
    case "resource": {
      const r = isObject(block.resource) ? block.resource : {};
      if (typeof r.text === "string") return r.text;
      const rMime = typeof r.mimeType === "string" && r.mimeType ? r.mimeType : "binary data";
      const uri = typeof r.uri === "string" ? `${r.uri}: ` : "";
      return `[${uri}${rMime}, ${
        sizeText(base64Bytes(typeof r.blob === "string" ? r.blob : ""))
      }, not shown to the model]`;
    }
    case "resource_link": {
      const uri = typeof block.uri === "string" ? block.uri : "";
      const name = typeof block.name === "string" && block.name ? ` (${block.name})` : "";
      return `[resource link: ${uri}${name}]`;
    }
    default:
      return `[${type} content, not shown to the model]`;
  }
}

/** Whether a block gives the model text of its own (not a placeholder). */
function isText(block: unknown): boolean {
  if (!isObject(block)) return false;
  if (block.type === "text") return typeof block.text === "string" && block.text !== "";
  return block.type === "resource" && isObject(block.resource) &&
    typeof block.resource.text === "string";
}

/** The text of a result: its blocks joined, or its structured content when no block has text. */
export function resultText(result: McpResult): string {
  const parts = result.content.map(blockText).filter((t) => t !== "");
  if (!result.content.some(isText) && result.structuredContent !== undefined) {
    parts.unshift(JSON.stringify(result.structuredContent));
  }
  return parts.join("\n");
}

/**
 * What a call of a tool of `server` gives the model, cut to `maxOutput`; `tool` is the name the
 * model called it by (`fs_read_file`, or `fs read_file` through mcp_call).
 */
export function callOutput(
  server: string,
  tool: string,
  outcome: McpCallOutcome,
  maxOutput: number,
): ToolResult {
  switch (outcome.kind) {
    case "result": {
      const text = resultText(outcome.result);
      if (!outcome.result.isError) return { output: truncateMiddle(text, maxOutput) };
      return { output: truncateMiddle(failedText(tool, text), maxOutput), failed: true };
    }
    case "down":
      return { output: notRunningText(server, outcome.reason), failed: true };
    case "timeout":
      return { output: timeoutText(outcome.ms), failed: true };
    case "cancelled":
      return { output: CANCELLED_TEXT, failed: true };
    case "error":
      return { output: serverErrorText(server, outcome.message), failed: true };
    case "malformed":
      return { output: malformedText(server, tool, outcome.problem), failed: true };
  }
}

/** The answer when the server's result has the wrong shape: what was wrong (bounded by its maker). */
export function malformedText(server: string, tool: string, problem: string): string {
  return `[error: ${server} answered ${tool} with a result mm cannot read: ${problem}]`;
}

/** A result the server marked `isError`: the call failed, and its text says why. */
export function failedText(tool: string, text: string): string {
  const why = text.trim();
  return why ? `[${tool} failed: ${why}]` : `[${tool} failed, with no message]`;
}

/** The answer of every tool of a server that is not running (it failed to start, or died). */
export function notRunningText(server: string, reason: string): string {
  return `[${server} is not running: ${reason} — its tools cannot be used in this conversation]`;
}

/** The answer when the server refused the call with an error of the protocol. */
export function serverErrorText(server: string, message: string): string {
  return `[error: ${server} refused the call: ${message}]`;
}
