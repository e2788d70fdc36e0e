/** Line mode's keys: the terminal's stdin in raw mode, handed to one listener at a time. */

import { type Key, readKeys } from "../terminal/keys.ts";

/** A source of keys: the terminal, or a test's script. */
export interface KeySource {
  /** Starts delivering keys to `listener` until `stop()`. */
  start(listener: (key: Key) => void): void;
  stop(): void;
}

/** The terminal's stdin in raw mode, with bracketed paste on. */
export function terminalKeys(): KeySource {
  let stop: (() => void) | undefined;
  return {
    start(listener) {
      if (stop) return;
      Deno.stdin.setRaw(true, { cbreak: false });
      Deno.stdout.writeSync(new TextEncoder().encode("\x1b[?2004h"));
      stop = readKeys(listener);
    },
    stop() {
      if (!stop) return;
      stop();
      stop = undefined;
      try {
        Deno.stdout.writeSync(new TextEncoder().encode("\x1b[?2004l"));
        Deno.stdin.setRaw(false);
      } catch {
        // Not a terminal any more (EIO once it hung up): nothing to give back.
      }
    },
  };
}

/** Routes keys to the innermost listener: a line being read, else the running turn. */
export class KeyRouter {
  #stack: ((key: Key) => void)[] = [];
  /** Keys that came while nobody listened, or handed back for the next listener. */
  #pending: Key[] = [];

  /** Delivers a key to the innermost listener; kept for the next one when nobody listens. */
  dispatch(key: Key): void {
    const listener = this.#stack.at(-1);
    if (listener && this.#pending.length === 0) listener(key);
    else {
      this.#pending.push(key);
      this.#flushSoon();
    }
  }

  /** Makes `listener` the innermost one until the returned function is called. */
  push(listener: (key: Key) => void): () => void {
    this.#stack.push(listener);
    this.#flushSoon();
    return () => {
      const i = this.#stack.lastIndexOf(listener);
      if (i >= 0) this.#stack.splice(i, 1);
    };
  }

  /** Hands `keys` to the next listener, before any key that comes later (type-ahead). */
  defer(keys: Key[]): void {
    this.#pending.unshift(...keys);
    this.#flushSoon();
  }

  /** Delivers the pending keys, in order, once the listener that will take them is in place. */
  #flushSoon(): void {
    if (this.#pending.length === 0 || this.#stack.length === 0) return;
    queueMicrotask(() => {
      while (this.#pending.length && this.#stack.length) {
        this.#stack.at(-1)!(this.#pending.shift()!);
      }
    });
  }
}
