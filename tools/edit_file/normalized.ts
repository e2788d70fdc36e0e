/**
 * The normalisers of the typography and interior-whitespace passes, and the matching they share: old's lines compared with the
 * file's once both are normalised (line by line, like the spec's indent pass; a one-line old may
 * also be a fragment of a line, between word boundaries), uniqueness kept, new placed line by line
 * with the file's bytes carried into what the model did not mean to change (docs/tools.md).
 */

import {
  ambiguous,
  coreLines,
  type FileText,
  type PassResult,
  rarestWord,
  wordsOf,
} from "./file_text.ts";
import { type Normal, type Normalize, place } from "./placement.ts";
import { insideLiterals, literalsFor, squeeze } from "./interior.ts";
import { foldNormal, foldTypography } from "./typography.ts";
import { detectIndent, type IndentUnit, leadingBlanks, modelWidth } from "./reindent.ts";

/** A way of normalising lines for comparison. */
export interface Normalizer {
  /** A name for the file's memo. */
  name: string;
  /** The normalised content of a line (already without indentation and trailing blanks). */
  normalize: Normalize;
  /** The normalised text of file line `i` (which may depend on the lines before it). */
  fileText(file: FileText, i: number): string;
  /** The normalised content of file line `i`, with where its characters came from. */
  fileLine(file: FileText, i: number): Normal;
  /** The normalised contents of old's lines. */
  modelLines(lines: string[]): Normal[];
}

/** A normalisation that changes nothing but trimming: every character stands for itself. */
export function identity(content: string): Normal {
  const from = Array.from({ length: content.length }, (_, i) => i);
  return { text: content, from, to: from.map((i) => i + 1) };
}

/** `outer`, computed over `inner`'s text, mapped back to the line `inner` was computed from. */
export function compose(inner: Normal, outer: Normal): Normal {
  return {
    text: outer.text,
    from: outer.from.map((j) => inner.from[j]),
    to: outer.to.map((j) => inner.to[j - 1]),
  };
}

/** `normal` without its leading and trailing spaces. */
export function trimNormal(normal: Normal): Normal {
  let a = 0;
  let b = normal.text.length;
  while (a < b && normal.text[a] === " ") a++;
  while (b > a && normal.text[b - 1] === " ") b--;
  return {
    text: normal.text.slice(a, b),
    from: normal.from.slice(a, b),
    to: normal.to.slice(a, b),
  };
}

/**
 * `text` with its typography folded and without any space or tab: a character-by-character map,
 * so whatever lines up under a normaliser here still lines up, substrings included.
 */
function compact(text: string): string {
  return foldTypography(text).replace(/[ \t]+/g, "");
}

/** {@linkcode compact} of file line `i`, computed once per file. */
const compactLine = cachedLines("compact", (file, i) => compact(file.lines[i]));

function isWord(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
}

/** A line's content: without its indentation and trailing blanks. */
export function lineContent(line: string): string {
  return line.slice(leadingBlanks(line).length).replace(/[ \t]+$/, "");
}

/** The unit a relaxed match writes with: the file's, else the one the model's text shows. */
export function relaxedUnit(
  file: FileText,
  old: string,
  replacement: string,
  width: number,
): IndentUnit {
  return file.unit ?? detectIndent(`${old}\n${replacement}`) ?? { tab: false, width };
}

/** One place where old's lines line up with the file's: the region, and the line it starts on. */
interface Hit {
  line: number;
  start: number;
  end: number;
}

/**
 * old found in the file with lines compared under `norm`: whole lines when old has two or more,
 * anywhere between word boundaries in one line when it has one. `replacement` is new, padding
 * and all, as for the spec's indent pass. Undefined when nothing lines up.
 */
