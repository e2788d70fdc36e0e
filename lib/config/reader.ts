/**
 * The agent file's YAML, read with positions: every value comes with its dotted key and its
 * offset, is read as the type its key wants (a boolean, a string, a duration, a list…), and a
 * value that is not that type throws a {@link ConfigError} at its `file:line:column`.
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node as YamlNode,
  parseDocument,
} from "npm:yaml@2.9.1";
import { parseDuration } from "./duration.ts";
import { ConfigError } from "./errors.ts";
import { nearest } from "../nearest.ts";

/** What a command is, in a fault's "expected …" words. */
export const ARGV = 'a command as a list of strings, like ["make", "test"]';

const DURATION = "a duration like 30s, 2m or 1500ms";

/** One value of the file: its resolved node (undefined when absent), its dotted key, its offset. */
export interface Slot {
  node: unknown;
  key: string;
  pos: number;
}

/** One key of a mapping, with the slot of its value. */
export interface Entry extends Slot {
  name: string;
  keyPos: number;
}

/** Parses an agent file's text (a byte order mark dropped); a YAML syntax fault throws. */
export function readYaml(text: string, file: string): Reader {
  const lines = new LineCounter();
  const source = text.replace(/^\uFEFF/, "");
  const doc = parseDocument(source, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: false,
  });
  const fault = doc.errors[0] ?? doc.warnings[0];
  if (fault) {
    const { line, col } = lines.linePos(fault.pos[0]);
    const message = fault.message.replace(/\s+/g, " ").trim();
    throw new ConfigError(file, line, col, "", `invalid YAML: ${message}`);
  }
  return new Reader(file, source, lines, doc);
}

