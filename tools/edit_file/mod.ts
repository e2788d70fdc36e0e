/**
 * edit_file: replacements of text that appears exactly once, all resolved against the original
 * file, found by three passes that forgive a small model's whitespace (tools.md, `edit_file`),
 * then by the relaxations of a model's other near misses. The matcher is `match.ts` (the modules
 * it names hold each pass), the placing of new `placement.ts`; docs/tools.md has the rules.
 */

import { coerceValue, faultValue, plainKey } from "../../lib/tool_input.ts";
import { errorReason } from "../../lib/files.ts";
import { truncateMiddle } from "../../lib/text.ts";
import type { Tool, ToolResult } from "../../lib/tool.ts";
import type { Closest } from "./closest.ts";
import {
  FileText,
  type Located,
  type Piece,
  type Relaxation,
  type Resolution,
  resolveEdit,
} from "./match.ts";
import { commonEnds } from "./placement.ts";
import { numberLine } from "../_lines.ts";
import { readFileBytes, readOnlyRefusal, undecodableText, unencodableText } from "../_files.ts";
import { decodeFile, encodeText } from "../../lib/encoding.ts";
import { unchangedText, writeErrorText } from "../_files.ts";
import { DIFF_TOO_SLOW, diffHunks, type Hunk } from "../../lib/diff.ts";

/** One replacement: `old` as the model sent it, and `new`. */
export interface Edit {
  old: string;
  new: string;
}

/** Input of edit_file, once read by {@linkcode parseEditFileInput}. */
export interface EditFileInput {
  path: string;
  edits: Edit[];
  dry_run: boolean;
}

/** The tool's description, as the model reads it. */
export const EDIT_FILE_DESCRIPTION =
  "Change an existing file: each edit replaces its old text, which must appear exactly once, with its new text.";

/** The `path` field's description (tools.md, `edit_file`). */
export const PATH_DESCRIPTION = "Path of an existing file.";
/** The `edits` field's description: the spec's, with the items' fields, which the schema leaves out. */
export const EDITS_DESCRIPTION =
  'Replacements, all resolved against the original file. Each is {"old": "<exact text to find, present exactly once>", "new": "<replacement; empty deletes the matched text>"}.';
/** The `dry_run` field's description (tools.md, `edit_file`). */
export const DRY_RUN_DESCRIPTION = "Report what would change, write nothing.";

/**
 * The declared schema. The items have no `properties`: llama.cpp would impose them in
 * alphabetical order, `new` before `old`; the description of `edits` gives them instead.
 */
export const EDIT_FILE_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    path: { type: "string", description: PATH_DESCRIPTION },
    edits: { type: "array", description: EDITS_DESCRIPTION, items: { type: "object" } },
    dry_run: { type: "boolean", description: DRY_RUN_DESCRIPTION },
  },
  required: ["path", "edits"],
};

// ---------------------------------------------------------------------------------------------
// Texts the model reads.

/** The gutter before each line of `old` and of the closest region in a refusal. */
export const GUTTER = "  │";

/** `  │ line`, or `  │` for an empty line (no trailing space, as read_file's numbered lines). */
function gutterLine(line: string): string {
  return line === "" ? GUTTER : `${GUTTER} ${line}`;
}

