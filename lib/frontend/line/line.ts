/** Line mode (`mm` in a terminal): a conversation, one turn after another, until the user quits. */

import type { Agent } from "../../agent/agent.ts";
import { Conversation, findCommand, outcomeLines, parseCommand } from "../../agent/commands.ts";
import type { AgentEvent } from "../../agent/events.ts";
import { replay } from "../../agent/replay.ts";
import { lineAsker } from "./answers.ts";
import type { Config } from "../../config/config.ts";
import type { AskedBy, PermissionAnswer } from "../../permissions/prompt.ts";
import { permissionAnswer, promptLines, wantsWhole } from "./permission.ts";
import { CHANGE_PREVIEW_LINES, changeLines } from "../terminal/display.ts";
import type { Message } from "../../history.ts";
import { lspBannerLine } from "../../../tools/lsp/texts.ts";
import { eventLines } from "../../mcp/status.ts";
import { writeAll } from "../terminal/output.ts";
import { visible } from "../terminal/visible.ts";
import { start } from "../start.ts";
import { QUIT_SIGNALS, RunStop } from "../exit.ts";
import { banner } from "../terminal/banner.ts";
import { LineEditor } from "./editor.ts";
import { History } from "../terminal/history.ts";
import { KeyRouter, type KeySource, terminalKeys } from "./keys.ts";
import type { Key } from "../terminal/keys.ts";
import { LineRenderer, type Screen } from "./render.ts";
import { hyperlinksSupported, loadLexer } from "../terminal/markdown.ts";
import { Spinner } from "./spinner.ts";

/** What line mode needs. */
export interface LineOptions {
  config: Config;
  cwd: string;
  continueLatest?: boolean;
  sessionId?: string;
  /** The keys; the terminal's stdin unless a test gives its own. */
  keys?: KeySource;
}

/** The prompt of line mode. */
export const PROMPT = "› ";

/**
 * Runs line mode until the user quits; returns the exit code: 0, or 128 + the signal's number
 * after SIGTERM, SIGHUP or SIGQUIT (the turn cancelled and saved first). SIGINT cancels the turn, as Ctrl-C.
 */
export async function runLineMode(opts: LineOptions): Promise<number> {
  const stop = new RunStop(QUIT_SIGNALS);
  try {
    return await lineMode(opts, stop);
  } finally {
    stop.dispose();
  }
}

