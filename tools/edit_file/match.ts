/**
 * Where an edit_file edit's `old` is in the file: the three passes (exact, edges, indent), the
 * uniqueness rule, the replacement re-indented, and the closest region when nothing matches
 * (tools.md, `edit_file`, "How `old` is matched"). Texts here are LF-normalised, without a BOM.
 */

import { NUMBER_PREFIX } from "../_lines.ts";
import {
  detectIndent,
  type IndentUnit,
  isBlank,
  leadingBlanks,
  modelWidth,
  reindent,
} from "./reindent.ts";

/** The pass that found an edit's `old`: `exact`, or a relaxed one (`edges`, `indent`). */
export type Pass = "exact" | "edges" | "indent";

/** A text split once into lines, with what the passes need to look things up. */
export class FileText {
  /** The lines, split on `\n` (a final newline gives a last empty line). */
  readonly lines: string[];
  /** The offset where each line starts. */
  readonly starts: number[];
  /** Each line without its leading and trailing spaces and tabs. */
  readonly trimmed: string[];
  /** The file's indentation unit, when it shows one. */
  readonly unit: IndentUnit | undefined;

  /** `text`, LF-normalised; `unit` overrides the detected indentation (a Makefile's tabs). */
  constructor(readonly text: string, unit?: IndentUnit) {
    this.lines = text.split("\n");
    this.starts = [];
    let at = 0;
    for (const line of this.lines) {
      this.starts.push(at);
      at += line.length + 1;
    }
    this.trimmed = this.lines.map(trimBlanks);
    this.unit = unit ?? detectIndent(text);
  }

  /** The 0-based index of the line holding `offset`. */
  lineIndex(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The 1-based number of the line holding `offset`. */
  lineNumber(offset: number): number {
    return this.lineIndex(offset) + 1;
  }
}

/** One edit located in the file: the region `[start, end)` and what replaces it. */
export interface Located {
  kind: "found";
  pass: Pass;
  start: number;
  end: number;
  replacement: string;
}

/** The outcome of looking for one edit's `old`. */
export type Resolution =
  | Located
  | { kind: "ambiguous"; count: number; lines: number[] }
  | { kind: "notFound"; closest?: Closest };

/** The region of the file that comes closest to an `old` that was not found. */
export interface Closest {
  /** The 1-based number of its first line. */
  first: number;
  lines: string[];
}

/** Leading and trailing spaces and tabs off. */
export function trimBlanks(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, "");
}

/** Every offset where `needle` starts in `text`, overlapping occurrences included. */
export function findAll(text: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === "") return out;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** This tool's own prefixes a model copies: its diff's `- 4 │ `/`+ 4 │ `, a refusal's `  │ 4 │ `, `  │ `. */
const OWN_PREFIX = /^(?:[-+] *\d+ │| *│ *\d+ │| *│)(?: |$)/;

/**
 * `line` without the prefix a model copied along with it — read_file's `  12 │ `
 * ({@linkcode NUMBER_PREFIX}) or one of this tool's — or undefined when it has none.
 */
export function stripCopiedPrefix(line: string): string | undefined {
  for (const prefix of [NUMBER_PREFIX, OWN_PREFIX]) {
    const m = line.match(prefix);
    if (m) return line.slice(m[0].length);
  }
  return undefined;
}

/** `text` without a copied prefix on each line, when every line has one; else undefined. */
export function withoutCopiedPrefix(text: string, everyLine = true): string | undefined {
  const lines = text.split("\n");
  const body = text.endsWith("\n") ? lines.slice(0, -1) : lines;
  if (everyLine && !body.every((l) => stripCopiedPrefix(l) !== undefined)) return undefined;
  return lines.map((l) => stripCopiedPrefix(l) ?? l).join("\n");
}

/**
 * Finds `old` in the file and builds its replacement from `replacement` (tools.md, three passes,
 * strictest first, the first that finds anything wins). When nothing is found and every line of
 * `old` carries a copied line-number prefix, the passes run again without it.
 */
