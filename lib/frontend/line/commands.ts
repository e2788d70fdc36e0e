/** The slash commands of line mode. */

import { nearest } from "../../config/suggest.ts";

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
  const m = line.trim().match(/^(\/[A-Za-z-]*)\s*([\s\S]*)$/);
  return m ? { name: m[1].toLowerCase(), args: m[2].trim() } : undefined;
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
