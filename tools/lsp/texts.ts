/** The lsp tool's texts: its description and fields, the banner's line, its refusals and failures. */

import type { Config, LspServerConfig } from "../../lib/config/config.ts";
import { normalizeExtension } from "../../lib/lsp/pool.ts";
import type { AvailableServers } from "../../lib/lsp/servers.ts";
import type { LspAction } from "./call.ts";

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

/**
 * The banner's lsp line (line and window modes): the servers found, or that the tool is not
 * declared because none was; undefined when no server is configured at all.
 */
export function lspBannerLine(
  config: Config,
  found: AvailableServers,
): string | undefined {
  if (config.lsp.servers.length === 0) return undefined;
  if (found.servers.length === 0) {
    return "lsp: no configured server is on the PATH — the lsp tool is not declared";
  }
  return `lsp: ${serverList(found.servers)}`;
}

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