export function resolveEdit(file: FileText, old: string, replacement: string): Resolution {
  const found = runPasses(file, old, replacement);
  if (found) return found;
  const bare = withoutCopiedPrefix(old);
  if (bare !== undefined && bare !== old && bare.trim() !== "") {
    const again = runPasses(file, bare, withoutCopiedPrefix(replacement, false)!);
    if (again) return again;
    return { kind: "notFound", closest: closestRegion(file, bare) };
  }
  return { kind: "notFound", closest: closestRegion(file, old) };
}

function runPasses(
  file: FileText,
  old: string,
  replacement: string,
): Located | { kind: "ambiguous"; count: number; lines: number[] } | undefined {
  return exactPass(file, old, replacement) ?? edgesPass(file, old, replacement) ??
    indentPass(file, old, replacement);
}

/** The ambiguous resolution for occurrences starting on these (0-based) line indexes. */
function ambiguous(indexes: number[]) {
  const lines = [...new Set(indexes)].sort((a, b) => a - b).map((i) => i + 1);
  return { kind: "ambiguous" as const, count: indexes.length, lines };
}

/** The unit a relaxed match writes with: the file's, else the one the model's text shows. */
function relaxedUnit(file: FileText, old: string, replacement: string, width: number): IndentUnit {
  return file.unit ?? detectIndent(`${old}\n${replacement}`) ?? { tab: false, width };
}

/** Pass 1: `old` byte for byte. */
function exactPass(file: FileText, old: string, replacement: string) {
  const starts = findAll(file.text, old);
  if (starts.length === 0) return undefined;
  const lead = old.match(/^[ \t\n]*/)![0].length;
  const at = (s: number) => file.lineIndex(Math.min(s + lead, s + old.length - 1));
  if (starts.length > 1) return ambiguous(starts.map(at));
  const start = starts[0];
  const line = file.lineIndex(start);
  let text = replacement;
  if (file.unit) {
    const width = modelWidth([old, replacement], file.unit);
    const base = leadingBlanks(file.lines[line]);
    text = reindent(replacement, {
      modelBase: base,
      fileBase: base,
      modelWidth: width,
      unit: file.unit.tab ? file.unit : { tab: false, width },
      firstLine: start === file.starts[line] ? "indented" : "verbatim",
      emptyBlankLines: false,
    });
  }
  return located("exact", start, start + old.length, text);
}

function located(pass: Pass, start: number, end: number, replacement: string): Located {
  return { kind: "found", pass, start, end, replacement };
}

/** Pass 2: `old` without the whitespace around it. */
function edgesPass(file: FileText, old: string, replacement: string) {
  const lead = old.match(/^[ \t\n]*/)![0];
  const core = old.slice(lead.length).replace(/[ \t\n]+$/, "");
  if (core === "" || core === old) return undefined;
  const trail = old.slice(lead.length + core.length);
  const starts = findAll(file.text, core);
  if (starts.length === 0) return undefined;
  if (starts.length > 1) return ambiguous(starts.map((s) => file.lineIndex(s)));
  const start = starts[0];
  const line = file.lineIndex(start);
  const before = file.text.slice(file.starts[line], start);
  const afterIndent = /^[ \t]*$/.test(before);
  const pInd = lead.slice(lead.lastIndexOf("\n") + 1);
  let text = stripPadding(replacement, count(lead, "\n"), trail);
  const width = modelWidth([old, replacement], file.unit);
  let modelBase: string;
  let fileBase: string;
  if (afterIndent && pInd !== "") {
    modelBase = pInd;
    fileBase = before;
  } else {
    modelBase = fileBase = leadingBlanks(file.lines[line]);
    if (!afterIndent && pInd !== "" && text.startsWith(pInd)) text = text.slice(pInd.length);
  }
  text = reindent(text, {
    modelBase,
    fileBase,
    modelWidth: width,
    unit: relaxedUnit(file, old, replacement, width),
    firstLine: afterIndent ? "relative" : "verbatim",
    emptyBlankLines: true,
    trimTrailing: !/[ \t]$/m.test(file.text.slice(start, start + core.length)),
  });
  return located("edges", start, start + core.length, text);
}

