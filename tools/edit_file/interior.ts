/**
 * Whitespace inside a line, for edit_file: `x  :=  1` and `x := 1`, `//comment` and `// comment`
 * read alike, but never inside a string, regex or shell-quoted literal, where spaces mean something
 * (docs/tools.md, "Interior whitespace").
 */

import type { Normal } from "./placement.ts";

/** How a language writes its literals and comments, as far as spaces are concerned. */
export interface Literals {
  /** Quote characters that open a literal closed by the same character on the line. */
  quotes: string[];
  /** Line-comment openers: the rest of the line is prose, its spaces forgiven. */
  comments: string[];
  /** Whether `#` opens a comment only at the start of a word (shells, YAML). */
  hashAtWord: boolean;
  /** Whether a `/` where a value is expected opens a regex literal (JavaScript). */
  regex: boolean;
  /**
   * Whether words are a shell's: everything but blanks and `|&;()<>`, quotes included, so the
   * spaces between `ls` and `-la` or `echo` and `'x'` stay.
   */
  shellWords: boolean;
}

const C_LIKE = ["c", "h", "cc", "cpp", "hpp", "cs", "java", "kt", "kts", "swift", "scala", "dart"];
const JS_LIKE = ["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"];
const HASH = [
  "py",
  "pyi",
  "rb",
  "pl",
  "r",
  "toml",
  "conf",
  "cfg",
  "ini",
  "dockerfile",
  "mk",
  "cmake",
];
const SHELL = ["sh", "bash", "zsh", "fish", "ksh"];
const YAML = ["yaml", "yml"];

/** The literal rules for a file, by its name; an unknown kind has quotes and no comments. */
export function literalsFor(path: string): Literals {
  const name = (path.split(/[\\/]/).pop() ?? "").toLowerCase();
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : name;
  const base = {
    quotes: ['"', "'", "`"],
    comments: [] as string[],
    hashAtWord: false,
    regex: false,
    shellWords: false,
  };
  if (JS_LIKE.includes(ext)) return { ...base, comments: ["//"], regex: true };
  if (C_LIKE.includes(ext) || ext === "go" || ext === "rs" || ext === "php") {
    return { ...base, comments: ["//"] };
  }
  if (HASH.includes(ext) || /^(makefile|gnumakefile|dockerfile)$/.test(name)) {
    return { ...base, comments: ["#"] };
  }
  if (SHELL.includes(ext) || /^\.?(bashrc|profile|zshrc)$/.test(name)) {
    return { ...base, comments: ["#"], hashAtWord: true, shellWords: true };
  }
  if (YAML.includes(ext)) return { ...base, comments: ["#"], hashAtWord: true };
  if (ext === "sql" || ext === "lua" || ext === "hs") return { ...base, comments: ["--"] };
  return base;
}

/** A letter, digit, `_` or `$` (in a shell, anything but `|&;()<>`): two keep a space between. */
function isWord(c: string | undefined, rules: Literals): boolean {
  if (c === undefined) return false;
  return rules.shellWords ? !/[\s|&;()<>]/.test(c) : /[\p{L}\p{N}_$]/u.test(c);
}

/** Characters after which a `/` opens a regex literal rather than dividing. */
const BEFORE_REGEX = /[(,=:[!&|?{};+\-*%<>~^]/;

/**
 * `content` (a line without its indentation) with its spaces outside literals squeezed out: a run
 * of spaces and tabs between two word characters becomes one space, any other run disappears, and
 * trailing blanks go. A literal left open at the end of the line keeps everything after its quote.
 */
export function squeeze(content: string, rules: Literals, maps = true): Normal {
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  const put = (c: string, i: number) => {
    text += c;
    if (!maps) return;
    from.push(i);
    to.push(i + 1);
  };
  const n = content.length;
  let i = 0;
  let comment = false;
  while (i < n) {
    const c = content[i];
    if (c === " " || c === "\t") {
      let j = i;
      while (j < n && (content[j] === " " || content[j] === "\t")) j++;
      if (
        j < n && text !== "" && isWord(text[text.length - 1], rules) && isWord(content[j], rules)
      ) {
        text += " ";
        if (maps) {
          from.push(i);
          to.push(j);
        }
      }
      i = j;
      continue;
    }
    if (!comment) {
      const opener = rules.comments.find((m) => content.startsWith(m, i));
      const hashOk = opener !== "#" || !rules.hashAtWord || i === 0 || /\s/.test(content[i - 1]);
      if (opener && hashOk) {
        comment = true;
        for (let k = 0; k < opener.length; k++) put(content[i + k], i + k);
        i += opener.length;
        continue;
      }
      const regex = rules.regex && c === "/" && content[i + 1] !== "/" &&
        (text === "" || BEFORE_REGEX.test(text[text.length - 1]) || /\breturn$/.test(text));
      if (rules.quotes.includes(c) || regex) {
        const end = closing(content, i, c);
        for (let k = i; k < end; k++) put(content[k], k);
        i = end;
        continue;
      }
    }
    put(c, i);
    i++;
  }
  return { text, from, to };
}

/** The offset just after the literal opened at `i` by `quote` (the line's end when left open). */
function closing(content: string, i: number, quote: string): number {
  for (let k = i + 1; k < content.length; k++) {
    if (content[k] === "\\") k++;
    else if (content[k] === quote) return k + 1;
  }
  return content.length;
}

/** Openers of literals that may span lines: their lines inside are compared as they are. */
const MULTILINE = ['"""', "'''", "`"];

/**
 * For each line, whether it starts inside a literal spanning lines (a Python docstring, a template
 * literal, a raw string): an odd count of one opener on a line opens or closes one.
 */
export function insideLiterals(lines: string[]): boolean[] {
  const out = new Array<boolean>(lines.length).fill(false);
  let open: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    out[i] = open !== undefined;
    const line = lines[i];
    if (!line.includes("`") && !line.includes('"""') && !line.includes("'''")) continue;
    for (const opener of open ? [open] : MULTILINE) {
      const rest = opener === "`" ? line.replaceAll('"""', "").replaceAll("'''", "") : line;
      if ((rest.split(opener).length - 1) % 2 === 1) {
        open = open ? undefined : opener;
        break;
      }
    }
  }
  return out;
}
