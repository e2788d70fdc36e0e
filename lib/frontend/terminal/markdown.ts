/**
 * A model's Markdown drawn on a terminal (line and window mode): `marked`'s lexer turns the text
 * into tokens, and this module draws them as styled rows of a width — headings without `#`,
 * emphasis, inline code, fenced code without its fences (its language named), nested lists,
 * block quotes, tables fitted to the width (wide characters counted), links with their URL shown
 * (an OSC 8 hyperlink where the terminal takes one), rules. {@linkcode MarkdownStream} cuts a
 * streamed answer into the blocks that are complete and the one still streaming.
 *
 * Bad input stays cheap: nesting deeper than {@linkcode MAX_DEPTH} levels is drawn at that depth
 * (marked's lexer costs grow fast with it), a lexer failure draws the text as it is, and a block
 * that keeps growing is lexed again only as it grows by half (see {@linkcode MarkdownStream}).
 * The text given here is already safe to show (terminal/visible.ts).
 */

import { charWidth, expandTabs, textWidth } from "./width.ts";

/** The tokens of marked's lexer this module reads (the rest of their fields are ignored). */
export interface MdToken {
  type: string;
  raw: string;
  text?: string;
  depth?: number;
  lang?: string;
  href?: string;
  ordered?: boolean;
  start?: number | "";
  task?: boolean;
  loose?: boolean;
  checked?: boolean;
  tokens?: MdToken[];
  items?: MdToken[];
  header?: { text: string; tokens: MdToken[] }[];
  rows?: { text: string; tokens: MdToken[] }[][];
  align?: ("left" | "right" | "center" | null)[];
}

/** marked's lexer: Markdown → block tokens. */
export type Lexer = (src: string) => MdToken[];

/** The marked release mm uses (its lexer only). */
export const MARKED_MODULE = "npm:marked@18.2.1";

let loading: Promise<Lexer> | undefined;

/**
 * marked's lexer, imported once, on the first terminal answer drawn (a run that draws none never
 * evaluates it).
 */
export function loadLexer(): Promise<Lexer> {
  loading ??= import("npm:marked@18.2.1").then((m) => (src: string) =>
    m.marked.lexer(src) as unknown as MdToken[]
  );
  return loading;
}

/** How deep lists and quotes are drawn: deeper ones are drawn at this depth. */
export const MAX_DEPTH = 8;

/** The leading columns a line keeps outside a code fence (two per list level). */
const MAX_INDENT = 2 * MAX_DEPTH;

