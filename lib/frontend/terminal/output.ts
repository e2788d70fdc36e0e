/** Writing to stdout and stderr synchronously, with colour only on a terminal. */

import { redact } from "../../secrets.ts";
import { visible } from "./visible.ts";

const encoder = new TextEncoder();

/**
 * Writes all of `text` to a stream, however many writes it takes, with mm's secrets redacted
 * (lib/secrets.ts): every terminal, stdout and stderr write of mm goes through here.
 */
export function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(redact(text));
  while (bytes.length > 0) {
    const n = stream.writeSync(bytes);
    bytes = bytes.subarray(n);
  }
}

/**
 * Writes a command's report (`mm doctor`, `mm sessions`) to stdout. What it holds from the outside
 * (a server's model id or error body, a session file's question) is drawn through
 * {@linkcode visible} when stdout is a terminal; into a pipe or a file it is data, as written.
 */
export function writeReport(text: string): void {
  writeAll(Deno.stdout, Deno.stdout.isTerminal() ? visible(text) : text);
}

/**
 * The process's two output streams. A stream its reader closed (`mm -p | head -1`) is not an
 * error: its writes are dropped from then on, and a closed stdout is told once to `onClosed`.
 */
export class Output {
  /** Whether stderr is a terminal that takes colour (and `NO_COLOR` is unset). */
  readonly colour: boolean;
  /** Whether stdout is a terminal: the answer is then drawn, not data, and goes through `visible`. */
  readonly stdoutTerminal: boolean;

  /** Whether stdout was closed by its reader. */
  closed = false;
  #onClosed?: () => void;
  #stderrClosed = false;

  /** Looks at stderr and stdout once; `onClosed` is told when stdout is closed by its reader. */
  constructor(onClosed?: () => void) {
    this.#onClosed = onClosed;
    this.colour = Deno.stderr.isTerminal() && !Deno.env.get("NO_COLOR");
    this.stdoutTerminal = Deno.stdout.isTerminal();
  }

  /** Writes to stdout, unless it was closed. */
  stdout(text: string): void {
    if (this.closed) return;
    try {
      writeAll(Deno.stdout, text);
    } catch {
      // EPIPE (the reader went away), EIO (the terminal closed): nothing more goes there.
      this.closed = true;
      this.#onClosed?.();
    }
  }

  /**
   * Writes a model's answer to stdout: as it is into a pipe or a file (it is data there), through
   * {@linkcode visible} on a terminal.
   */
  answer(text: string): void {
    this.stdout(this.stdoutTerminal ? visible(text) : text);
  }

  /** Writes to stderr, unless it was closed. */
  stderr(text: string): void {
    if (this.#stderrClosed) return;
    try {
      writeAll(Deno.stderr, text);
    } catch {
      this.#stderrClosed = true; // nobody reads it any more
    }
  }

  /** `text` dimmed when colour is on. */
  dim(text: string): string {
    return this.colour ? `\x1b[2m${text}\x1b[22m` : text;
  }
}
