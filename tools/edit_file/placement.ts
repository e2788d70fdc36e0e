/**
 * Placing an edit_file edit's `new` in the file line by line, once its `old` is found: lines the
 * model left unchanged keep the file's own bytes, a changed line is re-indented against the line it
 * replaces, an added line against its nearest unchanged neighbour (docs/tools.md, "Placing new").
 */

import { type IndentUnit, isBlank, leadingBlanks, reindent } from "./reindent.ts";

/** A line normalised for comparison, and where each of its characters came from. */
export interface Normal {
  text: string;
  /** For each character of `text`, the offset in the line of the character it stands for. */
  from: number[];
  /** For each character of `text`, the offset just after the character it stands for. */
  to: number[];
}

/** A normalisation of one line's content (after its indentation), as a relaxed pass compares it. */
export type Normalize = (content: string) => Normal;

/** What {@linkcode place} needs: the matched region, old's lines over it, and how to write new. */
export interface Placing {
  /** The file's lines (split on `\n`) and the offset where each starts. */
  lines: string[];
  starts: number[];
  /** The region replaced, as offsets in the file's text. */
  start: number;
  end: number;
  /**
   * old's lines, one per file line of the region: the first may begin after the start of its
   * line, the last end before the end of its line.
   */
  model: string[];
  /** new, without the padding old had around its text. */
  text: string;
  /** Pass 1: new's indentation is trusted (only the wrong indent character is converted). */
  exact: boolean;
  /**
   * How new's first line is written when the region starts after the beginning of its line:
   * `verbatim` as sent, `relative` keeping only its indentation beyond old's first line.
   */
  firstLine: "verbatim" | "relative";
  /** The unit lines are written with; none leaves an exact match's new as sent. */
  unit: IndentUnit | undefined;
  /** Spaces per level in the model's text. */
  modelWidth: number;
  /** Whether the trailing blanks the model typed on a changed or added line are kept. */
  keepTrailing: boolean;
  /** For a pass that compared lines normalised: the file's bytes are carried into changed lines. */
  normalize?: Normalize;
}

/** Which line of old each line of new repeats unchanged, or -1; a longest common subsequence. */
export function alignLines(model: string[], lines: string[]): number[] {
  const out = lines.map(() => -1);
  for (const step of diffSequences(model.map(trimEnd), lines.map(trimEnd))) {
    if (step.kind === "same") out[step.b] = step.a;
  }
  return out;
}

/** One step of a diff: an item of both sequences, of `a` only, or of `b` only. */
type Step =
  | { kind: "same"; a: number; b: number }
  | { kind: "deleted"; a: number }
  | { kind: "added"; b: number };

/** How many items `a` and `b` share at their start and, after that, at their end. */
export function commonEnds(
  a: ArrayLike<string>,
  b: ArrayLike<string>,
): { head: number; tail: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  return { head, tail };
}

/** Cells above which the middle of a diff is not searched for common items. */
const DIFF_CELLS = 4_000_000;

/**
 * The steps from `a` to `b` (lines, or a string's characters) along a longest common subsequence:
 * the common ends first, the middle by dynamic programming (all of it changed when too big).
 */
function diffSequences(a: ArrayLike<string>, b: ArrayLike<string>): Step[] {
  const { head, tail } = commonEnds(a, b);
  const steps: Step[] = [];
  for (let i = 0; i < head; i++) steps.push({ kind: "same", a: i, b: i });
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const width = m + 1;
  // lcs[i][j]: the longest common subsequence of a[head+i..] and b[head+j..], row by row.
  const lcs = new Uint32Array(n * m > DIFF_CELLS ? 0 : (n + 1) * width);
  if (lcs.length) {
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] = a[head + i] === b[head + j]
          ? lcs[(i + 1) * width + j + 1] + 1
          : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
  }
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (lcs.length && i < n && j < m && a[head + i] === b[head + j]) {
      steps.push({ kind: "same", a: head + i++, b: head + j++ });
    } else if (
      j >= m || (i < n && (!lcs.length || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]))
    ) {
      steps.push({ kind: "deleted", a: head + i++ });
    } else steps.push({ kind: "added", b: head + j++ });
  }
  for (let k = 0; k < tail; k++) {
    steps.push({ kind: "same", a: a.length - tail + k, b: b.length - tail + k });
  }
  return steps;
}

function trimEnd(line: string): string {
  return line.replace(/[ \t]+$/, "");
}

function trailingBlanks(line: string): string {
  return line.match(/[ \t]*$/)![0];
}

/** Indentation read as levels: each tab one, spaces one per `width`. */
function levels(blanks: string, width: number): number {
  const tabs = blanks.split("\t").length - 1;
  return tabs + Math.floor((blanks.length - tabs) / width);
}

/** How each line of new relates to old: unchanged (a copy of old's line k), changed, or added. */
type Role =
  | { kind: "unchanged"; k: number }
  | { kind: "changed"; k: number }
  | { kind: "added" };

