/** Line mode (`mm` in a terminal): a conversation, one turn after another, until the user quits. */

import {
  type Agent,
  type AgentEvent,
  Conversation,
  findCommand,
  outcomeLines,
  parseCommand,
  replay,
  RESUME_HEAD,
  RESUME_OFF_AT_START,
  resumeRangeText,
  sessionLines,
  type SlashCommand,
} from "../../agent/mod.ts";
import { lineAsker } from "./answers.ts";
import type { PickEntry } from "../../session/list.ts";
import type { Config } from "../../config/config.ts";
import type { AskedBy, PermissionAnswer } from "../../permissions/prompt.ts";
import { sessionRuleText } from "../../permissions/rules.ts";
import { alwaysChoice, permissionAnswer, promptLines, wantsWhole } from "./permission.ts";
import { CHANGE_PREVIEW_LINES, changeLines } from "../terminal/display.ts";
import type { Message } from "../../history.ts";
import { lspBannerLine } from "../../../tools/mod.ts";
import { eventLines } from "../../mcp/status.ts";
import { writeAll } from "../terminal/output.ts";
import { visible } from "../terminal/visible.ts";
import { start, type Started } from "../start.ts";
import type { AskUser } from "../../tool.ts";
import { QUIT_SIGNALS, RunStop } from "../exit.ts";
import { banner } from "../terminal/banner.ts";
import { LineEditor } from "./editor.ts";
import { completers, mentionCompleter, modelCompleter, PathIndex } from "../terminal/complete.ts";
import { History } from "../terminal/history.ts";
import { KeyRouter, type KeySource, terminalKeys } from "./keys.ts";
import type { Key } from "../terminal/keys.ts";
import { LineRenderer, type Screen } from "./render.ts";
import { hyperlinksSupported, loadLexer } from "../terminal/markdown.ts";
import { Spinner } from "./spinner.ts";
import { Notifier, notifyAfter } from "../terminal/notify.ts";

/** What line mode needs. */
export interface LineOptions {
  config: Config;
  cwd: string;
  continueLatest?: boolean;
  sessionId?: string;
  /** `--model` was given: it wins over a resumed session's model. */
  modelFlag?: boolean;
  /** `mm -r`: the session picker first (lib/frontend/line/picker.ts). */
  resume?: boolean;
  /** The keys; the terminal's stdin unless a test gives its own. */
  keys?: KeySource;
}

/** A file change a call asks to make, shown before it is allowed. */
type FileChange = { oldText?: string; newText: string; replaces?: string };

/** What `mm -r` says when this directory has no earlier session. */
export const NO_SESSIONS_AT_START =
  "no earlier session in this directory: a new conversation starts";

/** What Esc or Ctrl-C at `mm -r`'s picker says. */
export const PICK_NEW = "(none chosen: a new conversation)";

/** What Esc or Ctrl-C at `/resume`'s picker says. */
export const PICK_KEPT = "(none chosen: this conversation goes on)";

/** The picker's question: `resume which? [1-3, Enter the newest, Esc a new conversation] `. */
export function pickPrompt(count: number, fresh: boolean): string {
  const esc = fresh ? "a new conversation" : "keep this one";
  return `resume which? [1${count > 1 ? `-${count}` : ""}, Enter the newest, Esc ${esc}] `;
}

/** The prompt of line mode. */
export const PROMPT = "› ";

/** The prompt of line mode while plan mode is on. */
export const PLAN_PROMPT = "plan › ";

/**
 * Runs line mode until the user quits; returns the exit code: 0, or 128 + the signal's number
 * after SIGTERM, SIGHUP or SIGQUIT (the turn cancelled and saved first). SIGINT cancels the turn, as Ctrl-C.
 */
export async function runLineMode(opts: LineOptions): Promise<number> {
  const stop = new RunStop(QUIT_SIGNALS);
  try {
    return await new LineMode(opts, stop).run();
  } finally {
    stop.dispose();
  }
}

