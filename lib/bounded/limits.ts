/**
 * Every limit on what mm reads from another program in one place: a model server's lines, answers
 * and bodies, an MCP server's messages, a language server's messages. Past one, the read stops
 * with one clear error instead of buffering without end (docs/oneshot.md, docs/mcp.md).
 */

/** One mebibyte. */
export const MiB = 1024 * 1024;

/** Bytes of one line of a model server's event stream or NDJSON stream (one SSE event's data too). */
export const MAX_STREAM_LINE = 8 * MiB;

/** Characters of one streamed answer: its content, reasoning and calls' arguments summed. */
export const MAX_ANSWER = 32 * MiB;

/** Bytes of a model server's answer that is not streamed (one JSON completion). */
export const MAX_BODY = 32 * MiB;

/** Bytes of a model server's error answer kept for its message (the rest is not read). */
export const MAX_ERROR_BODY = 64 * 1024;

/** Bytes of one message from an MCP server: a JSON-RPC line over stdio, a body or SSE line over HTTP. */
export const MAX_MCP_MESSAGE = 32 * MiB;

/** Bytes of one message from a language server (its `Content-Length`). */
export const MAX_LSP_MESSAGE = 32 * MiB;

/** A limit in words: `8 MiB`, `64 KiB`, `100 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