/** The roles of new's lines: the common lines, then each run between them paired in order. */
function roles(model: string[], lines: string[]): Role[] {
  const aligned = alignLines(model, lines);
  const out: Role[] = [];
  let lastK = -1;
  let i = 0;
  while (i < lines.length) {
    if (aligned[i] >= 0) {
      out.push({ kind: "unchanged", k: aligned[i] });
      lastK = aligned[i++];
      continue;
    }
    let j = i;
    while (j < lines.length && aligned[j] < 0) j++;
    const nextK = j < lines.length ? aligned[j] : model.length;
    for (let x = i; x < j; x++) {
      const k = lastK + 1 + (x - i);
      out.push(k < nextK ? { kind: "changed", k } : { kind: "added" });
    }
    i = j;
  }
  return out;
}

/** The reference a line is re-indented against: old's indentation and the file's. */
interface Pair {
  model: string;
  file: string;
}

/**
 * The replacement text for the region: new placed line by line (see the module comment). The
 * first line of new is written where the region starts; the file's text before the region on its
 * line and after it on its last line stays around it.
 */
export function place(p: Placing): string {
  const first = lineOf(p.starts, p.start);
  const last = first + p.model.length - 1;
  const prefix = p.start > p.starts[first];
  const lineEnd = (k: number) => p.starts[first + k] + p.lines[first + k].length;
  /** The file's bytes of region line k, from its line's start (or the region's) to the region's end. */
  const segment = (k: number, fromLineStart: boolean) => {
    const from = k === 0 && !fromLineStart ? p.start : p.starts[first + k];
    const to = first + k === last ? p.end : lineEnd(k);
    return p.lines[first + k].slice(from - p.starts[first + k], to - p.starts[first + k]);
  };
  const fileIndent = (k: number) => {
    const blanks = leadingBlanks(p.lines[first + k]);
    if (first + k !== last) return blanks;
    return blanks.slice(0, Math.max(0, p.end - p.starts[first + k]));
  };
  const pairs: Pair[] = p.model.map((m, k) => ({ model: leadingBlanks(m), file: fileIndent(k) }));
  pairs[0] = firstPair(p, pairs);

  const lines = p.text.split("\n");
  const role = roles(p.model, lines);
  const near = neighbours(role, lines, p.model);
  const trailing = (line: string, k: number | undefined, placed: string): string => {
    if (isBlank(placed)) return "";
    const own = trailingBlanks(line);
    if (k !== undefined && own === trailingBlanks(p.model[k])) {
      return trailingBlanks(segment(k, true));
    }
    return p.exact || p.keepTrailing ? own : "";
  };
  /** Line `i` of new re-indented against `pair`; `k` is the line of old it replaces, if any. */
  const placeAgainst = (line: string, pair: Pair, k: number | undefined, i: number): string => {
    const body = trimEnd(line);
    let placed = body;
    if (!p.unit) placed = body;
    else if (i === 0 && prefix) {
      if (p.firstLine === "relative") {
        placed = reindent(body, { ...indenting(p, pair), firstLine: "relative" });
      }
    } else placed = reindent(body, { ...indenting(p, pair), firstLine: "indented" });
    if (k !== undefined && p.normalize) {
      const own = leadingBlanks(placed);
      const fileLine = segment(k, !(k === 0 && prefix));
      const fileContent = trimEnd(fileLine).slice(leadingBlanks(fileLine).length);
      const modelContent = trimEnd(p.model[k]).slice(leadingBlanks(p.model[k]).length);
      placed = own + carry(fileContent, modelContent, placed.slice(own.length), p.normalize);
    }
    return placed + trailing(line, k, placed);
  };

  return lines.map((line, i) => {
    const r = role[i];
    const atStart = i === 0 && prefix;
    if (r.kind === "unchanged" && !(atStart && r.k !== 0)) return segment(r.k, !atStart);
    if (isBlank(line)) return p.exact ? line : "";
    if (r.kind !== "added") return placeAgainst(line, pairs[r.k], r.k, i);
    const j = near[i];
    return placeAgainst(line, j === undefined ? pairs[0] : pairs[j], undefined, i);
  }).join("\n");
}

/** The re-indentation of a line against `pair`, in the unit the pass writes with. */
function indenting(p: Placing, pair: Pair) {
  const unit = p.unit!;
  return {
    modelBase: pair.model,
    fileBase: pair.file,
    modelWidth: p.modelWidth,
    // An exact match keeps the model's own width of spaces, only the indent character converted,
    // where the model's indentation is the file's; where not, the lines move by the file's unit.
    unit: p.exact && !unit.tab && pair.model === pair.file
      ? { tab: false as const, width: p.modelWidth }
      : unit,
    emptyBlankLines: !p.exact,
  };
}

