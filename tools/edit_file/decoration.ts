/**
 * What a model copies along with the text it means, taken off `old` (and `new`) for edit_file:
 * line-number prefixes of read outputs (mm's own and other tools'), Markdown code fences, one
 * level of JSON escaping. Each applies only under its conditions (docs/tools.md, "Decoration").
 */

import { NUMBER_PREFIX } from "../_lines.ts";
import type { Relaxation } from "./file_text.ts";

/** old and new with a decoration taken off, and which. */
export interface Cleaned {
  old: string;
  new: string;
  relaxation: Relaxation;
}

// ---------------------------------------------------------------------------------------------
// Line numbers.

/** This tool's own prefixes a model copies: its diff's `- 4 │ `/`+ 4 │ `, a refusal's `  │ 4 │ `, `  │ `. */
const OWN_PREFIX = /^(?:[-+] *\d+ │| *│ *\d+ │| *│)(?: |$)/;

/**
 * `line` without the prefix a model copied along with it — read_file's `  12 │ `
 * ({@linkcode NUMBER_PREFIX}) or one of this tool's — or undefined when it has none.
 */
export function stripCopiedPrefix(line: string): string | undefined {
  for (const prefix of [NUMBER_PREFIX, OWN_PREFIX]) {
    const m = line.match(prefix);
    if (m) return line.slice(m[0].length);
  }
  return undefined;
}

/** The lines of `text`, a final newline not counting as one more line. */
function bodyLines(text: string): string[] {
  const lines = text.split("\n");
  return text.endsWith("\n") ? lines.slice(0, -1) : lines;
}

/** `text` without a copied prefix on each line, when every line has one; else undefined. */
export function withoutCopiedPrefix(text: string, everyLine = true): string | undefined {
  const lines = text.split("\n");
  if (everyLine && !bodyLines(text).every((l) => stripCopiedPrefix(l) !== undefined)) {
    return undefined;
  }
  return lines.map((l) => stripCopiedPrefix(l) ?? l).join("\n");
}

/**
 * Other tools' numbered lines: `cat -n`'s `    12\t`, `12→` (Claude Code), `00012| ` (OpenCode),
 * `12: `. The number is the first group.
 */
export const OTHER_PREFIXES: RegExp[] = [
  /^ *(\d+)\t/,
  /^ *(\d+)→/,
  /^ *(\d+)\|(?: |$)/,
  /^ *(\d+):(?: |$)/,
];

/**
 * old and new without the line numbers a model copied: mm's own on every line of old (and on the
 * lines of new that carry one); another tool's only when every line of old has it, two lines at
 * least, numbered consecutively, in a file none of whose lines start that way — and then off each
 * line of new whose number is one old's numbering could give it.
 */
