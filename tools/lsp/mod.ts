/**
 * lsp: definitions, references, hover, symbols, diagnostics and rename through real language
 * servers (tools.md, `lsp`). The servers come from `lsp.servers`, found on the PATH at start-up
 * (lib/lsp/servers.ts); the session's pool reaches the tool through `ctx.lsp`.
 */

import { errorReason } from "../../lib/files.ts";
import { fileUri, LspError } from "../../lib/lsp/client.ts";
import { displayPath } from "../../lib/lsp/format.ts";
import type { AvailableServers } from "../../lib/lsp/servers.ts";
import { cleanSymbol, renameNames } from "../../lib/lsp/symbol.ts";
import { truncateMiddle } from "../../lib/text.ts";
import type { LspConnection, Tool, ToolContext, ToolResult } from "../../lib/tool.ts";
import { atPosition, diagnostics, linesReader, symbols } from "./actions.ts";
import { type Call, type LspAction, type LspInput, normalizeAction } from "./call.ts";
import { findTargets } from "./targets.ts";
import {
  ACTION_DESCRIPTION,
  COLUMN_DESCRIPTION,
  directoryText,
  failedText,
  LINE_DESCRIPTION,
  lspDescription,
  missingText,
  NEW_NAME_DESCRIPTION,
  NO_POOL,
  noServerText,
  PATH_DESCRIPTION,
  readErrorText,
  renameNeedsNewNameText,
  sameNameText,
  SYMBOL_DESCRIPTION,
  unknownActionText,
} from "./texts.ts";

/** The symbol and new name shown and used: `rename` reads several words, the others clean one. */
function names(input: LspInput, action: LspAction | undefined) {
  if (action === "rename") return renameNames(input.symbol ?? "", input.new_name ?? "");
  return { symbol: cleanSymbol(input.symbol ?? ""), newName: "" };
}

/** The fields of lsp's input. */
const PARAMETERS: Tool<LspInput>["parameters"] = {
  action: { type: "string", description: ACTION_DESCRIPTION, aliases: ["operation", "op"] },
  path: {
    type: "string",
    description: PATH_DESCRIPTION,
    aliases: ["file", "file_path"],
    path: true,
  },
  symbol: {
    type: "string",
    description: SYMBOL_DESCRIPTION,
    optional: true,
    aliases: ["name", "identifier"],
  },
  line: { type: "integer", description: LINE_DESCRIPTION, optional: true },
  column: {
    type: "integer",
    description: COLUMN_DESCRIPTION,
    optional: true,
    aliases: ["col", "character"],
  },
  new_name: {
    type: "string",
    description: NEW_NAME_DESCRIPTION,
    optional: true,
    aliases: ["newName", "new", "to"],
  },
};

/**
 * lsp for the servers found at start-up: declared when one was, and its description names them.
 * The calls go to the session's pool (`ctx.lsp`).
 */
export function lspTool(found: AvailableServers): Tool<LspInput> {
  return {
    name: "lsp",
    kind: (input) => normalizeAction(input.action) === "rename" ? "edit" : "read",
    emoji: "🔎",
    asks: (input) => normalizeAction(input.action) === "rename",
    counter: "lsp",
    declared: () => found.servers.length > 0,
    description: lspDescription(found.servers),
    parameters: PARAMETERS,
    summary,
    run,
  };
}

/** lsp as the list of built-in tools holds it, before discovery: no server, so never declared. */
export const lsp: Tool<LspInput> = lspTool({ servers: [], warnings: [] });

/** `definition main.go:9 greet`, `rename main.go greet → hello`: the call as the display shows it. */
function summary(input: LspInput): string {
  const action = normalizeAction(input.action);
  let where = input.path;
  if (input.line) where += `:${input.line}`;
  if (input.line && input.column) where += `:${input.column}`;
  const n = names(input, action);
  const parts = [action ?? input.action, where];
  if (n.symbol) parts.push(n.symbol);
  if (action === "rename" && n.newName) parts.push("→", n.newName);
  return parts.join(" ");
}

/** Answers from the language server of the file's extension; every failure is text. */
async function run(input: LspInput, ctx: ToolContext): Promise<ToolResult> {
  const abs = ctx.fs.resolve(input.path);
  const locations = [abs];
  const fail = (output: string): ToolResult => ({ output, failed: true, locations });
  const pool = ctx.lsp;
  if (!pool) return fail(NO_POOL);
  const action = normalizeAction(input.action);
  if (!action) return fail(unknownActionText(input.action));
  const server = pool.serverFor(input.path);
  if (!server) return fail(noServerText(input.path, pool.servers));
  const shown = displayPath(fileUri(abs), pool.root);

  let text: string;
  try {
    const info = await ctx.fs.stat(input.path);
    if (info === undefined) return fail(missingText(input.path));
    if (info.isDirectory) return fail(directoryText(input.path));
    const bytes = await ctx.fs.read(input.path);
    if (bytes === undefined) return fail(missingText(input.path));
    text = new TextDecoder().decode(bytes);
  } catch (err) {
    return fail(readErrorText(input.path, errorReason(err)));
  }

  const call: Call = {
    ctx,
    server,
    action,
    abs,
    shown,
    text,
    root: pool.root,
    linesOf: linesReader(ctx, abs, text),
  };
  const withClient = async (
    fn: (client: LspConnection) => Promise<ToolResult>,
  ): Promise<ToolResult> => {
    for (let attempt = 0;; attempt++) {
      let client: LspConnection;
      try {
        client = await pool.client(server);
      } catch (err) {
        if (!(err instanceof LspError)) throw err;
        return fail(failedText(server.name, "start", err.message));
      }
      try {
        return await fn(client);
      } catch (err) {
        if (!(err instanceof LspError)) throw err;
        // A server that died under the call is started again, once.
        if (err.kind === "gone" && attempt === 0 && !ctx.signal.aborted) continue;
        return fail(failedText(server.name, action, reason(err, action)));
      }
    }
  };

  let result: ToolResult;
  if (action === "symbols") result = await withClient((c) => symbols(call, c));
  else if (action === "diagnostics") result = await withClient((c) => diagnostics(call, c));
  else {
    const n = names(input, action);
    if (action === "rename") {
      if (!n.newName) return fail(renameNeedsNewNameText(input.path, n.symbol));
      if (n.symbol && n.symbol === n.newName) return fail(sameNameText(n.newName));
    }
    const targets = findTargets(text, input, n.symbol, action, shown);
    if (typeof targets === "string") return fail(targets);
    result = await withClient((c) => atPosition(call, c, targets, n.newName));
  }
  return {
    ...result,
    output: truncateMiddle(result.output, ctx.config.maxOutput),
    locations: result.locations ?? locations,
  };
}

/** The reason after `failed: `: the server's words, or what its silence means. */
function reason(err: LspError, action: LspAction): string {
  if (err.kind === "server" && err.code === -32601) {
    return `the server does not support ${action}`;
  }
  return err.message;
}
