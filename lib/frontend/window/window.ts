/**
 * Window mode (`mm -tui`): the full-screen conversation. A renderer (the blocks, the layout, the
 * frame writer) and an input loop over the shared start-up (lib/frontend/start.ts); everything the
 * agent does comes as its events, `/ask` goes through `agent.runCommand`, a turn's end is its
 * `TurnOutcome`. docs/window-mode.md says what the user sees and types.
 */

import { completers, mentionCompleter, modelCompleter, PathIndex } from "../terminal/complete.ts";
import {
  type Agent,
  type CommandOutcome,
  Conversation,
  findCommand,
  outcomeLines,
  parseCommand,
  RESUME_OFF_AT_START,
  sessionLines,
  type SlashCommand,
} from "../../agent/mod.ts";
import type { Config } from "../../config/config.ts";
import type { Message } from "../../history.ts";
import type { AskedBy, PermissionAnswer } from "../../permissions/prompt.ts";
import { sessionRuleText } from "../../permissions/rules.ts";
import type { AskOutcome, Question } from "../../tool.ts";
import { lspBannerLine } from "../../../tools/mod.ts";
import { eventLines } from "../../mcp/status.ts";
import { start, type Started } from "../start.ts";
import { banner } from "../terminal/banner.ts";
import { changeLines } from "../terminal/display.ts";
import { History } from "../terminal/history.ts";
import { type Key, type MouseKey, readKeys } from "../terminal/keys.ts";
import { writeAll } from "../terminal/output.ts";
import { hyperlinksSupported } from "../terminal/markdown.ts";
import { AskForm } from "./form.ts";
import type { PickEntry } from "../../session/list.ts";
import { MIN_COLUMNS, MIN_ROWS } from "./layout.ts";
import { boxOpened, boxRedrawn, type Focus, IDLE, routeKey, typingAhead } from "./focus.ts";
import { PermissionBox } from "./permission.ts";
import { DRAG_HINT, WindowScreen } from "./render.ts";
import { guardExits, suspend, WindowTerminal } from "./terminal.ts";
import { QUIT_SIGNALS, RunStop } from "../exit.ts";
import { Notifier, notifyAfter } from "../terminal/notify.ts";

/** What window mode needs. */
export interface WindowOptions {
  config: Config;
  cwd: string;
  continueLatest?: boolean;
  sessionId?: string;
  /** `--model` was given: it wins over a resumed session's model. */
  modelFlag?: boolean;
  /** `mm -r -tui`: the session picker first. */
  resume?: boolean;
  /** Report the mouse (off with `--no-mouse` or `window.mouse: false`). */
  mouse: boolean;
}

/** What the status line says when a cancel put the queued prompts back in the input. */
export const QUEUE_BACK_HINT =
  "turn cancelled: the prompts queued are back in the input (Enter sends)";

/** How soon a second Esc on an empty input opens the turn list (ms). */
export const ESC_ESC_MS = 600;

/** The picker's question for `mm -r` and `/resume`. */
export const PICK_SESSION = "Resume which session? (newest first)";

/** The turn list's question (Esc Esc, `/rewind`). */
export const PICK_TURN = "Rewind to which turn? (it and every later one are taken back)";

/**
 * The rewind list's options: `/rewind`'s lines without their turn number where the form's own
 * numbering (`1.`, `2.`…) says the same, so no number is shown twice (`❯ 1. 00:41  first …`).
 */
export function turnOptions(turns: readonly { turn: number; line: string }[]): string[] {
  return turns.map((t, i) => {
    const line = t.line.trim();
    return t.turn === i + 1 ? line.replace(/^\d+\s+/, "") : line;
  });
}

/** What Esc at `mm -r`'s picker says. */
export const PICK_NEW = "(none chosen: a new conversation)";

/** What `mm -r` says when this directory has no earlier session. */
export const NO_SESSIONS_AT_START =
  "no earlier session in this directory: a new conversation starts";

/** The lines `/help` adds about the window's keys. */
const KEY_HELP = [
  "Keys:",
  "  Enter send · Shift-Enter, Alt-Enter, Ctrl-J or a trailing \\ new line · ↑↓ history",
  "  Esc or Ctrl-C cancel a turn · Ctrl-D or /quit leave · Ctrl-Z suspend · Shift+Tab plan mode",
  "  Esc Esc (empty input) the turns, to rewind one",
  "  PgUp PgDn Shift-↑↓ the wheel scroll · Home End (empty input) top, end",
  "  Enter on an empty input or a click folds and unfolds a call · F2 mouse to the terminal",
];