/** The conversation of {@linkcode runLineMode}, until the user quits or `stop` ends it. */
async function lineMode(opts: LineOptions, stop: RunStop): Promise<number> {
  const { config, cwd } = opts;
  const colour = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
  let gone = false;
  const screen: Screen = {
    write: (text) => {
      if (gone) return;
      try {
        writeAll(Deno.stdout, text);
      } catch {
        // The terminal is gone (EIO): nobody to draw for; mm ends.
        gone = true;
        stop.stop("stdout closed");
      }
    },
    width: () => {
      try {
        return Deno.consoleSize().columns;
      } catch {
        return 80;
      }
    },
    colour,
  };
  const spinner = new Spinner(Deno.stderr.isTerminal());
  // The answer as Markdown on a terminal with colour; NO_COLOR and a pipe keep its text as it is.
  const markdown = colour
    ? { load: loadLexer, hyperlinks: hyperlinksSupported(Deno.env.toObject()) }
    : undefined;
  const render = new LineRenderer(screen, spinner, config.previewLines, markdown);
  // Start-up's warnings are shown under the banner; so are the MCP servers' lines, then above the
  // prompt as they come (a server starts while the user types).
  const warnings: string[] = [];
  let showMcp = (line: string): void => void warnings.push(line);
  // SIGTERM or SIGHUP while it starts ends mm at once: nothing is drawn or held yet.
  const begun = await stop.startingUp(start({
    ...opts,
    runWarning: (w: string) => warnings.push(w),
    sessionWarning: (w: string) => warnings.push(w),
    mcpEvent: (event) => {
      for (const l of eventLines(event)) showMcp(l.text);
    },
  }));
  if (!begun.ok) {
    render.line(`mm: ${visible(begun.error)}`);
    return 1;
  }
  const { model, tools, run } = begun;

  const keys = opts.keys ?? terminalKeys();
  const router = new KeyRouter();
  const editor = new LineEditor(router, screen.write, screen.width, stop.signal);
  const history = new History(History.defaultPath(Deno.env.toObject()));
  await history.load();
  let turn: AbortController | undefined;

  const askPermission = async (
    tool: string,
    summary: string,
    _input?: unknown,
    askedBy?: AskedBy,
    change?: { oldText?: string; newText: string; replaces?: string },
  ): Promise<PermissionAnswer> => {
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
      const r = await editor.read(
        askedBy
          ? `   allow? [y]es · ${view}[n]o, or type why not: `
          : `   allow? [y]es · [a]lways for this tool · ${view}[n]o, or type why not: `,
      );
      if (r.kind !== "line") {
        turn?.abort();
        return { kind: "reject" };
      }
      if (shown.cut && wantsWhole(r.text)) {
        whole = true;
        continue;
      }
      return permissionAnswer(r.text);
    }
  };

  let quitAfterTurn = false;
  const ask = lineAsker({
    readLine: async (prompt) => {
      spinner.stop();
      render.newline();
      const r = await editor.read(prompt);
      if (r.kind === "line") return r.text;
      // Ctrl-C (or the end of the input) at a question cancels the turn, as at the 🔐 prompt.
      turn?.abort();
      return null;
    },
    write: (text) => {
      spinner.stop();
      render.write(visible(text));
    },
    command: (name) => {
      if (name === "/abort" || name === "/quit" || name === "/exit") {
        if (name !== "/abort") quitAfterTurn = true;
        turn?.abort();
        return "cancel";
      }
      render.line(`${name} cannot be used while a question waits: answer it, /skip it or /abort`);
      return "again";
    },
  });

  const emit = (e: AgentEvent) => render.handle(e);
  const conversation = new Conversation({
    config,
    cwd,
    tools,
    agent: (earlier?: { message: Message; turn: number }[]): Agent =>
      begun.agent({ askPermission, emit, warn: (w) => render.line(visible(w)), ask }, earlier),
    newSession: async () => {
      await begun.newSession();
      return begun.recorder?.session.id;
    },
    emit,
  });

  render.write(
    visible(banner(config, model, tools.map((t) => t.name), begun.recorder, begun.chat.plan)),
  );
  const lspLine = lspBannerLine(config, run.lspServers);
  if (lspLine) render.write(lspLine + "\n");
  for (const w of warnings) render.line(visible(w));
  showMcp = (line) => {
    if (!editor.above(visible(line))) render.line(visible(line));
  };
  const earlier = conversation.agent.history.length - 1;
  if (earlier > 0) {
    // The last question of the session, drawn again as it was live (lib/agent/replay.ts).
    const events = replay(conversation.agent.history, tools);
    const last = events.findLastIndex((e) => e.type === "prompt" && e.text !== "");
    for (const e of last >= 0 ? events.slice(last) : []) {
      if (e.type === "prompt") render.line(`${PROMPT}${visible(e.text)}`);
      else render.handle(e);
    }
    render.finish();
    render.line(render.dim(`(continuing: ${earlier} earlier message(s))`));
  }

  /** Runs a turn or a command: Esc, Ctrl-C and a typed `/abort` cancel it; other keys wait. */
  const busy = async <T>(what: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    turn = new AbortController();
    const controller = turn;
    const typed = turnKeys(() => controller.abort());
    const release = router.push(typed.listen);
    try {
      return await what(controller.signal);
    } finally {
      release();
      router.defer(typed.ahead());
      turn = undefined;
    }
  };
  const onSignal = () => turn?.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  stop.signal.addEventListener("abort", onSignal, { once: true });
  keys.start((key) => router.dispatch(key));
  let interrupted = false;
  try {
    while (true) {
      const r = await editor.read(PROMPT, history);
      if (r.kind === "eof") break;
      if (r.kind === "interrupt") {
        if (interrupted) break;
        interrupted = true;
        render.line(render.dim("(Ctrl-C again or Ctrl-D to quit)"));
        continue;
      }
      interrupted = false;
      const text = r.text.trim();
      if (!text) continue;
      const command = text.startsWith("/") ? parseCommand(text) : undefined;
      if (command) {
        if (findCommand(command.name)?.busy) spinner.show("Thinking");
        const outcome = await busy((signal) => conversation.run(command, signal)).finally(() =>
          spinner.stop()
        );
        render.finish();
        if (outcome.kind === "quit") break;
        for (const line of outcomeLines(outcome)) render.line(visible(line));
        continue;
      }
      await render.ready();
      const outcome = await busy((signal) => conversation.agent.runTurn(text, signal));
      if (outcome.status !== "answered") {
        render.handle({ type: "recap", counters: outcome.counters });
      }
      render.finish();
      if (outcome.status === "cancelled") {
        render.line(stop.reason ? `⏹ turn cancelled: ${stop.reason}` : "⏹ turn cancelled");
      }
      if (quitAfterTurn || stop.reason) break;
    }
  } finally {
    try {
      keys.stop();
    } finally {
      // The servers stop whatever happened to the terminal (a killed parent shell hangs it up).
      await begun.close();
      Deno.removeSignalListener("SIGINT", onSignal);
    }
  }
  return stop.exitCode ?? 0;
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
