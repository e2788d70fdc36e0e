/** Keys from a terminal in raw mode: bytes parsed into key events, handed to one listener at a time. */

/** One key press, or a pasted block of text. */
export type Key =
  | { name: "text"; text: string }
  | { name: "paste"; text: string }
  | {
    name:
      | "enter"
      | "backspace"
      | "delete"
      | "left"
      | "right"
      | "up"
      | "down"
      | "home"
      | "end"
      | "escape"
      | "ctrl-a"
      | "ctrl-c"
      | "ctrl-d"
      | "ctrl-e"
      | "ctrl-k"
      | "ctrl-u"
      | "ctrl-w"
      | "tab";
  };

const CSI: Record<string, Key["name"]> = {
  "A": "up",
  "B": "down",
  "C": "right",
  "D": "left",
  "H": "home",
  "F": "end",
  "1~": "home",
  "7~": "home",
  "4~": "end",
  "8~": "end",
  "3~": "delete",
};

const CONTROL: Record<string, Key["name"]> = {
  "\r": "enter",
  "\n": "enter",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "ctrl-a",
  "\x03": "ctrl-c",
  "\x04": "ctrl-d",
  "\x05": "ctrl-e",
  "\x0b": "ctrl-k",
  "\x15": "ctrl-u",
  "\x17": "ctrl-w",
  "\t": "tab",
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Parses terminal input into keys; keeps an unfinished paste between chunks. */
export class KeyParser {
  #paste: string | undefined;

  /** The keys in one chunk of input. */
  parse(chunk: string): Key[] {
    const keys: Key[] = [];
    let text = "";
    const flush = () => {
      if (text) keys.push({ name: "text", text });
      text = "";
    };
    let i = 0;
    while (i < chunk.length) {
      if (this.#paste !== undefined) {
        const end = chunk.indexOf(PASTE_END, i);
        if (end < 0) {
          this.#paste += chunk.slice(i);
          break;
        }
        keys.push({
          name: "paste",
          text: (this.#paste + chunk.slice(i, end)).replace(/\r\n?/g, "\n"),
        });
        this.#paste = undefined;
        i = end + PASTE_END.length;
        continue;
      }
      const c = chunk[i];
      if (chunk.startsWith(PASTE_START, i)) {
        flush();
        this.#paste = "";
        i += PASTE_START.length;
        continue;
      }
      if (c === "\x1b") {
        flush();
        // deno-lint-ignore no-control-regex
        const m = chunk.slice(i).match(/^\x1b(\[|O)([0-9;]*[A-Za-z~])/);
        if (m) {
          const name = CSI[m[2].replace(/^1;\d+/, "")] ?? CSI[m[2]];
          if (name) keys.push({ name } as Key);
          i += m[0].length;
        } else {
          keys.push({ name: "escape" });
          i++;
        }
        continue;
      }
      const control = CONTROL[c];
      if (control) {
        flush();
        keys.push({ name: control } as Key);
        if (c === "\r" && chunk[i + 1] === "\n") i++;
        i++;
        continue;
      }
      if (c < " ") {
        i++;
        continue;
      }
      text += c;
      i++;
    }
    flush();
    return keys;
  }
}

/** A source of keys: the terminal, or a test's script. */
export interface KeySource {
  /** Starts delivering keys to `listener` until `stop()`. */
  start(listener: (key: Key) => void): void;
  stop(): void;
}

/** The terminal's stdin in raw mode, with bracketed paste on. */
export function terminalKeys(): KeySource {
  let running = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    start(listener) {
      if (running) return;
      running = true;
      Deno.stdin.setRaw(true, { cbreak: false });
      Deno.stdout.writeSync(new TextEncoder().encode("\x1b[?2004h"));
      const parser = new KeyParser();
      const decoder = new TextDecoder();
      reader = Deno.stdin.readable.getReader();
      (async () => {
        try {
          while (running) {
            const { value, done } = await reader!.read();
            if (done) {
              listener({ name: "ctrl-d" });
              break;
            }
            for (const key of parser.parse(decoder.decode(value, { stream: true }))) listener(key);
          }
        } catch {
          // The reader was released on stop.
        }
      })();
    },
    stop() {
      if (!running) return;
      running = false;
      Deno.stdout.writeSync(new TextEncoder().encode("\x1b[?2004l"));
      try {
        reader?.releaseLock();
      } catch {
        // Already released.
      }
      try {
        Deno.stdin.setRaw(false);
      } catch {
        // Not a terminal any more.
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
