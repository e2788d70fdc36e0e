/**
 * How a message is presented, decided by its type and never by its string: the kinds of an error
 * event's message, the one spelling of a warning, and the errors a user can fix.
 */

/**
 * What an error message is: `sentence`, a provider's sentence (a server unreachable, a model not
 * found), shown after `mm: `; `bracketed`, mm's own text in the tools' style, which carries its
 * label (`[error: …]`, `[mm: …]`) and is shown as it is.
 */
export type MessageKind = "sentence" | "bracketed";

/** The line an error shows: a sentence after `mm: `, a bracketed text as it is. */
export function errorLine(message: string, kind: MessageKind): string {
  return kind === "sentence" ? `mm: ${message}` : message;
}

/** A warning as every front end and the model read it: the text in brackets after `warning: `. */
export function warningText(text: string): string {
  return `[warning: ${text}]`;
}

/**
 * A failure the user can fix (a flag, the agent file, a session, the server): its message is one
 * sentence that says what to do, shown once after `mm: `, and mm ends with its exit code.
 */
export class UserError extends Error {
  /**
   * The exit code of a run this error ends: 2 when the request cannot be used (a usage or
   * configuration error), 1 when it cannot be done now though it is sound (spec mm.md §1).
   */
  readonly exitCode: 1 | 2;

  /** `message` is the sentence the user reads. */
  constructor(message: string, exitCode: 1 | 2) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
}
