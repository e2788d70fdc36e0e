/**
 * Line mode's rendering of a turn's events: streamed text, folded thinking, tool lines, the recap.
 * What a model or a tool wrote is drawn through {@linkcode visible}: it never moves the cursor,
 * clears the screen or retitles the window.
 */

import { type AgentEvent, recapWithUsage } from "../../agent/mod.ts";
import { errorLine } from "../../presentation.ts";
import { hookInputLine, previewLines, toolLine } from "../terminal/display.ts";
import { endsCall, indented, NestedTitles, nestedToolLine } from "../terminal/nested_lines.ts";
import type { NestedEvent } from "../../tool.ts";
import type { Spinner } from "./spinner.ts";
import { visible } from "../terminal/visible.ts";
import { type Lexer, MarkdownStream, renderTokens } from "../terminal/markdown.ts";

/** Where the renderer writes, and how wide and colourful it may be. */
export interface Screen {
  write(text: string): void;
  width(): number;
  colour: boolean;
}

/**
 * The answer drawn as Markdown (terminal/markdown.ts): marked's lexer, loaded on the first answer,
 * and whether links are OSC 8 hyperlinks. Line mode draws it only on a terminal with colour.
 */
export interface LineMarkdown {
  load(): Promise<Lexer>;
  hyperlinks: boolean;
}

/** Renders the events of turns on a terminal, one event at a time. */
export class LineRenderer {
  #screen: Screen;
  #spinner: Spinner;
  /** An asked agent's call titles: a change is its hook's new input. */
  #titles = new NestedTitles();
  #previewLines: number;
  #atLineStart = true;
  #thought = "";
  #thoughtStart = 0;
  readonly #markdown: LineMarkdown | undefined;
  #lexer: Lexer | undefined;
  #loading = false;
  #stream: MarkdownStream | undefined;
  /** The answer's text held while the lexer loads. */
  #held = "";
  /** Whether a block of the answer's text was drawn since its last other line (a gap goes first). */
  #drewBlock = false;

  /**
   * A renderer showing up to `previewLines` lines of each tool's output; with `markdown`, the
   * answer's text is drawn as Markdown, a block once complete (the one streaming is held).
   */
  constructor(screen: Screen, spinner: Spinner, previewLines: number, markdown?: LineMarkdown) {
    this.#screen = screen;
    this.#spinner = spinner;
    this.#previewLines = previewLines;
    this.#markdown = markdown;
  }

