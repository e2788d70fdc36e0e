/**
 * Typography for edit_file: curly quotes, dashes, non-breaking spaces and hyphens and `…` read as
 * their ASCII forms, so an `old` prettified by the model (or a file prettified by a writer) still
 * lines up; and `new`'s prettified characters written back the way the file writes them
 * (docs/tools.md, "Typography").
 */

import type { Normal } from "./placement.ts";

/** Every character folded, and the ASCII it is read as. */
const FOLDS: Record<string, string> = {
  "\u2018": "'", // ‘
  "\u2019": "'", // ’
  "\u201A": "'", // ‚
  "\u201B": "'", // ‛
  "\u2032": "'", // ′
  "\u201C": '"', // “
  "\u201D": '"', // ”
  "\u201E": '"', // „
  "\u201F": '"', // ‟
  "\u2033": '"', // ″
  "\u00AB": '"', // «
  "\u00BB": '"', // »
  "\u2010": "-", // hyphen
  "\u2011": "-", // non-breaking hyphen
  "\u2012": "-", // figure dash
  "\u2013": "-", // en dash
  "\u2014": "-", // em dash
  "\u2015": "-", // horizontal bar
  "\u2212": "-", // minus sign
  "\u00A0": " ", // no-break space
  "\u2007": " ", // figure space
  "\u2009": " ", // thin space
  "\u202F": " ", // narrow no-break space
  "\u2026": "...", // …
};

/** Matches any character {@linkcode FOLDS} reads as ASCII. */
export const TYPOGRAPHIC =
  /[\u2018\u2019\u201A\u201B\u2032\u201C-\u201F\u2033\u00AB\u00BB\u2010-\u2015\u2212\u00A0\u2007\u2009\u202F\u2026]/;
const TYPOGRAPHIC_ALL = new RegExp(TYPOGRAPHIC.source, "g");

/** Whether `text` holds a character that typography folds. */
export function hasTypography(text: string): boolean {
  return TYPOGRAPHIC.test(text);
}

/** `text` with every typographic character as its ASCII form. */
export function foldTypography(text: string): string {
  return text.replace(TYPOGRAPHIC_ALL, (c) => FOLDS[c]);
}

/** {@linkcode foldTypography} with where each character of the result came from. */
export function foldNormal(text: string): Normal {
  const from: number[] = [];
  const to: number[] = [];
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const f = FOLDS[c] ?? c;
    out += f;
    for (let j = 0; j < f.length; j++) {
      from.push(i);
      to.push(i + 1);
    }
  }
  return { text: out, from, to };
}

/** The typographic forms of each ASCII character, as a file may use them. */
const CLASSES: { ascii: string; forms: RegExp }[] = [
  { ascii: '"', forms: /[\u201C-\u201F\u2033\u00AB\u00BB]/ },
  { ascii: "'", forms: /[\u2018\u2019\u201A\u201B\u2032]/ },
  { ascii: "-", forms: /[\u2010-\u2015\u2212]/ },
  { ascii: " ", forms: /[\u00A0\u2007\u2009\u202F]/ },
  { ascii: "...", forms: /\u2026/ },
];

/**
 * `line` (a line of new the model wrote) in the file's typography: a prettified character the file
 * never uses becomes its ASCII form; an ASCII quote, apostrophe or `...` becomes the file's curly
 * form when the file uses only that form (`"` as `“` or `”` by its place in the words).
 */
export function toFileTypography(line: string, fileText: string): string {
  let out = line;
  for (const c of CLASSES) {
    const fancy = c.forms.test(fileText);
    const plain = c.ascii === " " ? true : fileText.includes(c.ascii);
    if (!fancy) {
      out = out.replace(new RegExp(c.forms.source, "g"), c.ascii);
    } else if (!plain) {
      out = curl(out, c.ascii);
    }
  }
  return out;
}

/** ASCII `"`, `'` or `...` in `line` as the curly form: opening after a space or bracket. */
function curl(line: string, ascii: string): string {
  if (ascii === "...") return line.replaceAll("...", "\u2026");
  if (ascii !== '"' && ascii !== "'") return line;
  const [open, close] = ascii === '"' ? ["\u201C", "\u201D"] : ["\u2018", "\u2019"];
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c !== ascii) {
      out += c;
      continue;
    }
    const before = i === 0 ? " " : line[i - 1];
    out += /[\s([{\u2014\u2013-]/.test(before) ? open : close;
  }
  return out;
}
