/**
 * The region of the file that comes closest to an `old` that was not found, shown in edit_file's
 * refusal so the model can copy the real lines (tools.md, `edit_file`; docs/tools.md, "The closest
 * region"): lines line up when equal ignoring whitespace or 80% similar, one line may be added or
 * missing, and a one-line old may line up with a stretch of a line.
 */

import { type FileText, rarestWord, trimBlanks, wordsOf } from "./file_text.ts";
import { isBlank } from "./reindent.ts";

/** The region of the file that comes closest to an `old` that was not found. */
export interface Closest {
  /** The 1-based number of its first line. */
  first: number;
  lines: string[];
}

/** Line comparisons above which the closest region is looked for by equal lines only. */
export const FUZZY_BUDGET = 60_000;
/** How similar two lines must be to line up (1 − edit distance / longer length). */
export const LINE_SIMILARITY = 0.8;
/** How similar a stretch of a line must be to a one-line old (1 − edit distance / old's length). */
export const FRAGMENT_SIMILARITY = 0.85;
/** The shortest one-line old (collapsed) that may line up with a stretch of a line. */
export const FRAGMENT_MIN = 6;
/** Character comparisons above which a one-line old is not compared with stretches of lines. */
const FRAGMENT_BUDGET = 4_000_000;
/** How many of the best diagonals are tried with a line added or missing. */
const SKIP_CANDIDATES = 16;

/** A trimmed line with every run of whitespace as one space. */
export function collapse(line: string): string {
  return trimBlanks(line).replace(/[ \t]+/g, " ");
}

/** Old's line `k` lines up with file line `i` with similarity `s`. */
interface Entry {
  i: number;
  k: number;
  s: number;
}

/** A window of the file and how well old lines up with it. */
interface Window {
  /** Its first line (0-based) and how many lines it has. */
  at: number;
  size: number;
  lined: number;
  score: number;
  /** Whether a line was added or missing to line it up. */
  skip: boolean;
}

/**
 * The window of the file, as many lines as `old` (blank edges dropped) or one more or one fewer,
 * where the most lines line up with `old`'s in order. Offered only when at least half of old's
 * lines line up, one of them holding a letter or a digit.
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
  const meaningful = core.map((l) => /[\p{L}\p{N}]/u.test(l));
  const entries = lineUps(file, core);
  if (entries.length === 0) return undefined;

  // Sums along each diagonal (file line − old line): a window without a skip.
  const diagonals = new Map<number, { lined: number; score: number; meaning: boolean }>();
  for (const e of entries) {
    const d = e.i - e.k;
    const v = diagonals.get(d) ?? { lined: 0, score: 0, meaning: false };
    v.lined++;
    v.score += e.s;
    v.meaning ||= meaningful[e.k];
    diagonals.set(d, v);
  }
  let best: Window | undefined;
  const consider = (w: Window) => {
    if (!best || better(w, best)) best = w;
  };
  for (const [d, v] of diagonals) {
    if (!v.meaning) continue;
    if (d < 0 || (d + m > total && d !== 0)) continue;
    consider({ at: d, size: m, lined: v.lined, score: v.score, skip: false });
  }
  if (m >= 2) {
    const top = [...diagonals.entries()].filter(([, v]) => v.meaning)
      .sort((a, b) => b[1].lined - a[1].lined || a[0] - b[0]).slice(0, SKIP_CANDIDATES);
    const along = diagonalArrays(entries, m);
    for (const [d] of top) {
      for (const [a, b] of [[d, d + 1], [d - 1, d], [d, d - 1], [d + 1, d]]) {
        const w = skipped(along, a, b, m, total, meaningful);
        if (w) consider(w);
      }
    }
  }
  if (!best || best.lined * 2 < m) return undefined;
  const end = Math.min(total, best.at + best.size);
  let shown = file.lines.slice(best.at, end);
  // A final newline leaves an empty last element: it is not a line of the file.
  if (end === total && shown.length > 1 && shown.at(-1) === "" && file.text.endsWith("\n")) {
    shown = shown.slice(0, -1);
  }
  return { first: best.at + 1, lines: shown };
}

/**
 * Whether window `w` beats `best`: more lines lined up; then no line added or missing; then the
 * most similar lines; then the first.
 */
function better(w: Window, best: Window): boolean {
  if (w.lined !== best.lined) return w.lined > best.lined;
  if (w.skip !== best.skip) return !w.skip;
  if (w.score !== best.score) return w.score > best.score;
  return w.at < best.at;
}

/** Per diagonal: each old line's similarity there (0 when it does not line up). */
type Along = Map<number, Float64Array>;

function diagonalArrays(entries: Entry[], m: number): Along {
  const along: Along = new Map();
  for (const e of entries) {
    const d = e.i - e.k;
    let v = along.get(d);
    if (!v) along.set(d, v = new Float64Array(m));
    v[e.k] = e.s;
  }
  return along;
}

/**
 * The best window where old's lines before a split line up on diagonal `a` and the rest on `b`:
 * `b = a + 1` is a line the file has in addition, `b = a - 1` a line of old the file lacks (the
 * split line itself lines up nowhere).
 */
