/**
 * The nearest known word to a misspelt one, for "did you mean …?" hints: unknown keys of the
 * agent file, unknown slash commands, unknown tool names.
 *
 * Distance is Damerau–Levenshtein (optimal string alignment: an insertion, a deletion, a
 * substitution or a swap of two neighbours each cost 1), compared case-insensitively. A candidate
 * is accepted when its distance is at most `max(2, floor(word.length / 3))` and it keeps at least
 * one character of the word (so `x` never suggests `ls`).
 */

/** The edit distance between `a` and `b` (optimal string alignment, case-sensitive). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++) d[i][0] = i;
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The candidate nearest to `word` (case-insensitive), or undefined when none is near enough. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(w, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined || bestDistance > limit) return undefined;
  return bestDistance < Math.max(w.length, best.length) ? best : undefined;
}
