/**
 * Where an edit_file edit's `old` is in the file (tools.md, `edit_file`, "How `old` is matched"):
 * the spec's three passes (exact, edges, indent), strictest first; only when they find nothing,
 * the cleanups of what a model copies (`decoration.ts`), then typography (`typography.ts`) and
 * spaces inside lines (`interior.ts`), then an elided old piece by piece (`elision.ts`). Uniqueness
 * is never relaxed. `new` is placed line by line (`placement.ts`); when nothing matches, the region
 * that comes closest (`closest.ts`), or "already applied". Texts here are LF-normalised, without
 * a BOM; docs/tools.md has the rules.
 */

import { type Closest, closestRegion } from "./closest.ts";
import {
  type Cleaned,
  newWithoutDecoration,
  withoutEscapes,
  withoutFences,
  withoutLineNumbers,
} from "./decoration.ts";
import { type ElisionFault, resolveElided } from "./elision.ts";
import {
  type Ambiguous,
  ambiguous,
  countUpTo,
  type FileText,
  findAll,
  type Located,
  type Pass,
  type PassResult,
  type Relaxation,
  trimBlanks,
} from "./file_text.ts";
import {
  bothNormalizer,
  interiorNormalizer,
  normalizedPass,
  type Normalizer,
  relaxedUnit,
  typographyNormalizer,
} from "./normalized.ts";
import { addedPlaceholder } from "./placeholder.ts";
import { place } from "./placement.ts";
import { isBlank, modelWidth } from "./reindent.ts";
import { hasTypography, toFileTypography } from "./typography.ts";

export {
  type Ambiguous,
  FileText,
  findAll,
  type Located,
  type Pass,
  type Piece,
  type Relaxation,
  trimBlanks,
} from "./file_text.ts";

/** The outcome of looking for one edit's `old`. */
export type Resolution =
  | Located
  | Ambiguous
  | { kind: "notFound"; closest?: Closest }
  /** new adds a placeholder old does not have: `line`, as the model wrote it (trimmed). */
  | { kind: "placeholder"; line: string }
  /** old is not in the file but new is, on these (1-based) lines: the edit looks applied. */
  | { kind: "applied"; first: number; last: number }
  | ElisionFault;

/**
 * Finds `old` in the file and builds its replacement from `replacement`: the spec's three passes,
 * strictest first, the first that finds anything wins; then, only when they found nothing, the
 * relaxations, each reported (docs/tools.md, "Matching").
 */
export function resolveEdit(file: FileText, old: string, replacement: string): Resolution {
  const refused = placeholderIn(file, old, replacement);
  if (refused) return refused;
  const relaxed: Relaxation[] = [];
  const decorated = newWithoutDecoration(old, replacement, file.text, file.path);
  if (decorated) {
    replacement = decorated.new;
    relaxed.push(decorated.relaxation);
  }
  const found = specPasses(file, old, replacement);
  if (found) return withRelaxed(found, relaxed);
  let cur: { old: string; new: string } = { old, new: replacement };
  const cleanups: ((o: string, n: string, text: string) => Cleaned | undefined)[] = [
    withoutEscapes,
    withoutFences,
    withoutLineNumbers,
  ];
  for (const clean of cleanups) {
    const c = clean(cur.old, cur.new, file.text);
    if (!c || c.old.trim() === "") continue;
    cur = c;
    relaxed.push(c.relaxation);
    const placeholder = placeholderIn(file, cur.old, cur.new);
    if (placeholder) return placeholder;
    const r = specPasses(file, cur.old, cur.new);
    if (r) return withRelaxed(r, relaxed);
  }
  const loose = loosePasses(file, cur.old, cur.new);
  if (loose) return withRelaxed(loose, relaxed);
  const elided = resolveElided(
    file,
    cur.old,
    cur.new,
    (o, n) => specPasses(file, o, n) ?? loosePasses(file, o, n),
  );
  if (elided?.kind === "found") return withRelaxed(elided, relaxed);
  if (elided?.kind === "elision") return elided;
  const closest = closestRegion(file, elided?.kind === "missingPiece" ? elided.piece : cur.old);
  return alreadyApplied(file, cur.new, closest) ?? { kind: "notFound", closest };
}

/** The refusal of a new that adds a placeholder old does not have. */
function placeholderIn(file: FileText, old: string, neu: string): Resolution | undefined {
  const line = addedPlaceholder(old, neu, file.path);
  return line === undefined ? undefined : { kind: "placeholder", line };
}

/** `r` with `relaxed` added to what it needed (an ambiguity stays as it is). */
function withRelaxed(r: Located | Ambiguous, relaxed: Relaxation[]): Located | Ambiguous {
  if (r.kind !== "found") return r;
  const all = [...new Set([...relaxed, ...(r.relaxed ?? [])])];
  return all.length ? { ...r, relaxed: all } : r;
}

/** The spec's three passes, strictest first: the first that finds anything decides. */
function specPasses(file: FileText, old: string, replacement: string): PassResult {
  return exactPass(file, old, replacement) ?? edgesPass(file, old, replacement) ??
    indentPass(file, old, replacement);
}

/** The typography and interior-whitespace passes, alone then together. */
function loosePasses(file: FileText, old: string, replacement: string): PassResult {
  const typographic = hasTypography(old) ||
    file.memo("typographic", () => hasTypography(file.text));
  const interior = interiorNormalizer(file.path);
  const passes: [Normalizer, Relaxation[]][] = [[interior, ["interior"]]];
  if (typographic) {
    passes.unshift([typographyNormalizer, ["typography"]]);
    passes.push([bothNormalizer(typographyNormalizer, interior), ["typography", "interior"]]);
  }
  for (const [norm, relaxed] of passes) {
    const r = normalizedPass(file, old, replacement, norm, stripPadding);
    if (r?.kind !== "found") {
      if (r) return r;
      continue;
    }
    // Characters the file never writes that way are new's, never the file's own bytes.
    const text = relaxed.includes("typography")
      ? toFileTypography(r.replacement, file.text)
      : r.replacement;
    return { ...r, replacement: text, relaxed };
  }
  return undefined;
}

