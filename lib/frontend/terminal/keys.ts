/**
 * Keys from a terminal in raw mode: bytes parsed into key events (line mode and window mode), and
 * the terminal's stdin read into them.
 */

/** A key without text of its own. */
export type NamedKey =
  | "enter"
  | "shift-enter"
  | "alt-enter"
  | "backspace"
  | "delete"
  | "left"
  | "right"
  | "up"
  | "down"
  | "shift-up"
  | "shift-down"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | "escape"
  | "tab"
  | "shift-tab"
  | "f2"
  | "ctrl-a"
  | "ctrl-c"
  | "ctrl-d"
  | "ctrl-e"
  | "ctrl-j"
  | "ctrl-k"
  | "ctrl-l"
  | "ctrl-o"
  | "ctrl-u"
  | "ctrl-w"
  | "ctrl-z";

/** A mouse button or wheel event, reported in SGR form (columns and rows from 0). */
export interface MouseKey {
  name: "mouse";
  /** `left`, `middle`, `right`, `wheel-up`, `wheel-down`, or `other`. */
  button: "left" | "middle" | "right" | "wheel-up" | "wheel-down" | "other";
  /** Pressed (`true`) or released. */
  down: boolean;
  x: number;
  y: number;
}

/** One key press, a pasted block of text, or a mouse event. */
export type Key =
  | { name: "text"; text: string }
  | { name: "paste"; text: string }
  | MouseKey
  | { name: NamedKey };

/** The final part of a CSI or SS3 sequence (after `ESC [` or `ESC O`) and its key. */
const SEQUENCES: Record<string, NamedKey> = {
  "A": "up",
  "B": "down",
  "C": "right",
  "D": "left",
  "H": "home",
  "F": "end",
  "Z": "shift-tab",
  "Q": "f2",
  "1;2A": "shift-up",
  "1;2B": "shift-down",
  "1~": "home",
  "7~": "home",
  "4~": "end",
  "8~": "end",
  "3~": "delete",
  "5~": "pageup",
  "6~": "pagedown",
  "12~": "f2",
  "1;2Q": "f2",
  // Shift-Enter as xterm's modifyOtherKeys and the kitty keyboard protocol report it.
  "27;2;13~": "shift-enter",
  "13;2u": "shift-enter",
  "13;3u": "alt-enter",
  "27;3;13~": "alt-enter",
};

const CONTROL: Record<string, NamedKey> = {
  "\r": "enter",
  "\n": "ctrl-j",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x01": "ctrl-a",
  "\x03": "ctrl-c",
  "\x04": "ctrl-d",
  "\x05": "ctrl-e",
  "\x0b": "ctrl-k",
  "\x0c": "ctrl-l",
  "\x0f": "ctrl-o",
  "\x15": "ctrl-u",
  "\x17": "ctrl-w",
  "\x1a": "ctrl-z",
  "\t": "tab",
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
// deno-lint-ignore no-control-regex
const SEQUENCE = /^\x1b(\[|O)([0-9;]*[A-Za-z~])/;
// deno-lint-ignore no-control-regex
const MOUSE = /^\x1b\[<(\d+);(\d+);(\d+)([Mm])/;

// Text, tabs and newlines only: what a paste without brackets brings.
// deno-lint-ignore no-control-regex
const LINES_ONLY = /^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$/;

/**
 * A burst of lines that came in one read without bracketed paste (a terminal without it, a
 * program typing): a read with a newline followed by more text. It is one paste, and its last
 * newlines, if any, one Enter: one prompt, not one per line. Undefined for any other read.
 */
export function burstKeys(chunk: string): Key[] | undefined {
  if (!/[\r\n][^\r\n]/.test(chunk) || !LINES_ONLY.test(chunk)) return undefined;
  const text = chunk.replace(/\r\n?/g, "\n");
  const body = text.replace(/\n+$/, "");
  return body.length < text.length
    ? [{ name: "paste", text: body }, { name: "enter" }]
    : [{ name: "paste", text: body }];
}

/** Parses terminal input into keys; keeps an unfinished paste between chunks. */
export class KeyParser {
  #paste: string | undefined;

  /** The keys in one chunk of input (one read). */
  parse(chunk: string): Key[] {
    if (this.#paste === undefined) {
      const burst = burstKeys(chunk);
      if (burst) return burst;
    }
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
        i += this.#escape(chunk.slice(i), keys);
        continue;
      }
      const control = CONTROL[c];
      if (control) {
        flush();
        keys.push({ name: control });
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

  /** Reads the escape sequence at the start of `rest` into `keys`; returns its length. */
  #escape(rest: string, keys: Key[]): number {
    const mouse = rest.match(MOUSE);
    if (mouse) {
      keys.push(mouseKey(Number(mouse[1]), Number(mouse[2]), Number(mouse[3]), mouse[4] === "M"));
      return mouse[0].length;
    }
    const m = rest.match(SEQUENCE);
    if (m) {
      // Other modifiers on a cursor key (`1;5A`) count as the plain key.
      const name = SEQUENCES[m[2]] ?? SEQUENCES[m[2].replace(/^1;\d+/, "")];
      if (name) keys.push({ name });
      return m[0].length;
    }
    if (rest[1] === "\r") {
      keys.push({ name: "alt-enter" });
      return 2;
    }
    keys.push({ name: "escape" });
    return 1;
  }
}

/** An SGR mouse report: button code `code`, 1-based column and row. */
function mouseKey(code: number, column: number, row: number, down: boolean): MouseKey {
  const wheel = (code & 64) !== 0;
  const low = code & 3;
  const button: MouseKey["button"] = wheel
    ? (low === 0 ? "wheel-up" : low === 1 ? "wheel-down" : "other")
    : (code & 32) !== 0
    ? "other" // motion: never asked for, ignored
    : (["left", "middle", "right", "other"] as const)[low];
  return { name: "mouse", button, down, x: column - 1, y: row - 1 };
}

/**
 * Reads the terminal's stdin (already in raw mode) as keys for `listener` until the returned
 * function is called; the end of the input is a Ctrl-D.
 */
export function readKeys(listener: (key: Key) => void): () => void {
  let running = true;
  const parser = new KeyParser();
  const decoder = new TextDecoder();
  const reader = Deno.stdin.readable.getReader();
  (async () => {
    try {
      while (running) {
        const { value, done } = await reader.read();
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
  return () => {
    running = false;
    try {
      reader.releaseLock();
    } catch {
      // Already released.
    }
  };
}
