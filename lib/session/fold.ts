/**
 * Words that match whatever their case and accents (tools.md, `search_memory`): texts folded, the
 * words of a query, and a matcher that tells whether a text holds a word as folded without folding
 * the whole text, because folding 200 MB of session files takes seconds.
 */

/** Any UTF-16 code unit outside ASCII. */
export const NON_ASCII = /[\u0080-\uffff]/;
const MARKS = /\p{M}+/gu;

/** One character folded: decomposed, combining marks dropped, lower case, final sigma as sigma. */
function foldChar(ch: string): string {
  return ch.normalize("NFD").replace(MARKS, "").toLowerCase().replace(/ς/g, "σ");
}

/**
 * `text` with case and accents folded: NFD, combining marks (`\p{M}`) dropped, lower case, and
 * `ς` as `σ` (so a word typed with a final sigma finds it anywhere). `Préférence` → `preference`.
 */
export function foldText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFD").replace(MARKS, "").toLowerCase().replace(/ς/g, "σ");
}

/** A folded text and, for each of its code units, the index in the original it came from. */
export interface Folded {
  text: string;
  /** `map[i]` is the original index of folded unit `i`; absent when the indices are the same. */
  map?: number[];
}

/** `text` folded like {@linkcode foldText}, with the way back to the original's indices. */
export function foldWithMap(text: string): Folded {
  if (!NON_ASCII.test(text)) return { text: text.toLowerCase() };
  let out = "";
  const map: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    const f = cp < 0x80 ? text[i].toLowerCase() : foldChar(text.slice(i, i + size));
    out += f;
    for (let k = 0; k < f.length; k++) map.push(i);
    i += size;
  }
  return { text: out, map };
}

/** The most characters of a query word that are searched: a longer word is cut to its start. */
export const MAX_WORD_LENGTH = 64;

/**
 * The words of a query, folded, each once: split on anything that is not a letter or a digit,
 * each cut to {@linkcode MAX_WORD_LENGTH} characters (a pattern is built from every word). Words
 * of one or two letters are left out when the query has longer ones.
 */
export function queryWords(query: string): string[] {
  const cut = (w: string) =>
    w.length > MAX_WORD_LENGTH ? [...w].slice(0, MAX_WORD_LENGTH).join("") : w;
  const all = [
    ...new Set(foldText(query).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "").map(cut)),
  ];
  const long = all.filter((w) => [...w].length > 2);
  return long.length ? long : all;
}

// ---------------------------------------------------------------------------------------------
// Matching without folding

/**
 * Characters outside ASCII that fold to an ASCII letter: the Latin-1 supplement, Latin
 * Extended-A and -B, Latin Extended Additional, the Kelvin and Ångström signs (checked over every
 * code point: no other character folds to an ASCII letter or digit).
 */
const LATIN_RANGES: [number, number][] = [[0xc0, 0x24f], [0x1e00, 0x1eff], [0x212a, 0x212b]];

/** The combining diacritics of the Latin, Greek and Cyrillic scripts, and their supplements. */
const DIACRITICS = "[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]*";