/** Runs window mode until the user quits; returns the exit code. */
export async function runWindowMode(opts: WindowOptions): Promise<number> {
  const window = new Window(opts);
  return await window.run();
}

/** The window: its terminal, its conversation, its input, and the agent it drives. */
class Window {
  readonly #opts: WindowOptions;
  readonly #terminal: WindowTerminal;
  readonly #screen: WindowScreen;
  readonly #history: History;
  #begun: Started | undefined;
  #conversation: Conversation | undefined;
  #turn: AbortController | undefined;
  #queue: string[] = [];
  #quitAfterTurn = false;
  #quit: (() => void) | undefined;
  #interrupted = false;
  /** Whose the keys are while a box or form is up (./focus.ts). */
  #focus: Focus = IDLE;
  #dragHinted = false;
  #press: MouseKey | undefined;
  #printed = false;
  /** When Esc was last pressed on an empty, idle input (Esc Esc opens the turn list). */
  #escAt = 0;
  /** The bell after a long turn and at a box or form (`notify: bell`, on a terminal). */
  readonly #notifier: Notifier;

  constructor(opts: WindowOptions) {
    this.#opts = opts;
    this.#terminal = new WindowTerminal({ mouse: opts.mouse });
    this.#history = new History(History.defaultPath(Deno.env.toObject()));
    this.#screen = new WindowScreen({
      write: (bytes) => writeAll(Deno.stdout, bytes),
      size: () => this.#size(),
      up: () => this.#terminal.up,
    }, {
      colour: !Deno.env.get("NO_COLOR"),
      markdown: { hyperlinks: hyperlinksSupported(Deno.env.toObject()) },
      counterOf: (tool) => this.#begun?.tools.find((t) => t.name === tool)?.counter,
      titleOf: (agent) => this.#agentTitle(agent),
      history: this.#history,
    });
    this.#screen.header = headerText(opts.config, opts.config.model ?? "…");
    this.#screen.askedHeader = (agent) => this.#askedHeader(agent);
    this.#notifier = new Notifier({
      enabled: opts.config.notify === "bell" && Deno.stdout.isTerminal(),
      write: (bytes) => {
        try {
          writeAll(Deno.stdout, bytes);
        } catch {
          // A terminal gone: nobody to ring for.
        }
      },
      after: notifyAfter(Deno.env.toObject()),
    });
  }

  async run(): Promise<number> {
    await this.#history.load();
    // SIGTERM, SIGHUP and SIGQUIT cancel the turn (its command's group killed), which saves it,
    // then leave with 128 + the signal's number (lib/frontend/exit.ts).
    const stop = new RunStop(QUIT_SIGNALS);
    stop.signal.addEventListener("abort", () => {
      this.#quitAfterTurn = true;
      if (this.#turn) this.#turn.abort();
      else this.#quitNow();
    }, { once: true });
    const guard = guardExits(() => this.#leave(), undefined, []);
    const signals: [Deno.Signal, () => void][] = [
      ["SIGWINCH", () => this.#resized()],
      ["SIGINT", () => this.#cancel()],
      ["SIGTSTP", () => this.#suspend()],
      ["SIGCONT", () => this.#resume()],
    ];
    for (const [s, f] of signals) Deno.addSignalListener(s, f);
    this.#terminal.enter();
    const stopKeys = readKeys((key) => this.#key(key));
    this.#screen.hint = "starting…";
    this.#screen.requestFrame();
    try {
      const warnings: string[] = [];
      // The MCP servers' lines come under the banner, then as they come.
      const early: { text: string; warning: boolean }[] = [];
      let mcpLine = (l: { text: string; warning: boolean }) => void early.push(l);
      const begun = await start({
        ...this.#opts,
        runWarning: (w) => warnings.push(w),
        sessionWarning: (w) => warnings.push(w),
        mcpEvent: (event) => {
          for (const l of eventLines(event)) mcpLine(l);
        },
      });
      if (!begun.ok) {
        this.#leave(false);
        writeAll(Deno.stderr, `mm: ${begun.error}\n`);
        return 1;
      }
      this.#begun = begun;
      this.#screen.header = headerText(this.#opts.config, begun.model);
      const models = begun.models();
      const input = this.#screen.input;
      input.completer = completers(
        mentionCompleter(new PathIndex(begun.cwd)),
        modelCompleter(models.cached),
      );
      input.onCompleted = () => this.#screen.requestFrame();
      this.#conversation = new Conversation({
        config: this.#opts.config,
        cwd: begun.cwd,
        tools: begun.tools,
        agent: (earlier) => this.#newAgent(earlier),
        newSession: async () => {
          await begun.newSession();
          return begun.recorder?.session.id;
        },
        session: () => begun.recorder?.session.id,
        resumeSession: async (id) => {
          for (const w of await begun.resumeSession(id)) this.#screen.view.note(w, "warning");
        },
        emit: (e) => this.#screen.view.handle(e),
        models: {
          ...models,
          switchTo: async (name) => {
            await models.switchTo(name);
            this.#screen.header = headerText(this.#opts.config, name);
          },
        },
      });
      this.#welcome(begun, warnings);
      mcpLine = (l) => {
        this.#screen.view.note(l.text, l.warning ? "warning" : "notice");
        this.#screen.requestFrame();
      };
      for (const l of early) mcpLine(l);
      this.#screen.hint = undefined;
      this.#screen.requestFrame();
      if (this.#opts.resume) {
        this.#resumeAtStart().catch((e) => this.#screen.view.note(`mm: ${e.message}`, "error"));
      }
      await new Promise<void>((resolve) => {
        this.#quit = resolve;
        if (stop.reason) resolve();
      });
      return stop.exitCode ?? 0;
    } finally {
      stop.dispose();
      stopKeys();
      this.#screen.stopTicker();
      this.#turn?.abort();
      this.#leave();
      guard.release();
      for (const [s, f] of signals) Deno.removeSignalListener(s, f);
      await this.#begun?.close();
    }
  }

  /** The agent of this window, over `earlier` messages (the session's unless told). */
  #newAgent(earlier?: { message: Message; turn: number }[]): Agent {
    return this.#begun!.agent({
      askPermission: (tool, summary, _input, askedBy, change, always) =>
        this.#askPermission(
          tool,
          // A file change is seen before it is allowed: its diff under the call, in the box.
          change ? [summary, ...changeLines(change)].join("\n") : summary,
          askedBy,
          always,
        ),
      emit: (e) => this.#screen.view.handle(e),
      warn: (w) => this.#screen.view.note(w, "warning"),
      ask: (questions, signal) => this.#ask(questions, signal),
      warm: true,
    }, earlier);
  }

  /** The banner, the language servers' line, the start-up's warnings, the continued session. */
  #welcome(begun: Started, warnings: string[]): void {
    const { config } = this.#opts;
    const text = banner(
      config,
      begun.model,
      begun.tools.map((t) => t.name),
      begun.recorder,
      begun.chat.plan,
      begun.instructions,
    ).trimEnd();
    this.#screen.view.note(text, "notice");
    const lsp = lspBannerLine(config, begun.run.lspServers);
    if (lsp) this.#screen.view.note(lsp, "notice");
    for (const w of warnings) this.#screen.view.note(w, "warning");
    const history = this.#conversation!.agent.history;
    if (history.length > 1) {
      this.#screen.view.replay(history.slice(1), begun.tools);
      this.#screen.view.note(`(continuing: ${history.length - 1} earlier message(s))`, "notice");
    }
  }

  /** Gives the terminal back and prints the conversation to the main screen (once). */
  #leave(print = true): void {
    if (!this.#terminal.up) return;
    this.#terminal.leave();
    if (!print || this.#printed) return;
    this.#printed = true;
    let columns = 80;
    try {
      columns = Deno.consoleSize().columns;
    } catch {
      // Not a terminal any more.
    }
    try {
      const rows = this.#screen.conversation.allRows(columns);
      if (rows.length) writeAll(Deno.stdout, rows.join("\n") + "\n");
    } catch {
      // The terminal is gone: nothing to print on.
    }
  }

  #suspend(): void {
    if (!this.#terminal.up) return;
    suspend(() => this.#terminal.leave());
  }

  #resume(): void {
    if (this.#terminal.up || this.#printed) return;
    this.#terminal.enter();
    this.#screen.invalidate();
  }

  // --- keys ---

  #key(key: Key): void {
    try {
      this.#onKey(key);
    } finally {
      this.#screen.requestFrame();
    }
  }

  #onKey(key: Key): void {
    if (key.name !== "mouse") this.#notifier.typed();
    if (key.name !== "ctrl-c") this.#interrupted = false;
    // Nothing can be read in a window too small to draw: only the keys that stop or leave act.
    const { columns, rows } = this.#size();
    const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
    const asking = this.#screen.asking;
    // Who gets the key (./focus.ts): a letter of a word being typed never answers the box.
    const { focus, route } = routeKey(this.#focus, key.name, Date.now(), {
      asking: asking !== undefined,
      tooSmall,
    });
    this.#setFocus(focus);
    if (route === "ignored" || route === "focus") return;
    // A picker (no turn runs): Ctrl-C declines it, Ctrl-D declines it and leaves.
    if ((route === "cancel" || route === "leave") && asking?.kind === "form" && !this.#turn) {
      asking.answer({ kind: "declined" });
      if (route === "leave") this.#quitNow();
      return;
    }
    if (route === "cancel") return this.#cancel();
    if (route === "leave") {
      this.#quitAfterTurn = true;
      return this.#cancel();
    }
    if (key.name === "mouse") return this.#mouse(key);
    if (key.name === "f2") {
      this.#terminal.setMouse(!this.#terminal.mouse);
      this.#screen.hint = undefined;
      this.#screen.notice = this.#terminal.mouse ? "" : "mouse: the terminal's (F2 takes it back)";
      return;
    }
    if (key.name === "ctrl-z") return this.#suspend();
    if (key.name === "ctrl-l") return this.#screen.invalidate();
    // A call longer than the box scrolls in it: its keys are the box's first.
    if (asking?.kind === "permission" && focus.box && asking.box.scroll(key)) return;
    if (this.#scrollKey(key)) return;
    if (asking && route === "box") {
      if (asking.kind === "form") {
        const outcome = asking.form.handle(key);
        if (outcome) asking.answer(outcome);
      } else {
        const outcome = asking.box.handle(key);
        if (outcome?.kind === "cancel") {
          asking.answer({ kind: "reject" });
          this.#cancel();
        } else if (outcome) asking.answer(outcome.answer);
      }
      return;
    }
    this.#screen.hint = undefined;
    switch (key.name) {
      case "shift-tab":
        this.#togglePlan();
        return;
      case "escape": {
        if (this.#turn) return this.#cancel();
        // Esc Esc on an empty input: the turns to rewind (as `/rewind` without N).
        const now = Date.now();
        if (this.#screen.input.empty && now - this.#escAt <= ESC_ESC_MS) {
          this.#escAt = 0;
          this.#command(undefined, { name: "/rewind", args: "" });
          return;
        }
        this.#escAt = this.#screen.input.empty ? now : 0;
        this.#screen.input.clear();
        return;
      }
      case "ctrl-c":
        if (this.#turn) this.#cancel();
        else if (!this.#screen.input.empty) this.#screen.input.clear();
        else if (this.#interrupted) this.#quitNow();
        else {
          this.#interrupted = true;
          this.#screen.hint = "Ctrl-C again or Ctrl-D to quit";
        }
        return;
      case "ctrl-d":
        if (this.#screen.input.empty) {
          this.#quitAfterTurn = true;
          if (this.#turn) this.#turn.abort();
          else this.#quitNow();
          return;
        }
        break;
      case "enter":
        if (this.#screen.input.empty) {
          const fold = this.#screen.conversation.lastFoldable();
          if (fold) {
            fold.folded = !fold.folded;
            fold.changed();
          }
          return;
        }
        break;
    }
    if (this.#screen.input.handle(key) === "send") {
      const text = this.#screen.input.value();
      this.#history.add(text);
      this.#screen.input.clear();
      // What the user sends is seen where it goes: the view follows the end again.
      if (text.trim()) this.#screen.conversation.end();
      this.#submit(text);
    }
  }

  /** Whose the keys are now; the status line says when they go to the input though a box is up. */
  #setFocus(focus: Focus): void {
    this.#focus = focus;
    this.#screen.typingAhead = typingAhead(focus);
  }

  /** A box or form came up: whose the keys are, from what the user was doing. */
  #boxOpened(): void {
    this.#setFocus(boxOpened(this.#focus, Date.now(), this.#screen.input.empty));
  }

  /** The window changed size: drawn again, and a box on screen is read anew before it is answered. */
  #resized(): void {
    if (this.#screen.asking) this.#setFocus(boxRedrawn(this.#focus, Date.now()));
    this.#screen.requestFrame();
  }

  /** PgUp, PgDn, Shift-↑↓, and Home/End on an empty input: the conversation scrolls. */
  #scrollKey(key: Key): boolean {
    const { columns } = this.#size();
    const conversation = this.#screen.conversation;
    const { page, height } = conversation;
    switch (key.name) {
      case "pageup":
        conversation.scroll(-page, columns, height);
        return true;
      case "pagedown":
        conversation.scroll(page, columns, height);
        return true;
      case "shift-up":
        conversation.scroll(-1, columns, height);
        return true;
      case "shift-down":
        conversation.scroll(1, columns, height);
        return true;
      case "home":
        if (!this.#screen.input.empty || this.#screen.asking) return false;
        this.#screen.conversation.home(columns);
        return true;
      case "end":
        if (!this.#screen.input.empty || this.#screen.asking) return false;
        this.#screen.conversation.end();
        return true;
    }
    return false;
  }

  #size(): { columns: number; rows: number } {
    try {
      return Deno.consoleSize();
    } catch {
      return { columns: 80, rows: 24 };
    }
  }

  /** The wheel scrolls; a click on a call folds it; the first drag says how to select. */
  #mouse(key: MouseKey): void {
    const { columns } = this.#size();
    const conversation = this.#screen.conversation;
    if (key.button === "wheel-up") return conversation.scroll(-3, columns, conversation.height);
    if (key.button === "wheel-down") return conversation.scroll(3, columns, conversation.height);
    if (key.button !== "left") return;
    if (key.down) {
      this.#press = key;
      return;
    }
    const press = this.#press;
    this.#press = undefined;
    if (!press) return;
    if (press.x !== key.x || press.y !== key.y) {
      if (!this.#dragHinted) {
        this.#dragHinted = true;
        this.#screen.hint = DRAG_HINT;
      }
      return;
    }
    const fold = this.#screen.conversation.foldAt(key.y - 1);
    if (fold?.foldable) {
      fold.folded = !fold.folded;
      fold.changed();
    }
  }

  #quitNow(): void {
    this.#quit?.();
  }

  /**
   * Cancels the running turn at the user's word (Esc, Ctrl-C, `/abort`, SIGINT): the prompts queued
   * behind it do not run; they come back to the input, one per line before what was being typed, to
   * be sent again or edited.
   */
  #cancel(): void {
    if (!this.#turn) return;
    this.#turn.abort();
    if (this.#queue.length === 0) return;
    const input = this.#screen.input;
    const draft = input.value();
    input.clear();
    input.set([...this.#queue, ...(draft ? [draft] : [])].join("\n"));
    this.#queue = [];
    this.#screen.queued = 0;
    this.#screen.hint = QUEUE_BACK_HINT;
  }

  // --- turns and commands ---

  #submit(typed: string): void {
    const text = typed.trim();
    if (!text || !this.#conversation) return;
    const command = parseCommand(text);
    if (this.#turn) {
      if (command?.name === "/abort") this.#cancel();
      else if (command?.name === "/quit" || command?.name === "/exit") {
        this.#quitAfterTurn = true;
        this.#turn.abort();
      } else this.#queue.push(text);
      this.#screen.queued = this.#queue.length;
      return;
    }
    if (command) this.#command(text, command);
    else this.#runTurn(text);
  }

  /** Runs the next queued prompt, if any. */
  #next(): void {
    if (this.#quitAfterTurn) return this.#quitNow();
    const next = this.#queue.shift();
    this.#screen.queued = this.#queue.length;
    if (next !== undefined) this.#submit(next);
  }

  async #busy(what: () => Promise<void>): Promise<void> {
    this.#turn = new AbortController();
    this.#screen.turnStarted = Date.now();
    this.#screen.startTicker();
    try {
      await what();
    } catch (e) {
      this.#screen.view.note(`mm: ${(e as Error).message}`, "error");
    } finally {
      this.#screen.view.finish();
      this.#turn = undefined;
      this.#screen.turnStarted = undefined;
      this.#screen.stopTicker();
      this.#screen.requestFrame();
      this.#next();
    }
  }

  #runTurn(text: string): void {
    this.#screen.view.prompt(text);
    const conversation = this.#conversation!;
    this.#notifier.turnStarted();
    this.#busy(async () => {
      const outcome = await conversation.prompt(text, this.#turn!.signal);
      if (outcome.status !== "answered") {
        this.#screen.view.handle({ type: "recap", counters: outcome.counters });
      }
      if (outcome.status === "cancelled") this.#screen.view.note("⏹ turn cancelled", "notice");
      this.#notifier.turnEnded();
    });
  }

  /**
   * A command: a prompt row (when typed), then its outcome as notes (`/ask` as its call); a list
   * to choose from (`/resume`, `/rewind`) opens as a picker.
   */
  #command(text: string | undefined, command: SlashCommand): void {
    const view = this.#screen.view;
    if (text !== undefined) view.prompt(text);
    const busy = findCommand(command.name)?.busy;
    this.#busy(async () => {
      if (busy) view.busy = busy;
      const outcome = await this.#conversation!.run(command, this.#turn!.signal);
      if (outcome.kind === "quit") this.#quitAfterTurn = true;
      // `/undo`: the turn's prompt goes back into the input, to be edited or sent again.
      if (outcome.kind === "undone" && this.#screen.input.empty) {
        this.#screen.input.set(outcome.prompt);
      }
      if (outcome.kind === "sessions") return this.#pickSession(outcome.sessions, false);
      if (outcome.kind === "turns") return this.#pickTurn(outcome.turns);
      this.#drawOutcome(outcome);
      if (outcome.kind === "resumed") this.#replayResumed();
    });
  }

  /** `mm -r`: the picker of this directory's sessions; none, or none chosen, is a new conversation. */
  async #resumeAtStart(): Promise<void> {
    if (!this.#opts.config.sessions.enabled) {
      this.#screen.view.note(RESUME_OFF_AT_START, "notice");
      this.#screen.requestFrame();
      return;
    }
    const sessions = await this.#conversation!.sessions();
    if (!sessions.length) {
      this.#screen.view.note(NO_SESSIONS_AT_START, "notice");
      this.#screen.requestFrame();
      return;
    }
    this.#pickSession(sessions, true);
  }

  /** The sessions as a list (↑↓, Enter): the one chosen is resumed; Esc keeps the conversation. */
  #pickSession(sessions: PickEntry[], fresh: boolean): void {
    const options = sessionLines(sessions).map((l) => l.replace(/^\s*\d+\. /, ""));
    this.#choose(PICK_SESSION, options).then((i) => {
      if (i === undefined) {
        if (fresh) this.#screen.view.note(PICK_NEW, "notice");
        return;
      }
      this.#command(undefined, { name: "/resume", args: sessions[i].id });
    });
  }

  /** The turns as a list (↑↓, Enter): the one chosen and every later one are taken back. */
  #pickTurn(turns: { turn: number; line: string }[]): void {
    this.#choose(PICK_TURN, turnOptions(turns)).then((i) => {
      if (i !== undefined) this.#command(undefined, { name: "/rewind", args: `${turns[i].turn}` });
    });
  }

  /** The session switched to: its messages drawn as --continue draws them. */
  #replayResumed(): void {
    const history = this.#conversation!.agent.history;
    if (history.length <= 1) return;
    this.#screen.view.replay(history.slice(1), this.#begun!.tools);
    this.#screen.view.note(`(continuing: ${history.length - 1} earlier message(s))`, "notice");
  }

  /**
   * One of `options` chosen in the form ask_user's choice uses (./form.ts): its index, or undefined
   * when declined (Esc, Ctrl-C). The keys are the form's at once: the user asked for it.
   */
  #choose(question: string, options: string[]): Promise<number | undefined> {
    return new Promise((resolve) => {
      // The form's choice needs two options at least: one is offered twice, as the same choice.
      const shown = options.length > 1 ? options : [...options, ...options.map((o) => o + " ")];
      const form = new AskForm([{ question, type: "choice", options: shown }]);
      this.#screen.asking = {
        kind: "form",
        form,
        answer: (outcome) => {
          if (this.#screen.asking?.kind === "form" && this.#screen.asking.form === form) {
            this.#screen.asking = undefined;
          }
          this.#screen.requestFrame();
          const at = outcome.kind === "answered" ? shown.indexOf(outcome.answers[0]) : -1;
          resolve(at < 0 ? undefined : at % options.length);
        },
      };
      this.#setFocus({ box: true, typedAhead: false, since: Date.now(), lastKeyAt: 0 });
      this.#screen.requestFrame();
    });
  }

  /** Shift+Tab: plan mode on or off, said in the conversation and on the status line. */
  #togglePlan(): void {
    const conversation = this.#conversation;
    if (!conversation) return;
    this.#drawOutcome(conversation.setPlan(!conversation.plan));
    this.#screen.requestFrame();
  }

  /** A command's outcome as notes: an error's in red. */
  #drawOutcome(outcome: CommandOutcome): void {
    this.#screen.plan = this.#conversation?.plan ?? false;
    const lines = outcomeLines(outcome);
    if (outcome.kind === "new" && outcome.error) {
      this.#screen.view.note(lines.shift()!, "error");
    }
    if (outcome.kind === "help") lines[0] = [lines[0], ...KEY_HELP].join("\n");
    for (const line of lines) {
      this.#screen.view.note(line, outcome.kind === "failed" ? "error" : "info");
    }
  }

  // --- the agent's questions ---

  #askPermission(
    tool: string,
    summary: string,
    askedBy?: AskedBy,
    always?: string,
  ): Promise<PermissionAnswer> {
    const call = this.#screen.view.runningCall();
    this.#screen.view.setStatus(call, "permission");
    const signal = this.#turn?.signal;
    return new Promise((resolve) => {
      const done = (answer: PermissionAnswer) => {
        signal?.removeEventListener("abort", onAbort);
        if (this.#screen.asking?.kind === "permission" && this.#screen.asking.box === box) {
          this.#screen.asking = undefined;
        }
        this.#screen.view.setStatus(call, "running");
        // The rule "always" added is said, as the session's rule it is.
        if (answer.kind === "allowAlways" && always && !askedBy) {
          this.#screen.view.note(sessionRuleText(always), "info");
        }
        resolve(answer);
      };
      const onAbort = () => done({ kind: "reject" });
      const box = new PermissionBox(tool, summary, askedBy !== undefined, always);
      if (signal?.aborted) return done({ kind: "reject" });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#screen.asking = { kind: "permission", box, answer: done };
      this.#boxOpened();
      this.#notifier.question();
      this.#screen.requestFrame();
    });
  }

  #ask(questions: Question[], signal: AbortSignal): Promise<AskOutcome> {
    const call = this.#screen.view.runningCall();
    this.#screen.view.setStatus(call, "question");
    return new Promise((resolve) => {
      const done = (outcome: AskOutcome) => {
        signal.removeEventListener("abort", onAbort);
        if (this.#screen.asking?.kind === "form" && this.#screen.asking.form === form) {
          this.#screen.asking = undefined;
        }
        this.#screen.view.setStatus(call, "running");
        resolve(outcome);
      };
      const onAbort = () => done({ kind: "cancelled" });
      const form = new AskForm(questions);
      if (signal.aborted) return done({ kind: "cancelled" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.#screen.asking = { kind: "form", form, answer: done };
      this.#boxOpened();
      this.#notifier.question();
      this.#screen.requestFrame();
    });
  }

  // --- the header ---

  /** An asked agent's name over its answer: its title, else its `mmConfigs` name. */
  #agentTitle(agent: string): string {
    return this.#begun?.run.agentInfos.find((a) => a.name === agent)?.title ?? agent;
  }

  /** The header while an asked agent works (tools.md, `ask_agent`, Display). */
  #askedHeader(agent: string): string {
    const info = this.#begun?.run.agentInfos.find((a) => a.name === agent);
    const title = info?.title ?? agent;
    const model = info?.model ?? "its model";
    const provider = info?.provider ?? "its server";
    return `mm ${title} · ${model} @ ${provider} · asked by ${this.#opts.config.acp.title}`;
  }
}

/** The header: `mm [<acp.title>] · <model> @ <provider>` (the title when it is not the built-in one). */
export function headerText(config: Config, model: string): string {
  const title = config.acp.title !== "mm" ? ` ${config.acp.title}` : "";
  return `mm${title} · ${model} @ ${config.provider}`;
}
