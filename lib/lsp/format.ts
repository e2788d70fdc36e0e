/**
 * The lsp tool's answers as the model reads them (tools.md, `lsp`): locations, references, hover,
 * symbols, diagnostics and rename summaries. Positions are turned from the wire's 0-based UTF-16
 * into 1-based lines and character columns with the lines of the file they point into.
 */

import { isAbsolute, relative } from "node:path";
import type {
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  Position,
  SymbolInformation,
} from "npm:vscode-languageserver-protocol@3.18.5";
import { uriKey } from "./client.ts";
import { fromWire } from "./positions.ts";

/** The lines of the file a URI names, or undefined when it cannot be read (not a file, gone). */
export type LinesOf = (uri: string) => Promise<string[] | undefined>;

/** Source lines longer than this are cut (with `…`) in location lists: minified code. */
export const SOURCE_LINE_MAX = 200;

/** How a path is shown: relative to `root` when inside it, else absolute; other URIs as they are. */
export function displayPath(uri: string, root: string): string {
  const path = uriKey(uri);
  if (!isAbsolute(path)) return path;
  const rel = relative(root, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return path;
  return rel;
}

/** One place a server pointed at: a document and a position in it. */
export interface WirePlace {
  uri: string;
  start: Position;
}

/** The places of a `definition` or `references` answer, whatever shape the server used. */
export function placesOf(result: Location | Location[] | LocationLink[] | null): WirePlace[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  const places: WirePlace[] = [];
  for (const l of list as (Location | LocationLink)[]) {
    if ("targetUri" in l) {
      const range = l.targetSelectionRange ?? l.targetRange;
      if (range) places.push({ uri: l.targetUri, start: range.start });
    } else if (l && "uri" in l && l.range) places.push({ uri: l.uri, start: l.range.start });
  }
  return places;
}

/**
 * One `path:line:column  <source line>` per place, sorted by path then position, duplicates
 * removed; the source line is trimmed, and left out when the file cannot be read.
 */
export async function locationLines(
  places: WirePlace[],
  root: string,
  linesOf: LinesOf,
): Promise<string[]> {
  const rows: { path: string; line: number; column: number; source?: string }[] = [];
  for (const p of places) {
    const lines = await linesOf(p.uri);
    const { line, column } = fromWire(lines, p.start);
    const source = lines?.[p.start.line]?.trim();
    rows.push({ path: displayPath(p.uri, root), line, column, source });
  }
  rows.sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column
  );
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of rows) {
    const at = `${r.path}:${r.line}:${r.column}`;
    if (seen.has(at)) continue;
    seen.add(at);
    out.push(r.source ? `${at}  ${cut(r.source, SOURCE_LINE_MAX)}` : at);
  }
  return out;
}

/** `text` cut to `max` characters with `…` when longer. */
function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join("") + "…";
}

/** The headline of a `references` answer: `N reference(s):`. */
export function referencesHeadline(n: number): string {
  return `${n} reference(s):`;
}

/** A hover's text as the server sent it (Markdown for most servers); "" when it sent none. */
export function hoverText(hover: Hover | null): string {
  if (!hover || hover.contents === undefined || hover.contents === null) return "";
  const one = (c: unknown): string => {
    if (typeof c === "string") return c;
    if (c && typeof c === "object" && "value" in c) {
      const v = c as { value: string; language?: string; kind?: string };
      if (v.language !== undefined && v.kind === undefined) {
        return "```" + v.language + "\n" + v.value + "\n```";
      }
      return v.value ?? "";
    }
    return "";
  };
  const parts = Array.isArray(hover.contents) ? hover.contents.map(one) : [one(hover.contents)];
  return parts.map((p) => p.trim()).filter((p) => p !== "").join("\n\n");
}

/** Names of the protocol's symbol kinds, by their number (1 = file). */
export const SYMBOL_KINDS = [
  "symbol",
  "file",
  "module",
  "namespace",
  "package",
  "class",
  "method",
  "property",
  "field",
  "constructor",
  "enum",
  "interface",
  "function",
  "variable",
  "constant",
  "string",
  "number",
  "boolean",
  "array",
  "object",
  "key",
  "null",
  "enum member",
  "struct",
  "event",
  "operator",
  "type parameter",
];

