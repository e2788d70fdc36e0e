/**
 * The display filter of a streamed answer: text that may be a text-form call is held until it is
 * clear, and held text that runs away is reported.
 */

import { isRunaway, RUNAWAY_MAX_BYTES, RUNAWAY_WINDOW } from "../loop_detector.ts";
import { matchToolName } from "../tool_name.ts";
import {
  callsOfValue,
  type Declared,
  declared,
  findTextCalls,
  type KnownTools,
} from "./dialects.ts";
import { parseLoose, skipSpace } from "./json_scan.ts";
import type { TextCallOptions } from "./mod.ts";
import { proseOutside } from "./prose.ts";
import { BareCallWatch } from "./watch.ts";

/**
 * The words a text-form call may open with, lower case: the three first start a line (but
 * `[TOOL_CALLS]`), as do `action:` and a `tool_code` fence; the special tokens of tokens.ts (and
 * harmony's `to=functions.`) may stand anywhere.
 */
const MARKER_WORDS = [
  "<tool_call",
  "<function=",
  "[tool_calls]",
  "action:",
  "```tool_code",
  "<|python_tag|>",
  "<|python_start|>",
  "<|channel|>",
  "<|start|>",
  "commentary to=functions.",
  "<｜tool▁call",
  "<|tool_call",
  "<toolcall>",
  "<|start_action|>",
  "functools[",
];
/** Markers held only at a line start. */
const LINE_START_WORDS = new Set([
  "<tool_call",
  "<function=",
  "action:",
  "```tool_code",
  "commentary to=functions.",
  "functools[",
]);

const ANY_MARKER = new RegExp(
  MARKER_WORDS.map((w) => w.replace(/[|[\]().]/g, "\\$&")).join("|"),
  "gi",
);
/** Every beginning of a marker word, for the end of the text that may grow into one. */
const PREFIXES = new Set(MARKER_WORDS.flatMap((w) => [...w].map((_, i) => w.slice(0, i + 1))));
/** The first characters of the marker words. */
const FIRST = new Set(MARKER_WORDS.map((w) => w[0]));
/** The longest marker word. */
const LONGEST = Math.max(...MARKER_WORDS.map((w) => w.length));

/**
 * Holds back streamed text from where a text-form call could start until it is clear: `push`
 * returns what can be shown now, `finish` what is left to show once the answer is complete (the
 * held text, without the calls it turned out to hold). Held: from a marker (`<tool_call`,
 * `<function=` at a line start, `[TOOL_CALLS]`) until what follows it cannot be a call, and a
 * message that opens with `{`, `[` or a code fence, until it cannot be a call (`BareCallWatch`:
 * often its first key tells) or the fence's first character is neither JSON nor a marker.
 */
export class TextCallFilter {
  #tools: KnownTools;
  #known: Declared;
  /** A message that is only JSON is the answer (`TextCallOptions.jsonAnswer`). */
  #bare: boolean;
  /** Every piece received; joined only when needed, so a long answer is not copied per piece. */
  #pieces: string[] = [];
  #length = 0;
  /** How many characters were handed out. */
  #shown = 0;
  /** The text after the shown part, while it is short-lived (start, fence, marker, stream). */
  #pending = "";
  /** Markers are looked for in `#pending` from here on. */
  #scanFrom = 0;
  /** Whether the shown text's last line is blank so far (a marker there starts a line). */
  #blankLine = true;
  /** The fence the shown text is inside (a tool_code fence there is its closing line), if any. */
  #fence?: string;
  /** The shown text's last line so far, up to where a fence line is told. */
  #line = "";
  #mode: "start" | "json" | "fence" | "marker" | "stream" | "hold" | "done" = "start";
  #json?: { watch: BareCallWatch; fenced: boolean };

  /** A filter for one model answer, knowing the declared tools. */
  constructor(tools: KnownTools, options: TextCallOptions = {}) {
    this.#tools = tools;
    this.#known = declared(tools);
    this.#bare = !options.jsonAnswer;
  }

