/**
 * The blocks of the window's conversation (docs/window-mode.md, "The conversation"): a prompt, a
 * streamed answer, thinking, a tool call with its status, time, folded output and the steps of an
 * agent it asked, a one-line note. Each block draws itself as rows of a width, cached until it
 * changes, so a frame costs the rows on the screen and not the whole history.
 */

import { diffHunks, type Hunk } from "../../diff.ts";
import type { FileDiff, ToolKind } from "../../tool.ts";
import { visible } from "../terminal/visible.ts";
import { type Lexer, MarkdownStream, type MdToken, renderTokens } from "../terminal/markdown.ts";
import type { Style } from "./style.ts";
import { expandTabs, fit, pad, textWidth, Wrapped, wrapText } from "../terminal/width.ts";

/** How many rows of a tool's output an unfolded call shows before `… N more lines`. */
export const UNFOLDED_ROWS = 40;

/** One part of the conversation, drawn as rows. */
export abstract class Block {
  /** Bumped by every change: the cached rows are drawn again. */
  version = 0;
  /** How many rows the block drew last (a click on a call's nested steps finds its block by it). */
  rowsCount = 0;
  #cache: { width: number; key: string; rows: string[] } | undefined;

  /** The rows at `width`, each at most `width` columns, styled with `style`. */
  rows(width: number, style: Style, now: number): string[] {
    const key = `${this.version}:${this.timeKey(now)}`;
    const c = this.#cache;
    if (c && c.width === width && c.key === key) return c.rows;
    const rows = this.draw(width, style, now);
    this.#cache = { width, key, rows };
    this.rowsCount = rows.length;
    return rows;
  }

  /** What the rows depend on in time (a running call's elapsed seconds); "" when nothing. */
  timeKey(_now: number): string {
    return "";
  }

  /** The block that a click or Enter on row `row` folds or unfolds, if any. */
  foldAt(_row: number): Foldable | undefined {
    return undefined;
  }

  /** Draws the rows. */
  protected abstract draw(width: number, style: Style, now: number): string[];

  /** Marks the block changed. */
  changed(): void {
    this.version++;
  }
}

/** A block that folds: a tool call, a finished thought. */
export interface Foldable {
  folded: boolean;
  /** Whether unfolding would show anything. */
  readonly foldable: boolean;
  changed(): void;
}

/** What the user typed: `› <prompt>`, after an empty row that sets the turn apart. */
export class PromptBlock extends Block {
  readonly text: string;

  /** The prompt as sent. */
  constructor(text: string) {
    super();
    this.text = text;
  }

  protected draw(width: number, style: Style): string[] {
    const rows = wrapText(visible(this.text), Math.max(1, width - 2));
    return ["", ...rows.map((r, i) => (i === 0 ? style.bold("› ") : "  ") + style.bold(r))];
  }
}

/**
 * How a text block draws Markdown (terminal/markdown.ts): the lexer once loaded (undefined until
 * then: the text is drawn as it is, and again as Markdown once it comes), and whether links are
 * OSC 8 hyperlinks.
 */
export interface TextMarkdown {
  lexer(): Lexer | undefined;
  hyperlinks: boolean;
}

/**
 * Streamed text: the model's answer, or an asked agent's (indented under its call). With
 * Markdown, its complete blocks are drawn rendered and the block still streaming as it is, drawn
 * again rendered once complete (or once the text ends).
 */
export class TextBlock extends Block {
  #text = new Wrapped();
  readonly #indent: number;
  readonly #markdown: TextMarkdown | undefined;
  /** All the text, as appended. */
  #all = "";
  #stream: MarkdownStream | undefined;
  #done: MdToken[] = [];
  #doneRows: { width: number; count: number; rows: string[] } | undefined;
  #ended = false;

  /** A text block drawn `indent` columns in; Markdown rendered with `markdown`. */
  constructor(indent = 0, markdown?: TextMarkdown) {
    super();
    this.#indent = indent;
    this.#markdown = markdown;
  }

  /** The text so far. */
  get text(): string {
    return this.#all;
  }