/** The index of the line holding `offset`. */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The indentation the model meant for old's first line: its own (an exact match that starts inside
 * the indentation takes its base from old, an unindented one-line old is read as the model's own
 * frame); but an unindented first line among other lines gets the shift most of them have, since
 * a model often copies the first line from after its indentation.
 */
function firstPair(p: Placing, pairs: Pair[]): Pair {
  const own = pairs[0];
  if (own.model !== "" || own.file === "") return own;
  const fileWidth = p.unit && !p.unit.tab ? p.unit.width : p.modelWidth;
  const votes = new Map<number, number>();
  for (let k = 1; k < p.model.length; k++) {
    if (isBlank(p.model[k])) continue;
    const shift = levels(pairs[k].file, fileWidth) - levels(pairs[k].model, p.modelWidth);
    votes.set(shift, (votes.get(shift) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [shift, n] of votes) if (best === undefined || n > votes.get(best)!) best = shift;
  if (best === undefined) return own;
  const model = levels(own.file, fileWidth) - best;
  return { model: " ".repeat(Math.max(0, model) * p.modelWidth), file: own.file };
}

/**
 * For each added line of new, the line of old whose pair it is re-indented against: its nearest
 * unchanged neighbour that is not blank (the previous one on a tie), else the nearest changed line
 * that is not blank; undefined when there is none (old's first line is used).
 */
function neighbours(role: Role[], lines: string[], model: string[]): (number | undefined)[] {
  const nearest = (kind: Role["kind"]) => {
    const useful = (j: number) => {
      const r = role[j];
      return r.kind === kind && r.kind !== "added" && !isBlank(model[r.k]) && !isBlank(lines[j]);
    };
    const before: number[] = [];
    let seen = -1;
    for (let j = 0; j < lines.length; j++) {
      before.push(seen);
      if (useful(j)) seen = j;
    }
    const after: number[] = new Array(lines.length);
    seen = -1;
    for (let j = lines.length - 1; j >= 0; j--) {
      after[j] = seen;
      if (useful(j)) seen = j;
    }
    return (i: number): number | undefined => {
      const b = before[i];
      const a = after[i];
      if (b < 0 && a < 0) return undefined;
      const j = a < 0 || (b >= 0 && i - b <= a - i) ? b : a;
      return (role[j] as { k: number }).k;
    };
  };
  const unchanged = nearest("unchanged");
  const changed = nearest("changed");
  return role.map((r, i) => r.kind === "added" ? unchanged(i) ?? changed(i) : undefined);
}

/**
 * A changed line's content with the file's own bytes wherever it says what old said: old's and
 * new's lines are aligned character by character, compared normalised; each character new kept
 * is written as the file writes it (with the file's spaces before it), each one new added as new
 * writes it. Typography and spacing the model did not mean to change stay the file's. A line
 * rewritten more than kept is new's as it is.
 */
export function carry(file: string, model: string, line: string, normalize: Normalize): string {
  const f = normalize(file);
  const m = normalize(model);
  const n = normalize(line);
  if (f.text !== m.text || n.text === m.text) return line;
  const ops = diffSequences(m.text, n.text);
  const kept = ops.filter((o) => o.kind === "same").length;
  if (kept * 2 < n.text.length) return line;
  const gap = (s: string, x: Normal, j: number) => s.slice(j > 0 ? x.to[j - 1] : 0, x.from[j]);
  // A character normalised to several (`…` read as `...`) is one unit: written once, and the
  // file's only when new keeps all of it.
  const keptAt = new Set(ops.filter((o) => o.kind === "same").map((o) => o.a));
  const whole = (a: number) => {
    for (let j = a; j >= 0 && f.from[j] === f.from[a]; j--) if (!keptAt.has(j)) return false;
    for (let j = a; j < f.from.length && f.from[j] === f.from[a]; j++) {
      if (!keptAt.has(j)) return false;
    }
    return true;
  };
  let out = "";
  let fileAt = -1;
  let lineAt = -1;
  // A character added in place of deleted ones takes the file's spaces before them.
  let replaced: string | undefined;
  const fromLine = (b: number, before: string) => {
    if (n.from[b] === lineAt) return;
    out += before + line.slice(n.from[b], n.to[b]);
    lineAt = n.from[b];
  };
  for (const o of ops) {
    if (o.kind === "same" && whole(o.a)) {
      if (f.from[o.a] !== fileAt) out += gap(file, f, o.a) + file.slice(f.from[o.a], f.to[o.a]);
      fileAt = f.from[o.a];
      replaced = undefined;
    } else if (o.kind === "same") fromLine(o.b, gap(line, n, o.b));
    else if (o.kind === "deleted") replaced ??= gap(file, f, o.a);
    else {
      fromLine(o.b, replaced ?? gap(line, n, o.b));
      replaced = undefined;
    }
  }
  return out.replace(/^[ \t]+/, "");
}