  /**
   * Loads marked's lexer when the answer is drawn as Markdown (before a turn: the first one waits
   * for the import, about 50 ms, the others not at all). Without it the answer is drawn as it came.
   */
  async ready(): Promise<void> {
    if (!this.#markdown || this.#lexer) return;
    try {
      this.#lexer = await this.#markdown.load();
    } catch {
      // Not loaded (the package could not be fetched): the text as it is.
    }
  }

  /** `text` dimmed when colour is on. */
  dim(text: string): string {
    return this.#screen.colour ? `\x1b[2m${text}\x1b[22m` : text;
  }

  /** Writes `text`, remembering whether the cursor is at the start of a line. */
  write(text: string): void {
    if (!text) return;
    this.#screen.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  /** Starts a new line unless the cursor is already at the start of one. */
  newline(): void {
    if (!this.#atLineStart) this.write("\n");
  }

  /** Writes one whole line of mm's own (a warning, a command's answer). */
  line(text: string): void {
    this.#endMarkdown();
    this.#spinner.stop();
    this.#closeThought();
    this.newline();
    this.write(text + "\n");
  }

  /** Renders one event of a turn. */
  handle(e: AgentEvent): void {
    switch (e.type) {
      case "turn_start":
        this.#spinner.show("Thinking");
        break;
      case "thought":
        this.#think(e.text);
        break;
      case "text":
        this.#spinner.stop();
        this.#closeThought();
        if (this.#markdown) this.#markdownText(visible(e.text));
        else this.write(visible(e.text));
        break;
      case "composing":
        this.#endMarkdown();
        this.#closeThought();
        this.newline();
        this.#spinner.show("Composing a tool call");
        break;
      case "tool_call":
        this.#endMarkdown();
        this.#spinner.stop();
        this.#closeThought();
        this.newline();
        // A call that will ask is shown by its 🔐 line alone (line.ts), not twice.
        if (e.asks) break;
        this.write(toolLine(e.emoji, e.name, e.summary) + "\n");
        if (e.name === "fetch_content") this.#spinner.show("Fetching");
        break;
      case "tool_input":
        this.#spinner.stop();
        this.newline();
        this.write(hookInputLine(e.name, e.summary) + "\n");
        break;
      case "tool_result":
        this.#spinner.stop();
        this.#closeThought();
        this.newline();
        this.#preview(e.preview === false ? undefined : e.display ?? e.output);
        this.#spinner.show("Thinking");
        break;
      case "nested":
        this.#endMarkdown();
        this.nested(e.event);
        break;
      case "warning":
        this.line(visible(e.message));
        break;
      case "notice":
        this.line(this.dim(visible(e.message)));
        this.#spinner.show("Thinking");
        break;
      case "recap": {
        this.#endMarkdown();
        this.#spinner.stop();
        this.#closeThought();
        this.newline();
        const recap = recapWithUsage(e.counters, e.usage);
        if (recap) this.write(this.dim(recap) + "\n");
        break;
      }
      case "answer":
        this.#endMarkdown();
        this.#spinner.stop();
        this.newline();
        break;
      case "error":
        this.line(visible(errorLine(e.message, e.kind)));
        break;
    }
  }

  /**
   * Renders a step of an asked agent (ask_agent, `/ask`): its text indented, its thinking folded,
   * its calls as `<emoji> <agent> · <title>` lines with their output's preview.
   */
  nested(e: NestedEvent): void {
    if (e.type === "thought") {
      this.#think(e.text);
      return;
    }
    this.#spinner.stop();
    this.#closeThought();
    const changed = this.#titles.line(e);
    if (changed) {
      this.newline();
      this.write(changed + "\n");
    }
    if (e.type === "text") this.write(indented(visible(e.text), this.#atLineStart));
    else if (e.type === "tool_call") {
      this.newline();
      this.write(nestedToolLine(e) + "\n");
    } else if (endsCall(e)) {
      this.newline();
      this.#preview(e.output);
    }
  }

  /** Ends the turn's drawing: no spinner, no open thought, the cursor at a line start. */
  finish(): void {
    this.#endMarkdown();
    this.#spinner.stop();
    this.#closeThought();
    this.newline();
  }

  /** A tool's output as the preview under its line (`/ask` shows its result this way). */
  preview(output: string): void {
    this.#spinner.stop();
    this.#closeThought();
    this.newline();
    this.#preview(output);
  }

  /** The answer's streamed text: its complete blocks drawn, the last one held. */
  #markdownText(text: string): void {
    if (!this.#lexer) {
      this.#held += text;
      if (!this.#loading) {
        this.#loading = true;
        this.#markdown!.load().then((lexer) => {
          this.#lexer = lexer;
          const held = this.#held;
          this.#held = "";
          if (held) this.#markdownText(held);
        }, () => {
          // No lexer (the package could not be loaded): the answer is drawn as it came.
          this.#loading = false;
        });
      }
      return;
    }
    this.#stream ??= new MarkdownStream(this.#lexer);
    this.#drawBlocks(this.#stream.append(text));
  }

  /** The answer's text ended (a call, a line of mm's own, the turn's end): what is held is drawn. */
  #endMarkdown(): void {
    if (this.#held) {
      this.#closeThought();
      this.write(this.#held);
      this.#held = "";
    }
    if (this.#stream) this.#drawBlocks(this.#stream.end());
    this.#stream = undefined;
    this.#drewBlock = false;
  }

  /** Blocks of the answer drawn at the terminal's width, an empty row between two. */
  #drawBlocks(tokens: ReturnType<MarkdownStream["end"]>): void {
    if (tokens.length === 0) return;
    const rows = renderTokens(tokens, this.#screen.width(), {
      hyperlinks: this.#markdown!.hyperlinks,
    });
    if (rows.length === 0) return;
    this.newline();
    this.write((this.#drewBlock ? "\n" : "") + rows.join("\n") + "\n");
    this.#drewBlock = true;
  }

  /** Up to `previewLines` lines of `output`, dimmed and cut to the width; nothing when undefined. */
  #preview(output: string | undefined): void {
    if (output === undefined) return;
    for (const l of previewLines(output, this.#previewLines)) {
      this.write(this.dim(this.#fit(l)) + "\n");
    }
  }

  /** A piece of thinking, added to the folded line. */
  #think(text: string): void {
    this.#spinner.stop();
    if (!this.#thought) this.#thoughtStart = Date.now();
    this.#thought += visible(text);
    this.#drawThought();
  }

  /** The thinking so far, folded on one dimmed line that is redrawn in place. */
  #drawThought(): void {
    const flat = this.#thought.replace(/\s+/g, " ").trim();
    const room = Math.max(10, this.#screen.width() - 4);
    const shown = flat.length > room ? "…" + flat.slice(flat.length - room + 1) : flat;
    this.#screen.write(`\r\x1b[2K${this.dim(`💭 ${shown}`)}`);
    this.#atLineStart = false;
  }

  /** Replaces the folded thinking by one line saying how long it took. */
  #closeThought(): void {
    if (!this.#thought) return;
    const words = this.#thought.trim().split(/\s+/).length;
    const seconds = Math.max(1, Math.round((Date.now() - this.#thoughtStart) / 1000));
    this.#screen.write(`\r\x1b[2K${this.dim(`💭 thought for ${seconds}s (${words} words)`)}\n`);
    this.#atLineStart = true;
    this.#thought = "";
  }

  /** A line cut to the terminal's width, so a preview never wraps. */
  #fit(line: string): string {
    const width = this.#screen.width();
    return [...line].length > width ? [...line].slice(0, width - 1).join("") + "…" : line;
  }
}