const QUOTES = new RegExp(`^(?: {0,3}> ?){${MAX_DEPTH + 1},}`);
const FENCE = /^ *(`{3,}|~{3,})/;

/**
 * `src` with its nesting bounded: a line's indentation past {@linkcode MAX_INDENT} columns, and
 * quote markers past {@linkcode MAX_DEPTH}, are cut, except inside a fenced code block (its code
 * keeps its indentation).
 */
export function boundNesting(src: string): string {
  if (!/^(?:[ \t]{17}|(?: {0,3}> ?){9})/m.test(src)) return src;
  let fence = "";
  return src.split("\n").map((line) => {
    const m = FENCE.exec(line);
    if (fence) {
      if (
        m && m[1][0] === fence[0] && m[1].length >= fence.length && !line.slice(m[0].length).trim()
      ) {
        fence = "";
      }
      return line;
    }
    if (m && !(m[1][0] === "`" && line.slice(m[0].length).includes("`"))) fence = m[1];
    const lead = /^[ \t]*/.exec(line)![0];
    if (lead.length > 0 && textWidth(expandTabs(lead)) > MAX_INDENT) {
      line = " ".repeat(MAX_INDENT) + line.slice(lead.length);
    }
    return line.replace(QUOTES, "> ".repeat(MAX_DEPTH));
  }).join("\n");
}

/** The tokens of `src`, or one plain paragraph of it when the lexer fails. */
export function lex(lexer: Lexer, src: string): MdToken[] {
  try {
    return lexer(boundNesting(src));
  } catch {
    return [{ type: "plain", raw: src, text: src }];
  }
}

/** Whether a terminal takes OSC 8 hyperlinks, from the environment (docs/line-mode.md, "Markdown"). */
export function hyperlinksSupported(env: Record<string, string | undefined>): boolean {
  const says = env.MM_HYPERLINKS;
  if (says === "1") return true;
  if (says === "0") return false;
  // A multiplexer passes them on only when set up to: it says so with MM_HYPERLINKS=1.
  if (env.TMUX || env.STY) return false;
  const term = env.TERM ?? "";
  if (term === "dumb" || term === "linux" || term.startsWith("screen")) return false;
  const program = env.TERM_PROGRAM ?? "";
  if (["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "rio"].includes(program)) return true;
  if (env.KITTY_WINDOW_ID || env.WT_SESSION || env.KONSOLE_VERSION || env.ALACRITTY_WINDOW_ID) {
    return true;
  }
  if (Number(env.VTE_VERSION ?? 0) >= 5000) return true;
  return ["xterm-kitty", "foot", "xterm-ghostty", "wezterm"].includes(term);
}

/** How the rows are drawn. */
export interface MarkdownStyle {
  /** Links as OSC 8 hyperlinks (the URL is shown anyway). */
  hyperlinks: boolean;
}

// ---- inline runs ---------------------------------------------------------------------------

/** A piece of inline text and its attributes (SGR parameters, a link's target). */
interface Run {
  text: string;
  sgr: string;
  href?: string;
}

const BOLD = "1";
const ITALIC = "3";
const UNDERLINE = "4";
const STRIKE = "9";
const DIM = "2";
const CODE = "36";
const LINK = "34;4";

/** `a;b` without repeats. */
function plus(sgr: string, more: string): string {
  return sgr ? `${sgr};${more}` : more;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** A text token's text with its HTML entities decoded (`&amp;` is `&`). */
function decode(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, name: string) => {
    if (name[0] === "#") {
      const cp = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : parseInt(name.slice(1), 10);
      return cp > 0x1f && cp <= 0x10ffff && !(cp >= 0x7f && cp < 0xa0)
        ? String.fromCodePoint(cp)
        : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

/** Inline tokens as runs. */
function inline(tokens: MdToken[] | undefined, sgr: string, out: Run[], href?: string): Run[] {
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "strong":
        inline(t.tokens, plus(sgr, BOLD), out, href);
        break;
      case "em":
        inline(t.tokens, plus(sgr, ITALIC), out, href);
        break;
      case "del":
        inline(t.tokens, plus(sgr, STRIKE), out, href);
        break;
      case "codespan":
        out.push({ text: decode(t.text ?? ""), sgr: plus(sgr, CODE), href });
        break;
      case "br":
        out.push({ text: "\n", sgr });
        break;
      case "link": {
        const url = t.href ?? "";
        const label: Run[] = inline(t.tokens, plus(sgr, LINK), [], url);
        const labelText = label.map((r) => r.text).join("");
        out.push(...label);
        // The URL is shown unless the label is the URL (an autolink, a bare URL).
        if (url && labelText !== url && `mailto:${labelText}` !== url) {
          out.push({ text: ` (${url})`, sgr: plus(sgr, DIM) });
        }
        break;
      }
      case "image": {
        const url = t.href ?? "";
        out.push({ text: `[image: ${t.text || url}]`, sgr: plus(sgr, ITALIC), href: url });
        if (url) out.push({ text: ` (${url})`, sgr: plus(sgr, DIM) });
        break;
      }
      case "text":
        if (t.tokens) inline(t.tokens, sgr, out, href);
        else out.push({ text: decode(t.text ?? t.raw), sgr, href });
        break;
      case "escape":
        out.push({ text: t.text ?? t.raw, sgr, href });
        break;
      default:
        // html, a checkbox and the rest: as written.
        out.push({ text: t.raw, sgr, href });
    }
  }
  return out;
}

/** One run drawn: its attributes on, its text, off again; a link wrapped in OSC 8. */
function paint(run: Run, style: MarkdownStyle): string {
  let text = run.sgr ? `\x1b[${run.sgr}m${run.text}\x1b[0m` : run.text;
  if (run.href && style.hyperlinks && /^[\x21-\x7e]+$/.test(run.href)) {
    text = `\x1b]8;;${run.href}\x1b\\${text}\x1b]8;;\x1b\\`;
  }
  return text;
}

/** Runs wrapped to `width` columns: greedy, broken at spaces, a long word cut. */
function wrapRuns(runs: Run[], width: number, style: MarkdownStyle): string[] {
  const w = Math.max(1, width);
  const rows: string[] = [];
  let row: Run[] = [];
  let used = 0;
  const flush = () => {
    // A space the break fell on ends no row.
    while (row.length && row[row.length - 1].text.endsWith(" ")) {
      const last = row[row.length - 1];
      last.text = last.text.trimEnd();
      if (last.text === "") row.pop();
      else break;
    }
    rows.push(joinRuns(row, style));
    row = [];
    used = 0;
  };
  const add = (run: Run, text: string, width: number) => {
    const last = row[row.length - 1];
    if (last && last.sgr === run.sgr && last.href === run.href) last.text += text;
    else row.push({ ...run, text });
    used += width;
  };
  for (const run of runs) {
    const text = expandTabs(run.text).replace(/\n/g, run.text === "\n" ? "\n" : " ");
    if (text === "\n") {
      flush();
      continue;
    }
    for (const word of text.split(/( )/)) {
      if (word === "") continue;
      if (word === " ") {
        if (used === 0) continue;
        if (used + 1 > w) flush();
        else add(run, " ", 1);
        continue;
      }
      const ww = textWidth(word);
      if (used + ww <= w) {
        add(run, word, ww);
        continue;
      }
      if (used > 0 && ww <= w) {
        flush();
        add(run, word, ww);
        continue;
      }
      // A word wider than the row: cut where it fills it.
      for (const ch of word) {
        const cw = charWidth(ch.codePointAt(0)!);
        if (used + cw > w && used > 0) flush();
        add(run, ch, cw);
      }
    }
  }
  if (row.length || rows.length === 0) flush();
  return rows;
}

/** A row's runs drawn. */
function joinRuns(row: Run[], style: MarkdownStyle): string {
  return row.map((r) => paint(r, style)).join("");
}

/** The columns of runs on one line. */
function runsWidth(runs: Run[]): number {
  let w = 0;
  for (const r of runs) w += textWidth(expandTabs(r.text).replace(/\n/g, " "));
  return w;
}

// ---- blocks ----------------------------------------------------------------------------------

/** Block tokens drawn as rows of at most `width` columns (one empty row between blocks). */
export function renderTokens(tokens: MdToken[], width: number, style: MarkdownStyle): string[] {
  return blocks(tokens, Math.max(1, width), style, 0);
}

function blocks(tokens: MdToken[], width: number, style: MarkdownStyle, depth: number): string[] {
  const rows: string[] = [];
  for (const t of tokens) {
    const drawn = block(t, width, style, depth);
    if (drawn.length === 0) continue;
    if (rows.length) rows.push("");
    for (const r of drawn) rows.push(r);
  }
  return rows;
}

/** One block token's rows. */
function block(t: MdToken, width: number, style: MarkdownStyle, depth: number): string[] {
  switch (t.type) {
    case "space":
      return [];
    case "heading": {
      const sgr = t.depth === 1 ? `${BOLD};${UNDERLINE}` : t.depth === 2 ? BOLD : `${BOLD};${DIM}`;
      return wrapRuns(inline(t.tokens, sgr, []), width, style);
    }
    case "paragraph":
      return wrapRuns(inline(t.tokens, "", []), width, style);
    case "text":
      // A tight list item's text.
      return wrapRuns(
        t.tokens ? inline(t.tokens, "", []) : [{ text: t.text ?? "", sgr: "" }],
        width,
        style,
      );
    case "code":
      return code(t, width);
    case "blockquote": {
      const inner = blocks(t.tokens ?? [], width - 2, style, depth + 1);
      return inner.map((r) => `\x1b[${DIM}m│\x1b[0m ${r}`);
    }
    case "list":
      return list(t, width, style, depth);
    case "table":
      return table(t, width, style);
    case "hr":
      return [`\x1b[${DIM}m${"─".repeat(width)}\x1b[0m`];
    case "html":
    case "def":
    case "plain":
    default:
      return plainRows(t.raw.replace(/\n+$/, ""), width);
  }
}

/** Text drawn as it is, each line wrapped. */
function plainRows(text: string, width: number): string[] {
  return text.split("\n").flatMap((l) => wrapRuns([{ text: l, sgr: "" }], width, NO_LINKS));
}

const NO_LINKS: MarkdownStyle = { hyperlinks: false };

/** A fenced or indented code block: its language dimmed on a row of its own, its lines in colour. */
function code(t: MdToken, width: number): string[] {
  const rows: string[] = [];
  if (t.lang) rows.push(`\x1b[${DIM}m${cutTo(t.lang.split(/\s/)[0], width)}\x1b[0m`);
  const room = Math.max(1, width - 2);
  for (const line of (t.text ?? "").split("\n")) {
    const expanded = expandTabs(line);
    for (const piece of hardWrap(expanded, room)) {
      rows.push(piece ? `  \x1b[${CODE}m${piece}\x1b[0m` : "");
    }
  }
  return rows;
}

/** One line cut into pieces of `width` columns (code keeps its spaces). */
function hardWrap(line: string, width: number): string[] {
  if (textWidth(line) <= width) return [line];
  const out: string[] = [];
  let piece = "";
  let used = 0;
  for (const ch of line) {
    const w = charWidth(ch.codePointAt(0)!);
    if (used + w > width && used > 0) {
      out.push(piece);
      piece = "";
      used = 0;
    }
    piece += ch;
    used += w;
  }
  out.push(piece);
  return out;
}

/** `text` cut to `width` columns. */
function cutTo(text: string, width: number): string {
  return hardWrap(text, Math.max(1, width))[0];
}

const BULLETS = ["•", "◦", "▪"];

/** A list: each item's marker, its content indented under it; deeper than MAX_DEPTH drawn flat. */
function list(t: MdToken, width: number, style: MarkdownStyle, depth: number): string[] {
  const rows: string[] = [];
  const items = t.items ?? [];
  const start = typeof t.start === "number" ? t.start : 1;
  const last = start + items.length - 1;
  const numberWidth = String(last).length;
  items.forEach((item, i) => {
    let marker = t.ordered
      ? `${String(start + i).padStart(numberWidth)}.`
      : BULLETS[depth % BULLETS.length];
    if (item.task) marker += item.checked ? " ☑" : " ☐";
    const indent = depth >= MAX_DEPTH ? 0 : textWidth(marker) + 1;
    const body = (item.tokens ?? []).filter((c) => c.type !== "checkbox");
    const inner = blocks(body, Math.max(1, width - indent), style, depth + 1);
    // A tight item's rows have no empty row between its text and its sublist.
    const drawn = item.loose ? inner : inner.filter((r) => r !== "");
    if (drawn.length === 0) drawn.push("");
    drawn.forEach((r, j) => {
      if (indent === 0) rows.push(j === 0 ? `${marker} ${r}` : r);
      else rows.push((j === 0 ? marker + " " : " ".repeat(indent)) + r);
    });
  });
  return rows;
}

/** A table fitted to `width`: its columns shrunk in turn from the widest, its cells wrapped. */
function table(t: MdToken, width: number, style: MarkdownStyle): string[] {
  const header = (t.header ?? []).map((c) => inline(c.tokens, BOLD, []));
  const body = (t.rows ?? []).map((r) => r.map((c) => inline(c.tokens, "", [])));
  const n = header.length;
  if (n === 0) return plainRows(t.raw, width);
  const align = t.align ?? [];
  const natural = Array.from(
    { length: n },
    (_, i) => Math.max(1, runsWidth(header[i]), ...body.map((r) => r[i] ? runsWidth(r[i]) : 0)),
  );
  // `│` between columns, a space either side: 3 columns each, and one at either edge.
  const room = width - 3 * (n - 1) - 2;
  if (room < n) return plainRows(t.raw, width);
  const widths = fitColumns(natural, room);
  const line = (cells: Run[][]) => {
    const wrapped = widths.map((w, i) => wrapRuns(cells[i] ?? [], w, style));
    const height = Math.max(...wrapped.map((c) => c.length));
    const out: string[] = [];
    for (let r = 0; r < height; r++) {
      const parts = widths.map((w, i) => {
        const text = wrapped[i][r] ?? "";
        const gap = Math.max(0, w - textWidth(plainOf(text)));
        const a = align[i];
        if (a === "right") return " ".repeat(gap) + text;
        if (a === "center") {
          const left = Math.floor(gap / 2);
          return " ".repeat(left) + text + " ".repeat(gap - left);
        }
        return text + " ".repeat(gap);
      });
      out.push(" " + parts.join(` \x1b[${DIM}m│\x1b[0m `) + " ");
    }
    return out;
  };
  const rule = `\x1b[${DIM}m${"─".repeat(widths[0] + 2)}${
    widths.slice(1).map((w) => "┼" + "─".repeat(w + 2)).join("")
  }\x1b[0m`;
  return [...line(header), rule, ...body.flatMap(line)];
}

/** Column widths summing to at most `room`: the widest shrunk first, each at least 1. */
export function fitColumns(natural: number[], room: number): number[] {
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  if (total <= room) return widths;
  // Lower a common ceiling until the columns fit: narrow columns keep their width.
  let lo = 1;
  let hi = Math.max(...widths);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const sum = widths.reduce((a, w) => a + Math.min(w, mid), 0);
    if (sum <= room) lo = mid;
    else hi = mid - 1;
  }
  const capped = widths.map((w) => Math.min(w, lo));
  total = capped.reduce((a, b) => a + b, 0);
  // What the ceiling leaves goes to the columns it cut, one column each.
  for (let i = 0; i < capped.length && total < room; i++) {
    if (capped[i] < widths[i]) {
      capped[i]++;
      total++;
    }
  }
  return capped;
}

// deno-lint-ignore no-control-regex
const ESCAPES = /\x1b\[[0-9;]*m|\x1b\]8;;[^\x1b]*\x1b\\/g;

/** A drawn row without its escapes (what it shows). */
export function plainOf(row: string): string {
  return row.includes("\x1b") ? row.replace(ESCAPES, "") : row;
}

// ---- streaming -------------------------------------------------------------------------------

/** A tail up to this size is lexed again at every newline; a longer one only as it grows by half. */
const RELEX_FREELY = 4096;

/**
 * A streamed answer cut into blocks: {@linkcode append} gives the blocks that became complete
 * (a block is complete once another one starts after it), {@linkcode end} the rest.
 * {@linkcode pending} is the block still streaming, as text.
 */
export class MarkdownStream {
  readonly #lexer: Lexer;
  #tail = "";
  #lexedAt = 0;
  #newline = false;

  /** A stream lexed with `lexer`. */
  constructor(lexer: Lexer) {
    this.#lexer = lexer;
  }

  /** The text of the block still streaming (and of any not yet seen complete). */
  get pending(): string {
    return this.#tail;
  }

  /** Adds streamed text; returns the blocks it completed. */
  append(text: string): MdToken[] {
    this.#tail += text.replace(/\r\n?/g, "\n");
    // A block ends when a line after it starts one: at text after a newline.
    if (text.includes("\n")) this.#newline = true;
    if (!this.#newline || text.trim() === "") return [];
    this.#newline = false;
    const size = this.#tail.length;
    if (size > RELEX_FREELY && size < this.#lexedAt * 1.5) return [];
    this.#lexedAt = size;
    const tokens = lex(this.#lexer, this.#tail);
    // The last block may still grow: everything before it is complete.
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last].type === "space") last--;
    if (last <= 0) return [];
    const done = tokens.slice(0, last);
    const used = done.reduce((n, t) => n + t.raw.length, 0);
    // What marked read must be the text's start: else (a change of its own) nothing is cut.
    if (this.#tail.slice(0, used) !== done.map((t) => t.raw).join("")) return [];
    this.#tail = this.#tail.slice(used);
    this.#lexedAt = this.#tail.length;
    return done.filter((t) => t.type !== "space");
  }

  /** The answer ended: the blocks of what is pending. */
  end(): MdToken[] {
    const tail = this.#tail;
    this.#tail = "";
    this.#lexedAt = 0;
    this.#newline = false;
    if (tail.trim() === "") return [];
    return lex(this.#lexer, tail).filter((t) => t.type !== "space");
  }
}