/** Pass 3: every line of `old` (two or more) without its leading and trailing whitespace. */
function indentPass(file: FileText, old: string, replacement: string) {
  const lines = old.split("\n");
  const first = lines.findIndex((l) => !isBlank(l));
  if (first < 0) return undefined;
  let last = lines.length - 1;
  while (isBlank(lines[last])) last--;
  const core = lines.slice(first, last + 1);
  if (core.length < 2) return undefined;
  const keys = core.map(trimBlanks);
  const hits: number[] = [];
  for (let i = 0; i + core.length <= file.lines.length; i++) {
    if (file.trimmed[i] !== keys[0]) continue;
    let k = 1;
    while (k < keys.length && file.trimmed[i + k] === keys[k]) k++;
    if (k === keys.length) hits.push(i);
  }
  if (hits.length === 0) return undefined;
  if (hits.length > 1) return ambiguous(hits);
  const i = hits[0];
  const end = i + core.length - 1;
  const start = file.starts[i];
  const stop = file.starts[end] + file.lines[end].length;
  const trail = old.match(/[ \t\n]*$/)![0];
  const stripped = stripPadding(replacement, first, trail);
  const width = modelWidth([old, replacement], file.unit);
  const common = {
    modelWidth: width,
    unit: relaxedUnit(file, old, replacement, width),
    firstLine: "indented" as const,
    emptyBlankLines: true,
    trimTrailing: !/[ \t]$/m.test(file.text.slice(start, stop)),
  };
  // The first line against the first line; the others against the line pair that most lines
  // agree on, since a model often copies the first line from after its indentation.
  const k = basePair(core, file.lines.slice(i, end + 1), width);
  const [head, ...rest] = stripped.split("\n");
  const firstLine = reindent(head, {
    ...common,
    modelBase: leadingBlanks(core[0]),
    fileBase: leadingBlanks(file.lines[i]),
  });
  const others = rest.length
    ? "\n" + reindent(rest.join("\n"), {
      ...common,
      modelBase: leadingBlanks(core[k]),
      fileBase: leadingBlanks(file.lines[i + k]),
    })
    : "";
  return located("indent", start, stop, firstLine + others);
}

/**
 * The index of the line pair whose indentation shift (file levels minus model levels) most of the
 * pairs after the first share; 0 when there is only the first.
 */
function basePair(model: string[], file: string[], width: number): number {
  const levels = (line: string) => {
    const blanks = leadingBlanks(line);
    const tabs = blanks.split("\t").length - 1;
    return tabs + Math.floor((blanks.length - tabs) / width);
  };
  const votes = new Map<number, { n: number; k: number }>();
  for (let k = 1; k < model.length; k++) {
    if (isBlank(model[k])) continue;
    const shift = levels(file[k]) - levels(model[k]);
    const v = votes.get(shift);
    if (v) v.n++;
    else votes.set(shift, { n: 1, k });
  }
  let best = { n: 0, k: 0 };
  for (const v of votes.values()) if (v.n > best.n) best = v;
  return best.k;
}

function count(s: string, c: string): number {
  return s.split(c).length - 1;
}

/**
 * `replacement` without the padding `old` had around its matched text, as far as `replacement`
 * carries it too: up to `leadLines` leading blank lines, up to as many trailing blank lines as
 * `trail` holds newlines, and trailing blanks on the last line when `trail` ends with some.
 * A replacement that adds blank lines beyond the padding keeps them.
 */
