/**
 * How a run of mm ends before its time, the same in every front end: on SIGINT, SIGTERM (what
 * `timeout` and CI cancellations send), SIGHUP (a closed terminal) and SIGQUIT (`kill -QUIT`, Ctrl-\
 * on a terminal not in raw mode), or when its stdout is closed
 * (`mm -p --json | head -1`). The front end's turn is cancelled through {@linkcode RunStop.signal}
 * (which kills the running command's process group and removes its temporary files), the last
 * event is written, the session file is saved by the turn's last step, and mm exits with
 * 128 + the signal's number (141, SIGPIPE's, for a closed stdout). A second signal while the first
 * is being handled exits at once.
 */

/** The signals that end a run, by their numbers. */
export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 } as const;

/** A signal that ends a run. */
export type StopSignal = keyof typeof STOP_SIGNALS;

/**
 * The signals that end an interactive run (line and window mode), where SIGINT only cancels the
 * turn, as Ctrl-C does.
 */
export const QUIT_SIGNALS: readonly StopSignal[] = ["SIGTERM", "SIGHUP", "SIGQUIT"];

/** Why a run ends early: a signal, its stdout closed by the reader, or `--timeout` (mm -p). */
export type StopReason = StopSignal | "stdout closed" | "timeout";

/** The exit code of a run stopped by `--timeout`: 124, as `timeout(1)` exits. */
export const TIMEOUT_EXIT = 124;

/** The exit code of a run whose stdout was closed: 128 + SIGPIPE, as a program killed by it. */
export const CLOSED_EXIT = 128 + 13;

/** The last error of a turn a signal stopped: `[error: interrupted]`, `… by SIGTERM]`. */
export function interruptedText(signal: StopSignal | "timeout"): string {
  if (signal === "timeout") return "[error: the run took longer than --timeout — stopped]";
  return signal === "SIGINT" ? "[error: interrupted]" : `[error: interrupted by ${signal}]`;
}

/** The exit code of a run stopped for `reason`. */
export function stopExitCode(reason: StopReason): number {
  if (reason === "timeout") return TIMEOUT_EXIT;
  return reason === "stdout closed" ? CLOSED_EXIT : 128 + STOP_SIGNALS[reason];
}

/** Watches the signals that end a run; stops it once, on the first of them or on a closed stdout. */
export class RunStop {
  /** Why the run stops, once it does. */
  reason?: StopReason;
  #controller = new AbortController();
  #listeners: [StopSignal, () => void][] = [];
  #starting = 0;
  #lastWords?: (reason: StopReason) => void;

  /** Listens for `signals` (those the platform has: only SIGINT on Windows). */
  constructor(signals: readonly StopSignal[] = ["SIGINT", ...QUIT_SIGNALS]) {
    for (const name of signals) {
      if (Deno.build.os === "windows" && name !== "SIGINT") continue;
      const listener = () => this.stop(name);
      try {
        Deno.addSignalListener(name, listener);
        this.#listeners.push([name, listener]);
      } catch {
        // A signal this platform cannot listen for.
      }
    }
  }

  /** Aborts when the run stops. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The exit code the run ends with, once it stopped. */
  get exitCode(): number | undefined {
    return this.reason === undefined ? undefined : stopExitCode(this.reason);
  }

  /**
   * Stops the run for `reason`; a second signal exits at once, with its own code, and so does a
   * stop during the start-up (see {@linkcode startingUp}).
   */
  stop(reason: StopReason): void {
    if (this.reason !== undefined) {
      if (reason !== "stdout closed") Deno.exit(stopExitCode(reason));
      return;
    }
    this.reason = reason;
    this.#controller.abort();
    if (this.#starting > 0) this.#exitNow(reason);
  }

  /**
   * Waits for a front end's start-up (`start`: the session's lock, the model's listing, the
   * prompt files). No turn runs yet to cancel and nothing is to be saved, so a stop meanwhile
   * (or before) ends mm at once with its exit code, after `lastWords` (the final `error` event);
   * what had started (MCP servers) is killed on the way out.
   */
  async startingUp<T>(work: Promise<T>, lastWords?: (reason: StopReason) => void): Promise<T> {
    this.#lastWords = lastWords;
    if (this.reason !== undefined) this.#exitNow(this.reason);
    this.#starting++;
    try {
      return await work;
    } finally {
      this.#starting--;
    }
  }

  #exitNow(reason: StopReason): never {
    this.#lastWords?.(reason);
    Deno.exit(stopExitCode(reason));
  }

  /** Stops listening. */
  dispose(): void {
    for (const [name, listener] of this.#listeners) Deno.removeSignalListener(name, listener);
    this.#listeners = [];
  }
}
