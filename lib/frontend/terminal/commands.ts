/**
 * The slash commands of the terminal's front ends (line and window mode): their names and help, how
 * a typed line is read, and the two that do more than draw: `/ask` and `/memory`.
 */

import type { Agent } from "../../agent/agent.ts";
import type { Config } from "../../config/config.ts";
import { nearest } from "../../config/suggest.ts";
import { sessionsDir } from "../../session/store.ts";
import type { AnyTool, ToolResult } from "../../tool.ts";

/** Every command with its one-line help, in the order `/help` lists them. */
export const COMMANDS: readonly [string, string][] = [
  ["/help", "this list"],
  ["/new", "start a new conversation (and a new session file)"],
  ["/compact", "replace the conversation by the model's summary of it"],
  ["/memory <words>", "search earlier conversations (sessions)"],
  ["/ask <agent> <prompt>", "hand a task to an agent of mmConfigs"],
  ["/abort", "stop the running turn (Esc and Ctrl-C do too)"],
  ["/skip", "decline a question the model asked"],
  ["/quit, /exit", "leave mm (Ctrl-D does too)"],
];

const NAMES = ["/help", "/new", "/compact", "/memory", "/ask", "/abort", "/skip", "/quit", "/exit"];

/** A typed command: its name and the rest of the line. */
export interface SlashCommand {
  name: string;
  args: string;
}

/** Splits `/name args`; undefined when the line is not a command. */
export function parseCommand(line: string): SlashCommand | undefined {
  // The name ends at a space or the end: `/etc/hosts what is in it?` is a prompt, not `/etc`.
  const m = line.trim().match(/^(\/[A-Za-z-]*)(?:\s+([\s\S]*))?$/);
  return m ? { name: m[1].toLowerCase(), args: (m[2] ?? "").trim() } : undefined;
}

/** Whether `name` is a known command. */
export function isCommand(name: string): boolean {
  return NAMES.includes(name);
}

/** The answer to an unknown command: the nearest known one. */
export function unknownCommandText(name: string): string {
  const near = nearest(name, NAMES);
  return `unknown command ${name}${near ? ` — did you mean ${near}?` : ""} (/help lists them)`;
}

/** The `/help` text. */
export function helpLines(): string[] {
  return COMMANDS.map(([c, h]) => `  ${c.padEnd(24)}${h}`);
}

/** `/memory <words>`: earlier conversations searched as search_memory does, or why it cannot be. */
export async function memoryCommand(
  config: Config,
  cwd: string,
  words: string,
  agent: Agent,
): Promise<string> {
  if (!config.sessions.enabled || !config.sessions.searchMemory) {
    return "/memory needs sessions: set sessions.enabled: true (and keep sessions.searchMemory: true)";
  }
  const { searchSessions } = await import("../../session/search.ts");
  return await searchSessions({
    dir: sessionsDir(cwd, config.sessions.dir),
    query: words,
    exclude: agent.history,
    maxOutput: config.maxOutput,
  });
}

/** How a front end draws `/ask`. */
export interface AskView {
  /** A line of mm's own: the usage, or the refusal the gate gave. */
  line(text: string): void;
  /** The command runs: ask_agent's display summary (`<agent> (<provider>/<model>) — <prompt>`). */
  start(summary: string): void;
  /** The command's result: its display (`<agent> answered (N characters)`) or its failure. */
  end(result: ToolResult): void;
}

/** The call id of `/ask`'s `nested` events. */
export const ASK_COMMAND_ID = "command";

/**
 * `/ask <agent> <prompt>`: the ask_agent tool run by hand, through the agent's own gate, hooks and
 * context (`Agent.runCommand`); the agent's work streams as `nested` events of call
 * {@linkcode ASK_COMMAND_ID}. An answer comes back as the exchange the conversation keeps
 * (docs/line-mode.md): the command as typed, and `<agent> answered:` followed by the answer as the
 * model would read it.
 */
export async function askCommand(
  agent: Agent,
  tools: AnyTool[],
  args: string,
  signal: AbortSignal,
  view: AskView,
): Promise<[string, string] | undefined> {
  const tool = tools.find((t) => t.name === "ask_agent");
  const name = args.trim().split(/\s+/)[0] ?? "";
  if (!tool || !name) {
    view.line(
      !tool
        ? "/ask: the agent file names no agents (mmConfigs)"
        : "/ask <agent> <prompt>: name an agent of mmConfigs, then the task",
    );
    return undefined;
  }
  const prompt = args.trim().slice(name.length).trim();
  const input = { agent: name, prompt };
  view.start(tool.summary(input));
  const outcome = await agent.runCommand("ask_agent", input, signal, ASK_COMMAND_ID);
  if (outcome.kind === "refused") {
    view.line(outcome.text);
    return undefined;
  }
  const { result } = outcome;
  view.end(result);
  if (result.failed) return undefined;
  return [`/ask ${name} ${prompt}`, `${name} answered:\n${result.output}`];
}
