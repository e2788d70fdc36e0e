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

/** Where the renderer writes, and how wide and colourful it may be. */
export interface Screen {
  write(text: string): void;
  width(): number;
  colour: boolean;
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

  /** A renderer showing up to `previewLines` lines of each tool's output. */
  constructor(screen: Screen, spinner: Spinner, previewLines: number) {
    this.#screen = screen;
    this.#spinner = spinner;
    this.#previewLines = previewLines;
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
        this.write(visible(e.text));
        break;
      case "composing":
        this.#closeThought();
        this.newline();
        this.#spinner.show("Composing a tool call");
        break;
      case "tool_call":
        this.#spinner.stop();
        this.#closeThought();
        this.newline();
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
        this.#spinner.stop();
        this.#closeThought();
        this.newline();
        const recap = recapWithUsage(e.counters, e.usage);
        if (recap) this.write(this.dim(recap) + "\n");
        break;
      }
      case "answer":
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
