/**
 * definition, references, hover, symbols and diagnostics: the requests and their answers. The
 * targets of a rename are tried here too, each through rename.ts.
 */

import type {
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  SymbolInformation,
} from "npm:vscode-languageserver-protocol@3.18.5";
import { fileUri, LspError, uriKey } from "../../lib/lsp/client.ts";
import {
  AS_LAST_PUBLISHED,
  cleanText,
  diagnosticLines,
  diagnosticsHeadline,
  hoverText,
  type LinesOf,
  locationLines,
  noDiagnosticsText,
  placesOf,
  referencesHeadline,
  symbolLines,
} from "../../lib/lsp/format.ts";
import { languageId } from "../../lib/lsp/pool.ts";
import { type CharPosition, splitLines, toWire } from "../../lib/lsp/positions.ts";
import type { LspConnection, SyncResult, ToolContext, ToolResult } from "../../lib/tool.ts";
import type { Call } from "./call.ts";
import { renameAt } from "./rename.ts";
import { noResultText, noSymbolsText } from "./texts.ts";

/** Seconds a `diagnostics` call waits for the server's publication. */
export const DIAGNOSTICS_WAIT = 3_000;

/** Reads the lines of files answers point into, each once per call, through the context. */
export function linesReader(ctx: ToolContext, abs: string, text: string): LinesOf {
  const cache = new Map<string, Promise<string[] | undefined>>();
  cache.set(abs, Promise.resolve(splitLines(text)));
  return (uri) => {
    if (!uri.startsWith("file:")) return Promise.resolve(undefined);
    const path = uriKey(uri);
    let lines = cache.get(path);
    if (!lines) {
      lines = ctx.fs.read(path).then(
        (b) => b === undefined ? undefined : splitLines(new TextDecoder().decode(b)),
        () => undefined,
      );
      cache.set(path, lines);
    }
    return lines;
  };
}

/** Sends the file's content to the server when it moved (didOpen / whole-document didChange). */
function sync(call: Call, client: LspConnection): SyncResult {
  return client.sync(call.abs, languageId(call.abs), call.text);
}

/** definition, references, hover and rename: the targets tried in order until the server answers. */
export async function atPosition(
  call: Call,
  client: LspConnection,
  targets: CharPosition[],
  newName: string,
): Promise<ToolResult> {
  sync(call, client);
  const { action, shown } = call;
  const lines = splitLines(call.text);
  const textDocument = { uri: fileUri(call.abs) };
  let firstError: LspError | undefined;
  let answered = false;
  for (const target of targets) {
    const position = toWire(lines, target);
    let result: ToolResult | undefined;
    try {
      result = await ask(call, client, textDocument, position, newName);
      answered = true;
    } catch (err) {
      if (!(err instanceof LspError) || err.kind !== "server") throw err;
      firstError ??= err;
      continue;
    }
    if (result) return result;
  }
  if (!answered && firstError) throw firstError;
  const at = `${shown}:${targets[0].line}:${targets[0].column}`;
  return { output: noResultText(action, at), failed: true };
}

/** One request of a position action; undefined when the server had nothing there. */
async function ask(
  call: Call,
  client: LspConnection,
  textDocument: { uri: string },
  position: { line: number; character: number },
  newName: string,
): Promise<ToolResult | undefined> {
  const signal = call.ctx.signal;
  switch (call.action) {
    case "definition": {
      const r = await client.request<Location | Location[] | LocationLink[] | null>(
        "textDocument/definition",
        { textDocument, position },
        signal,
      );
      const lines = await locationLines(placesOf(r), call.root, call.linesOf);
      return lines.length ? { output: lines.join("\n") } : undefined;
    }
    case "references": {
      const r = await client.request<Location[] | null>(
        "textDocument/references",
        { textDocument, position, context: { includeDeclaration: true } },
        signal,
      );
      const lines = await locationLines(placesOf(r), call.root, call.linesOf);
      if (!lines.length) return undefined;
      return { output: [referencesHeadline(lines.length), ...lines].join("\n") };
    }
    case "hover": {
      const r = await client.request<Hover | null>(
        "textDocument/hover",
        { textDocument, position },
        signal,
      );
      const text = hoverText(r);
      return text ? { output: text } : undefined;
    }
    default:
      return await renameAt(call, client, textDocument, position, newName);
  }
}

/** symbols: the file's symbol tree. */
export async function symbols(call: Call, client: LspConnection): Promise<ToolResult> {
  sync(call, client);
  const r = await client.request<DocumentSymbol[] | SymbolInformation[] | null>(
    "textDocument/documentSymbol",
    { textDocument: { uri: fileUri(call.abs) } },
    call.ctx.signal,
  );
  const lines = symbolLines(r);
  return { output: lines.length ? lines.join("\n") : noSymbolsText(call.shown) };
}

/**
 * diagnostics: the file synced, then the server's publication for this content: at once when the
 * file did not change since the server last spoke, else awaited up to 3 s (after the server has
 * read a file it was just given: a cold server takes its start-up time first).
 */
export async function diagnostics(call: Call, client: LspConnection): Promise<ToolResult> {
  const { ctx, shown } = call;
  const synced = sync(call, client);
  const lines = splitLines(call.text);
  const answer = (diagnostics: Parameters<typeof diagnosticLines>[1], suffix: string) => {
    const found = diagnosticLines(shown, diagnostics, lines);
    return {
      output: found.length
        ? [diagnosticsHeadline(found.length, shown, suffix), ...found].join("\n")
        : cleanText(shown, suffix),
    };
  };
  const last = client.published(call.abs);
  if (synced.sent === "unchanged" && last && last.seq > synced.sentAt) {
    return answer(last.diagnostics, AS_LAST_PUBLISHED);
  }
  if (synced.sent === "opened") {
    // A request answered means the server has read the document: the wait starts then.
    await client.request(
      "textDocument/documentSymbol",
      { textDocument: { uri: fileUri(call.abs) } },
      ctx.signal,
    ).catch((err) => {
      if (err instanceof LspError && err.kind !== "server") throw err;
    });
  }
  const published = await client.waitForPublication(call.abs, synced, DIAGNOSTICS_WAIT, ctx.signal);
  if (ctx.signal.aborted) throw new LspError("cancelled", "cancelled");
  if (published) return answer(published.diagnostics, "");
  if (!client.alive) throw new LspError("the server stopped", "gone");
  return { output: noDiagnosticsText(shown, call.server.name) };
}
