/**
 * HTML to the Markdown a small model reads best (tools.md, `fetch_content`, "Conversion" to
 * "Result"): parsed by parse5 as a browser would, cleaned by `clean.ts`, then written block by
 * block with CommonMark's escapes and GFM tables.
 */

import { type DefaultTreeAdapterTypes as T, parse, serializeOuter } from "npm:parse5@8.1.1";
import { removeInvisible } from "../invisible.ts";
import { attr, cleanTree, isElement } from "./clean.ts";

/** How to write the Markdown. */
export interface MarkdownOptions {
  /** Absolute URL that relative links and image sources are resolved against; none: kept as written. */
  baseUrl?: string;
  /** Tables with `rowspan`/`colspan` or a nested table: raw HTML (default) or a flattened GFM table. */
  tables?: "html" | "flatten";
  /** `<del>`, `<s>`, `<strike>` as `~~text~~` (default: the plain text). */
  strikethrough?: boolean;
  /** A list item starting with a checkbox as `- [ ] …` / `- [x] …` (default: the box dropped). */
  taskList?: boolean;
}

/**
 * Parses `html` as a browser does, removes what tools.md removes and what an inline style hides,
 * converts the rest, and removes the invisible characters (lib/invisible.ts) from the Markdown.
 */
export function htmlToMarkdown(html: string, options: MarkdownOptions = {}): string {
  const doc = parse(html);
  cleanTree(doc);
  // The text nodes lost theirs in cleanTree; this catches what the conversion put together.
  return removeInvisible(treeToMarkdown(doc, options));
}

/**
 * The Markdown of an already cleaned tree: blocks separated by one blank line, ending with exactly
 * one newline, or `""` when nothing is left.
 */
export function treeToMarkdown(root: T.ParentNode, options: MarkdownOptions = {}): string {
  const text = joinBlocks(new Converter(options).blocks(root.childNodes, ROOT));
  return text === "" ? "" : `${text}\n`;
}

/** Elements that start a block of their own. */
const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "optgroup",
  "option",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "xmp",
]);

/** One converted block; `list` marks a list, which joins the block before it in a list item. */
interface Block {
  text: string;
  list?: boolean;
}

/** Where a node is being converted. */
interface Ctx {
  /** Applied to each paragraph and heading, innermost last: a link or emphasis around blocks. */
  wrap: ((text: string) => string)[];
  strong: boolean;
  em: boolean;
  del: boolean;
  /** Inside a GFM table cell: line breaks become `<br>`, no line-start escapes. */
  cell: boolean;
}

const ROOT: Ctx = { wrap: [], strong: false, em: false, del: false, cell: false };

/** Blocks separated by a blank line. */
function joinBlocks(blocks: Block[]): string {
  return blocks.map((b) => b.text).join("\n\n");
}

/** HTML white space (not U+00A0). */
const SPACES = /[\t\n\f\r ]+/g;

/**
 * Backslash, `*`, backtick, `[`, `]`, `<`, and a run of `_` not inside a word get a backslash.
 */
export function escapeInline(text: string): string {
  if (!/[\\*`[\]<_]/.test(text)) return text;
  const escaped = text.replace(/[\\*`[\]<]/g, "\\$&");
  return escaped.replace(/_+/g, (run, at: number, all: string) => {
    const inside = isWordChar(all[at - 1]) && isWordChar(all[at + run.length]);
    return inside ? run : run.replace(/_/g, "\\_");
  });
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}]/u.test(c);
}

