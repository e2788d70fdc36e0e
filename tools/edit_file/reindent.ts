/**
 * Indentation for edit_file: the unit a file is indented with, and `new` re-indented to the file's
 * base indent and unit (tools.md, `edit_file`, "How `old` is matched"). See docs/tools.md.
 */

/** How a text is indented: with tabs, or with `width` spaces per level. */
export type IndentUnit = { tab: true } | { tab: false; width: number };

/** The width a model's spaces are read with when nothing says otherwise. */
export const DEFAULT_SPACE_WIDTH = 4;

/** How many spaces and tabs a line starts with. */
function blankCount(line: string): number {
  let n = 0;
  while (n < line.length && (line.charCodeAt(n) === 32 || line.charCodeAt(n) === 9)) n++;
  return n;
}

/** The leading blanks (spaces and tabs) of a line. */
export function leadingBlanks(line: string): string {
  return line.slice(0, blankCount(line));
}

/** Whether a line holds nothing but spaces and tabs. */
export function isBlank(line: string): boolean {
  return blankCount(line) === line.length;
}

/**
 * The most frequent step, 2 or more, between the space indents of consecutive non-blank lines;
 * undefined when no such step exists. Ties go to the smaller step.
 */
export function spaceStep(lines: string[]): number | undefined {
  const counts = new Map<number, number>();
  let previous: number | undefined;
  for (const line of lines) {
    const width = blankCount(line);
    if (width === line.length) continue;
    if (line.lastIndexOf("\t", width - 1) >= 0) {
      previous = undefined;
      continue;
    }
    if (previous !== undefined) {
      const step = Math.abs(width - previous);
      if (step >= 2) counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    previous = width;
  }
  let best: number | undefined;
  for (const [step, n] of counts) {
    const bestN = best === undefined ? 0 : counts.get(best)!;
    if (n > bestN || (n === bestN && step < best!)) best = step;
  }
  return best;
}

/**
 * The unit `text` is indented with: tabs when more indented lines start with a tab than with a
 * space, else spaces with the most frequent step between consecutive lines (2 or more). Undefined
 * when no line is indented, or the space lines show no step.
 */
export function detectIndent(text: string): IndentUnit | undefined {
  return detectIndentLines(text.split("\n"));
}

/** {@linkcode detectIndent} of a text already split into lines. */
export function detectIndentLines(lines: string[]): IndentUnit | undefined {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    const c = line.charCodeAt(0);
    if ((c !== 9 && c !== 32) || isBlank(line)) continue;
    if (c === 9) tabs++;
    else spaces++;
  }
  if (tabs === 0 && spaces === 0) return undefined;
  if (tabs > spaces) return { tab: true };
  const width = spaceStep(lines);
  return width === undefined ? undefined : { tab: false, width };
}

/** An indentation read as levels, plus the spaces left over (alignment). */
interface Depth {
  levels: number;
  rest: number;
}

/**
 * Reads leading blanks as levels: each tab is a level; spaces after tabs are alignment; spaces
 * alone count one level per `width`, the remainder being alignment.
 */
function depth(blanks: string, width: number): Depth {
  const tabs = blanks.split("\t").length - 1;
  const spaces = blanks.length - tabs;
  if (/^\t+ *$/.test(blanks)) return { levels: tabs, rest: spaces };
  return { levels: tabs + Math.floor(spaces / width), rest: spaces % width };
}

/** `levels` of `unit`, then `rest` spaces. */
function render(levels: number, rest: number, unit: IndentUnit): string {
  const level = unit.tab ? "\t" : " ".repeat(unit.width);
  return level.repeat(Math.max(0, levels)) + " ".repeat(Math.max(0, rest));
}

/** What {@linkcode reindent} needs to know. */
export interface Reindent {
  /** The indentation, in the model's text, of the line that corresponds to `fileBase`. */
  modelBase: string;
  /** The file's indentation at the matched place. */
  fileBase: string;
  /** Spaces per level in the model's text. */
  modelWidth: number;
  /** The unit the result is written with. */
  unit: IndentUnit;
  /**
   * How the first line is treated: `indented` when the region starts at the beginning of a line
   * (the line is re-indented like the others); `relative` when the region starts after the file's
   * own indentation (the line keeps only its indentation beyond `modelBase`); `verbatim` when it is
   * written as sent.
   */
  firstLine: "indented" | "relative" | "verbatim";
  /** Whether blank lines become empty (a relaxed match) or stay as sent (an exact one). */
  emptyBlankLines: boolean;
  /** Whether spaces and tabs at the end of each line are dropped. */
  trimTrailing?: boolean;
}

/**
 * Re-indents `text`: each line's indentation, read in the model's levels relative to `modelBase`,
 * is rewritten as `fileBase` plus as many levels of `unit` (fewer when the line is less indented
 * than the base); alignment spaces are kept.
 */
export function reindent(text: string, opts: Reindent): string {
  const base = depth(opts.modelBase, opts.modelWidth);
  const fileWidth = opts.unit.tab ? opts.modelWidth : opts.unit.width;
  const file = depth(opts.fileBase, fileWidth);
  const lines = text.split("\n");
  const trimmed = opts.trimTrailing ? lines.map((l) => l.replace(/[ \t]+$/, "")) : lines;
  return trimmed.map((line, i) => {
    if (i === 0 && opts.firstLine === "verbatim") return line;
    if (isBlank(line)) return opts.emptyBlankLines ? "" : line;
    const blanks = leadingBlanks(line);
    const own = depth(blanks, opts.modelWidth);
    const delta = own.levels - base.levels;
    const rest = own.rest >= base.rest ? own.rest - base.rest : own.rest;
    const body = line.slice(blanks.length);
    if (i === 0 && opts.firstLine === "relative") {
      return (delta > 0 || rest > 0 ? render(delta, rest, opts.unit) : "") + body;
    }
    const levels = file.levels + delta;
    return render(levels, rest + (own.rest >= base.rest ? file.rest : 0), opts.unit) + body;
  }).join("\n");
}

/**
 * The model's spaces per level, read from its own lines (`old` and `new`); when they show no step,
 * the file's width, else {@linkcode DEFAULT_SPACE_WIDTH}.
 */
export function modelWidth(texts: string[], file: IndentUnit | undefined): number {
  const steps = texts.map((t) => spaceStep(t.split("\n"))).filter((s) => s !== undefined);
  if (steps.length) return Math.min(...steps);
  return file && !file.tab ? file.width : DEFAULT_SPACE_WIDTH;
}