export function stripPadding(replacement: string, leadLines: number, trail: string): string {
  let lines = replacement.split("\n");
  let k = 0;
  while (k < leadLines && k < lines.length - 1 && isBlank(lines[k])) k++;
  lines = lines.slice(k);
  const trailLines = count(trail, "\n");
  let m = 0;
  while (m < trailLines && lines.length - m > 1 && isBlank(lines[lines.length - 1 - m])) m++;
  lines = lines.slice(0, lines.length - m);
  if (/[ \t]$/.test(trail)) {
    lines[lines.length - 1] = lines[lines.length - 1].replace(/[ \t]+$/, "");
  }
  return lines.join("\n");
}

/** Line comparisons above which the closest region is looked for by equal lines only. */
const FUZZY_BUDGET = 60_000;
/** How similar two lines must be to line up (1 − edit distance / longer length). */
const LINE_SIMILARITY = 0.8;

/**
 * The window of the file, as many lines as `old` (blank edges dropped), where the most lines line
 * up with `old`'s: equal once whitespace is ignored, or at least 80% similar. Offered only when at
 * least half of them line up, one of them holding a letter or a digit.
 */
export function closestRegion(file: FileText, old: string): Closest | undefined {
  const lines = old.split("\n");
  const first = lines.findIndex((l) => !isBlank(l));
  if (first < 0) return undefined;
  let last = lines.length - 1;
  while (isBlank(lines[last])) last--;
  const core = lines.slice(first, last + 1).map(collapse);
  const m = core.length;
  const total = file.lines.length;
  const fuzzy = m * total <= FUZZY_BUDGET;
  const fileLines = file.trimmed.map(collapse);
  let best: { i: number; lined: number; score: number } | undefined;
  for (let i = 0; i === 0 || i + m <= total; i++) {
    let lined = 0;
    let score = 0;
    let meaningful = false;
    for (let k = 0; k < m && i + k < total; k++) {
      const s = similarity(fileLines[i + k], core[k], fuzzy);
      if (s >= LINE_SIMILARITY) {
        lined++;
        score += s;
        if (/[\p{L}\p{N}]/u.test(core[k])) meaningful = true;
      }
    }
    if (!meaningful) continue;
    if (!best || lined > best.lined || (lined === best.lined && score > best.score)) {
      best = { i, lined, score };
    }
  }
  if (!best || best.lined * 2 < m) return undefined;
  const end = Math.min(total, best.i + m);
  let shown = file.lines.slice(best.i, end);
  // A final newline leaves an empty last element: it is not a line of the file.
  if (end === total && shown.length > 1 && shown.at(-1) === "" && file.text.endsWith("\n")) {
    shown = shown.slice(0, -1);
  }
  return { first: best.i + 1, lines: shown };
}

/** A trimmed line with every run of whitespace as one space. */
function collapse(line: string): string {
  return trimBlanks(line).replace(/[ \t]+/g, " ");
}

/** 1 for equal lines, else 1 − edit distance / longer length (0 when not `fuzzy`). */
function similarity(a: string, b: string, fuzzy: boolean): number {
  if (a === b) return 1;
  if (!fuzzy || a === "" || b === "") return 0;
  const longer = Math.max(a.length, b.length);
  const limit = Math.floor(longer * (1 - LINE_SIMILARITY));
  const d = boundedDistance(a, b, limit);
  return d > limit ? 0 : 1 - d / longer;
}

/** The Levenshtein distance of `a` and `b`, or `limit + 1` once it is known to exceed `limit`. */
export function boundedDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const over = limit + 1;
  let prev = new Int32Array(b.length + 1);
  let cur = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = Math.min(j, over);
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(b.length, i + limit);
    cur[0] = Math.min(i, over);
    if (lo > 1) cur[lo - 1] = over;
    let rowMin = cur[lo - 1];
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      let d = prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const up = (j <= i - 1 + limit ? prev[j] : over) + 1;
      const left = cur[j - 1] + 1;
      if (up < d) d = up;
      if (left < d) d = left;
      if (d > over) d = over;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (hi < b.length) cur[hi + 1] = over;
    if (rowMin > limit) return over;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length], over);
}