/** A line starting with `#`, `>`, `-`, `+`, `=`, `|` or `N.` gets a backslash there. */
export function escapeLineStart(line: string): string {
  if (/^[#>\-+=|]/.test(line)) return `\\${line}`;
  const ordered = line.match(/^(\d+)\./);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return line;
}

/**
 * Inline fragments joined as HTML renders white space: one space where both sides have one, none
 * before a hard break (`\n`) or after one. Spaces at the ends of a paragraph go later. Kept as a
 * list of pieces, so a long paragraph is not copied at every join.
 */
class InlineRun {
  #pieces: string[] = [];

  /** Appends a fragment. */
  add(fragment: string): void {
    let b = fragment;
    const last = this.#lastChar();
    if (b.startsWith(" ") && (last === " " || last === "\n")) b = b.slice(1);
    if (b === "") return;
    if (b.startsWith("\n") && last === " ") {
      const top = this.#pieces.pop()!.slice(0, -1);
      if (top !== "") this.#pieces.push(top);
    }
    this.#pieces.push(b);
  }

  #lastChar(): string {
    const top = this.#pieces[this.#pieces.length - 1];
    return top === undefined ? "" : top[top.length - 1];
  }

  /** The run so far. */
  toString(): string {
    return this.#pieces.join("");
  }

  /** Starts again, empty. */
  clear(): void {
    this.#pieces = [];
  }
}

/** A fragment cut into its leading white space, its core, and its trailing white space. */
function edges(fragment: string): [string, string, string] {
  const m = fragment.match(/^([ \n]*)([\s\S]*?)([ \n]*)$/)!;
  return [m[1], m[2], m[3]];
}

/** `inner` between `delimiter`s, its edge white space kept outside; nothing around no text. */
function delimit(delimiter: string, inner: string): string {
  const [lead, core, trail] = edges(inner);
  if (core === "") return inner;
  return `${lead}${delimiter}${core}${delimiter}${trail}`;
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** A code span: a fence one backtick longer than any run inside, padded when the code touches one. */
export function codeSpan(code: string): string {
  if (code === "") return "";
  const fence = "`".repeat(longestBacktickRun(code) + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** A fenced code block: at least three backticks, and more than any run inside. */
export function fencedBlock(code: string, language = ""): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(code) + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

/** A link destination: spaces and angle brackets escaped, parentheses too when unbalanced. */
function destination(url: string): string {
  let out = url.replace(/ /g, "%20").replace(/</g, "%3C").replace(/>/g, "%3E");
  let depth = 0;
  let balanced = true;
  for (const c of out) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) balanced = false;
  }
  if (!balanced || depth !== 0) out = out.replace(/\(/g, "%28").replace(/\)/g, "%29");
  return out;
}

/** Indents every line but the first by `width` spaces (empty lines stay empty). */
function hang(text: string, width: number): string {
  const pad = " ".repeat(width);
  return text.split("\n").map((line, i) => i === 0 || line === "" ? line : pad + line).join("\n");
}

/** Indents every line by `width` spaces (empty lines stay empty). */
function indent(text: string, width: number): string {
  const pad = " ".repeat(width);
  return text.split("\n").map((line) => line === "" ? line : pad + line).join("\n");
}

class Converter {
  #options: MarkdownOptions;
  /** Whether an element holds a block, by element (a Map: a WeakMap is slow for the GC). */
  #hasBlock = new Map<T.Element, boolean>();

  constructor(options: MarkdownOptions) {
    this.#options = options;
  }

  /** The blocks of a run of sibling nodes: inline content between blocks makes paragraphs. */
  blocks(nodes: T.ChildNode[], ctx: Ctx): Block[] {
    const out: Block[] = [];
    const run = new InlineRun();
    const flush = () => {
      const text = this.#paragraph(run.toString(), ctx);
      if (text !== "") out.push({ text });
      run.clear();
    };
    for (const node of nodes) {
      if (node.nodeName === "#text") run.add(this.#text((node as T.TextNode).value));
      else if (isElement(node)) {
        if (this.#isBlock(node)) {
          flush();
          out.push(...this.#block(node, ctx));
        } else run.add(this.#inline(node, ctx));
      }
    }
    flush();
    return out;
  }

  /** Whether `el` is written as a block: a block element, or any element holding one. */
  #isBlock(el: T.Element): boolean {
    return BLOCK_TAGS.has(el.tagName) || this.#holdsBlock(el);
  }

  #holdsBlock(el: T.Element): boolean {
    let known = this.#hasBlock.get(el);
    if (known === undefined) {
      known = el.childNodes.some((c) =>
        isElement(c) && (BLOCK_TAGS.has(c.tagName) || this.#holdsBlock(c))
      );
      this.#hasBlock.set(el, known);
    }
    return known;
  }

  /** A paragraph from an inline run: lines trimmed, hard breaks kept between lines only. */
  #paragraph(run: string, ctx: Ctx): string {
    const lines = run.split("\n").map((l) => l.replace(/^ +| +$/g, ""));
    while (lines.length && lines[0] === "") lines.shift();
    while (lines.length && lines[lines.length - 1] === "") lines.pop();
    if (lines.every((l) => l.trim() === "")) return "";
    const text = ctx.cell ? lines.join("<br>") : lines.map(escapeLineStart).join("\\\n");
    return this.#wrapped(text, ctx);
  }

  #wrapped(text: string, ctx: Ctx): string {
    let out = text;
    for (let i = ctx.wrap.length - 1; i >= 0; i--) out = ctx.wrap[i](out);
    return out;
  }

  /** Text as HTML shows it: white space collapsed, escaped for Markdown. */
  #text(value: string): string {
    return escapeInline(value.replace(/\0/g, "").replace(SPACES, " "));
  }

  /** An inline element as a fragment (edge white space kept, for the join to collapse). */
  #inline(el: T.Element, ctx: Ctx): string {
    switch (el.tagName) {
      case "br":
        return "\n";
      case "img":
        return this.#image(el);
      case "input":
        return "";
      case "strong":
      case "b":
        if (ctx.strong) return this.#inlineChildren(el, ctx);
        return delimit("**", this.#inlineChildren(el, { ...ctx, strong: true }));
      case "em":
      case "i":
        if (ctx.em) return this.#inlineChildren(el, ctx);
        return delimit("*", this.#inlineChildren(el, { ...ctx, em: true }));
      case "del":
      case "s":
      case "strike":
        if (ctx.del || !this.#options.strikethrough) return this.#inlineChildren(el, ctx);
        return delimit("~~", this.#inlineChildren(el, { ...ctx, del: true }));
      case "code":
      case "kbd":
      case "samp":
      case "tt": {
        const raw = textContent(el, false).replace(/\0/g, "").replace(SPACES, " ");
        const [lead, core, trail] = edges(raw);
        return core === "" ? raw : lead + codeSpan(core) + trail;
      }
      case "a":
        return this.#link(el, ctx);
      default:
        return this.#inlineChildren(el, ctx);
    }
  }

  #inlineChildren(el: T.Element, ctx: Ctx): string {
    const run = new InlineRun();
    for (const node of el.childNodes) {
      if (node.nodeName === "#text") run.add(this.#text((node as T.TextNode).value));
      else if (isElement(node)) run.add(this.#inline(node, ctx));
    }
    return run.toString();
  }

  /** The URL of a link or an image, resolved against the base URL when there is one. */
  #resolve(url: string): string {
    const trimmed = url.trim();
    try {
      return new URL(trimmed, this.#options.baseUrl).href;
    } catch {
      return trimmed;
    }
  }

  /** `href` of a link that leads somewhere, or undefined (none, or `javascript:`). */
  #href(el: T.Element): string | undefined {
    const href = attr(el, "href");
    if (href === undefined || /^\s*javascript:/i.test(href)) return undefined;
    return this.#resolve(href);
  }

  /** `[text](url)`, `<url>` without text, the text alone for `javascript:` or no `href`. */
  #link(el: T.Element, ctx: Ctx): string {
    const inner = this.#inlineChildren(el, ctx);
    const url = this.#href(el);
    if (url === undefined) return inner;
    const [lead, core, trail] = edges(inner);
    if (core === "") return `${lead}${autolink(url)}${trail}`;
    return `${lead}[${core}](${destination(url)})${trail}`;
  }

  /** `![alt](src)`, `![](src)` without alt, the alt alone for a `data:` URI or no `src`. */
  #image(el: T.Element): string {
    const alt = escapeInline((attr(el, "alt") ?? "").replace(SPACES, " ").trim());
    const src = attr(el, "src")?.trim();
    if (!src || /^data:/i.test(src)) return alt;
    return `![${alt}](${destination(this.#resolve(src))})`;
  }

  /** A block element (or an inline one holding blocks) as blocks. */
  #block(el: T.Element, ctx: Ctx): Block[] {
    const tag = el.tagName;
    switch (tag) {
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        return this.#heading(el, Number(tag[1]), ctx);
      case "pre":
        return this.#pre(el, ctx);
      case "hr":
        return [{ text: "---" }];
      case "blockquote": {
        const inner = joinBlocks(this.blocks(el.childNodes, ctx));
        if (inner === "") return [];
        const quoted = inner.split("\n").map((l) => l === "" ? ">" : `> ${l}`).join("\n");
        return [{ text: quoted }];
      }
      case "ul":
      case "ol": {
        const text = this.#list(el, ctx);
        return text === "" ? [] : [{ text, list: true }];
      }
      case "table":
        return this.#table(el, ctx);
      case "a": {
        const url = this.#href(el);
        if (url === undefined) return this.blocks(el.childNodes, ctx);
        const link = (text: string) => `[${text}](${destination(url)})`;
        return this.blocks(el.childNodes, { ...ctx, wrap: [...ctx.wrap, link] });
      }
      case "strong":
      case "b":
        if (ctx.strong) return this.blocks(el.childNodes, ctx);
        return this.blocks(el.childNodes, {
          ...ctx,
          strong: true,
          wrap: [...ctx.wrap, (t) => `**${t}**`],
        });
      case "em":
      case "i":
        if (ctx.em) return this.blocks(el.childNodes, ctx);
        return this.blocks(el.childNodes, {
          ...ctx,
          em: true,
          wrap: [...ctx.wrap, (t) => `*${t}*`],
        });
      case "del":
      case "s":
      case "strike":
        if (ctx.del || !this.#options.strikethrough) return this.blocks(el.childNodes, ctx);
        return this.blocks(el.childNodes, {
          ...ctx,
          del: true,
          wrap: [...ctx.wrap, (t) => `~~${t}~~`],
        });
      default:
        return this.blocks(el.childNodes, ctx);
    }
  }

  /** `#`–`######` and the heading's text on one line. */
  #heading(el: T.Element, level: number, ctx: Ctx): Block[] {
    const raw = this.#holdsBlock(el)
      ? this.blocks(el.childNodes, { ...ctx, wrap: [] }).map((b) => b.text).join(" ")
      : this.#inlineChildren(el, ctx);
    const text = raw.replace(/\\\n|\n/g, " ").replace(/ {2,}/g, " ").trim();
    if (text === "") return [];
    // A table cell holds inline content only: a heading there is its text.
    if (ctx.cell) return [{ text }];
    return [{ text: `${"#".repeat(level)} ${this.#wrapped(text, ctx)}` }];
  }

  /**
   * A fenced code block, with the language of a `language-x` or `lang-x` class; in a table cell,
   * a code span per line.
   */
  #pre(el: T.Element, ctx: Ctx): Block[] {
    let code = textContent(el, true).replace(/\0/g, "");
    code = code.replace(/^\n/, "").replace(/\s+$/, "");
    if (code.trim() === "") return [];
    if (ctx.cell) return [{ text: code.split("\n").map((l) => codeSpan(l.trim())).join("\n") }];
    return [{ text: fencedBlock(code, language(el)) }];
  }

  /** A list's items, `- ` or `N. `, each item's other lines indented by its marker's width. */
  #list(el: T.Element, ctx: Ctx): string {
    const ordered = el.tagName === "ol";
    let n = ordered ? startNumber(el) : 1;
    const items: string[] = [];
    let width = 2;
    let stray: T.ChildNode[] = [];
    const addItem = (nodes: T.ChildNode[]) => {
      const marker = ordered ? `${n}. ` : "- ";
      const text = this.#item(nodes, marker, ctx);
      if (text === "") return;
      items.push(text);
      width = marker.length;
      n++;
    };
    const flushStray = () => {
      if (stray.length) addItem(stray);
      stray = [];
    };
    for (const node of el.childNodes) {
      if (isElement(node) && node.tagName === "li") {
        flushStray();
        addItem(node.childNodes);
      } else if (isElement(node) && (node.tagName === "ul" || node.tagName === "ol")) {
        // A list written straight inside a list belongs to the item before it.
        flushStray();
        const nested = this.#list(node, ctx);
        if (nested === "") continue;
        if (items.length) items[items.length - 1] += `\n${indent(nested, width)}`;
        else items.push(nested);
      } else stray.push(node);
    }
    flushStray();
    return items.join("\n");
  }

  /** One list item: its marker, a task box when asked for, its blocks hanging under the marker. */
  #item(nodes: T.ChildNode[], marker: string, ctx: Ctx): string {
    const box = leadingCheckbox(nodes);
    const task = box && this.#options.taskList
      ? (attr(box, "checked") !== undefined ? "[x] " : "[ ] ")
      : "";
    const blocks = this.blocks(nodes, ctx);
    let body = "";
    for (const [i, b] of blocks.entries()) {
      body += i === 0 ? b.text : (b.list ? "\n" : "\n\n") + b.text;
    }
    if (body === "" && task === "") return "";
    return hang(`${marker}${task}${body}`.trimEnd(), marker.length);
  }

  /** A table: GFM when simple (or `tables: flatten`), else raw HTML; the caption above. */
  #table(el: T.Element, ctx: Ctx): Block[] {
    const { caption, rows } = tableParts(el);
    const cellCtx: Ctx = { ...ROOT, cell: true };
    const captionText = caption
      ? joinBlocks(this.blocks(caption.childNodes, { ...ctx, wrap: [] }))
      : "";
    const cells = rows.flatMap(cellsOf);
    if (ctx.cell) {
      // A table inside a flattened table's cell: its rows as lines, its cells separated by spaces.
      const lines = rows.map((r) =>
        cellsOf(r).map((c) => this.#cellText(c, cellCtx)).filter((t) => t !== "").join(" ")
      );
      const text = [captionText, ...lines].filter((t) => t !== "").join("\n");
      return text === "" ? [] : [{ text }];
    }
    if (cells.length === 1 && caption === undefined) {
      // A table of one cell only lays a page out: its content is the content.
      return this.blocks(cells[0].childNodes, ctx);
    }
    const complex = cells.some((c) => span(c, "colspan") > 1 || span(c, "rowspan") > 1) ||
      cells.some((c) => hasTable(c));
    const out: Block[] = [];
    if (complex && this.#options.tables !== "flatten") {
      tidyTable(el);
      resolveUrls(el, (u) => this.#resolve(u));
      return [{ text: serializeOuter(el) }];
    }
    if (captionText !== "") out.push({ text: captionText });
    const grid = buildGrid(rows, (c) => this.#cellText(c, cellCtx));
    const columns = Math.max(0, ...grid.map((r) => r.length));
    if (columns === 0 || grid.every((r) => r.every((c) => !c))) return out;
    const line = (r: (string | undefined)[]) =>
      `| ${
        Array.from({ length: columns }, (_, i) => (r[i] ?? "").replace(/\|/g, "\\|")).join(" | ")
      } |`;
    const lines = [line(grid[0]), `| ${Array(columns).fill("---").join(" | ")} |`];
    for (const r of grid.slice(1)) lines.push(line(r));
    out.push({ text: lines.join("\n") });
    return out;
  }

  /** A cell's content on one line: blocks and hard breaks as `<br>`. */
  #cellText(cell: T.Element, ctx: Ctx): string {
    const text = this.blocks(cell.childNodes, ctx).map((b) => b.text).join("\n");
    return text.split("\n").map((l) => l.trim()).filter((l) => l !== "").join("<br>");
  }
}