/** Hangul jamo: a syllable folds to several of them, which a character class cannot follow. */
const JAMO = /[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/;

/** The most words a query searches: the bits of a mask. */
export const MAX_WORDS = 31;

let latinFolds: Map<string, string> | undefined;
let reverseFolds: Map<string, string[]> | undefined;

/** The characters of {@linkcode LATIN_RANGES} by the ASCII letter they fold to (built once, ~2 ms). */
function foldsToAscii(): Map<string, string> {
  if (latinFolds) return latinFolds;
  latinFolds = new Map();
  for (const [from, to] of LATIN_RANGES) {
    for (let cp = from; cp <= to; cp++) {
      const ch = String.fromCharCode(cp);
      const f = foldChar(ch);
      if (f.length === 1 && f < "\x80") latinFolds.set(f, (latinFolds.get(f) ?? "") + ch);
    }
  }
  return latinFolds;
}

/**
 * Every character outside ASCII that folds to one given character, by that character: built once,
 * when a query first holds a word outside ASCII (about 0.1 s).
 */
function foldsTo(): Map<string, string[]> {
  if (reverseFolds) return reverseFolds;
  reverseFolds = new Map();
  const ranges = [[0x80, 0x3400], [0xa000, 0xac00], [0xd7a4, 0xd800], [0xf900, 0x1e000], [
    0x2f800,
    0x2fa20,
  ]];
  for (const [from, to] of ranges) {
    for (let cp = from; cp < to; cp++) {
      const ch = String.fromCodePoint(cp);
      if (ch.normalize("NFD") === ch && ch.toLowerCase() === ch) continue;
      const f = foldChar(ch);
      if (f === ch || f === "" || [...f].length !== 1) continue;
      const list = reverseFolds.get(f);
      if (list) list.push(ch);
      else reverseFolds.set(f, [ch]);
    }
  }
  return reverseFolds;
}

/** `\\u{…}` for a regular expression in unicode mode. */
function codeOf(ch: string): string {
  return `\\u{${ch.codePointAt(0)!.toString(16)}}`;
}

/** Escapes `text` for a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** How one word is looked for. */
interface WordPattern {
  word: string;
  /** An ASCII word, as it is, ignoring case: enough in a text that is all ASCII. */
  literal?: RegExp;
  /**
   * An ASCII word in a text that is not all ASCII: each letter as the class of the letters that
   * fold to it, combining diacritics allowed between them.
   */
  latin?: RegExp;
  /** Any other word: every character that folds to each of its characters, marks between. */
  other?: RegExp;
}

/** The pattern of `word` (folded). */
function wordPattern(word: string): WordPattern {
  if (!NON_ASCII.test(word)) {
    const table = foldsToAscii();
    const latin = [...word].map((c) => `[${c}${c.toUpperCase()}${table.get(c) ?? ""}]`);
    return {
      word,
      literal: new RegExp(escapeRegExp(word), "i"),
      latin: new RegExp(latin.join(DIACRITICS), "g"),
    };
  }
  if (JAMO.test(word)) return { word };
  const table = foldsTo();
  const other = [...word].map((c) => `[${[c, ...table.get(c) ?? []].map(codeOf).join("")}]`);
  return { word, other: new RegExp(other.join("\\p{M}*"), "gu") };
}

/** Whether `re` (global) matches `text` somewhere that folds to `word` exactly. */
function confirmed(re: RegExp, text: string, word: string): boolean {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (foldText(m[0]) === word) return true;
    re.lastIndex = m.index + 1;
  }
  return false;
}

/**
 * Tells whether texts hold the words of a query as {@linkcode foldText} would find them, without
 * folding the texts. A word in ASCII: in a text all in ASCII, searched as it is, ignoring case;
 * in any other text, each of its letters is the class of the letters that fold to it, with
 * combining diacritics allowed between them. A word outside ASCII: each of its characters is the
 * class of the characters that fold to it, any combining marks between them. A word of Hangul
 * jamo (a Korean query): the text is folded. Every match of a class is confirmed by folding it.
 *
 * One difference with {@linkcode foldText}: between the letters of an ASCII word, only the
 * combining diacritics (U+0300–U+036F and their supplements) are skipped, not every mark.
 */
export class WordMatcher {
  /** The query's words, folded; at most {@linkcode MAX_WORDS}. */
  readonly words: readonly string[];
  #patterns: WordPattern[];

  /** A matcher for `words`, folded as {@linkcode queryWords} gives them; words past 31 are left out. */
  constructor(words: readonly string[]) {
    this.words = words.slice(0, MAX_WORDS);
    this.#patterns = this.words.map(wordPattern);
  }

  /** Whether `text` holds word `i` once folded. */
  holds(text: string, i: number): boolean {
    const p = this.#patterns[i];
    if (!NON_ASCII.test(text)) return p.literal?.test(text) ?? false;
    if (p.latin) return confirmed(p.latin, text, p.word);
    if (p.other) return confirmed(p.other, text, p.word);
    return foldText(text).includes(p.word);
  }

  /** The words `text` holds, as a mask: bit `i` for word `i`. */
  mask(text: string): number {
    let m = 0;
    for (let i = 0; i < this.#patterns.length; i++) if (this.holds(text, i)) m |= 1 << i;
    return m;
  }

  /** Whether `text` holds at least one word. */
  any(text: string): boolean {
    for (let i = 0; i < this.#patterns.length; i++) if (this.holds(text, i)) return true;
    return false;
  }
}

/** The number of words in a mask. */
export function countBits(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}