/** The lines of `text` as shown in a refusal: a final newline does not add an empty line. */
function shownLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The not-found refusal (tools.md's example): `old` in a gutter, then the region of the file that
 * comes closest to it with real line numbers, or a line saying nothing comes close.
 */
export function notFoundText(path: string, n: number, old: string, closest?: Closest): string {
  const out = [
    `${path}: edit #${n}: old text not found — it must match the file exactly, including indentation and line breaks:`,
    ...shownLines(old).map(gutterLine),
  ];
  if (closest) {
    out.push("the closest the file comes to it — copy these lines:");
    const width = String(closest.first + closest.lines.length - 1).length;
    closest.lines.forEach((line, k) => {
      out.push(`${GUTTER} ${numberLine(closest.first + k, width, line)}`);
    });
  } else out.push(NOTHING_CLOSE);
  return out.join("\n");
}

/** The last line of a not-found refusal when no region has half of `old`'s lines. */
export const NOTHING_CLOSE =
  "nothing in the file comes close to it — read the file again with read_file and copy the lines to change exactly as they are";

/** The most line numbers an ambiguous refusal lists. */
export const MAX_LISTED_LINES = 20;

/** `line 4`, `lines 11, 20`; long lists end with `, …`. */
function listLines(lines: number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const shown = lines.slice(0, MAX_LISTED_LINES).join(", ");
  return `lines ${shown}${lines.length > MAX_LISTED_LINES ? ", …" : ""}`;
}

/** The ambiguous refusal (tools.md, "`old` appears exactly once"), completed after `per place`. */
export function ambiguousText(path: string, n: number, count: number, lines: number[]): string {
  return `${path}: edit #${n}: old text appears ${count} times (${listLines(lines)}) — ` +
    "to change ONE of them, include its surrounding lines in old until the text is unique; " +
    "to change several, send one edit per place, each with enough surrounding lines to be unique";
}

/** The refusal of an empty `old`. */
export function emptyOldText(path: string, n: number): string {
  return `${path}: edit #${n}: old is empty — copy into old the exact lines to change; ` +
    "to add lines, put in old the line they go next to, and in new that line with the added ones; " +
    "to create a file or replace all of it, use write_file";
}

/** The refusal of an edit whose `old` and `new` are the same text. */
export function sameText(path: string, n: number): string {
  return `${path}: edit #${n}: old and new are the same text — nothing would change; ` +
    "put in new the text as it must become";
}

/**
 * The refusal of a new that holds a placeholder old does not have (`// ... existing code ...`):
 * written into the file, it would take the place of the code it stands for.
 */
export function placeholderText(path: string, n: number, line: string): string {
  return `${path}: edit #${n}: new holds the placeholder "${line}", which old does not have — ` +
    "edit_file would write it into the file in place of the code it stands for; " +
    "send the real lines instead: put in old only the lines that change, and in new those lines as they must become";
}

/** The refusal of an edit whose old is not in the file but whose new is, there: already made. */
export function appliedText(path: string, n: number, first: number, last: number): string {
  return `${path}: edit #${n}: old text not found, but new is already in the file at ${
    lineRange(first, last)
  } — this edit looks already applied; leave it out, and read the file again with read_file before changing more`;
}

/** The start of every refusal of an elided old. */
function elided(path: string, n: number, marker: string): string {
  return `${path}: edit #${n}: old leaves out lines with "${marker}"`;
}

/** The refusal of an elided old one of whose pieces appears several times. */
export function elisionAmbiguousText(
  path: string,
  n: number,
  marker: string,
  piece: number,
  count: number,
  lines: number[],
): string {
  return `${elided(path, n, marker)}, and its piece ${piece} appears ${count} times (${
    listLines(lines)
  }) — include more of that piece's lines until it is unique, or send old in full`;
}

/** The refusal of an elided old whose pieces are not in the file's order. */
export function elisionOrderText(path: string, n: number, marker: string): string {
  return `${elided(path, n, marker)}, but its pieces are not in the file in that order — ` +
    "send old in full, as the file has it";
}

/** The refusal of an elided old whose left-out lines leave the block its first line opens. */
export function elisionOutsideText(
  path: string,
  n: number,
  marker: string,
  opener: number,
  first: number,
  last: number,
): string {
  return `${elided(path, n, marker)}, but the lines left out (${
    lineRange(first, last)
  }) do not stay inside the block line ${opener} opens — send one edit per piece, or old in full`;
}

/** `line 4`, `lines 4-6`. */
function lineRange(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

const ONE_EDIT =
  "edits are all resolved against the original file, not one after another: merge them into one edit";

/** The refusal of two edits that match the same text. */
export function repeatText(
  path: string,
  a: number,
  b: number,
  first: number,
  last: number,
): string {
  return `${path}: edit #${b} repeats edit #${a}: both change ${
    lineRange(first, last)
  } — send one edit per place`;
}

/** The refusal of an edit whose matched text lies inside another's. */
export function nestedText(
  path: string,
  inner: number,
  outer: number,
  first: number,
  last: number,
): string {
  return `${path}: edit #${inner} lies inside edit #${outer} (${
    lineRange(first, last)
  }) — ${ONE_EDIT}`;
}

/** The refusal of two edits whose matched texts overlap. */
export function overlapText(
  path: string,
  a: number,
  b: number,
  rangeA: [number, number],
  rangeB: [number, number],
): string {
  return `${path}: edits #${a} and #${b} overlap (${lineRange(...rangeA)} and ${
    lineRange(...rangeB)
  }) — ${ONE_EDIT}`;
}

/** The last line when some of several edits were refused. */
export function nothingWrittenText(refused: number, total: number): string {
  return `nothing was written: ${refused} of ${total} edits ${
    refused === 1 ? "was" : "were"
  } refused — send all ${total} again, with the refused ${
    refused === 1 ? "one" : "ones"
  } corrected`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The words the headline reports each relaxation beyond whitespace with, in this order. */
export const RELAXATION_WORDS: Record<Relaxation, string> = {
  lineNumbers: "matched without line numbers",
  fences: "matched without code fences",
  escapes: "matched without JSON escapes",
  typography: "matched ignoring typography",
  interior: "matched ignoring spaces inside lines",
  elision: "matched piece by piece",
};

/** What the headline says of a change. */
export interface Change {
  edits: number;
  added: number;
  deleted: number;
  /** The first changed line (1-based). */
  first: number;
  /** Edits found by a relaxed pass (the spec's 2 and 3). */
  relaxed: number;
  /** Edits that needed each relaxation beyond whitespace. */
  relaxations?: Partial<Record<Relaxation, number>>;
}

function changeText(c: Change): string {
  let notes = c.relaxed ? ` · ${c.relaxed} matched ignoring whitespace` : "";
  for (const [r, words] of Object.entries(RELAXATION_WORDS)) {
    const count = c.relaxations?.[r as Relaxation];
    if (count) notes += ` · ${count} ${words}`;
  }
  return `${plural(c.added, "line")} added, ${c.deleted} deleted, first change at line ${c.first}` +
    notes;
}

/** The headline of a written edit: `edited a.go: 1 edit applied, 1 line added, 1 deleted, …`. */
export function editedText(path: string, c: Change): string {
  return `edited ${path}: ${plural(c.edits, "edit")} applied, ${changeText(c)}`;
}

/** The headline of a dry run. */
export function dryRunText(path: string, c: Change): string {
  return `dry run of ${path}, nothing was written: ${plural(c.edits, "edit")} would apply, ${
    changeText(c)
  }`;
}

/** The refusal of a file that holds a NUL byte. */
export function binaryText(path: string, size: number): string {
  return `${path} is a binary file (${size} bytes); edit_file edits text files only.`;
}

/** The refusal of a file above read_file's limit. */
export function tooLargeText(path: string, size: number): string {
  return `${path} is too large for edit_file (${size} bytes; the limit is 64 MiB).`;
}

// ---------------------------------------------------------------------------------------------
// The input, read leniently.

const OLD_KEYS = ["old", "old_string", "old_text", "oldText"];
const NEW_KEYS = ["new", "new_string", "new_text", "newText"];

/** The first of `keys` present (not undefined or null) in `o`, and its value. */
function pick(o: Record<string, unknown>, keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  // A name in another case or style (`DryRun`, `OldText`, `Path`) is the same field.
  const wanted = new Set(keys.map(plainKey));
  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined && v !== null && wanted.has(plainKey(k))) return v;
  }
  return undefined;
}

/** The expected shape of `edits`, as faults say it. */
const EDITS_SHAPE = 'a list of {"old": …, "new": …} objects';

/** One edit from an item of `edits`, or the faults it has. */
function readEdit(item: unknown, n: number, faults: string[]): Edit | undefined {
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    faults.push(`edit #${n} is not an {"old": …, "new": …} object: ${faultValue(item)}`);
    return undefined;
  }
  const o = item as Record<string, unknown>;
  const old = field(pick(o, OLD_KEYS), `edit #${n}: old`, faults);
  const neu = field(
    pick(o, NEW_KEYS),
    `edit #${n}: new`,
    faults,
    ' — give "" to delete the old text',
  );
  return old === undefined || neu === undefined ? undefined : { old, new: neu };
}

