/**
 * The terminal's modes while the window is up, and their restoration on every exit path that can
 * be caught: a normal exit, `Deno.exit`, an uncaught error or rejection (printed after leaving the
 * alternate screen), SIGTERM, SIGHUP, SIGQUIT, and a suspend (Ctrl-Z, SIGTSTP), after which a
 * resume (SIGCONT) takes the terminal again.
 */

import { writeAll } from "../terminal/output.ts";

/** The sequences that set the window's modes: alternate screen, no autowrap, bracketed paste, keys. */
export const ENTER_MODES = "\x1b[?1049h" + // the alternate screen
  "\x1b[?7l" + // no autowrap: a row never spills into the next
  "\x1b[?2004h" + // bracketed paste
  "\x1b[>4;1m" + // modifyOtherKeys: Shift-Enter is reported where the terminal can
  "\x1b[?25h"; // the cursor shown, at the caret

/** Mouse reporting: buttons and the wheel (1000), SGR coordinates (1006); never motion. */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
/** Mouse reporting off. */
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";

/** The sequences that undo {@linkcode ENTER_MODES} and the mouse: the main screen as it was. */
export const LEAVE_MODES = MOUSE_OFF +
  "\x1b[>4m" +
  "\x1b[?2004l" +
  "\x1b[0m" +
  "\x1b[?7h" +
  "\x1b[?25h" +
  "\x1b[?1049l";

/** The terminal as the window uses it: raw, in its modes, the mouse reported or not. */
export class WindowTerminal {
  #up = false;
  #mouse: boolean;
  #write: (text: string) => void;
  #setRaw: (raw: boolean) => void;

  /** A terminal written with `write`, put in raw mode with `setRaw`; `mouse`: report the mouse. */
  constructor(opts: {
    mouse: boolean;
    write?: (text: string) => void;
    setRaw?: (raw: boolean) => void;
  }) {
    this.#mouse = opts.mouse;
    this.#write = opts.write ?? ((text) => writeAll(Deno.stdout, text));
    this.#setRaw = opts.setRaw ?? ((raw) => Deno.stdin.setRaw(raw, { cbreak: false }));
  }

  /** Whether the window has the terminal. */
  get up(): boolean {
    return this.#up;
  }

  /** Whether the mouse is reported. */
  get mouse(): boolean {
    return this.#mouse;
  }

  /** Takes the terminal: raw mode, the alternate screen and the modes. */
  enter(): void {
    if (this.#up) return;
    this.#setRaw(true);
    this.#write(ENTER_MODES + (this.#mouse ? MOUSE_ON : ""));
    this.#up = true;
  }

  /** Gives the terminal back as it was; safe to call at any time, any number of times. */
  leave(): void {
    if (!this.#up) return;
    this.#up = false;
    try {
      this.#write(LEAVE_MODES);
    } catch {
      // The terminal is gone (SIGHUP): nothing to restore on it.
    }
    try {
      this.#setRaw(false);
    } catch {
      // Not a terminal any more.
    }
  }

  /** Turns mouse reporting on or off (F2 hands the mouse back to the terminal for selecting). */
  setMouse(on: boolean): void {
    this.#mouse = on;
    if (this.#up) this.#write(on ? MOUSE_ON : MOUSE_OFF);
  }
}

/** What the process does around the window: the ways out it must catch. */
export interface ExitGuard {
  /** Stops watching (the window left normally). */
  release(): void;
}

/** The signals that end mm with the terminal restored, and their exit codes (128 + number). */
const FATAL: [Deno.Signal, number][] = [["SIGTERM", 143], ["SIGHUP", 129], ["SIGQUIT", 131]];

/**
 * Restores `terminal` on every way out of the process: `Deno.exit` (wrapped), an uncaught error or
 * rejection (the terminal is restored first, so the error prints on the main screen), and the
 * `fatal` signals, by default SIGTERM, SIGHUP and SIGQUIT (`onSignal` runs, then mm exits with
 * 128 + the signal's number). `leave` is what leaving does besides the modes (printing the
 * conversation). Window mode itself leaves the signals to lib/frontend/exit.ts (it passes no
 * `fatal` signal), which cancels and saves the turn, killing its command, before the exit.
 */
export function guardExits(
  leave: () => void,
  onSignal?: () => void,
  fatal: readonly [Deno.Signal, number][] = FATAL,
): ExitGuard {
  const exit = Deno.exit;
  Object.defineProperty(Deno, "exit", {
    value: (code?: number): never => {
      leave();
      return exit(code);
    },
    configurable: true,
    writable: true,
  });
  const onError = () => leave();
  globalThis.addEventListener("error", onError);
  globalThis.addEventListener("unhandledrejection", onError);
  const listeners: [Deno.Signal, () => void][] = fatal.map(([signal, code]) => [signal, () => {
    onSignal?.();
    leave();
    exit(code);
  }]);
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  return {
    release() {
      Object.defineProperty(Deno, "exit", { value: exit, configurable: true, writable: true });
      globalThis.removeEventListener("error", onError);
      globalThis.removeEventListener("unhandledrejection", onError);
      for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
    },
  };
}

/**
 * Suspends mm as Ctrl-Z does in a shell: the terminal given back (`leave`), the process stopped
 * (SIGSTOP, which cannot be caught); `resume` runs when the shell continues it (SIGCONT).
 */
export function suspend(leave: () => void): void {
  leave();
  Deno.kill(Deno.pid, "SIGSTOP");
}
