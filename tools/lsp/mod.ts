/**
 * lsp: definitions, references, hover, symbols, diagnostics and rename through real language
 * servers (tools.md, `lsp`). The servers come from `lsp.servers`; the session's pool reaches the
 * tool through `ctx.lsp`.
 */

import type {
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  SymbolInformation,
  WorkspaceEdit,
} from "npm:vscode-languageserver-protocol@3.18.5";
import type { Config, LspServerConfig } from "../../lib/config/config.ts";
import { errorReason } from "../../lib/files.ts";
import { fileUri, LspError, uriKey } from "../../lib/lsp/client.ts";
import { applyEdits, gatherEdits } from "../../lib/lsp/edits.ts";
import {
  AS_LAST_PUBLISHED,
  cleanText,
  diagnosticLines,
  diagnosticsHeadline,
  displayPath,
  hoverText,
  type LinesOf,
  locationLines,
  noDiagnosticsText,
  placesOf,
  referencesHeadline,
  renameText,
  symbolLines,
} from "../../lib/lsp/format.ts";
import { commandOnPath, languageId, normalizeExtension } from "../../lib/lsp/pool.ts";
import { charCount, type CharPosition, splitLines, toWire } from "../../lib/lsp/positions.ts";
import {
  cleanSymbol,
  findOccurrences,
  occurrenceLines,
  renameNames,
} from "../../lib/lsp/symbol.ts";
import { truncateMiddle } from "../../lib/text.ts";
import type { LspConnection, SyncResult, Tool, ToolContext, ToolResult } from "../../lib/tool.ts";

/** Input of lsp, after coercion; a left-out optional field is undefined. */
export interface LspInput {
  action: string;
  path: string;
  symbol?: string;
  line?: number;
  column?: number;
  new_name?: string;
}

/** The six actions, in the order the description gives them. */
export const ACTIONS = [
  "definition",
  "references",
  "hover",
  "symbols",
  "diagnostics",
  "rename",
] as const;

/** One of {@linkcode ACTIONS}. */
export type LspAction = typeof ACTIONS[number];

/** Other ways a model names an action (lower case, without `_`, `-` or spaces). */
const ACTION_ALIASES: Record<string, LspAction> = {
  def: "definition",
  godef: "definition",
  goto: "definition",
  gotodefinition: "definition",
  finddefinition: "definition",
  declaration: "definition",
  reference: "references",
  refs: "references",
  ref: "references",
  findreferences: "references",
  usages: "references",
  info: "hover",
  documentsymbol: "symbols",
  documentsymbols: "symbols",
  symbol: "symbols",
  outline: "symbols",
  diagnostic: "diagnostics",
  errors: "diagnostics",
};