/**
 * "Already applied": old is not in the file, but new is, once, where old's closest region is — a
 * model resending an edit that was already made.
 */
function alreadyApplied(
  file: FileText,
  neu: string,
  closest: Closest | undefined,
): Resolution | undefined {
  if (!closest || !/[\p{L}\p{N}]/u.test(neu)) return undefined;
  const core = neu.replace(/^[ \t\n]+|[ \t\n]+$/g, "");
  if (countUpTo(file.text, core, 2) > 1) return undefined;
  const r = specPasses(file, neu, neu);
  if (r?.kind !== "found") return undefined;
  const region = file.text.slice(r.start, r.end);
  const lead = region.length - region.replace(/^[ \t\n]+/, "").length;
  const first = file.lineNumber(Math.min(r.start + lead, r.end - 1));
  const last = file.lineNumber(Math.max(r.start, r.end - 1));
  const closestLast = closest.first + closest.lines.length - 1;
  if (last < closest.first || first > closestLast) return undefined;
  return { kind: "applied", first, last };
}

function located(pass: Pass, start: number, end: number, replacement: string): Located {
  return { kind: "found", pass, start, end, replacement };
}

/** Pass 1: `old` byte for byte. */
function exactPass(file: FileText, old: string, replacement: string): PassResult {
  const starts = findAll(file.text, old);
  if (starts.length === 0) return undefined;
  const lead = old.match(/^[ \t\n]*/)![0].length;
  const at = (s: number) => file.lineIndex(Math.min(s + lead, s + old.length - 1));
  if (starts.length > 1) return ambiguous(starts.map(at));
  const start = starts[0];
  const text = place({
    lines: file.lines,
    starts: file.starts,
    start,
    end: start + old.length,
    model: old.split("\n"),
    text: replacement,
    exact: true,
    firstLine: "verbatim",
    unit: file.unit,
    modelWidth: modelWidth([old, replacement], file.unit),
    keepTrailing: true,
  });
  return located("exact", start, start + old.length, text);
}

/** Pass 2: `old` without the whitespace around it. */
function edgesPass(file: FileText, old: string, replacement: string): PassResult {
  const lead = old.match(/^[ \t\n]*/)![0];
  const core = old.slice(lead.length).replace(/[ \t\n]+$/, "");
  if (core === "" || core === old) return undefined;
  const trail = old.slice(lead.length + core.length);
  const starts = findAll(file.text, core);
  if (starts.length === 0) return undefined;
  if (starts.length > 1) return ambiguous(starts.map((s) => file.lineIndex(s)));
  const start = starts[0];
  const line = file.lineIndex(start);
  const afterIndent = /^[ \t]*$/.test(file.text.slice(file.starts[line], start));
  const pInd = lead.slice(lead.lastIndexOf("\n") + 1);
  let text = stripPadding(replacement, count(lead, "\n"), trail);
  if (!afterIndent && pInd !== "" && text.startsWith(pInd)) text = text.slice(pInd.length);
  const model = core.split("\n");
  if (afterIndent) model[0] = pInd + model[0];
  const width = modelWidth([old, replacement], file.unit);
  text = place({
    lines: file.lines,
    starts: file.starts,
    start,
    end: start + core.length,
    model,
    text,
    exact: false,
    firstLine: afterIndent ? "relative" : "verbatim",
    unit: relaxedUnit(file, old, replacement, width),
    modelWidth: width,
    keepTrailing: /[ \t]$/m.test(core),
  });
  return located("edges", start, start + core.length, text);
}

/** Pass 3: every line of `old` (two or more) without its leading and trailing whitespace. */
function indentPass(file: FileText, old: string, replacement: string): PassResult {
  const lines = old.split("\n");
  const first = lines.findIndex((l) => !isBlank(l));
  if (first < 0) return undefined;
  let last = lines.length - 1;
  while (isBlank(lines[last])) last--;
  const core = lines.slice(first, last + 1);
  if (core.length < 2) return undefined;
  const keys = core.map(trimBlanks);
  const hits: number[] = [];
  // Only the lines holding old's first line can start a match.
  for (const i of file.linesHolding(keys[0])) {
    if (i + core.length > file.lines.length) break;
    let k = 0;
    while (k < keys.length && trimBlanks(file.lines[i + k]) === keys[k]) k++;
    if (k === keys.length) hits.push(i);
  }
  if (hits.length === 0) return undefined;
  if (hits.length > 1) return ambiguous(hits);
  const i = hits[0];
  const end = i + core.length - 1;
  const start = file.starts[i];
  const stop = file.starts[end] + file.lines[end].length;
  const trail = old.match(/[ \t\n]*$/)![0];
  const width = modelWidth([old, replacement], file.unit);
  const text = place({
    lines: file.lines,
    starts: file.starts,
    start,
    end: stop,
    model: core,
    text: stripPadding(replacement, first, trail),
    exact: false,
    firstLine: "verbatim",
    unit: relaxedUnit(file, old, replacement, width),
    modelWidth: width,
    keepTrailing: /[ \t]$/m.test(file.text.slice(start, stop)),
  });
  return located("indent", start, stop, text);
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