/** A string field (a number or boolean is taken as its text), or a fault. */
function field(value: unknown, name: string, faults: string[], hint = ""): string | undefined {
  if (value === undefined) {
    faults.push(`${name} is missing${hint}`);
    return undefined;
  }
  const s = coerceValue("string", value);
  if (s === undefined) faults.push(`${name}: ${faultValue(value)} is not a string`);
  return s as string | undefined;
}

/**
 * Reads edit_file's arguments: `path` (or `file`, `file_path`), `edits` as a list of `{old, new}`
 * (or that list sent as a JSON string, or one object), or a single edit as top-level `old`/`new`;
 * `dry_run` coerced like any boolean. Every other shape is a fault saying what was expected.
 */
export function parseEditFileInput(
  args: Record<string, unknown>,
): { ok: true; input: EditFileInput } | { ok: false; faults: string[] } {
  const faults: string[] = [];
  const rawPath = pick(args, ["path", "file", "file_path"]);
  let path: string | undefined;
  if (rawPath === undefined) faults.push("path is missing");
  else {
    path = coerceValue("string", rawPath) as string | undefined;
    if (path === undefined) faults.push(`path: ${faultValue(rawPath)} is not a string`);
  }
  let dryRun = false;
  const rawDry = pick(args, ["dry_run", "dryRun"]);
  if (rawDry !== undefined) {
    const b = coerceValue("boolean", rawDry);
    if (b === undefined) faults.push(`dry_run: ${faultValue(rawDry)} is not a boolean`);
    else dryRun = b as boolean;
  }
  const edits = readEdits(args, faults);
  if (faults.length) return { ok: false, faults };
  return { ok: true, input: { path: path!, edits: edits!, dry_run: dryRun } };
}

