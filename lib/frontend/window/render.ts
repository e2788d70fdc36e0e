/**
 * What the window draws and when: the conversation, the input, the question being asked and the
 * status line, composed into a frame at most every {@linkcode FRAME_MS} ms (never per token) and
 * written by the frame writer. The terminal and the keys are window.ts's; this part only needs a
 * way to write and a size, so the benchmark drives it through the real event path without one.
 */

import type { PermissionAnswer } from "../../permissions/prompt.ts";
import type { AskOutcome, Counter } from "../../tool.ts";
import { elapsedText } from "./blocks.ts";
import { Conversation } from "./conversation.ts";
import { EventView, usageStatus } from "./events.ts";
import type { AskForm } from "./form.ts";
import { InputEditor } from "./input.ts";
import { inputRowsMax, layout, type Overlay, type StatusParts } from "./layout.ts";
import type { PermissionBox } from "./permission.ts";
import { type Frame, FrameWriter } from "./screen.ts";
import { Style } from "./style.ts";
import type { History } from "../terminal/history.ts";
import { type Lexer, loadLexer } from "../terminal/markdown.ts";
import { TextBlock, type TextMarkdown } from "./blocks.ts";

/** At most one frame per this many milliseconds. */
export const FRAME_MS = 16;

/** The spinner's frames. */
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The hint shown the first time a drag is seen (wrapped on the status line when it is longer). */
export const DRAG_HINT =
  "to select text, hold Shift (Option on macOS) while dragging — or press F2 to give the mouse to the terminal";

/** What the status line starts with while plan mode is on. */
export const PLAN_STATUS = "plan (Shift+Tab ends)";

/** The status line when nothing runs. */
export const IDLE_HINT = "Enter send · Alt-Enter new line · PgUp/PgDn scroll · /help · Ctrl-D quit";

/** The recap counters' signs on the status line. */
const COUNTER_SIGNS: Record<Counter, string> = {
  commands: "⚙",
  fileOps: "📝",
  skills: "📖",
  lsp: "🔎",
};

/** What the window asks the user now: a permission, a form. */
export type Asking =
  | { kind: "permission"; box: PermissionBox; answer(a: PermissionAnswer): void }
  | { kind: "form"; form: AskForm; answer(a: AskOutcome): void };

/** The status line while keys typed go to the input though a box or form is up. */
export const TYPING_AHEAD_HINT = "your keys go to the input · Tab answers the box · Esc refuses";

/** How the screen reaches its terminal. */
export interface ScreenIO {
  /** Writes one frame's bytes. */
  write(bytes: string): void;
  /** The terminal's size now. */
  size(): { columns: number; rows: number };
  /** Whether the terminal is the window's now (not suspended, not left). */
  up(): boolean;
}

/** Everything the window draws, and its frames. */
export class WindowScreen {
  readonly style: Style;
  readonly conversation: Conversation;
  readonly view: EventView;
  readonly input: InputEditor;
  readonly writer: FrameWriter;
  /** The header's text (another while an asked agent works: see `askedHeader`). */
  header = "";
  /** The header while agent `name` works. */
  askedHeader: (name: string) => string = (name) => name;
  /** The question being asked, if any. */
  asking: Asking | undefined;
  /** Keys typed while the box or form is up go to the input (the user was typing): said so. */
  typingAhead = false;
  /** A hint over the status line (the drag hint, "Ctrl-C again…"), until the next key. */
  hint: string | undefined;
  /** When the running turn started; undefined when none runs. */
  turnStarted: number | undefined;
  /** Prompts typed during the turn, waiting for it to end. */
  queued = 0;
  /** Said on the status line's right when nothing else is (the mouse given to the terminal). */
  notice = "";
  /** Plan mode is on: the status line starts with `plan` (Shift+Tab, /plan). */
  plan = false;
  /** How long each frame took to compose and write, in ms (the benchmark reads them). */
  readonly frameTimes: number[] = [];
  /** Bytes written, all frames together. */
  written = 0;
  readonly #io: ScreenIO;
  readonly #now: () => number;
  #frameDue = false;
  #lastFrame = 0;
  #ticker: ReturnType<typeof setInterval> | undefined;
  #spin = 0;

  /**
   * A screen drawing through `io`, in colour unless `colour` is false; `counterOf` names a tool's
   * recap counter, `titleOf` an asked agent's title; `history` is what ↑ browses.
   */
  constructor(
    io: ScreenIO,
    opts: {
      colour: boolean;
      counterOf: (tool: string) => Counter | undefined;
      titleOf: (agent: string) => string;
      history?: History;
      /** The clock of the calls' and the turn's times (the frame tests set their own). */
      now?: () => number;
      /**
       * The answer drawn as Markdown (with colour only): links as OSC 8 hyperlinks or not; the
       * lexer is loaded with the first answer, or given (the frame tests, the benchmark).
       */
      markdown?: { hyperlinks: boolean; lexer?: Lexer };
    },
  ) {
    this.#io = io;
    this.#now = opts.now ?? Date.now;
    this.style = new Style(opts.colour);
    this.conversation = new Conversation(this.style, this.#now);
    const markdown = opts.colour && opts.markdown ? this.#markdown(opts.markdown) : undefined;
    this.view = new EventView(this.conversation, { ...opts, markdown });
    this.view.onChange = () => this.requestFrame();
    this.input = new InputEditor(opts.history);
    this.writer = new FrameWriter((bytes) => {
      this.written += bytes.length;
      io.write(bytes);
    });
  }

  /** Markdown for the answers' blocks: marked's lexer loaded when the first one asks for it. */
  #markdown(opts: { hyperlinks: boolean; lexer?: Lexer }): TextMarkdown {
    let lexer = opts.lexer;
    let loading = false;
    return {
      hyperlinks: opts.hyperlinks,
      lexer: () => {
        if (lexer || loading) return lexer;
        loading = true;
        loadLexer().then((l) => {
          lexer = l;
          // The texts drawn before it came are drawn again, rendered.
          for (const b of this.conversation.blocks) if (b instanceof TextBlock) b.changed();
          this.requestFrame();
        }, () => {});
        return undefined;
      },
    };
  }