function skipped(
  along: Along,
  a: number,
  b: number,
  m: number,
  total: number,
  meaningful: boolean[],
): Window | undefined {
  const da = along.get(a);
  const db = along.get(b);
  if (!da || !db) return undefined;
  const added = b === a + 1;
  const size = added ? m + 1 : m - 1;
  if (a < 0 || a + size > total) return undefined;
  // Running sums of diagonal a from the start, of diagonal b from the end.
  const sums = (v: Float64Array, from: number, to: number, step: number) => {
    const lined = [0];
    const score = [0];
    const meaning = [false];
    for (let k = from; k !== to; k += step) {
      const n = lined.length - 1;
      lined.push(lined[n] + (v[k] > 0 ? 1 : 0));
      score.push(score[n] + v[k]);
      meaning.push(meaning[n] || (v[k] > 0 && meaningful[k]));
    }
    return { lined, score, meaning };
  };
  const head = sums(da, 0, m, 1);
  const tail = sums(db, m - 1, -1, -1);
  let best: Window | undefined;
  for (let j = added ? 1 : 0; j < m; j++) {
    // Lines 0..j-1 on a; lines j..m-1 on b when the file has a line more, j+1..m-1 when less.
    const rest = added ? m - j : m - j - 1;
    const w: Window = {
      at: a,
      size,
      lined: head.lined[j] + tail.lined[rest],
      score: head.score[j] + tail.score[rest],
      skip: true,
    };
    if (!(head.meaning[j] || tail.meaning[rest])) continue;
    if (!best || better(w, best)) best = w;
  }
  return best;
}

/**
 * Every pair of a file line and an old line that line up, with its similarity. In a big file only
 * equal lines count, and only the lines holding an old line's longest word are compared with it;
 * old's lines without a word are compared where the others put a window.
 */
function lineUps(file: FileText, core: string[]): Entry[] {
  const m = core.length;
  const total = file.lines.length;
  const entries: Entry[] = [];
  if (m * total > FUZZY_BUDGET) {
    const collapsed = file.memo("collapsedLines", () => new Map<number, string>());
    const line = (i: number) => {
      let c = collapsed.get(i);
      if (c === undefined) collapsed.set(i, c = collapse(file.lines[i]));
      return c;
    };
    const wordless: number[] = [];
    core.forEach((l, k) => {
      const word = rarestWord(file, wordsOf(l));
      if (word === "") {
        if (l !== "") wordless.push(k);
        return;
      }
      for (const i of file.linesHolding(word)) if (line(i) === l) entries.push({ i, k, s: 1 });
    });
    const diagonals = new Set<number>();
    for (const e of entries) for (const d of [-1, 0, 1]) diagonals.add(e.i - e.k + d);
    for (const d of diagonals) {
      for (const k of wordless) {
        const i = d + k;
        if (i >= 0 && i < total && line(i) === core[k]) entries.push({ i, k, s: 1 });
      }
    }
    return entries;
  }
  const fileLines = file.trimmed.map(collapse);
  const fragments = m === 1 && core[0].length >= FRAGMENT_MIN &&
    fileLines.reduce((n, l) => n + l.length, 0) * core[0].length <= FRAGMENT_BUDGET;
  for (let i = 0; i < total; i++) {
    for (let k = 0; k < m; k++) {
      let s = similarity(fileLines[i], core[k]);
      if (s < LINE_SIMILARITY && fragments) s = fragmentSimilarity(fileLines[i], core[k]);
      if (s >= LINE_SIMILARITY) entries.push({ i, k, s });
    }
  }
  return entries;
}

/** The most edits a text of `length` may need to stay `bar` similar (exactly at the bar counts). */
function allowed(length: number, bar: number): number {
  return Math.floor(length * (1 - bar) + 1e-9);
}

/** 1 for equal lines, else 1 − edit distance / longer length (0 below the bar). */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a === "" || b === "") return 0;
  const longer = Math.max(a.length, b.length);
  const limit = allowed(longer, LINE_SIMILARITY);
  const d = boundedDistance(a, b, limit);
  return d > limit ? 0 : 1 - d / longer;
}

/**
 * How closely some stretch of `line` matches `pattern`: 1 − the least edit distance from
 * `pattern` to a substring of `line`, over `pattern`'s length; 0 below
 * {@linkcode FRAGMENT_SIMILARITY}.
 */
export function fragmentSimilarity(line: string, pattern: string): number {
  const limit = allowed(pattern.length, FRAGMENT_SIMILARITY);
  if (line.length < pattern.length - limit) return 0;
  // Sellers: the distance of pattern[0..i) to a substring of line ending at j; a match may start
  // anywhere, so the row for the empty pattern is all zeros.
  let prev = new Int32Array(line.length + 1);
  let cur = new Int32Array(line.length + 1);
  for (let i = 1; i <= pattern.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const c = pattern.charCodeAt(i - 1);
    for (let j = 1; j <= line.length; j++) {
      const d = Math.min(
        prev[j - 1] + (c === line.charCodeAt(j - 1) ? 0 : 1),
        prev[j] + 1,
        cur[j - 1] + 1,
      );
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return 0;
    [prev, cur] = [cur, prev];
  }
  let d = Infinity;
  for (let j = 0; j <= line.length; j++) d = Math.min(d, prev[j]);
  const s = 1 - d / pattern.length;
  return d <= limit ? s : 0;
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