function readEdits(args: Record<string, unknown>, faults: string[]): Edit[] | undefined {
  let raw = pick(args, ["edits"]);
  const single = pick(args, OLD_KEYS) !== undefined || pick(args, NEW_KEYS) !== undefined;
  if (raw === undefined || raw === null) {
    if (!single) {
      faults.push(
        'edits is missing — send edits: [{"old": "<exact text now in the file>", "new": "<its replacement>"}]',
      );
      return undefined;
    }
    const edit = readEdit(args, 1, faults);
    return edit && [edit];
  }
  if (single) {
    faults.push("send either edits or one old and new, not both — put every change in edits");
    return undefined;
  }
  if (typeof raw === "string") {
    const parsed = parseJSON(raw);
    if (parsed === undefined || typeof parsed !== "object" || parsed === null) {
      faults.push(`edits: ${faultValue(raw)} is not ${EDITS_SHAPE}`);
      return undefined;
    }
    raw = parsed;
  }
  if (typeof raw !== "object" || raw === null) {
    faults.push(`edits: ${faultValue(raw)} is not ${EDITS_SHAPE}`);
    return undefined;
  }
  const items = Array.isArray(raw) ? raw : [raw];
  if (items.length === 0) {
    faults.push('edits is empty — send at least one {"old": …, "new": …}');
    return undefined;
  }
  const edits: Edit[] = [];
  items.forEach((item, i) => {
    const edit = readEdit(item, i + 1, faults);
    if (edit) edits.push(edit);
  });
  return edits.length === items.length ? edits : undefined;
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The file's text: BOM and line endings kept aside, matching on LF-normalised text.

/** A file's text as the matcher sees it, and the way back to its bytes. */
export interface Source {
  /** The decoded file, as it is. */
  raw: string;
  /** `\uFEFF` when the file starts with a byte order mark, else "". */
  bom: string;
  /** Without the BOM, every `\r\n` as `\n`. */
  text: string;
  /** Whether most line breaks are `\r\n`: replacements are then written with `\r\n`. */
  crlf: boolean;
  /** The offsets in `text` of each `\n` that was a `\r\n`. */
  crs: number[];
}

/** Splits `raw` into what the matcher needs. */
export function readSource(raw: string): Source {
  const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = raw.slice(bom.length);
  const crs: number[] = [];
  const parts: string[] = [];
  let from = 0;
  for (let i = body.indexOf("\r\n"); i >= 0; i = body.indexOf("\r\n", i + 2)) {
    parts.push(body.slice(from, i));
    crs.push(i - crs.length);
    from = i + 1;
  }
  parts.push(body.slice(from));
  const text = parts.join("");
  let breaks = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) breaks++;
  const lf = breaks - crs.length;
  return { raw, bom, text, crlf: crs.length > lf, crs };
}

/** The offset in `source.raw` of offset `p` of `source.text`. */
function rawOffset(source: Source, p: number): number {
  let lo = 0;
  let hi = source.crs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (source.crs[mid] < p) lo = mid + 1;
    else hi = mid;
  }
  return source.bom.length + p + lo;
}

/** Whether `path` names a Makefile, whose recipe lines must keep their tabs. */
export function isMakefile(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? "";
  return /^(GNUmakefile|[Mm]akefile)$/.test(name) || name.endsWith(".mk");
}

// ---------------------------------------------------------------------------------------------
// The diff shown after the headline.

/** The line between two hunks of the numbered diff. */
export const HUNK_GAP = "…";

/**
 * The hunks with line numbers: `  12 │ ` for a context line, `- 13 │ ` and `+ 13 │ ` for a deleted
 * and an added one. Context and added lines carry their number in the new file, deleted lines
 * theirs in the old one.
 */