/** Blank space of any kind, new lines included, as one space. */
function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * One `<kind> <name>  [<detail>]  line N` per symbol (the detail only when the server gave one),
 * children indented two spaces under their parent, each level in file order. `line N` is the line
 * of the symbol's name.
 */
export function symbolLines(symbols: DocumentSymbol[] | SymbolInformation[] | null): string[] {
  if (!symbols) return [];
  const out: string[] = [];
  const row = (
    indent: string,
    kind: number,
    name: string,
    detail: string | undefined,
    line: number,
  ) => {
    const d = detail ? squash(detail) : "";
    out.push(
      `${indent}${SYMBOL_KINDS[kind] ?? "symbol"} ${squash(name)}${d ? `  [${d}]` : ""}  line ${
        line + 1
      }`,
    );
  };
  const byStart = <T>(start: (s: T) => Position) => (a: T, b: T) =>
    start(a).line - start(b).line || start(a).character - start(b).character;
  const walk = (list: DocumentSymbol[], indent: string) => {
    const sorted = [...list].sort(
      byStart<DocumentSymbol>((s) => (s.selectionRange ?? s.range).start),
    );
    for (const s of sorted) {
      row(indent, s.kind, s.name, s.detail, (s.selectionRange ?? s.range).start.line);
      if (s.children?.length) walk(s.children, indent + "  ");
    }
  };
  const hierarchical = symbols.length === 0 || !("location" in symbols[0]);
  if (hierarchical) walk(symbols as DocumentSymbol[], "");
  else {
    const flat = [...(symbols as SymbolInformation[])].sort(
      byStart<SymbolInformation>((s) => s.location.range.start),
    );
    for (const s of flat) {
      row(
        "",
        s.kind,
        s.name,
        s.containerName ? `in ${s.containerName}` : undefined,
        s.location.range.start.line,
      );
    }
  }
  return out;
}

/** The protocol's severities by number; a diagnostic without one counts as an error. */
export const SEVERITIES = ["error", "error", "warning", "info", "hint"];

/**
 * One `<severity> path:line:column <message> [<source>]` per diagnostic, sorted by position then
 * severity, exact duplicates removed; a message of several lines is put on one.
 */
export function diagnosticLines(
  path: string,
  diagnostics: Diagnostic[],
  lines: string[] | undefined,
): string[] {
  const sorted = [...diagnostics].sort((a, b) =>
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    (a.severity ?? 1) - (b.severity ?? 1)
  );
  const out: string[] = [];
  for (const d of sorted) {
    const { line, column } = fromWire(lines, d.range.start);
    const source = d.source ? ` [${d.source}]` : "";
    const text = `${SEVERITIES[d.severity ?? 1] ?? "error"} ${path}:${line}:${column} ${
      squash(typeof d.message === "string" ? d.message : d.message?.value ?? "")
    }${source}`;
    if (out.at(-1) !== text && !out.includes(text)) out.push(text);
  }
  return out;
}

/** The headline of a diagnostics answer: `N diagnostic(s) in <path>:`, `suffix` before the colon. */
export function diagnosticsHeadline(n: number, path: string, suffix = ""): string {
  return `${n} diagnostic(s) in ${path}${suffix}:`;
}

/** The answer for a file without findings: `no diagnostics: <path> is clean`. */
export function cleanText(path: string, suffix = ""): string {
  return `no diagnostics: ${path} is clean${suffix}`;
}

/** Added to a diagnostics answer when the file did not change since the server last spoke. */
export const AS_LAST_PUBLISHED = " (as last published)";

/**
 * The answer when the server published nothing in time:
 * `no diagnostics received for <path> within 3s (…)`.
 */
export function noDiagnosticsText(path: string, server: string): string {
  return `no diagnostics received for ${path} within 3s (${server} may still be loading the ` +
    `project, or it does not publish diagnostics for this file; call diagnostics again in a moment)`;
}

/**
 * The answer of a rename: `renamed to <new>: N edit(s) in M file(s)`, then one `path: N edit(s)`
 * line per file, sorted by path.
 */
export function renameText(newName: string, files: { path: string; edits: number }[]): string {
  const total = files.reduce((n, f) => n + f.edits, 0);
  const sorted = [...files].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return [
    `renamed to ${newName}: ${total} edit(s) in ${files.length} file(s)`,
    ...sorted.map((f) => `${f.path}: ${f.edits} edit(s)`),
  ].join("\n");
}