/** Line mode: its screen, its editor and keys, the conversation, and the turn that runs. */
class LineMode {
  readonly #opts: LineOptions;
  readonly #stop: RunStop;
  readonly #screen: Screen;
  readonly #spinner: Spinner;
  readonly #render: LineRenderer;
  readonly #router = new KeyRouter();
  readonly #editor: LineEditor;
  readonly #history = new History(History.defaultPath(Deno.env.toObject()));
  /** Start-up's warnings, shown under the banner. */
  readonly #warnings: string[] = [];
  /** The terminal is gone (EIO): nothing more is drawn. */
  #gone = false;
  #turn: AbortController | undefined;
  #quitAfterTurn = false;
  #interrupted = false;
  /** The tools of the conversation (a resumed session's calls are drawn with them). */
  #tools: Started["tools"] = [];
  /** What the next line starts with: the prompt `/undo` put back. */
  #putBack = "";
  /** The bell after a long turn and at a question (`notify: bell`, on a terminal). */
  readonly #notifier: Notifier;
  /** Where an MCP server's line goes: under the banner, then above the prompt as they come. */
  #showMcp = (line: string): void => void this.#warnings.push(line);

  constructor(opts: LineOptions, stop: RunStop) {
    this.#opts = opts;
    this.#stop = stop;
    this.#screen = {
      write: (text) => this.#write(text),
      width: () => this.#width(),
      colour: Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR"),
    };
    this.#spinner = new Spinner(Deno.stderr.isTerminal());
    this.#notifier = new Notifier({
      enabled: opts.config.notify === "bell" && Deno.stdout.isTerminal(),
      write: (bytes) => this.#write(bytes),
      after: notifyAfter(Deno.env.toObject()),
    });
    // The answer as Markdown on a terminal with colour; NO_COLOR and a pipe keep its text as it is.
    const markdown = this.#screen.colour
      ? { load: loadLexer, hyperlinks: hyperlinksSupported(Deno.env.toObject()) }
      : undefined;
    this.#render = new LineRenderer(
      this.#screen,
      this.#spinner,
      opts.config.previewLines,
      markdown,
    );
    this.#editor = new LineEditor(
      this.#router,
      this.#screen.write,
      this.#screen.width,
      stop.signal,
    );
  }

  /** The conversation, until the user quits or the stop ends it; the exit code. */
  async run(): Promise<number> {
    // SIGTERM or SIGHUP while it starts ends mm at once: nothing is drawn or held yet.
    const begun = await this.#stop.startingUp(start({
      ...this.#opts,
      runWarning: (w: string) => this.#warnings.push(w),
      sessionWarning: (w: string) => this.#warnings.push(w),
      mcpEvent: (event) => {
        for (const l of eventLines(event)) this.#showMcp(l.text);
      },
    }));
    if (!begun.ok) {
      this.#render.line(`mm: ${visible(begun.error)}`);
      return 1;
    }
    const keys = this.#opts.keys ?? terminalKeys();
    await this.#history.load();
    this.#tools = begun.tools;
    const conversation = this.#conversationOf(begun);
    this.#welcome(begun, conversation);
    const onSignal = () => this.#turn?.abort();
    Deno.addSignalListener("SIGINT", onSignal);
    this.#stop.signal.addEventListener("abort", onSignal, { once: true });
    keys.start((key) => this.#router.dispatch(key));
    try {
      if (this.#opts.resume) await this.#resumeAtStart(conversation);
      await this.#converse(conversation);
    } finally {
      try {
        keys.stop();
      } finally {
        // The servers stop whatever happened to the terminal (a killed parent shell hangs it up).
        await begun.close();
        Deno.removeSignalListener("SIGINT", onSignal);
      }
    }
    return this.#stop.exitCode ?? 0;
  }

  /** Writes to the terminal; a terminal gone (EIO) leaves nobody to draw for, and mm ends. */
  #write(text: string): void {
    if (this.#gone) return;
    try {
      writeAll(Deno.stdout, text);
    } catch {
      this.#gone = true;
      this.#stop.stop("stdout closed");
    }
  }

  /** The terminal's columns (80 when it cannot say). */
  #width(): number {
    try {
      return Deno.consoleSize().columns;
    } catch {
      return 80;
    }
  }

  /** The conversation's commands and agents over what start-up began. */
  #conversationOf(begun: Started): Conversation {
    const render = this.#render;
    const emit = (e: AgentEvent) => render.handle(e);
    const ways = {
      askPermission: (
        tool: string,
        summary: string,
        _input?: unknown,
        askedBy?: AskedBy,
        change?: FileChange,
        always?: string,
      ) => this.#askPermission(tool, summary, askedBy, change, always),
      emit,
      warn: (w: string) => render.line(visible(w)),
      ask: this.#asker(),
      warm: true,
    };
    const models = begun.models();
    this.#editor.completer = completers(
      mentionCompleter(new PathIndex(begun.cwd)),
      modelCompleter(models.cached),
    );
    return new Conversation({
      models,
      config: this.#opts.config,
      cwd: this.#opts.cwd,
      tools: begun.tools,
      agent: (earlier?: { message: Message; turn: number }[]): Agent => begun.agent(ways, earlier),
      newSession: async () => {
        await begun.newSession();
        return begun.recorder?.session.id;
      },
      session: () => begun.recorder?.session.id,
      resumeSession: async (id) => {
        for (const w of await begun.resumeSession(id)) render.line(visible(w));
      },
      emit,
    });
  }

  /** `mm -r`: the picker of this directory's sessions; none, or none chosen, is a new conversation. */
  async #resumeAtStart(conversation: Conversation): Promise<void> {
    if (!this.#opts.config.sessions.enabled) {
      this.#render.line(RESUME_OFF_AT_START);
      return;
    }
    const sessions = await conversation.sessions();
    if (!sessions.length) {
      this.#render.line(NO_SESSIONS_AT_START);
      return;
    }
    for (const line of [RESUME_HEAD, ...sessionLines(sessions)]) this.#render.line(visible(line));
    await this.#pick(conversation, sessions, true);
  }

  /**
   * Reads which session of the list to resume (Enter alone: the newest, 1) and switches to it; Esc
   * or Ctrl-C keeps the conversation (`fresh`: the new one mm -r started, said so).
   */
  async #pick(conversation: Conversation, sessions: PickEntry[], fresh: boolean): Promise<void> {
    for (;;) {
      const r = await this.#editor.read(
        pickPrompt(sessions.length, fresh),
        undefined,
        undefined,
        "",
        true,
      );
      if (r.kind !== "line") {
        this.#render.line(this.#render.dim(fresh ? PICK_NEW : PICK_KEPT));
        return;
      }
      const n = r.text.trim() === "" ? 1 : Number(r.text.trim());
      const entry = Number.isInteger(n) ? sessions[n - 1] : undefined;
      if (!entry) {
        this.#render.line(resumeRangeText(sessions.length));
        continue;
      }
      const outcome = await conversation.run(
        { name: "/resume", args: entry.id },
        new AbortController().signal,
      );
      for (const line of outcomeLines(outcome)) this.#render.line(visible(line));
      if (outcome.kind === "resumed") return this.#replayResumed(conversation);
      if (entry.state === "ok") return; // it could not be opened: said, the conversation goes on
    }
  }

  /** A session switched to: its last question drawn again, as --continue does. */
  #replayResumed(conversation: Conversation): void {
    const history = conversation.agent.history;
    if (history.length > 1) this.#replayLast(history, this.#tools, history.length - 1);
  }

  /** The 🔐 prompt: a file change's diff first; `v` shows a long call whole, then asks again. */
  async #askPermission(
    tool: string,
    summary: string,
    askedBy?: AskedBy,
    change?: FileChange,
    always?: string,
  ): Promise<PermissionAnswer> {
    const render = this.#render;
    this.#notifier.question();
    // A file change is seen before it is allowed: its diff, dimmed, above the prompt.
    for (const line of change ? changeLines(change, CHANGE_PREVIEW_LINES) : []) {
      render.line(render.dim(`   ${line}`));
    }
    // An asked agent's request is the whole question already: `<agent> asks: <title>`.
    const title = visible(askedBy ? `🔐 ${summary}` : `🔐 ${tool}: ${summary}`);
    // A long call keeps its head in view: its first and last lines; `v` shows it whole, then asks again.
    for (let whole = false;;) {
      const shown = promptLines(title, whole);
      for (const line of shown.lines) render.line(line);
      const view = shown.cut ? "[v]iew all · " : "";
      // An asked agent takes "always" as once: it is not offered (as in the editor's dialog).
      const r = await this.#editor.read(
        askedBy
          ? `   allow? [y]es · ${view}[n]o, or type why not: `
          : `   allow? [y]es · ${alwaysChoice(tool, always)} · ${view}[n]o, or type why not: `,
      );
      if (r.kind !== "line") {
        this.#turn?.abort();
        return { kind: "reject" };
      }
      if (shown.cut && wantsWhole(r.text)) {
        whole = true;
        continue;
      }
      const answer = permissionAnswer(r.text);
      // The rule "always" added is said, as the session's rule it is.
      if (answer.kind === "allowAlways" && always && !askedBy) {
        render.line(render.dim(`   ${visible(sessionRuleText(always))}`));
      }
      return answer;
    }
  }

  /** ask_user's questions on the line; Ctrl-C, `/abort` or `/quit` at one cancel the turn. */
  #asker(): AskUser {
    const asker = lineAsker({
      readLine: async (prompt) => {
        this.#spinner.stop();
        this.#render.newline();
        const r = await this.#editor.read(prompt);
        if (r.kind === "line") return r.text;
        // Ctrl-C (or the end of the input) at a question cancels the turn, as at the 🔐 prompt.
        this.#turn?.abort();
        return null;
      },
      write: (text) => {
        this.#spinner.stop();
        this.#render.write(visible(text));
      },
      command: (name) => {
        if (name === "/abort" || name === "/quit" || name === "/exit") {
          if (name !== "/abort") this.#quitAfterTurn = true;
          this.#turn?.abort();
          return "cancel";
        }
        this.#render.line(
          `${name} cannot be used while a question waits: answer it, /skip it or /abort`,
        );
        return "again";
      },
    });
    // The bell once as a set of questions comes up, not at each line of it.
    return (questions, signal) => {
      this.#notifier.question();
      return asker(questions, signal);
    };
  }

  /** The banner, the language servers' line, start-up's warnings, the continued session's end. */
  #welcome(begun: Started, conversation: Conversation): void {
    const { config } = this.#opts;
    const render = this.#render;
    const names = begun.tools.map((t) => t.name);
    render.write(
      visible(
        banner(config, begun.model, names, begun.recorder, begun.chat.plan, begun.instructions),
      ),
    );
    const lspLine = lspBannerLine(config, begun.run.lspServers);
    if (lspLine) render.write(lspLine + "\n");
    for (const w of this.#warnings) render.line(visible(w));
    this.#showMcp = (line) => {
      if (!this.#editor.above(visible(line))) render.line(visible(line));
    };
    const earlier = conversation.agent.history.length - 1;
    if (earlier > 0) this.#replayLast(conversation.agent.history, begun.tools, earlier);
  }

  /** The last question of a continued session, drawn again as it was live (lib/agent/replay.ts). */
  #replayLast(history: readonly Message[], tools: Started["tools"], earlier: number): void {
    const render = this.#render;
    const events = replay(history, tools);
    const last = events.findLastIndex((e) => e.type === "prompt" && e.text !== "");
    for (const e of last >= 0 ? events.slice(last) : []) {
      if (e.type === "prompt") render.line(`${PROMPT}${visible(e.text)}`);
      else render.handle(e);
    }
    render.finish();
    render.line(render.dim(`(continuing: ${earlier} earlier message(s))`));
  }

  /** Reads a prompt after another, runs each as a command or a turn, until the user quits. */
  async #converse(conversation: Conversation): Promise<void> {
    while (true) {
      // Shift+Tab toggles plan mode; the prompt says `plan` while it is on.
      const r = await this.#editor.read(
        () => conversation.plan ? PLAN_PROMPT : PROMPT,
        this.#history,
        () => this.#render.dim(outcomeLines(conversation.setPlan(!conversation.plan))[0]),
        this.#putBack,
      );
      this.#putBack = "";
      if (r.kind === "eof") return;
      if (r.kind === "interrupt") {
        if (this.#interrupted) return;
        this.#interrupted = true;
        this.#render.line(this.#render.dim("(Ctrl-C again or Ctrl-D to quit)"));
        continue;
      }
      this.#interrupted = false;
      const text = r.text.trim();
      if (!text) continue;
      const command = parseCommand(text);
      const go = command
        ? await this.#command(conversation, command)
        : await this.#runTurn(conversation, text);
      if (go === "quit") return;
    }
  }

  /** Runs a slash command and draws its outcome; "quit" when it was /quit. */
  async #command(conversation: Conversation, command: SlashCommand): Promise<"quit" | "on"> {
    if (findCommand(command.name)?.busy) this.#spinner.show("Thinking");
    const outcome = await this.#busy((signal) => conversation.run(command, signal)).finally(() =>
      this.#spinner.stop()
    );
    this.#render.finish();
    if (outcome.kind === "quit") return "quit";
    for (const line of outcomeLines(outcome)) this.#render.line(visible(line));
    if (outcome.kind === "undone") this.#putBack = outcome.prompt;
    if (outcome.kind === "sessions") await this.#pick(conversation, outcome.sessions, false);
    if (outcome.kind === "resumed") this.#replayResumed(conversation);
    return "on";
  }

  /** Runs a turn for `text` and draws how it ended; "quit" when mm is to leave after it. */
  async #runTurn(conversation: Conversation, text: string): Promise<"quit" | "on"> {
    const render = this.#render;
    await render.ready();
    this.#notifier.turnStarted();
    const outcome = await this.#busy((signal) => conversation.prompt(text, signal));
    if (outcome.status !== "answered") {
      render.handle({ type: "recap", counters: outcome.counters });
    }
    render.finish();
    if (outcome.status === "cancelled") {
      const reason = this.#stop.reason;
      render.line(reason ? `⏹ turn cancelled: ${reason}` : "⏹ turn cancelled");
    }
    this.#notifier.turnEnded();
    return this.#quitAfterTurn || this.#stop.reason ? "quit" : "on";
  }

  /** Runs a turn or a command: Esc, Ctrl-C and a typed `/abort` cancel it; other keys wait. */
  async #busy<T>(what: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.#turn = controller;
    const typed = turnKeys(() => controller.abort());
    const release = this.#router.push((key) => {
      this.#notifier.typed();
      typed.listen(key);
    });
    try {
      return await what(controller.signal);
    } finally {
      release();
      this.#router.defer(typed.ahead());
      this.#turn = undefined;
    }
  }
}

/** What a turn does with the keys typed while it runs. */
export interface TurnKeys {
  /** The listener of the turn's keys. */
  listen(key: Key): void;
  /** The keys typed ahead, for the prompt after the turn (a typed `/abort` line is not among them). */
  ahead(): Key[];
}

/**
 * The keys while a turn runs: Esc or Ctrl-C cancels it, and so does `/abort` typed blind; anything
 * else typed is kept for the prompt that follows the turn.
 */
export function turnKeys(cancel: () => void): TurnKeys {
  const ahead: Key[] = [];
  let lineStart = 0;
  let line = "";
  return {
    listen: (key) => {
      if (key.name === "escape" || key.name === "ctrl-c") {
        cancel();
        return;
      }
      if (key.name === "text" || key.name === "paste") line += key.text;
      const enter = key.name === "enter" || key.name === "ctrl-j";
      if (enter && line.trim() === "/abort") {
        cancel();
        ahead.splice(lineStart);
      } else ahead.push(key);
      if (enter) {
        line = "";
        lineStart = ahead.length;
      }
    },
    ahead: () => ahead,
  };
}