/** Walks a parsed agent file, reading values and throwing at the first fault. */
export class Reader {
  /** The file `text` came from, `lines` its line index, `doc` its parsed document. */
  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly lines: LineCounter,
    private readonly doc: Document,
  ) {}

  /** The document's top value. */
  root(): Slot {
    return { node: this.doc.contents ?? undefined, key: "", pos: 0 };
  }

  // ---- scalars ---------------------------------------------------------------------------------

  /** `true` or `false`. */
  boolean(s: Slot): boolean {
    if (isScalar(s.node) && typeof s.node.value === "boolean") return s.node.value;
    return this.expected(s, "true or false");
  }

  /** A string (`nonEmpty`: with something besides white space). */
  string(s: Slot, nonEmpty: boolean): string {
    if (isScalar(s.node) && typeof s.node.value === "string") {
      if (!nonEmpty || s.node.value.trim() !== "") return s.node.value;
      return this.expected(s, "a non-empty string");
    }
    return this.expected(s, nonEmpty ? "a non-empty string" : "a string");
  }

  /** An integer of at least `min`. */
  integer(s: Slot, min: number): number {
    const v = isScalar(s.node) ? s.node.value : undefined;
    if (typeof v === "number" && Number.isInteger(v) && v >= min) return v;
    return this.expected(s, `an integer ≥ ${min}`);
  }

  /** A number from `min` to `max`. */
  number(s: Slot, min: number, max: number): number {
    const v = isScalar(s.node) ? s.node.value : undefined;
    if (typeof v === "number" && v >= min && v <= max) return v;
    return this.expected(s, `a number from ${min} to ${max}`);
  }

  /** A duration greater than 0 (`30s`, `2m`), in milliseconds. */
  duration(s: Slot): number {
    const v = isScalar(s.node) ? s.node.value : undefined;
    if (typeof v === "number") {
      const hint = v > 0 ? ` — write ${v}s` : "";
      const detail = `${s.key}: expected ${DURATION}, found the bare number ${
        this.found(s)
      }${hint}`;
      this.fail(s.pos, s.key, detail);
    }
    if (typeof v !== "string") return this.expected(s, DURATION);
    const ms = parseDuration(v);
    if (ms === undefined) return this.expected(s, DURATION);
    if (ms <= 0) return this.expected(s, "a duration greater than 0");
    return ms;
  }

  /** A list of strings (empty allowed). */
  strings(s: Slot): string[] {
    if (!isSeq(s.node)) this.expected(s, "a list of strings");
    return this.list(s).map((x) => this.string(x, false));
  }

  /** An argv: a non-empty list of strings whose first (the program) is not empty. */
  argv(s: Slot): string[] {
    if (!isSeq(s.node) || s.node.items.length === 0) this.expected(s, ARGV);
    return this.list(s).map((x, i) => this.string(x, i === 0));
  }

  /** Any value, as plain data. */
  plain(s: Slot): unknown {
    return s.node === undefined ? undefined : (s.node as YamlNode).toJS(this.doc);
  }

  /** A scalar's value (a string, number, boolean or null); undefined for anything else. */
  scalar(s: Slot): unknown {
    return isScalar(s.node) ? s.node.value : undefined;
  }

  // ---- collections -----------------------------------------------------------------------------

  /** Whether the slot holds a mapping. */
  isMapping(s: Slot): boolean {
    return isMap(s.node);
  }

  /** Whether the slot holds a list (`nonEmpty`: of one item or more). */
  isList(s: Slot, nonEmpty = false): boolean {
    return isSeq(s.node) && (!nonEmpty || s.node.items.length > 0);
  }

  /** The items of a list (`orNothing`: an empty value counts as an empty list). */
  list(s: Slot, orNothing = false): Slot[] {
    if (orNothing && this.isNothing(s)) return [];
    if (!isSeq(s.node)) return this.expected(s, "a list");
    return s.node.items.map((item, i) => this.item(s, item, i));
  }

  private item(s: Slot, item: unknown, i: number): Slot {
    return this.slot(item, `${s.key}[${i}]`, s.pos);
  }

  /** The entries of a mapping with fixed keys, in file order; an unknown key is a fault. */
  entries(s: Slot, known: readonly string[], orNothing = false): Iterable<Entry> {
    return this.dict(s, orNothing, known);
  }

  /**
   * The entries of a mapping, in file order, each checked as it is reached: keys are strings,
   * given once, and one of `known` when it is given (else they are names chosen by the user).
   */
  *dict(s: Slot, orNothing = true, known?: readonly string[]): Generator<Entry> {
    if (orNothing && this.isNothing(s)) return;
    if (!isMap(s.node)) return this.expected(s, "a mapping");
    const seen = new Map<string, number>();
    for (const pair of s.node.items) {
      const keyNode = pair.key;
      const keyPos = rangeStart(keyNode) ?? s.pos;
      if (!isScalar(keyNode) || typeof keyNode.value !== "string") {
        const found = this.found({ node: keyNode ?? undefined, key: s.key, pos: keyPos });
        this.fail(keyPos, s.key, `${s.key ? `${s.key}: ` : ""}expected a key name, found ${found}`);
      }
      const name = keyNode.value as string;
      const key = s.key ? `${s.key}.${name}` : name;
      if (known && !known.includes(name)) {
        const near = nearest(name, known);
        const rest = near
          ? ` — did you mean "${s.key ? `${s.key}.` : ""}${near}"?`
          : ` — known keys${s.key ? ` of ${s.key}` : ""}: ${known.join(", ")}`;
        this.fail(keyPos, key, `unknown key "${key}"${rest}`);
      }
      const first = seen.get(name);
      if (first !== undefined) {
        const where = `the first is on line ${this.line(first)}`;
        this.fail(
          keyPos,
          key,
          `${key}: expected one value, found a second "${name}" key (${where})`,
        );
      }
      seen.set(name, keyPos);
      yield { ...this.slot(pair.value, key, keyPos), name, keyPos };
    }
  }

  /** A slot for a node, aliases resolved; `fallback` is the position when the node is absent. */
  private slot(node: unknown, key: string, fallback: number): Slot {
    const pos = rangeStart(node) ?? fallback;
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (target === undefined) {
        this.fail(pos, key, `${key}: expected a value, found an alias to an unknown anchor`);
      }
      return { node: target, key, pos };
    }
    return { node: node ?? undefined, key, pos };
  }

  /** Whether the slot holds nothing: absent, empty or `null`. */
  isNothing(s: Slot): boolean {
    return s.node === undefined || (isScalar(s.node) && s.node.value === null);
  }

  /** A required key that is absent. */
  missing(s: Slot, name: string, what: string): never {
    const key = `${s.key}.${name}`;
    return this.fail(s.pos, key, `${key}: expected ${what}, found no "${name}" key`);
  }

  // ---- faults ----------------------------------------------------------------------------------

  /** Throws `<key>: expected <what>, found <found><hint>` at the slot's value. */
  expected(s: Slot, what: string, hint = ""): never {
    const prefix = s.key ? `${s.key}: ` : "";
    return this.fail(s.pos, s.key, `${prefix}expected ${what}, found ${this.found(s)}${hint}`);
  }

  /** Throws a ConfigError for `key` at offset `pos`, `detail` its text after the position. */
  fail(pos: number, key: string, detail: string): never {
    const { line, col } = this.lines.linePos(pos);
    throw new ConfigError(this.file, line, col, key, detail);
  }

  /** The 1-based line of offset `pos`. */
  line(pos: number): number {
    return this.lines.linePos(pos).line;
  }

  /** What the file holds at a slot, in a few words: `"nope"`, `3`, `a list`, `nothing`. */
  private found(s: Slot): string {
    const node = s.node;
    if (node === undefined || node === null) return "nothing";
    if (isMap(node)) return node.items.length ? "a mapping" : "an empty mapping";
    if (isSeq(node)) return node.items.length ? "a list" : "an empty list";
    if (isScalar(node)) {
      const v = node.value;
      if (typeof v === "string") return quote(v);
      if (v === null) {
        const [start, end] = node.range ?? [0, 0];
        const written = this.text.slice(start, end).trim();
        // `dir: ~` meant the home directory: YAML reads a bare ~ as null.
        if (written === "~") {
          return 'null (a bare ~ is YAML\'s null: write "~" or ~/… for the home directory)';
        }
        return written ? "null" : "nothing";
      }
      return String(v);
    }
    return "an unknown value";
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : undefined;
}

function quote(v: string): string {
  return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}…` : v);
}