/** The action a model meant, forgiving case, `textDocument/`, separators and a few other names. */
export function normalizeAction(raw: string | undefined): LspAction | undefined {
  const a = (raw ?? "").trim().toLowerCase().replace(/^textdocument\//, "").replace(/[\s_-]/g, "");
  return (ACTIONS as readonly string[]).includes(a) ? a as LspAction : ACTION_ALIASES[a];
}

/** Seconds a `diagnostics` call waits for the server's publication. */
export const DIAGNOSTICS_WAIT = 3_000;

/** At most this many occurrences of a symbol are tried in one call. */
export const MAX_OCCURRENCES = 10;

// ---- Declaration -------------------------------------------------------------------------------

/** The `action` field's description (tools.md, `lsp`). */
export const ACTION_DESCRIPTION = "definition, references, hover, symbols, diagnostics or rename.";
/** The `path` field's description (tools.md, `lsp`). */
export const PATH_DESCRIPTION =
  "File path, relative to the working directory. Its extension picks the server.";
/** The `symbol` field's description: the spec's, shortened to what the model acts on. */
export const SYMBOL_DESCRIPTION =
  "The identifier, as written in the code (person.Greet means Greet). For definition, references, hover, rename.";
/** The `line` field's description (tools.md, `lsp`). */
export const LINE_DESCRIPTION =
  "1-based line. With symbol: restricts the search to that line. With column: the exact position.";
/** The `column` field's description (tools.md, `lsp`). */
export const COLUMN_DESCRIPTION =
  "1-based column, in characters, pointing inside the identifier. Only needed without symbol.";
/** The `new_name` field's description: the spec's, shortened to what the model acts on. */
export const NEW_NAME_DESCRIPTION = "The new identifier, for rename.";

/** `gopls (.go), pyright (.py, .pyi)`: the servers and their extensions. */
export function serverList(servers: readonly LspServerConfig[]): string {
  return servers.map((s) => `${s.name} (${s.extensions.map(normalizeExtension).join(", ")})`)
    .join(", ");
}

/** The tool's description for the available servers: the six actions, then the servers. */
export function lspDescription(servers: readonly LspServerConfig[]): string {
  return "Ask a language server about the code: definition, references, hover, symbols, " +
    "diagnostics, or rename (the edits are applied to the files). Give path and symbol (the " +
    "identifier as written); line and column only to pick one occurrence. " +
    `Servers available: ${serverList(servers)}.`;
}

/** The start-up warning for a server whose command is not on the PATH. */
export function notFoundWarning(server: LspServerConfig): string {
  return `[warning: lsp server ${server.name} (${server.command}) not found on the PATH — skipped]`;
}

/** The configured servers found on the PATH at start-up, and a warning for each one skipped. */
export interface AvailableServers {
  servers: LspServerConfig[];
  warnings: string[];
}

const available = new WeakMap<Config, AvailableServers>();

/**
 * The servers of `config` whose command is on the PATH of `env` (a command with a slash is resolved
 * against `cwd`), and the `[warning: … skipped]` line of each other one. Without `env` the process's
 * environment is read, once per configuration: the answer is the start-up one for the session.
 */
export function availableLspServers(
  config: Config,
  env?: Record<string, string | undefined>,
  cwd?: string,
): AvailableServers {
  if (env === undefined) {
    const known = available.get(config);
    if (known) return known;
    let environment: Record<string, string> = {};
    try {
      environment = Deno.env.toObject();
    } catch {
      // No env permission: only commands with a slash can be found.
    }
    const found = availableLspServers(config, environment, cwd);
    available.set(config, found);
    return found;
  }
  let dir = cwd;
  if (dir === undefined) {
    try {
      dir = Deno.cwd();
    } catch {
      dir = ".";
    }
  }
  const servers: LspServerConfig[] = [];
  const warnings: string[] = [];
  for (const s of config.lsp.servers) {
    if (commandOnPath(s.command, env.PATH ?? env.Path ?? "", dir, env.PATHEXT ?? "")) {
      servers.push(s);
    } else warnings.push(notFoundWarning(s));
  }
  return { servers, warnings };
}

/**
 * The banner's lsp line (line and window modes): the servers found, or that the tool is not
 * declared because none was; undefined when no server is configured at all.
 */
export function lspBannerLine(
  config: Config,
  found = availableLspServers(config),
): string | undefined {
  if (config.lsp.servers.length === 0) return undefined;
  if (found.servers.length === 0) {
    return "lsp: no configured server is on the PATH — the lsp tool is not declared";
  }
  return `lsp: ${serverList(found.servers)}`;
}

// ---- Texts -------------------------------------------------------------------------------------

/** The output when the front end runs no language servers (no pool in the context). */
export const NO_POOL = "[lsp: language servers are not available in this mode]";

/** The output for an action that is none of the six. */
export function unknownActionText(action: string): string {
  return `[lsp: unknown action ${
    JSON.stringify(action)
  } — use definition, references, hover, symbols, diagnostics or rename]`;
}

/** `[lsp: no language server for "x.md" — configured: gopls (.go)]`. */
export function noServerText(path: string, servers: readonly LspServerConfig[]): string {
  return `[lsp: no language server for ${JSON.stringify(path)} — configured: ${
    serverList(servers)
  }]`;
}

/** The output for a path where nothing is. */
export function missingText(path: string): string {
  return `[lsp: ${path} does not exist]`;
}

/** The output for a directory. */
export function directoryText(path: string): string {
  return `[lsp: ${path} is a directory, not a file]`;
}

/** The output when the file cannot be read. */
export function readErrorText(path: string, reason: string): string {
  return `[lsp: cannot read ${path}: ${reason}]`;
}

/** `[lsp: "foo" not found in main.go]`. */
export function notFoundText(symbol: string, path: string): string {
  return `[lsp: ${JSON.stringify(symbol)} not found in ${path}]`;
}

/** The symbol is not on the line given; `elsewhere` lists the lines where it is. */
export function notOnLineText(
  symbol: string,
  line: number,
  path: string,
  elsewhere: number[],
): string {
  const hint = elsewhere.length ? ` — it is on line(s) ${elsewhere.join(", ")}` : "";
  return `[lsp: ${JSON.stringify(symbol)} not found on line ${line} of ${path}${hint}]`;
}

/** A negative line or column. */
export function notPositionText(field: "line" | "column", value: number): string {
  return `[lsp: ${field} ${value} is not a ${field} number: lines and columns count from 1]`;
}

/** A line past the end of the file. */
export function linePastEndText(line: number, path: string, lines: number): string {
  return `[lsp: line ${line} is past the end of ${path} (${lines} lines)]`;
}

/** `[lsp: column 40 is past the end of line 3 (15 characters)]`. */
export function columnPastEndText(column: number, line: number, chars: number): string {
  return `[lsp: column ${column} is past the end of line ${line} (${chars} characters)]`;
}

/** A position action with neither a symbol nor a line and a column. */
export function needsPositionText(action: LspAction, path: string): string {
  return `[lsp: ${action} needs symbol (the identifier, as written in the code), or line and ` +
    `column — call lsp again with {"action": "${action}", "path": ${
      JSON.stringify(path)
    }, "symbol": "<the identifier>"}]`;
}

/** The rename-without-new_name text of tools.md. */
export function renameNeedsNewNameText(path: string, symbol: string): string {
  return `[lsp: rename needs new_name — call lsp again with {"action": "rename", "path": ${
    JSON.stringify(path)
  }, "symbol": ${
    JSON.stringify(symbol || "<the identifier>")
  }, "new_name": "<the new identifier>"}; do not use edit_file for a rename]`;
}

/** A rename to the name the symbol already has. */
export function sameNameText(name: string): string {
  return `[lsp: the symbol is already called ${name} — give new_name a different identifier]`;
}

/** `[lsp: gopls: hover failed: …]`. */
export function failedText(server: string, action: LspAction | "start", reason: string): string {
  return `[lsp: ${server}: ${action} failed: ${reason}]`;
}

/** What each position action looks for, in `no … found for the symbol at`. */
const SOUGHT: Record<LspAction, string> = {
  definition: "definition",
  references: "references",
  hover: "hover information",
  rename: "rename edits",
  symbols: "symbols",
  diagnostics: "diagnostics",
};

/** `[lsp: no definition found for the symbol at main.go:5:4]`. */
export function noResultText(action: LspAction, at: string): string {
  return `[lsp: no ${SOUGHT[action]} found for the symbol at ${at}]`;
}

/** The answer of `symbols` for a file without any. */
export function noSymbolsText(path: string): string {
  return `no symbols in ${path}`;
}

// ---- The tool ----------------------------------------------------------------------------------

/** The symbol and new name shown and used: `rename` reads several words, the others clean one. */
function names(input: LspInput, action: LspAction | undefined) {
  if (action === "rename") return renameNames(input.symbol ?? "", input.new_name ?? "");
  return { symbol: cleanSymbol(input.symbol ?? ""), newName: "" };
}

/** lsp: answers from the language server of the file's extension; every failure is text. */
export const lsp: Tool<LspInput> = {
  name: "lsp",
  kind: (input) => normalizeAction(input.action) === "rename" ? "edit" : "read",
  emoji: "🔎",
  asks: (input) => normalizeAction(input.action) === "rename",
  counter: "lsp",
  declared: (config) => availableLspServers(config).servers.length > 0,
  description: (config) => lspDescription(availableLspServers(config).servers),
  parameters: {
    action: { type: "string", description: ACTION_DESCRIPTION, aliases: ["operation", "op"] },
    path: { type: "string", description: PATH_DESCRIPTION, aliases: ["file", "file_path"] },
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
  },
  summary(input) {
    const action = normalizeAction(input.action);
    let where = input.path;
    if (input.line) where += `:${input.line}`;
    if (input.line && input.column) where += `:${input.column}`;
    const n = names(input, action);
    const parts = [action ?? input.action, where];
    if (n.symbol) parts.push(n.symbol);
    if (action === "rename" && n.newName) parts.push("→", n.newName);
    return parts.join(" ");
  },
  async run(input, ctx) {
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
    const run = async (fn: (client: LspConnection) => Promise<ToolResult>): Promise<ToolResult> => {
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
    if (action === "symbols") result = await run((c) => symbols(call, c));
    else if (action === "diagnostics") result = await run((c) => diagnostics(call, c));
    else {
      const n = names(input, action);
      if (action === "rename") {
        if (!n.newName) return fail(renameNeedsNewNameText(input.path, n.symbol));
        if (n.symbol && n.symbol === n.newName) return fail(sameNameText(n.newName));
      }
      const targets = findTargets(text, input, n.symbol, action, shown);
      if (typeof targets === "string") return fail(targets);
      result = await run((c) => atPosition(call, c, targets, n.newName));
    }
    return {
      ...result,
      output: truncateMiddle(result.output, ctx.config.maxOutput),
      locations: result.locations ?? locations,
    };
  },
};

/** What every action works with. */
interface Call {
  ctx: ToolContext;
  server: LspServerConfig;
  action: LspAction;
  /** The file's absolute path. */
  abs: string;
  /** The file as answers show it (relative inside the project). */
  shown: string;
  /** The file's content, as read before the call. */
  text: string;
  root: string;
  linesOf: LinesOf;
}

/** The reason after `failed: `: the server's words, or what its silence means. */
function reason(err: LspError, action: LspAction): string {
  if (err.kind === "server" && err.code === -32601) {
    return `the server does not support ${action}`;
  }
  return err.message;
}

/** Reads the lines of files answers point into, each once per call, through the context. */
function linesReader(ctx: ToolContext, abs: string, text: string): LinesOf {
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

/**
 * The positions to try, in order, or the text refusing the call: the symbol's occurrences (on
 * `line` only when given, the one under `column` first), else the exact `line` and `column`.
 */
function findTargets(
  text: string,
  input: LspInput,
  symbol: string,
  action: LspAction,
  shown: string,
): CharPosition[] | string {
  const line = input.line ?? 0;
  const column = input.column ?? 0;
  if (line < 0) return notPositionText("line", line);
  if (column < 0) return notPositionText("column", column);
  const lines = splitLines(text);
  if (line > lines.length) return linePastEndText(line, shown, lines.length);
  if (line > 0 && column > 0) {
    const chars = charCount(lines[line - 1]);
    if (column > chars + 1) return columnPastEndText(column, line, chars);
  }
  if (symbol) {
    const found = findOccurrences(text, symbol, line > 0 ? line : undefined);
    if (found.length === 0) {
      if (line === 0) return notFoundText(symbol, shown);
      const elsewhere = occurrenceLines(text, symbol);
      if (elsewhere.length === 0) return notFoundText(symbol, shown);
      return notOnLineText(symbol, line, shown, elsewhere);
    }
    if (line > 0 && column > 0) {
      // The occurrence under the column first, then the nearest ones.
      const length = charCount(symbol);
      const distance = (o: CharPosition) =>
        column >= o.column && column < o.column + length ? -1 : Math.abs(o.column - column);
      found.sort((a, b) => distance(a) - distance(b));
    }
    return found.slice(0, MAX_OCCURRENCES);
  }
  if (line > 0 && column > 0) return [{ line, column }];
  return needsPositionText(action, shown);
}

/** Sends the file's content to the server when it moved (didOpen / whole-document didChange). */
function sync(call: Call, client: LspConnection): SyncResult {
  return client.sync(call.abs, languageId(call.abs), call.text);
}

/** definition, references, hover and rename: the targets tried in order until the server answers. */
async function atPosition(
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
    default: {
      const r = await client.request<WorkspaceEdit | null>(
        "textDocument/rename",
        { textDocument, position, newName },
        signal,
      );
      return await applyRename(call, client, r, newName);
    }
  }
}

/** Applies a rename's edits to the files, tells the server, and sums them up. */
async function applyRename(
  call: Call,
  client: LspConnection,
  edit: WorkspaceEdit | null,
  newName: string,
): Promise<ToolResult | undefined> {
  const { ctx, server } = call;
  const gathered = gatherEdits(edit);
  if (!gathered.ok) {
    return { output: failedText(server.name, "rename", gathered.reason), failed: true };
  }
  if (gathered.files.size === 0) return undefined;
  const changes: {
    abs: string;
    path: string;
    oldText: string;
    newText: string;
    edits: number;
    bom: boolean;
  }[] = [];
  for (const [uri, edits] of gathered.files) {
    const path = displayPath(uri, call.root);
    if (!uri.startsWith("file:")) {
      return {
        output: failedText(server.name, "rename", `cannot edit ${uri} — nothing was changed`),
        failed: true,
      };
    }
    const abs = uriKey(uri);
    let oldText: string;
    let bom = false;
    try {
      const bytes = await ctx.fs.read(abs);
      if (bytes === undefined) throw new Deno.errors.NotFound();
      bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      oldText = new TextDecoder().decode(bytes);
    } catch (err) {
      return {
        output: failedText(
          server.name,
          "rename",
          `cannot read ${path}: ${errorReason(err)} — nothing was changed`,
        ),
        failed: true,
      };
    }
    const newText = applyEdits(oldText, edits);
    if (newText === undefined) {
      return {
        output: failedText(
          server.name,
          "rename",
          `the server's edits of ${path} overlap — nothing was changed`,
        ),
        failed: true,
      };
    }
    changes.push({ abs, path, oldText, newText, edits: edits.length, bom });
  }
  const written: string[] = [];
  for (const c of changes) {
    try {
      // A byte order mark the file had is kept (the text the server saw had none).
      await ctx.fs.writeAtomic(
        c.abs,
        new TextEncoder().encode((c.bom ? "\uFEFF" : "") + c.newText),
      );
      written.push(c.path);
    } catch (err) {
      const done = written.length ? ` (already renamed in ${written.join(", ")})` : "";
      return {
        output: failedText(
          server.name,
          "rename",
          `cannot write ${c.path}: ${errorReason(err)}${done}`,
        ),
        failed: true,
      };
    }
  }
  for (const c of changes) client.sync(c.abs, languageId(c.abs), c.newText);
  const result: ToolResult = {
    output: renameText(newName, changes.map((c) => ({ path: c.path, edits: c.edits }))),
    locations: changes.map((c) => c.abs),
  };
  if (changes.length === 1) {
    result.diff = {
      path: changes[0].abs,
      oldText: changes[0].oldText,
      newText: changes[0].newText,
    };
  }
  return result;
}

/** symbols: the file's symbol tree. */
async function symbols(call: Call, client: LspConnection): Promise<ToolResult> {
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
async function diagnostics(call: Call, client: LspConnection): Promise<ToolResult> {
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
