/** The agent file's one error type, and the one line it renders as. */

import { UserError } from "../presentation.ts";

/** A fault in the agent file (or in finding it), rendered as one line with its position. */
export class ConfigError extends UserError {
  /** The agent file's path. */
  readonly file: string;
  /** 1-based line of the fault; 0 when the fault is the file itself (missing, unreadable). */
  readonly line: number;
  /** 1-based column of the fault; 0 when `line` is 0. */
  readonly column: number;
  /** The key at fault, dotted (`sessions.enabled`, `tools[1].parameters.n.type`); "" for none. */
  readonly key: string;

  /** `detail` is the text after the position, e.g. `yolo: expected true or false, found "nope"`. */
  constructor(file: string, line: number, column: number, key: string, detail: string) {
    super(line > 0 ? `${file}:${line}:${column}: ${detail}` : `${file}: ${detail}`, 2);
    this.name = "ConfigError";
    this.file = file;
    this.line = line;
    this.column = column;
    this.key = key;
  }
}

/** A thrown value's message, for the end of a ConfigError's detail (`… cannot be read: <it>`). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