  /** Asks for a frame: drawn at once when the last one is older than FRAME_MS, else then. */
  requestFrame(): void {
    if (this.#frameDue) return;
    this.#frameDue = true;
    const wait = Math.max(0, this.#lastFrame + FRAME_MS - performance.now());
    setTimeout(() => {
      this.#frameDue = false;
      this.frame();
    }, wait);
  }

  /** Draws a frame now. */
  frame(): void {
    if (!this.#io.up()) return;
    const start = performance.now();
    this.#lastFrame = start;
    const { columns, rows } = this.#io.size();
    this.writer.resize(columns);
    this.writer.draw(this.compose(columns, rows));
    this.frameTimes.push(performance.now() - start);
  }

  /** The next frame redraws the whole screen. */
  invalidate(): void {
    this.writer.invalidate();
    this.requestFrame();
  }

  /** Starts the spinner (a frame every 100 ms while a turn runs). */
  startTicker(): void {
    if (this.#ticker !== undefined) return;
    this.#ticker = setInterval(() => {
      this.#spin++;
      this.requestFrame();
    }, 100);
  }

  /** Stops the spinner. */
  stopTicker(): void {
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }

  /** The frame of a `columns` × `rows` terminal. */
  compose(columns: number, rows: number): Frame {
    const style = this.style;
    const asking = this.asking;
    const inputMax = inputRowsMax(rows);
    let input = this.input.rows(columns, inputMax);
    let overlay: ((room: number) => Overlay) | undefined;
    if (asking?.kind === "form") {
      const form = asking.form;
      const question = form.questionRows(columns, style, inputMax);
      input = { rows: question.rows, row: question.caret.row, col: question.caret.col };
      overlay = (room) => ({ rows: form.optionRows(columns, style, room) });
    } else if (asking?.kind === "permission") {
      const box = asking.box;
      overlay = (room) => box.rows(columns, style, room);
    }
    return layout({
      columns,
      rows,
      style,
      header: this.view.asking ? this.askedHeader(this.view.asking) : this.header,
      conversation: this.conversation,
      status: this.#status(columns),
      input,
      overlay,
    });
  }

  /** The status line, after `plan ·` while plan mode is on. */
  #status(columns: number): StatusParts {
    const status = this.#statusNow(columns);
    return this.plan ? { ...status, left: `${PLAN_STATUS} · ${status.left}` } : status;
  }

  /** The status line: the spinner and counters while a turn runs, else hints. */
  #statusNow(columns: number): StatusParts {
    const style = this.style;
    const fresh = this.conversation.newRows(columns);
    const right = fresh > 0
      ? style.bold(`↓ ${fresh} new line${fresh === 1 ? "" : "s"}`)
      : style.dim(this.notice);
    const dim = (t: string) => style.dim(t);
    const asking = this.asking;
    if (asking && this.typingAhead) {
      const queued = this.queued ? ` · ${this.queued} queued` : "";
      const left = `${TYPING_AHEAD_HINT}${queued}`;
      return { left, paint: (t) => style.fg("yellow", t), right, wrap: true };
    }
    if (asking?.kind === "form") return { left: asking.form.hint(), paint: dim, right, wrap: true };
    if (asking?.kind === "permission") {
      // What is queued is still said: the user typed it while the box was coming.
      const queued = this.queued ? ` · ${this.queued} queued` : "";
      return {
        left: `🔐 waiting for your permission${queued}`,
        paint: (t) => style.fg("yellow", t),
        right,
      };
    }
    if (this.hint) return { left: this.hint, paint: dim, right, wrap: true };
    if (this.turnStarted !== undefined) {
      const counters = (Object.entries(this.view.counters) as [Counter, number][])
        .filter(([, n]) => n > 0);
      const parts = [
        `${SPINNER[this.#spin % SPINNER.length]} ${this.view.busy ?? "Working"}…`,
        elapsedText(this.#now() - this.turnStarted),
        ...counters.map(([k, n]) => `${COUNTER_SIGNS[k]} ${n}`),
        usageStatus(this.view.usage),
        ...(this.queued ? [`${this.queued} queued`] : []),
        "Esc cancels",
      ];
      return { left: parts.filter(Boolean).join(" · "), paint: dim, right };
    }
    return { left: IDLE_HINT, paint: dim, right };
  }
}
