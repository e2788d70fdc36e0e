/**
 * The characters that are drawn as nothing yet change what a reader or a model takes from a text:
 * Unicode's format characters (`\p{Cf}`), a known carrier of prompt injection (the tag characters
 * U+E0000–U+E007F spell ASCII no one sees), and runs of variation selectors (another hiding place).
 * `removeInvisible` drops them from what fetch_content gives the model; the terminal's `visible()`
 * names them instead (`<U+E0041>`). What stays, because text needs it:
 *
 * - the zero-width joiner and non-joiner (U+200D, U+200C) between two letters of a script that
 *   joins (Arabic, Persian, the Indic scripts: not Latin, Greek or Cyrillic, where they only hide
 *   a break), and the joiner inside an emoji sequence (woman, ZWJ, laptop);
 * - the tag characters of an emoji flag (U+1F3F4, its region's tags, the cancel tag: Scotland's);
 * - the marks LRM, RLM and ALM (U+200E, U+200F, U+061C), which order mixed right-to-left text and
 *   cannot reorder a line as the embeddings and isolates do;
 * - the format characters that are drawn (the Arabic number signs U+0600–U+0605, U+06DD, U+0890,
 *   U+0891, U+08E2, the Syriac U+070F, the Kaithi U+110BD, U+110CD) and the Egyptian hieroglyph
 *   controls U+13430–U+1343F, which lay out the signs;
 * - the first variation selector after a character (the emoji's U+FE0F, a CJK variant); the
 *   second and later of a run carry nothing a reader sees.
 *
 * Everything else of `\p{Cf}` goes: the zero-width space, the word joiner and the invisible
 * operators (U+2060–U+2064), the byte order mark, the bidirectional embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069), the soft hyphen, the Mongolian vowel separator, the
 * interlinear annotations, the tag characters outside a flag.
 */

/** A flag of a region: 🏴, two to six tag letters or digits, the cancel tag. */
const TAG_FLAG = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}/u;

/** Format characters that are drawn, or that a script needs to be laid out. */
const DRAWN_FORMAT =
  /[\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}\u{13430}-\u{1343f}]/u;

/** LRM, RLM, ALM: marks that order mixed text, never reorder a line. */
const MARKS = /[\u200e\u200f\u061c]/u;

/** A letter or mark of a script that uses the joiners (not Latin, Greek, Cyrillic or common). */
const JOINING_SCRIPT = /[[\p{L}\p{M}]--[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Common}]]/v;

/** A pictograph (an emoji), or one of the modifiers that may end it before a joiner. */
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const EMOJI_TAIL = /[\u{1F3FB}-\u{1F3FF}\ufe0f]/u;

/** Variation selectors: U+FE00–U+FE0F and U+E0100–U+E01EF. */
const SELECTOR = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;

/** Every candidate: a flag with its tags, a format or tag character, a variation selector. */
const CANDIDATE = new RegExp(
  `${TAG_FLAG.source}|\\p{Cf}|[\\u{E0000}-\\u{E007F}]|${SELECTOR.source}`,
  "gu",
);

/** Whether the joiner at `at` of `text` (U+200C or U+200D) is one text needs (see the module). */
function joinerNeeded(text: string, at: number): boolean {
  const before = lastCodePoint(text, at);
  const after = String.fromCodePoint(text.codePointAt(at + 1) ?? 0x20);
  if (JOINING_SCRIPT.test(before) && JOINING_SCRIPT.test(after)) return true;
  if (text[at] !== "\u200d" || !PICTOGRAPH.test(after)) return false;
  if (PICTOGRAPH.test(before)) return true;
  if (!EMOJI_TAIL.test(before)) return false;
  return PICTOGRAPH.test(lastCodePoint(text, at - before.length));
}

/** The code point that ends just before `at` in `text` (a space at the start). */
function lastCodePoint(text: string, at: number): string {
  if (at <= 0) return " ";
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text[at - 1];
}

/**
 * Calls `decide` for every invisible character of `text` that goes (see the module); what it
 * returns takes its place.
 */
export function replaceInvisible(text: string, decide: (char: string) => string): string {
  return text.replace(CANDIDATE, (match: string, at: number, whole: string) => {
    if (match.length > 2) return match; // a flag, tags and all
    if (SELECTOR.test(match)) {
      return SELECTOR.test(lastCodePoint(whole, at)) ? decide(match) : match;
    }
    if (DRAWN_FORMAT.test(match) || MARKS.test(match)) return match;
    if ((match === "\u200c" || match === "\u200d") && joinerNeeded(whole, at)) return match;
    return decide(match);
  });
}

/** `text` without the invisible characters that carry nothing a reader sees (see the module). */
export function removeInvisible(text: string): string {
  return replaceInvisible(text, () => "");
}

/** `<U+E0041>`: how a code point is named where it is shown. */
export function codePointName(char: string): string {
  return `<U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;
}
