/**
 * The MCP SDK (`@modelcontextprotocol/client`, pinned), loaded on first use only: a run with no
 * MCP server never imports it (an import costs about 90 ms), nor resolves its packages. mm uses its protocol layer (the
 * `initialize` handshake, request ids, timeouts, `notifications/cancelled`) and its Streamable
 * HTTP and SSE transports; stdio is mm's own (lib/mcp/stdio.ts), and listing and calling go
 * through `request` with a lenient result schema (lib/mcp/server.ts says why).
 */

import type * as Sdk from "npm:@modelcontextprotocol/client@2.4.0";
import { fetchQuietly } from "../npm_cache.ts";

/** The SDK's module. */
export type McpSdk = typeof Sdk;

/** The SDK's client. */
export type SdkClient = Sdk.Client;

/** A transport the SDK's client connects through. */
export type SdkTransport = Sdk.Transport;

/**
 * The SDK's specifier. Imported through this constant, not a literal: Deno resolves the npm
 * packages of every literal import of the module graph before running anything, dynamic ones
 * included, which cost a run without MCP servers about 5 ms and 2 MiB (docs/performance.md, "MCP
 * servers"). `deno task compile` includes it by name (scripts/compile.ts).
 */
export const SDK_MODULE = "npm:@modelcontextprotocol/client@2.4.0";

/** mm's line while the SDK is fetched, the first time a run from source needs it. */
export const FETCHING_SDK = "mm: fetching the MCP client (first use)…";

/**
 * Fetches the SDK into Deno's cache, quietly, when mm runs from source and it is not there yet
 * (lib/npm_cache.ts): `say` is given {@linkcode FETCHING_SDK} first. Called at start-up, before
 * mm writes anything and while it may still run `deno`, so Deno's `Download` lines never land
 * in mm's output.
 */
export async function prefetchSdk(say: (line: string) => void): Promise<void> {
  await fetchQuietly(SDK_MODULE, () => say(FETCHING_SDK));
}

let loading: Promise<McpSdk> | undefined;

/** The SDK, imported once. */
export function loadSdk(): Promise<McpSdk> {
  loading ??= import(SDK_MODULE) as Promise<McpSdk>;
  return loading;
}

/**
 * A result schema that takes any object as it is (a Standard Schema, which the SDK's `request`
 * accepts): one tool with a bad schema must not reject the whole listing, and a call's result is
 * read by mm itself (lib/mcp/result.ts).
 */
export const ANY_RESULT = {
  "~standard": {
    version: 1 as const,
    vendor: "mm",
    types: undefined as unknown as { input: unknown; output: Record<string, unknown> },
    validate: (value: unknown) =>
      typeof value === "object" && value !== null
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: "expected a JSON object" }] },
  },
};
