/** The spinner on stderr: `Thinking`, `Composing a tool call`, `Fetching`. Drawn only on a terminal. */

import { writeAll } from "../terminal/output.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** The states the spec names. */
export type SpinnerState = "Thinking" | "Composing a tool call" | "Fetching";

/** A one-line spinner that clears itself before anything else is written. */
export class Spinner {
  #timer: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  #label = "";
  #enabled: boolean;

  /** A spinner; a disabled one draws nothing (stderr is not a terminal). */
  constructor(enabled: boolean) {
    this.#enabled = enabled;
  }

  /** Shows `state` (starting the spinner if it was stopped). */
  show(state: SpinnerState): void {
    if (!this.#enabled) return;
    this.#label = state;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#draw(), 100);
    }
    this.#draw();
  }

  /** Clears the spinner's line and stops it. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    writeAll(Deno.stderr, "\r\x1b[2K");
  }

  #draw(): void {
    this.#frame = (this.#frame + 1) % FRAMES.length;
    writeAll(Deno.stderr, `\r\x1b[2K\x1b[2m${FRAMES[this.#frame]} ${this.#label}…\x1b[22m`);
  }
}