  /** Adds streamed text. */
  append(text: string): void {
    const shown = visible(text);
    // A text starts at its first visible character: the empty rows a model opens with are dropped.
    const added = this.#all === "" ? shown.replace(/^\s*\n/, "") : shown;
    this.#all += added;
    this.#ended = false;
    // A stream is fed what comes; a new one (the lexer just came) everything so far.
    if (this.#stream) this.#feed(added);
    else if (!this.#markdownOn()) this.#text.append(added);
    this.changed();
  }

  /** The text ended (another block follows, the answer came): its last block is drawn rendered. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#stream) this.#commit(this.#stream.end());
    this.changed();
  }

  /** Whether Markdown is drawn: the lexer is there (the text so far is fed to it the first time). */
  #markdownOn(): boolean {
    if (this.#stream) return true;
    const lexer = this.#markdown?.lexer();
    if (!lexer) return false;
    this.#stream = new MarkdownStream(lexer);
    this.#text = new Wrapped();
    this.#feed(this.#all);
    if (this.#ended) this.#commit(this.#stream.end());
    return true;
  }

  #feed(text: string): void {
    const done = this.#stream!.append(text);
    if (done.length) this.#commit(done);
    else this.#text.append(text);
  }

  /** Blocks complete: drawn rendered from now on; the pending text is what is left. */
  #commit(tokens: MdToken[]): void {
    for (const t of tokens) this.#done.push(t);
    this.#text = new Wrapped();
    this.#text.append(this.#stream!.pending.replace(/^\s*\n/, ""));
  }

  protected draw(width: number): string[] {
    const room = Math.max(1, width - this.#indent);
    const margin = " ".repeat(this.#indent);
    const rendered = this.#markdownOn() ? this.#rendered(room) : [];
    const rows = this.#text.rows(room);
    // Trailing empty rows are the space before what comes next: drawn by that, not here.
    let end = rows.length;
    while (end > 0 && rows[end - 1].trim() === "") end--;
    const out = rendered.map((r) => margin + r);
    if (out.length && end > 0) out.push("");
    for (let i = 0; i < end; i++) out.push(margin + rows[i]);
    return out;
  }

  /** The complete blocks' rows at `width`: only blocks new since the last frame are drawn. */
  #rendered(width: number): string[] {
    let cache = this.#doneRows;
    if (!cache || cache.width !== width) cache = this.#doneRows = { width, count: 0, rows: [] };
    if (cache.count < this.#done.length) {
      const style = { hyperlinks: this.#markdown!.hyperlinks };
      const rows = renderTokens(this.#done.slice(cache.count), width, style);
      if (rows.length && cache.rows.length) cache.rows.push("");
      for (const r of rows) cache.rows.push(r);
      cache.count = this.#done.length;
    }
    return cache.rows;
  }
}

/** Thinking: dimmed while it streams; once the answer starts, one folded row. */
export class ThoughtBlock extends Block implements Foldable {
  #text = "";
  readonly #started: number;
  #ended: number | undefined;
  readonly #indent: number;
  folded = false;

  /** Thinking that starts now, drawn `indent` columns in. */
  constructor(now: number, indent = 0) {
    super();
    this.#started = now;
    this.#indent = indent;
  }

  /** Whether the answer started (the thought is folded). */
  get closed(): boolean {
    return this.#ended !== undefined;
  }

  get foldable(): boolean {
    return this.closed;
  }

  /** Adds streamed thinking. */
  append(text: string): void {
    this.#text += visible(text);
    this.changed();
  }

  /** The answer (or a call) started: the thought folds. */
  close(now: number): void {
    if (this.closed) return;
    this.#ended = now;
    this.folded = true;
    this.changed();
  }

  override foldAt(row: number): Foldable | undefined {
    // Its header and, unfolded, every row of its body, as a call's output: Enter or a click folds
    // it again after its header scrolled off.
    return this.closed && row >= 0 && row < this.rowsCount ? this : undefined;
  }

  protected draw(width: number, style: Style): string[] {
    const margin = " ".repeat(this.#indent);
    const room = Math.max(1, width - this.#indent - 3);
    const body = wrapText(this.#text.trim(), room).map((r) => margin + "   " + style.dim(r));
    if (!this.closed) return [margin + style.dim(fit("💭 thinking…", room + 3)), ...body];
    const words = this.#text.trim().split(/\s+/).filter((w) => w).length;
    const seconds = Math.max(1, Math.round((this.#ended! - this.#started) / 1000));
    const marker = this.folded ? "▸" : "▾";
    const head = `💭 thought for ${seconds}s (${words} words) ${marker}`;
    return [margin + style.dim(fit(head, width - this.#indent)), ...(this.folded ? [] : body)];
  }
}

/** Where a tool call is. */
export type CallStatus = "running" | "permission" | "question" | "done" | "failed";

/** The elapsed time of a call: `0.4s`, `12s`, `2m05s`. */
export function elapsedText(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/** What a call's output or change is, counted and ready to draw. */
interface Shown {
  lines: string[];
  /** The fold marker's count: `N lines`, or `+A −D` for a change. */
  count: string;
  /** A change: its lines are `+`, `-` or ` ` lines. */
  diff: boolean;
}

/**
 * One tool call: `‣ <tool>  <argument>`, its status (`…` `✓` `✗`), its time and a fold marker
 * (`▸ 14 lines`, `+3 −1` for a change); unfolded, its output dimmed and indented, capped with
 * `… N more lines`. An asked agent's steps are drawn under it, indented.
 */
export class ToolBlock extends Block implements Foldable {
  readonly id: string;
  /** The tool's name; an asked agent's call's whole title, which its hook's new input changes. */
  name: string;
  /** What the call's row shows after its name; a preToolCall hook's new input changes it. */
  summary: string;
  readonly kind: ToolKind;
  status: CallStatus = "running";
  folded = true;
  #started: number;
  #ended: number | undefined;
  #shown: Shown | undefined;
  readonly #indent: number;
  /** The steps of the agent this call asked (ask_agent, `/ask`), in order. */
  readonly nested: Block[] = [];
  /** The asked agent's own calls, by its ids. */
  readonly calls = new Map<string, ToolBlock>();

  /** A call that starts now; `indent` columns in when an asked agent makes it. */
  constructor(
    call: { id: string; name: string; summary: string; kind: ToolKind },
    now: number,
    indent = 0,
  ) {
    super();
    this.id = call.id;
    this.name = call.name;
    this.summary = call.summary;
    this.kind = call.kind;
    this.#started = now;
    this.#indent = indent;
  }

  /** The call runs with a new input (a preToolCall hook's): its row shows what runs. */
  retitle(summary: string): void {
    this.summary = summary;
    this.changed();
  }

  /** An asked agent's call titled anew (its own hook gave it a new input). */
  rename(name: string): void {
    this.name = name;
    this.changed();
  }

  /** Whether the call ended. */
  get ended(): boolean {
    return this.#ended !== undefined;
  }

  get foldable(): boolean {
    return (this.#shown?.lines.length ?? 0) > 0;
  }

  /** The call ended with `output` (what the front ends show of it) and maybe a change. */
  end(now: number, output: string | undefined, failed: boolean, diff?: FileDiff): void {
    this.#ended = now;
    this.status = failed ? "failed" : "done";
    this.#shown = shownOf(output, diff);
    this.changed();
  }

  /** Sets the status while the call waits (for permission, for an answer) or runs again. */
  wait(status: CallStatus, now = Date.now()): void {
    if (this.status === status) return;
    // A call runs once allowed: its time starts then.
    if (this.status === "permission" && status === "running") this.#started = now;
    this.status = status;
    this.changed();
  }

  /** Adds a step of the asked agent (a block) under the call. */
  addNested(block: Block): void {
    this.nested.push(block);
    this.changed();
  }

  override timeKey(now: number): string {
    if (this.ended) return "";
    // What a running call's time shows (tenths under 10 s, then seconds), and that of the asked
    // agent's calls drawn under it.
    const ms = now - this.#started;
    return ms < 10_000 ? String(Math.floor(ms / 100)) : `s${Math.floor(ms / 1000)}`;
  }

  override foldAt(row: number): Foldable | undefined {
    if (row === 0) return this.foldable ? this : undefined;
    const own = this.folded || !this.#shown ? 0 : this.#ownRows;
    let at = 1 + own;
    if (row < at) return this.foldable ? this : undefined;
    for (const block of this.nested) {
      const n = block.rowsCount;
      if (row < at + n) return block.foldAt(row - at);
      at += n;
    }
    return undefined;
  }

  /** The rows of the call's own output as last drawn. */
  #ownRows = 0;

  protected draw(width: number, style: Style, now: number): string[] {
    const margin = " ".repeat(this.#indent);
    const rows = [margin + this.#head(width - this.#indent, style, now)];
    const shown = this.#shown;
    this.#ownRows = 0;
    if (shown && !this.folded && shown.lines.length) {
      const room = width - this.#indent - 4;
      const cut = shown.lines.length > UNFOLDED_ROWS + 1 ? UNFOLDED_ROWS : shown.lines.length;
      for (const line of shown.lines.slice(0, cut)) {
        const text = fit(expandTabs(line), room);
        const drawn = !shown.diff
          ? style.dim(text)
          : line.startsWith("+")
          ? style.fg("green", text)
          : line.startsWith("-")
          ? style.fg("red", text)
          : style.dim(text);
        rows.push(margin + "    " + drawn);
      }
      if (cut < shown.lines.length) {
        rows.push(margin + "    " + style.dim(`… ${shown.lines.length - cut} more lines`));
      }
      this.#ownRows = rows.length - 1;
    }
    for (const block of this.nested) {
      const nested = block.rows(width, style, now);
      for (const r of nested) rows.push(r);
    }
    return rows;
  }

  /** `‣ <tool>  <argument>  <status> <time>  <fold marker>`, the argument cut to fit. */
  #head(width: number, style: Style, now: number): string {
    const time = elapsedText((this.#ended ?? now) - this.#started);
    const status = this.status === "permission"
      ? "… waiting for permission"
      : this.status === "question"
      ? "… waiting for your answer"
      : this.status === "running"
      ? `… ${time}`
      : this.status === "failed"
      ? `✗ ${time}`
      : `✓ ${time}`;
    const shown = this.#shown;
    const marker = shown && shown.lines.length ? `  ${this.folded ? "▸" : "▾"} ${shown.count}` : "";
    const tail = `  ${status}${marker}`;
    const name = `‣ ${this.name}`;
    const argument = visible(this.summary.split("\n")[0] ?? "") +
      (this.summary.includes("\n") ? " …" : "");
    const room = width - textWidth(name) - 2 - textWidth(tail);
    const arg = room > 3 ? fit(expandTabs(argument), room) : "";
    const statusStyled = this.status === "failed"
      ? style.fg("red", status)
      : this.status === "done"
      ? style.fg("green", status)
      : this.status === "running"
      ? style.dim(status)
      : style.fg("yellow", status);
    const head = fit(`${name}${arg ? "  " + arg : ""}`, Math.max(1, width - textWidth(tail)));
    const line = style.bold(name) + head.slice(name.length);
    return textWidth(head) + textWidth(tail) <= width
      ? `${line}  ${statusStyled}${marker ? style.dim(marker) : ""}`
      : fit(head + tail, width);
  }
}

/** The lines and the fold marker's count of a call's output, or of its change. */
function shownOf(output: string | undefined, diff: FileDiff | undefined): Shown | undefined {
  if (diff) {
    const d = diffHunks(diff.oldText ?? "", diff.newText);
    if (d) {
      const lines = d.hunks.flatMap((h: Hunk) => h.lines.filter((l) => !l.startsWith("\\")));
      return { lines, count: `+${d.added} −${d.deleted}`, diff: true };
    }
  }
  if (output === undefined) return undefined;
  const lines = visible(output).replace(/\n+$/, "").split("\n");
  if (lines.length === 1 && lines[0].trim() === "") return { lines: [], count: "", diff: false };
  return { lines, count: `${lines.length} line${lines.length === 1 ? "" : "s"}`, diff: false };
}

/** What a note is: its colour. */
export type NoteKind = "info" | "notice" | "warning" | "error" | "recap";

/** A one-line block of mm's own: a warning, a notice, an error, the recap, a command's answer. */
export class NoteBlock extends Block {
  readonly text: string;
  readonly kind: NoteKind;
  readonly #indent: number;

  /** A note of `kind`; `indent` columns in under an asked agent's call. */
  constructor(text: string, kind: NoteKind, indent = 0) {
    super();
    this.text = text;
    this.kind = kind;
    this.#indent = indent;
  }

  protected draw(width: number, style: Style): string[] {
    const margin = " ".repeat(this.#indent);
    const rows = wrapText(visible(this.text), Math.max(1, width - this.#indent));
    const paint = (r: string) =>
      this.kind === "warning"
        ? style.fg("yellow", r)
        : this.kind === "error"
        ? style.fg("red", r)
        : this.kind === "info"
        ? r
        : style.dim(r);
    return rows.map((r) => margin + paint(r));
  }
}

/** The row that names an asked agent above its answer: `‣ mm <title>`. */
export class AgentLabelBlock extends Block {
  readonly #label: string;
  readonly #indent: number;

  /** The label of the agent titled `title`, `indent` columns in. */
  constructor(title: string, indent: number) {
    super();
    this.#label = `‣ mm ${title}`;
    this.#indent = indent;
  }

  protected draw(width: number, style: Style): string[] {
    return [" ".repeat(this.#indent) + style.bold(fit(this.#label, width - this.#indent))];
  }
}

/** `text` padded to the width, so reverse video covers the whole row. */
export function fullRow(text: string, width: number): string {
  return pad(fit(text, width), width);
}
