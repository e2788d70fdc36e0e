/**
 * The `symbol` field of the lsp tool, as a small model writes it: cleaned to one identifier, then
 * found in the file. Occurrences come in the order they are tried: code lines first, comment lines
 * last, each in file order.
 */

import { charCount, type CharPosition, splitLines } from "./positions.ts";

/** One whole run of identifier characters (letters, marks, digits, `_`, `$`): a whole word. */
const IDENT = /[\p{L}\p{M}\p{N}_$]+/gu;
/** An identifier with its qualifiers: `person.Greet`, `fmt::Println`, `obj->name`. */
const QUALIFIED = /[\p{L}\p{M}\p{N}_$]+(?:(?:\.|::|->)[\p{L}\p{M}\p{N}_$]+)*/u;

/**
 * Words a model puts before the name it means (`func Greet`, `class Person`): skipped when the
 * symbol holds several words and another one is left.
 */
const DECLARATION_WORDS = new Set([
  "async",
  "class",
  "const",
  "def",
  "enum",
  "export",
  "fn",
  "func",
  "function",
  "interface",
  "let",
  "method",
  "module",
  "package",
  "private",
  "protected",
  "pub",
  "public",
  "static",
  "struct",
  "trait",
  "type",
  "var",
]);

/**
 * One word cleaned to an identifier: stray quotes and punctuation cut off, a `receiver.` or `pkg.`
 * (also `Type::`, `ptr->`) prefix dropped, call parentheses left out. `"Greet', "` and
 * `"person.Greet"` are both `"Greet"`; `"greet(name)"` is `"greet"`. Empty when no identifier is
 * left.
 */
export function cleanWord(word: string): string {
  const qualified = word.match(QUALIFIED)?.[0] ?? "";
  return qualified.split(/\.|::|->/).at(-1) ?? "";
}

/** The identifiers of a field that may hold several words; numbers alone are not identifiers. */
export function identifiers(raw: string): string[] {
  return raw.split(/\s+/).map(cleanWord).filter((w) => w !== "" && !/^\p{N}+$/u.test(w));
}

/**
 * The identifier a `symbol` field means: the cleaned word when there is one, else the first
 * identifier that is not a declaration keyword (`func Greet` means `Greet`).
 */
export function cleanSymbol(raw: string): string {
  const words = identifiers(raw);
  if (words.length <= 1) return words[0] ?? "";
  return words.find((w) => !DECLARATION_WORDS.has(w)) ?? words[0];
}

/**
 * The symbol and the new name of a `rename`: each cleaned, and when `newName` is empty and `symbol`
 * holds several identifiers (`Greet 1 12 Hello`), the first is the symbol and the last the new
 * name. A `newName` of several words keeps its last identifier (`to Hello`).
 */
export function renameNames(symbol: string, newName: string): { symbol: string; newName: string } {
  const words = identifiers(symbol);
  const given = identifiers(newName);
  if (given.length > 0) return { symbol: cleanSymbol(symbol), newName: given.at(-1)! };
  if (words.length >= 2) return { symbol: words[0], newName: words.at(-1)! };
  return { symbol: words[0] ?? "", newName: "" };
}

/** Whether a line is a comment line: it starts (after blanks) with a comment marker. */
export function isCommentLine(line: string): boolean {
  return /^\s*(\/\/|\/\*|\*|#|--|;|<!--|%|"""|''')/.test(line);
}

/** Where an identifier occurs: its 1-based line and its first character's 1-based column. */
export type Occurrence = CharPosition;

/**
 * The whole-word occurrences of `symbol` in `text`, on line `line` only when it is given (1-based),
 * code lines first, comment lines last. When the exact spelling is nowhere, occurrences that differ
 * only in case are given instead (`greet` for `Greet`).
 */
export function findOccurrences(text: string, symbol: string, line?: number): Occurrence[] {
  if (symbol === "") return [];
  const lines = splitLines(text);
  const exact = scan(lines, symbol, line, false);
  return exact.length > 0 ? exact : scan(lines, symbol, line, true);
}

function scan(lines: string[], symbol: string, only: number | undefined, fold: boolean) {
  const code: Occurrence[] = [];
  const comments: Occurrence[] = [];
  const wanted = fold ? symbol.toLowerCase() : symbol;
  for (let n = 1; n <= lines.length; n++) {
    if (only !== undefined && n !== only) continue;
    const text = lines[n - 1];
    const haystack = fold ? text.toLowerCase() : text;
    // Folding case may change lengths: only compare when it did not.
    if (haystack.length !== text.length) continue;
    const found = isCommentLine(text) ? comments : code;
    for (const m of haystack.matchAll(IDENT)) {
      if (m[0] !== wanted) continue;
      found.push({ line: n, column: charCount(text.slice(0, m.index)) + 1 });
    }
  }
  return [...code, ...comments];
}

/** The lines (1-based) where `symbol` occurs, for a hint when it is not on the line given. */
export function occurrenceLines(text: string, symbol: string): number[] {
  return [...new Set(findOccurrences(text, symbol).map((o) => o.line))].sort((a, b) => a - b);
}