/** `<url>` when the URL can be an autolink, else `[url](url)`. */
function autolink(url: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*$/.test(url)) return `<${url}>`;
  return `[${escapeInline(url)}](${destination(url)})`;
}

/** The text inside `el`; in a `pre`, `br` and the end of a block element make a new line. */
function textContent(el: T.ParentNode, lines: boolean): string {
  let out = "";
  for (const node of el.childNodes) {
    if (node.nodeName === "#text") out += (node as T.TextNode).value;
    else if (isElement(node)) {
      if (node.tagName === "br") out += "\n";
      else {
        out += textContent(node, lines);
        if (lines && BLOCK_TAGS.has(node.tagName) && !out.endsWith("\n")) out += "\n";
      }
    }
  }
  return out;
}

/** The language of a `pre`, from a `language-x` or `lang-x` class on it or its first `code`. */
function language(pre: T.Element): string {
  const code = pre.childNodes.find((c): c is T.Element => isElement(c) && c.tagName === "code");
  for (const el of [pre, code]) {
    const m = el && (attr(el, "class") ?? "").match(/(?:^|\s)(?:language|lang)-([^\s`]+)/);
    if (m) return m[1];
  }
  return "";
}

/** The first number of an ordered list: its `start`, else 1. */
function startNumber(ol: T.Element): number {
  const start = (attr(ol, "start") ?? "").trim();
  if (!/^[-+]?\d+$/.test(start)) return 1;
  return Math.min(999_999_999, Math.max(0, Number(start)));
}

/**
 * The checkbox a list item starts with, if its first content (white space skipped, elements
 * entered) is one.
 */
function leadingCheckbox(nodes: T.ChildNode[]): T.Element | undefined {
  const first = (list: T.ChildNode[]): T.Element | null | undefined => {
    for (const node of list) {
      if (node.nodeName === "#text") {
        if ((node as T.TextNode).value.trim() === "") continue;
        return null;
      }
      if (!isElement(node)) continue;
      if (node.tagName === "input") return attr(node, "type") === undefined ? null : node;
      if (node.tagName === "img" || node.tagName === "br" || node.tagName === "hr") return null;
      const inner = first(node.childNodes);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return first(nodes) ?? undefined;
}

/** A table's caption and rows: `thead` rows first, then the body's, then `tfoot`'s. */
function tableParts(table: T.Element): { caption?: T.Element; rows: T.Element[] } {
  let caption: T.Element | undefined;
  const head: T.Element[] = [];
  const body: T.Element[] = [];
  const foot: T.Element[] = [];
  const rowsOf = (el: T.Element) =>
    el.childNodes.filter((c): c is T.Element => isElement(c) && c.tagName === "tr");
  for (const child of table.childNodes) {
    if (!isElement(child)) continue;
    if (child.tagName === "caption") caption ??= child;
    else if (child.tagName === "thead") head.push(...rowsOf(child));
    else if (child.tagName === "tfoot") foot.push(...rowsOf(child));
    else if (child.tagName === "tbody") body.push(...rowsOf(child));
    else if (child.tagName === "tr") body.push(child);
  }
  return { caption, rows: [...head, ...body, ...foot] };
}

function cellsOf(row: T.Element): T.Element[] {
  return row.childNodes.filter((c): c is T.Element =>
    isElement(c) && (c.tagName === "td" || c.tagName === "th")
  );
}

/** A cell's `colspan` or `rowspan` as the HTML standard clamps it (`rowspan="0"` is 0). */
function span(cell: T.Element, name: "colspan" | "rowspan"): number {
  const value = (attr(cell, name) ?? "").trim();
  const n = /^\d+/.test(value) ? parseInt(value, 10) : 1;
  if (name === "colspan") return Math.min(1000, Math.max(1, n));
  return Math.min(65534, n);
}

function hasTable(el: T.Element): boolean {
  return el.childNodes.some((c) => isElement(c) && (c.tagName === "table" || hasTable(c)));
}

/** The table's slots, a spanned cell copied into every slot it covers. */
function buildGrid(rows: T.Element[], text: (cell: T.Element) => string): (string | undefined)[][] {
  const grid: (string | undefined)[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of cellsOf(row)) {
      while (grid[r][c] !== undefined) c++;
      const cols = span(cell, "colspan");
      let down = span(cell, "rowspan");
      if (down === 0 || r + down > rows.length) down = rows.length - r;
      const value = text(cell);
      for (let dr = 0; dr < down; dr++) {
        for (let dc = 0; dc < cols; dc++) grid[r + dr][c + dc] = value;
      }
      c += cols;
    }
  });
  // A slot no cell covers is empty.
  return grid.map((r) => Array.from(r, (v) => v ?? ""));
}

const TABLE_STRUCTURE = new Set(["table", "thead", "tbody", "tfoot", "tr"]);

/** White space in a table kept as raw HTML: gone between its parts, collapsed elsewhere. */
function tidyTable(el: T.Element): void {
  const walk = (parent: T.ParentNode, pre: boolean) => {
    parent.childNodes = parent.childNodes.filter((node) => {
      if (node.nodeName !== "#text") return true;
      const text = node as T.TextNode;
      if (isElement(parent) && TABLE_STRUCTURE.has(parent.tagName) && text.value.trim() === "") {
        return false;
      }
      if (!pre) text.value = text.value.replace(SPACES, " ");
      return true;
    });
    for (const node of parent.childNodes) {
      if (isElement(node)) walk(node, pre || node.tagName === "pre");
    }
    if (isElement(parent) && ["td", "th", "caption"].includes(parent.tagName)) {
      const first = parent.childNodes[0];
      const last = parent.childNodes[parent.childNodes.length - 1];
      if (first?.nodeName === "#text") {
        (first as T.TextNode).value = (first as T.TextNode).value.replace(/^ /, "");
      }
      if (last?.nodeName === "#text") {
        (last as T.TextNode).value = (last as T.TextNode).value.replace(/ $/, "");
      }
    }
  };
  walk(el, false);
}

/** Every `a[href]` and `img[src]` under `el` made absolute. */
function resolveUrls(el: T.Element, resolve: (url: string) => string): void {
  for (const node of el.childNodes) {
    if (!isElement(node)) continue;
    for (const a of node.attrs) {
      const isUrl = (node.tagName === "a" && a.name === "href") ||
        (node.tagName === "img" && a.name === "src");
      if (isUrl && !/^\s*(javascript|data):/i.test(a.value)) a.value = resolve(a.value);
    }
    resolveUrls(node, resolve);
  }
}