export function normalizedPass(
  file: FileText,
  old: string,
  replacement: string,
  norm: Normalizer,
  stripPadding: (text: string, lead: number, trail: string) => string,
): PassResult {
  const core = coreLines(old);
  if (!core) return undefined;
  const lines = core.lines;
  const models = norm.modelLines(lines.map(lineContent));
  if (models.every((m) => m.text === "")) return undefined;
  // Only the lines holding the rarest word of old's lines can line up with them.
  const words = lines.map((l) => rarestWord(file, wordsOf(l)));
  let k0 = -1;
  for (let k = 0; k < lines.length; k++) {
    if (words[k] === "") continue;
    if (k0 < 0 || file.occurrences(words[k]) < file.occurrences(words[k0])) k0 = k;
  }
  if (k0 < 0) return undefined;
  const hits: Hit[] = [];
  if (lines.length === 1) {
    const needle = models[0].text;
    // Blanks removed, a line holding old's text still holds it: a cheap first look.
    const bare = compact(needle);
    for (const i of file.linesHolding(words[0])) {
      if (!compactLine(file, i).includes(bare)) continue;
      const text = norm.fileText(file, i);
      if (!text.includes(needle)) continue;
      const f = norm.fileLine(file, i);
      const indent = file.starts[i] + leadingBlanks(file.lines[i]).length;
      for (let at = f.text.indexOf(needle); at >= 0; at = f.text.indexOf(needle, at + 1)) {
        const stop = at + needle.length;
        if (isWord(f.text[at - 1]) && isWord(needle[0])) continue;
        if (isWord(f.text[stop]) && isWord(needle[needle.length - 1])) continue;
        const whole = at === 0 && stop === f.text.length;
        hits.push({
          line: i,
          start: whole ? file.starts[i] : indent + f.from[at],
          end: whole ? file.starts[i] + file.lines[i].length : indent + f.to[stop - 1],
        });
      }
    }
  } else {
    for (const at of file.linesHolding(words[k0])) {
      const i = at - k0;
      if (i < 0 || i + lines.length > file.lines.length) continue;
      if (compactLine(file, at) !== compact(models[k0].text)) continue;
      if (norm.fileText(file, at) !== models[k0].text) continue;
      let k = 0;
      while (k < lines.length && norm.fileText(file, i + k) === models[k].text) k++;
      if (k < lines.length) continue;
      const last = i + lines.length - 1;
      hits.push({
        line: i,
        start: file.starts[i],
        end: file.starts[last] + file.lines[last].length,
      });
    }
  }
  if (hits.length === 0) return undefined;
  if (hits.length > 1) return ambiguous(hits.map((h) => h.line));
  const hit = hits[0];
  const trail = old.match(/[ \t\n]*$/)![0];
  let text = stripPadding(replacement, core.lead, trail);
  const lineStart = file.starts[hit.line];
  const fragment = hit.start > lineStart || hit.end < lineStart + file.lines[hit.line].length;
  if (fragment) text = text.replace(/^[ \t]+/, "").replace(/[ \t]+$/, "");
  const width = modelWidth([old, replacement], file.unit);
  const region = file.text.slice(hit.start, hit.end);
  const replaced = place({
    lines: file.lines,
    starts: file.starts,
    start: hit.start,
    end: hit.end,
    model: fragment ? [lineContent(lines[0])] : lines,
    text,
    exact: false,
    firstLine: "verbatim",
    unit: relaxedUnit(file, old, replacement, width),
    modelWidth: width,
    keepTrailing: /[ \t]$/m.test(region),
    normalize: norm.normalize,
  });
  const shifted = !fragment && lines.some((l, k) => {
    const f = file.lines[hit.line + k];
    return lineContent(l) !== "" && leadingBlanks(l) !== leadingBlanks(f);
  });
  return {
    kind: "found",
    pass: shifted ? "indent" : "exact",
    start: hit.start,
    end: hit.end,
    replacement: replaced,
  };
}

/** `text(i)` computed once per file line, kept in the file's memo under `name`. */
export function cachedLines(
  name: string,
  text: (file: FileText, i: number) => string,
): (file: FileText, i: number) => string {
  return (file, i) => {
    const cache = file.memo(`${name}:text`, () => new Map<number, string>());
    let t = cache.get(i);
    if (t === undefined) cache.set(i, t = text(file, i));
    return t;
  };
}

/** Lines compared with their typography folded (and trimmed of the spaces that leaves). */
export const typographyNormalizer: Normalizer = {
  name: "typography",
  normalize: (content) => trimNormal(foldNormal(content)),
  fileText: cachedLines(
    "typography",
    (file, i) => foldTypography(lineContent(file.lines[i])).replace(/^ +| +$/g, ""),
  ),
  fileLine: (file, i) => trimNormal(foldNormal(lineContent(file.lines[i]))),
  modelLines: (lines) => lines.map((c) => trimNormal(foldNormal(c))),
};

/**
 * Lines compared with their spaces outside literals squeezed (`squeeze`), by the literal rules
 * of the file's language; a line inside a literal spanning lines stays as it is.
 */
export function interiorNormalizer(path: string): Normalizer {
  const rules = literalsFor(path);
  const normalize = (content: string) => squeeze(content, rules);
  const line = (file: FileText, i: number, maps: boolean): Normal => {
    const inside = file.memo("insideLiterals", () => insideLiterals(file.lines));
    const content = lineContent(file.lines[i]);
    return inside[i] ? identity(content) : squeeze(content, rules, maps);
  };
  return {
    name: "interior",
    normalize,
    fileText: cachedLines("interior", (file, i) => line(file, i, false).text),
    fileLine: (file, i) => line(file, i, true),
    modelLines: (lines) => {
      const inside = insideLiterals(lines);
      return lines.map((c, k) => inside[k] ? identity(c) : normalize(c));
    },
  };
}

/** Typography folded, then spaces squeezed. */
export function bothNormalizer(typography: Normalizer, interior: Normalizer): Normalizer {
  return {
    name: "both",
    normalize: (c) => {
      const t = typography.normalize(c);
      return compose(t, interior.normalize(t.text));
    },
    fileText: (file, i) => interior.normalize(typography.fileText(file, i)).text,
    fileLine: (file, i) => {
      const t = typography.fileLine(file, i);
      return compose(t, interior.normalize(t.text));
    },
    modelLines: (lines) => {
      const t = typography.modelLines(lines);
      const inner = interior.modelLines(t.map((x) => x.text));
      return t.map((x, k) => compose(x, inner[k]));
    },
  };
}