  /** Takes a piece of the answer; returns the text that can be shown now ("" while held). */
  push(delta: string): string {
    if (this.#mode === "done") return delta;
    const offset = this.#length;
    this.#pieces.push(delta);
    this.#length += delta.length;
    if (this.#mode === "hold") return "";
    if (this.#mode === "json") return this.#jsonPiece(delta, offset);
    this.#pending += delta;
    return this.#advance();
  }

  /**
   * Ends the answer; returns the text left to show. With `recognise` (the answer had no
   * structured calls), calls found in the held text are left out; otherwise it is shown as it is.
   */
  finish(recognise = true): string {
    if (this.#mode === "done") return "";
    this.#mode = "done";
    const all = this.#all();
    const found = recognise ? findTextCalls(all, this.#known, this.#bare) : undefined;
    const shown = this.#shown;
    this.#shown = all.length;
    if (!found) return all.slice(shown);
    const rest = proseOutside(all, found.spans, shown);
    if (!rest || !all.slice(0, shown).trim()) return rest;
    const before = all.slice(0, shown).replace(/[ \t]+$/, "");
    return (before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n") + rest;
  }

  /**
   * The held text when it ran away as a structured call's arguments do (`isRunaway`: its last 6 KiB
   * are one short pattern repeated, or it passed 256 KB): a model repeating itself inside what may be a
   * call. Held bare JSON repeats itself only inside a call's arguments (elsewhere a repetition,
   * `[0, 0, …]`, is data); its size counts everywhere. Undefined otherwise; cheap while it is not
   * (only the end is looked at).
   */
  heldRunaway(): string | undefined {
    if (this.#mode === "done") return undefined;
    const held = this.#length - this.#shown;
    const repeats = this.#mode !== "json" || this.#json!.watch.inArguments;
    if (
      held <= RUNAWAY_MAX_BYTES &&
      !(repeats && isRunaway(this.#tail(Math.min(held, RUNAWAY_WINDOW))))
    ) return undefined;
    return this.#all().slice(this.#shown);
  }

  /** The last `n` characters received, without joining every piece. */
  #tail(n: number): string {
    let out = "";
    for (let i = this.#pieces.length - 1; i >= 0 && out.length < n; i--) {
      const piece = this.#pieces[i];
      out = piece.slice(Math.max(0, piece.length - (n - out.length))) + out;
    }
    return out;
  }

  #all(): string {
    const all = this.#pieces.join("");
    this.#pieces = [all];
    return all;
  }

  /** The opening of the message decides: JSON, a fence, or text to stream. */
  #advance(): string {
    const text = this.#pending;
    if (this.#mode === "start") {
      const i = skipSpace(text, 0);
      if (i === text.length) return "";
      const head = text.slice(i, i + 12).toLowerCase();
      const python = this.#bare ? this.#pythonStart(text, i) : false;
      if (python === undefined) return "";
      if (python) {
        this.#mode = "hold";
        return "";
      }
      if (text[i] === "[" && MARKER_WORDS[2].startsWith(head)) {
        if (head.length < 12) return "";
        this.#mode = "stream";
      } else if ((text[i] === "{" || text[i] === "[") && this.#bare) {
        return this.#watchJson(i, false);
      } else if (text[i] === "`" || text[i] === "~") this.#mode = "fence";
      else this.#mode = "stream";
    }
    if (this.#mode === "fence") {
      const json = this.#fenceDecided();
      if (json !== undefined) return this.#watchJson(json, true);
    }
    if (this.#mode === "marker") return this.#markerPiece();
    if (this.#mode !== "stream") return "";
    return this.#stream();
  }

  /**
   * Whether the message opens with a Python call of a declared tool (`[name(`, `name(`,
   * `print(default_api.name(`): true, false, or undefined while the name is not complete.
   */
  #pythonStart(text: string, i: number): boolean | undefined {
    const m = text.slice(i, i + 200).match(
      /^\[?\s*(?:print\s*\(\s*)?(?:default_api\.|functions\.)?([A-Za-z_]\w*)(\s*)(.?)/,
    );
    if (!m) return text.slice(i).match(/^\[?\s*$/) ? undefined : false;
    if (!m[3]) return text.length - i < 200 ? undefined : false;
    if (m[3] === "(") return matchToolName(m[1], this.#known.names) !== undefined;
    if (m[3] === "." && /^(?:default_api|functions|print)$/.test(m[1])) return undefined;
    return false;
  }

  /** Starts watching the JSON at `i` of the pending text (all of the answer: none is shown). */
  #watchJson(i: number, fenced: boolean): string {
    const text = this.#pending;
    this.#mode = "json";
    this.#json = { watch: new BareCallWatch(this.#known), fenced };
    this.#pending = "";
    return this.#jsonPiece(text, 0, i);
  }

  /**
   * Follows the JSON values the message opens with: held while they may be calls; shown, with
   * what follows, from the first sign they are not (`BareCallWatch`, or a whole value that is no
   * call, or text after them). A fence closing after calls holds the rest.
   */
  #jsonPiece(piece: string, offset: number, from = 0): string {
    const { watch, fenced } = this.#json!;
    let i = from;
    for (;;) {
      const event = watch.advance(piece, i, offset);
      if (event.kind === "more") return "";
      if (event.kind === "value") {
        const value = this.#all().slice(event.start, event.end);
        if (callsOfValue(parseLoose(value), this.#known, true)) {
          i = event.end - offset;
          continue;
        }
      } else if (event.kind === "other" && fenced && /[`~]/.test(piece[event.at - offset])) {
        this.#mode = "hold";
        return "";
      }
      this.#mode = "stream";
      this.#json = undefined;
      this.#pending = this.#all().slice(this.#shown);
      this.#scanFrom = 0;
      return this.#stream();
    }
  }

  /**
   * Whether the opening fence told what follows: the index of JSON that may be calls, else
   * undefined with the mode set (hold for a marker, stream for anything else) or left (wait).
   */
  #fenceDecided(): number | undefined {
    const text = this.#pending;
    const fence = text.match(/^\s*(`{1,3}|~{1,3})/);
    if (!fence || (fence[1].length < 3 && text.trimStart().length > fence[1].length)) {
      this.#mode = "stream";
      return undefined;
    }
    const eol = text.indexOf("\n", fence.index! + fence[0].length);
    if (eol < 0) return undefined;
    const i = skipSpace(text, eol + 1);
    const head = text.slice(i, i + 12).toLowerCase();
    if (head === "") return undefined;
    const python = this.#bare ? this.#pythonStart(text, i) : false;
    if (python === undefined) return undefined;
    if (python || MARKER_WORDS.some((w) => head.startsWith(w))) this.#mode = "hold";
    else if (head.length < 12 && MARKER_WORDS.some((w) => w.startsWith(head))) return undefined;
    else if ((head[0] === "{" || head[0] === "[") && this.#bare) return i;
    else this.#mode = "stream";
    return undefined;
  }

  /** Hands out the text up to the next marker (or a marker's possible beginning at the end). */
  #stream(): string {
    const text = this.#pending;
    ANY_MARKER.lastIndex = this.#scanFrom;
    let m: RegExpExecArray | null;
    while ((m = ANY_MARKER.exec(text))) {
      if (!this.#placed(m[0].toLowerCase(), this.#lineStart(text, m.index))) continue;
      const out = this.#handOut(m.index, "marker");
      return out + this.#markerPiece();
    }
    let keep = 0;
    const tail = text.slice(-(LONGEST - 1)).toLowerCase();
    for (let k = tail.length; k > 0; k--) {
      if (!FIRST.has(tail[tail.length - k])) continue;
      const suffix = tail.slice(-k);
      if (!PREFIXES.has(suffix)) continue;
      const words = MARKER_WORDS.filter((w) => w.startsWith(suffix));
      const lineStart = this.#lineStart(text, text.length - k);
      if (words.some((w) => this.#placed(w, lineStart))) {
        keep = k;
        break;
      }
    }
    return this.#handOut(text.length - keep, "stream");
  }

  /**
   * The pending text opens with a marker: held for good once what follows may be a call, shown
   * (and streaming goes on after the marker) once it cannot: `<tool_call>` not followed by JSON, a
   * fence or `<function=`; `<function=…>` naming no declared tool.
   */
  #markerPiece(): string {
    const text = this.#pending;
    const head = text.slice(0, 10).toLowerCase();
    let call: boolean | undefined = true;
    if (head.startsWith("<tool_call")) {
      const m = text.match(/^<tool_call(\s*)(>?)(\s*)/i)!;
      const next = text.slice(m[0].length, m[0].length + 10).toLowerCase();
      if (m[0].length === text.length) call = undefined;
      else if (!m[2]) call = false;
      else if (/^[{[`]/.test(next)) call = true;
      else if (next.startsWith("<function=")) call = true;
      else if (/^[A-Za-z_]/.test(next) && m[2] && !m[3]) {
        call = this.#glmHead(text.slice(m[0].length));
      } else call = "<function=".startsWith(next) && next.length < 10 ? undefined : false;
    } else if (head.startsWith("action:")) {
      const m = text.match(/^action:[ \t]*\n?[ \t]*(`{0,3})/i)!;
      if (m[1] === "```") call = true;
      else call = m[0].length === text.length ? undefined : false;
    } else if (head.startsWith("<function=")) {
      const m = text.match(/^<function=([^>\n]*)(>?)/i)!;
      if (m[2]) call = matchToolName(m[1].trim(), this.#known.names) !== undefined;
      else call = m[0].length === text.length ? undefined : false;
    }
    if (call === undefined) return "";
    if (call) {
      this.#mode = "hold";
      return "";
    }
    this.#mode = "stream";
    this.#scanFrom = 1;
    return this.#stream();
  }

  /** Whether `at` of the pending `text` starts a line (the shown text's last line counts). */
  #lineStart(text: string, at: number): boolean {
    let i = at - 1;
    while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
    return i < 0 ? this.#blankLine : text[i] === "\n";
  }

  /** Whether the marker `word` stands where it may open a call (`lineStart`: at a line start). */
  #placed(word: string, lineStart: boolean): boolean {
    if (word === "```tool_code") return lineStart && this.#fence === undefined;
    if (LINE_START_WORDS.has(word)) return lineStart;
    return true;
  }

  /** After `<tool_call>`, GLM's tool name then a tag: true, false, or undefined (not yet). */
  #glmHead(text: string): boolean | undefined {
    const m = text.match(/^([^\s<]+)(\s*)(.?)/)!;
    if (!m[3]) return undefined;
    return m[3] === "<" && matchToolName(m[1], this.#known.names) !== undefined;
  }

  /** Follows the fences the shown text opens and closes, a line at a time. */
  #followFences(out: string): void {
    const lines = out.split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (this.#line.length < 40) this.#line += lines[i].slice(0, 40);
      if (i === lines.length - 1) break;
      const m = this.#line.match(/^[ \t]{0,3}(`{3,}|~{3,})([^`]*)$/);
      if (m && this.#fence === undefined) this.#fence = m[1];
      else if (
        m && m[1][0] === this.#fence![0] && m[1].length >= this.#fence!.length && !m[2].trim()
      ) this.#fence = undefined;
      this.#line = "";
    }
  }

  /** Hands out `#pending` up to `upTo`; the rest stays pending. */
  #handOut(upTo: number, mode: "marker" | "stream"): string {
    const out = this.#pending.slice(0, upTo);
    this.#pending = this.#pending.slice(upTo);
    this.#shown += out.length;
    this.#scanFrom = 0;
    this.#mode = mode;
    if (out) {
      this.#followFences(out);
      const nl = out.lastIndexOf("\n");
      const line = out.slice(nl + 1);
      this.#blankLine = (nl >= 0 || this.#blankLine) && /^[ \t]*$/.test(line);
    }
    return out;
  }
}