export function numberedDiff(hunks: Hunk[]): string {
  let width = 1;
  for (const h of hunks) {
    width = Math.max(width, String(h.oldStart + h.oldLines - 1).length);
    width = Math.max(width, String(h.newStart + h.newLines - 1).length);
  }
  const out: string[] = [];
  hunks.forEach((h, i) => {
    if (i > 0) out.push(HUNK_GAP);
    let o = h.oldStart;
    let n = h.newStart;
    for (const line of h.lines) {
      const sign = line[0];
      const body = line.slice(1);
      if (sign === " ") out.push(`  ${numberLine(n++, width, body)}`), o++;
      else if (sign === "-") out.push(`- ${numberLine(o++, width, body)}`);
      else if (sign === "+") out.push(`+ ${numberLine(n++, width, body)}`);
      else out.push(line);
    }
  });
  return out.join("\n");
}

/** The first line the hunks change (1-based). */
function firstChanged(hunks: Hunk[]): number {
  const h = hunks[0];
  let o = h.oldStart;
  for (const line of h.lines) {
    if (line[0] === "-" || line[0] === "+") return Math.max(1, o);
    o++;
  }
  return Math.max(1, h.oldStart);
}

/** Counts and first line by comparing lines from both ends, when the diff was too slow. */
function roughChange(oldText: string, newText: string): Omit<Change, "edits" | "relaxed"> {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  const { head, tail } = commonEnds(a, b);
  return { added: b.length - head - tail, deleted: a.length - head - tail, first: head + 1 };
}

// ---------------------------------------------------------------------------------------------
// The tool.

/** A region an edit replaces (an elided edit has several), its edit's number and its lines. */
interface Placed {
  n: number;
  at: Piece;
  first: number;
  last: number;
}

/** The refusals of edits that overlap, nest or repeat one another. */
function conflicts(path: string, placed: Placed[]): { n: number; text: string }[] {
  const out: { n: number; text: string }[] = [];
  const sorted = [...placed].sort((x, y) => x.at.start - y.at.start || y.at.end - x.at.end);
  let widest: Placed | undefined;
  for (const p of sorted) {
    if (widest && p.at.start < widest.at.end) {
      const [a, b] = widest.n < p.n ? [widest, p] : [p, widest];
      let text: string;
      if (p.at.start === widest.at.start && p.at.end === widest.at.end) {
        text = repeatText(path, a.n, b.n, p.first, p.last);
      } else if (p.at.end <= widest.at.end) {
        text = nestedText(path, p.n, widest.n, widest.first, widest.last);
      } else {
        text = overlapText(path, a.n, b.n, [a.first, a.last], [b.first, b.last]);
      }
      out.push({ n: b.n, text });
    }
    if (!widest || p.at.end > widest.at.end) widest = p;
  }
  return out;
}

/** The refusal of edit `n` that was not found, or not found once, or may not be applied. */
function refusalText(path: string, n: number, old: string, r: Exclude<Resolution, Located>) {
  switch (r.kind) {
    case "ambiguous":
      return ambiguousText(path, n, r.count, r.lines);
    case "notFound":
      return notFoundText(path, n, old, r.closest);
    case "placeholder":
      return placeholderText(path, n, r.line);
    case "applied":
      return appliedText(path, n, r.first, r.last);
    case "elision":
      if (r.fault === "ambiguous") {
        return elisionAmbiguousText(path, n, r.marker, r.piece, r.count, r.lines);
      }
      if (r.fault === "order") return elisionOrderText(path, n, r.marker);
      return elisionOutsideText(path, n, r.marker, r.opener, r.first, r.last);
  }
}

