/** Numbered lines as read_file shows them (`12 │ text`), and the prefix a model copies back. */

/** The numbered form of a line: number right-aligned to `width`, ` │ `, the line (`  7 │ x`). */
export function numberLine(n: number, width: number, line: string): string {
  const num = String(n).padStart(width);
  return line === "" ? `${num} │` : `${num} │ ${line}`;
}

/** Matches the prefix {@linkcode numberLine} adds, for a tool that must strip a copied one. */
export const NUMBER_PREFIX = /^ *\d+ │(?: |$)/;
