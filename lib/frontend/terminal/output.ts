/** Writing to stdout and stderr synchronously, with colour only on a terminal. */

import { visible } from "./visible.ts";

const encoder = new TextEncoder();

/** Writes all of `text` to a stream, however many writes it takes. */
export function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) {
    const n = stream.writeSync(bytes);
    bytes = bytes.subarray(n);
  }
}

/** The process's two output streams. */
export class Output {
  /** Whether stderr is a terminal that takes colour (and `NO_COLOR` is unset). */
  readonly colour: boolean;
  /** Whether stdout is a terminal: the answer is then drawn, not data, and goes through `visible`. */
  readonly stdoutTerminal: boolean;

  /** Looks at stderr and stdout once. */
  constructor() {
    this.colour = Deno.stderr.isTerminal() && !Deno.env.get("NO_COLOR");
    this.stdoutTerminal = Deno.stdout.isTerminal();
  }

  /** Writes to stdout. */
  stdout(text: string): void {
    writeAll(Deno.stdout, text);
  }

  /**
   * Writes a model's answer to stdout: as it is into a pipe or a file (it is data there), through
   * {@linkcode visible} on a terminal.
   */
  answer(text: string): void {
    this.stdout(this.stdoutTerminal ? visible(text) : text);
  }

  /** Writes to stderr. */
  stderr(text: string): void {
    writeAll(Deno.stderr, text);
  }

  /** `text` dimmed when colour is on. */
  dim(text: string): string {
    return this.colour ? `\x1b[2m${text}\x1b[22m` : text;
  }
}