export function withoutLineNumbers(
  old: string,
  neu: string,
  fileText: string,
): Cleaned | undefined {
  const own = withoutCopiedPrefix(old);
  if (own !== undefined && own !== old && own.trim() !== "") {
    return { old: own, new: withoutCopiedPrefix(neu, false)!, relaxation: "lineNumbers" };
  }
  const lines = bodyLines(old);
  if (lines.length < 2) return undefined;
  for (const prefix of OTHER_PREFIXES) {
    const numbers = lines.map((l) => l.match(prefix)?.[1]);
    if (numbers.some((n) => n === undefined)) continue;
    const first = Number(numbers[0]);
    if (!numbers.every((n, k) => Number(n) === first + k)) continue;
    if (new RegExp(prefix.source, "m").test(fileText)) continue;
    const strip = (l: string) => l.replace(prefix, "");
    const bare = old.split("\n").map(strip).join("\n");
    if (bare.trim() === "") continue;
    const highest = first + lines.length + neu.split("\n").length;
    const cleanNew = neu.split("\n").map((l) => {
      const n = Number(l.match(prefix)?.[1] ?? NaN);
      return n >= first && n <= highest ? strip(l) : l;
    }).join("\n");
    return { old: bare, new: cleanNew, relaxation: "lineNumbers" };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Code fences.

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[\w+.#-]*[ \t]*$/;
/** A line of a file that opens or closes a fence: such a file's fences may be content. */
const FENCE_LINE = /^[ \t]*(```|~~~)/m;

/**
 * The lines inside a Markdown code fence wrapping all of `text` — without the newline before the
 * closing fence, which is the fence's — and whether a newline follows the closing fence; undefined
 * when no fence wraps it.
 */
function fenced(text: string): { inner: string; newlineAfter: boolean } | undefined {
  const lines = text.split("\n");
  let a = 0;
  let b = lines.length - 1;
  while (a <= b && lines[a].trim() === "") a++;
  while (b >= a && lines[b].trim() === "") b--;
  if (b - a < 2) return undefined;
  const open = lines[a].match(FENCE_OPEN);
  if (!open) return undefined;
  const close = lines[b].trim();
  if (close[0] !== open[1][0] || !/^(`{3,}|~{3,})$/.test(close)) return undefined;
  if (close.length < open[1].length) return undefined;
  return { inner: lines.slice(a + 1, b).join("\n"), newlineAfter: b < lines.length - 1 };
}

/** `text` without a fence wrapping it whole, or undefined; see {@linkcode fenced}. */
function unfenced(text: string): string | undefined {
  return fenced(text)?.inner;
}

/**
 * old and new without their fences (either may have none), a line-end kept on both only when both
 * end with one after their fence: the newline before a closing fence is the fence's, never part of
 * the match, so an old fenced with its last newline and a new without one do not join two lines.
 */
function unwrapped(old: string, neu: string): { old: string; new: string } {
  const o = fenced(old);
  const n = fenced(neu);
  const oldText = o?.inner ?? old;
  const newText = n?.inner ?? neu;
  const ends = (f: typeof o, raw: string) => f ? f.newlineAfter : raw.endsWith("\n");
  if (!ends(o, old) || !ends(n, neu)) {
    // Only one ends with a line end: what is outside the fences stays each side's own.
    return {
      old: o ? oldText : old.endsWith("\n") && n ? old.slice(0, -1) : old,
      new: n ? newText : neu.endsWith("\n") && o ? neu.slice(0, -1) : neu,
    };
  }
  return { old: o ? oldText + "\n" : old, new: n ? newText + "\n" : neu };
}

/**
 * old (and new, when it is fenced too) without a Markdown code fence wrapping it whole, in a file
 * that holds no fence itself.
 */
export function withoutFences(old: string, neu: string, fileText: string): Cleaned | undefined {
  if (unfenced(old) === undefined || FENCE_LINE.test(fileText)) return undefined;
  return { ...unwrapped(old, neu), relaxation: "fences" };
}

// ---------------------------------------------------------------------------------------------
// JSON escapes.

/** The escapes of a JSON string. */
const JSON_ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/g;

/** The escapes `text` uses (`n`, `t`, `"` …), or undefined when a backslash is not one. */
function escapesIn(text: string): Set<string> | undefined {
  const kinds = new Set<string>();
  for (let i = text.indexOf("\\"); i >= 0; i = text.indexOf("\\", i + 2)) {
    const m = text.slice(i).match(/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/);
    if (!m) return undefined;
    kinds.add(m[0].slice(1, 2));
  }
  return kinds;
}

/** `text` read once more as the inside of a JSON string. */
function unescape(text: string): string {
  return text.replace(JSON_ESCAPE, (e) => {
    if (e[1] === "u") return String.fromCharCode(parseInt(e.slice(2), 16));
    return ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" } as Record<string, string>)[e[1]] ??
      e[1];
  });
}

/** `text` cut into its JSON escapes and the text between them. */
function escapePieces(text: string): { text: string; escape: boolean }[] {
  const pieces: { text: string; escape: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(JSON_ESCAPE)) {
    if (m.index > at) pieces.push({ text: text.slice(at, m.index), escape: false });
    pieces.push({ text: m[0], escape: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at), escape: false });
  return pieces;
}

const regexpText = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether `text` is escaped as old must be to be read once more: on one line with `\n`, `\t` or
 * `\"` typed literally, or over real lines with only its tabs escaped (`\t`); every backslash a
 * JSON escape.
 */
function escapedLayer(text: string): Set<string> | undefined {
  const kinds = escapesIn(text);
  if (!kinds) return undefined;
  if (text.includes("\n")) return kinds.size === 1 && kinds.has("t") ? kinds : undefined;
  return ["n", "t", '"'].some((k) => kinds.has(k)) ? kinds : undefined;
}

/**
 * old escaped twice as JSON — on one line, with `\n`, `\t` or `\"` typed literally, or over real
 * lines with only its tabs escaped — and every backslash a JSON escape, read once more; new too
 * when it is escaped the same way. An escape the file itself holds (a C string's `\n`) is undone
 * only where the file's text does not hold it there: old is then the one text of the file that
 * reads as old with each such escape kept or undone, and new's escapes of that kind follow old's.
 */
export function withoutEscapes(old: string, neu: string, fileText: string): Cleaned | undefined {
  const kinds = escapedLayer(old);
  if (!kinds) return doubledBackslashes(old, neu, fileText);
  const escapedToo = escapedLayer(neu) !== undefined;
  const held = [...kinds].filter((k) => fileText.includes(`\\${k}`));
  if (!held.length) {
    return {
      old: unescape(old).replaceAll("\r\n", "\n"),
      new: escapedToo ? unescape(neu).replaceAll("\r\n", "\n") : neu,
      relaxation: "escapes",
    };
  }
  // Each escape of a kind the file holds may be the file's own: kept or undone, as the file says.
  const pieces = escapePieces(old);
  const source = pieces.map((p) => {
    if (!p.escape) return regexpText(p.text);
    const undone = regexpText(unescape(p.text));
    return held.includes(p.text[1]) ? `(?:(${regexpText(p.text)})|${undone})` : undone;
  }).join("");
  const found = new RegExp(source).exec(fileText);
  if (!found) return undefined;
  // How old's escapes of each held kind were read: all kept, all undone, or both (new is unclear).
  const kept = new Map<string, Set<boolean>>();
  let group = 1;
  for (const p of pieces) {
    if (!p.escape || !held.includes(p.text[1])) continue;
    const k = p.text[1];
    kept.set(k, (kept.get(k) ?? new Set()).add(found[group++] !== undefined));
  }
  if (!escapedToo) return { old: found[0], new: neu, relaxation: "escapes" };
  let unclear = false;
  const newText = escapePieces(neu).map((p) => {
    if (!p.escape) return p.text;
    const how = kept.get(p.text[1]);
    if (how && how.size > 1) unclear = true;
    return how?.has(true) ? p.text : unescape(p.text);
  }).join("");
  if (unclear) return undefined;
  return { old: found[0], new: newText.replaceAll("\r\n", "\n"), relaxation: "escapes" };
}

/**
 * old on one line whose only escapes are doubled backslashes (`print('a\\n')` for the file's
 * `print('a\n')`), read once more when that is a text of the file; new too when it has them.
 */
function doubledBackslashes(old: string, neu: string, fileText: string): Cleaned | undefined {
  const kinds = escapesIn(old);
  if (old.includes("\n") || kinds?.size !== 1 || !kinds.has("\\")) return undefined;
  const undone = unescape(old);
  if (!fileText.includes(undone)) return undefined;
  const newKinds = escapesIn(neu);
  const escapedToo = !neu.includes("\n") && newKinds?.size === 1 && newKinds.has("\\");
  return { old: undone, new: escapedToo ? unescape(neu) : neu, relaxation: "escapes" };
}

// ---------------------------------------------------------------------------------------------
// Decoration on new alone.

/** Files whose text may hold a fenced block of its own: prose. */
const PROSE = /\.(?:md|markdown|mdx|txt|rst|adoc|org)$/i;

/**
 * new without decoration old does not carry — a Markdown fence wrapping all of it, in a file that
 * is not prose and holds no fence; mm's own numbering on every line — which would otherwise be
 * written into the file. Undefined when new has none of it (or old has the same).
 */
export function newWithoutDecoration(
  old: string,
  neu: string,
  fileText: string,
  path: string,
): Cleaned | undefined {
  if (
    unfenced(neu) !== undefined && unfenced(old) === undefined && !PROSE.test(path) &&
    !FENCE_LINE.test(fileText)
  ) return { ...unwrapped(old, neu), relaxation: "fences" };
  const bare = withoutCopiedPrefix(neu);
  if (bare !== undefined && bare !== neu && withoutCopiedPrefix(old) === undefined) {
    return { old, new: bare, relaxation: "lineNumbers" };
  }
  return undefined;
}