/** edit_file: every edit resolved against the original text; any refusal and nothing is written. */
export const editFile: Tool<EditFileInput> = {
  name: "edit_file",
  kind: "edit",
  emoji: "📝",
  // A dry run writes nothing: there is nothing to allow.
  asks: (input) => !input.dry_run,
  touches: (input) => input.dry_run ? [] : [input.path],
  previewsChange: true,
  counter: "fileOps",
  declared: (config) => config.editTools,
  description: EDIT_FILE_DESCRIPTION,
  parameters: {
    path: {
      type: "string",
      description: PATH_DESCRIPTION,
      aliases: ["file", "file_path"],
      path: true,
    },
    edits: { type: "array", description: EDITS_DESCRIPTION },
    dry_run: { type: "boolean", description: DRY_RUN_DESCRIPTION, optional: true },
  },
  schema: EDIT_FILE_SCHEMA,
  parse: parseEditFileInput,
  summary: (input) => input.dry_run ? `${input.path} (dry run)` : input.path,
  async run(input, ctx) {
    const { path } = input;
    const abs = ctx.fs.resolve(path);
    const locations = [abs];
    const max = ctx.config.maxOutput;
    const fail = (output: string): ToolResult => ({
      output: truncateMiddle(output, max),
      failed: true,
      locations,
    });

    const bytes = await readFileBytes(path, ctx, (size) => tooLargeText(path, size));
    if (typeof bytes === "string") return fail(bytes);
    const decoded = decodeFile(bytes);
    if (decoded.kind === "binary") return fail(binaryText(path, bytes.length));
    if (decoded.kind === "undecodable") {
      return fail(undecodableText(path, decoded.encoding, bytes.length));
    }
    const raw = decoded.text;
    const readOnly = input.dry_run ? undefined : await readOnlyRefusal(path, ctx);
    if (readOnly !== undefined) return fail(readOnly);

    const source = readSource(raw);
    const file = new FileText(source.text, isMakefile(path) ? { tab: true } : undefined, path);
    const refusals: { n: number; text: string }[] = [];
    const placed: Placed[] = [];
    const found: Located[] = [];
    input.edits.forEach((edit, i) => {
      const n = i + 1;
      const old = edit.old.replaceAll("\r\n", "\n");
      const neu = edit.new.replaceAll("\r\n", "\n");
      if (old === "") return refusals.push({ n, text: emptyOldText(path, n) });
      if (old === neu) return refusals.push({ n, text: sameText(path, n) });
      const r = resolveEdit(file, old, neu);
      if (r.kind !== "found") {
        refusals.push({ n, text: refusalText(path, n, old, r) });
      } else {
        found.push(r);
        for (const at of r.pieces ?? [r]) {
          const region = file.text.slice(at.start, at.end);
          const lead = region.length - region.replace(/^[ \t\n]+/, "").length;
          const first = file.lineNumber(Math.min(at.start + lead, at.end - 1));
          placed.push({ n, at, first, last: file.lineNumber(at.end - 1) });
        }
      }
    });
    refusals.push(...conflicts(path, placed));
    if (refusals.length) {
      refusals.sort((a, b) => a.n - b.n);
      const texts = refusals.map((r) => r.text);
      const total = input.edits.length;
      if (total > 1) texts.push(nothingWrittenText(new Set(refusals.map((r) => r.n)).size, total));
      return fail(texts.join("\n"));
    }

    // Splice from the end, so that earlier offsets stay valid.
    let text = source.text;
    let out = source.raw;
    for (const p of [...placed].sort((a, b) => b.at.start - a.at.start)) {
      const { start, end, replacement } = p.at;
      text = text.slice(0, start) + replacement + text.slice(end);
      const written = source.crlf ? replacement.replaceAll("\n", "\r\n") : replacement;
      out = out.slice(0, rawOffset(source, start)) + written + out.slice(rawOffset(source, end));
    }
    if (out === source.raw) return { output: unchangedText(path), locations };

    const diff = diffHunks(source.text, text);
    const counts = diff && diff.hunks.length
      ? { added: diff.added, deleted: diff.deleted, first: firstChanged(diff.hunks) }
      : roughChange(source.text, text);
    const relaxations: Partial<Record<Relaxation, number>> = {};
    for (const f of found) {
      for (const r of f.relaxed ?? []) relaxations[r] = (relaxations[r] ?? 0) + 1;
    }
    const change: Change = {
      edits: found.length,
      relaxed: found.filter((f) => f.pass !== "exact").length,
      ...counts,
      relaxations,
    };
    const body = diff ? numberedDiff(diff.hunks) : DIFF_TOO_SLOW;
    const data = encodeText(out, decoded.encoding);
    if (!(data instanceof Uint8Array)) {
      return fail(unencodableText(path, decoded.encoding, data.char));
    }
    if (input.dry_run) {
      return { output: truncateMiddle(`${dryRunText(path, change)}\n${body}`, max), locations };
    }
    try {
      await ctx.fs.writeAtomic(path, data);
    } catch (err) {
      return fail(writeErrorText(path, errorReason(err)));
    }
    return {
      output: truncateMiddle(`${editedText(path, change)}\n${body}`, max),
      diff: { path: abs, oldText: source.raw, newText: out },
      locations,
    };
  },
};
