/**
 * The agent file: found (find.ts), read, and checked against every key of mm.md §2.
 *
 * A bad agent file is never half-applied: the first fault throws a {@link ConfigError} naming
 * `file:line:column`, the key, what was expected and what was found.
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
import {
  type AgentRef,
  type Config,
  type DeclaredParameter,
  type DeclaredToolConfig,
  DEFAULT_URLS,
  defaultConfig,
  type HookConfig,
  type HookEvent,
  type LspServerConfig,
  type ProviderName,
  PROVIDERS,
} from "./config.ts";
import { parseDuration } from "./duration.ts";
import { ConfigError, errorMessage } from "./errors.ts";
import { findConfigFile, type FindOptions } from "./find.ts";
import { nearest } from "./suggest.ts";

/** Finds, reads and checks the agent file; built-in defaults (plus `$MM_API_KEY`) without one. */
export function loadConfig(opts: FindOptions): Config {
  const file = findConfigFile(opts);
  if (file === undefined) {
    const config = defaultConfig();
    if (opts.env.MM_API_KEY) config.apiKey = opts.env.MM_API_KEY;
    return config;
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (err) {
    throw new ConfigError(file, 0, 0, "", `the agent file cannot be read: ${errorMessage(err)}`);
  }
  return parseConfig(text, file, opts.env);
}

/** Checks an agent file's text against mm.md §2 and returns the whole, defaulted configuration. */
export function parseConfig(
  text: string,
  file: string,
  env: Record<string, string | undefined>,
): Config {
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
  return new Reader(file, source, lines, doc).config(env);
}

/** The names of the built-in tools, which a declared tool may not take. */
export const BUILTIN_TOOLS: readonly string[] = [
  "bash",
  "read_file",
  "write_file",
  "edit_file",
  "read_skill",
  "lsp",
  "fetch_content",
  "ask_agent",
  "ask_user",
  "save_answer",
  "unload_model",
  "search_memory",
];

const TOP_KEYS = [
  "provider",
  "url",
  "model",
  "apiKey",
  "system",
  "systemFile",
  "temperature",
  "topP",
  "maxTokens",
  "contextSize",
  "yolo",
  "bashTool",
  "bashTimeout",
  "editTools",
  "maxOutput",
  "previewLines",
  "maxTurns",
  "watchdogTimeout",
  "skillsDir",
  "fetchContentTool",
  "askUserTool",
  "saveAnswerTool",
  "unloadModels",
  "structuredOutput",
  "lsp",
  "mmConfigs",
  "sessions",
  "hooks",
  "tools",
  "acp",
] as const;
const LSP_KEYS = ["servers"] as const;
const LSP_SERVER_KEYS = ["name", "command", "args", "extensions", "initializationOptions"] as const;
const AGENT_KEYS = ["file", "description", "yolo"] as const;
const SESSION_KEYS = ["enabled", "dir", "autoSearchMemory", "searchMemory"] as const;
const HOOK_EVENTS = ["preGeneration", "preToolCall", "postToolCall", "preAsk", "postAsk"] as const;
const HOOK_KEYS = ["matcher", "command", "timeout"] as const;
const TOOL_KEYS = ["name", "description", "command", "parameters", "timeout"] as const;
const PARAMETER_KEYS = ["type", "description", "enum", "default", "optional"] as const;
const PARAMETER_TYPES = ["string", "number", "integer", "boolean"] as const;
const ACP_KEYS = ["title"] as const;
type BooleanSessionKey = "enabled" | "autoSearchMemory" | "searchMemory";

/** Names of declared tools and their parameters: what every OpenAI-compatible server accepts. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NAME_RULE = "of letters, digits, _ and - (at most 64 characters)";
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const DURATION = "a duration like 30s, 2m or 1500ms";
const ARGV = 'a command as a list of strings, like ["make", "test"]';

/** One value of the file: its resolved node (undefined when absent), its dotted key, its offset. */
interface Slot {
  node: unknown;
  key: string;
  pos: number;
}

/** One key of a mapping, with the slot of its value. */
interface Entry extends Slot {
  name: string;
  keyPos: number;
}

/** Walks the parsed document, building the Config and throwing at the first fault. */
class Reader {
  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly lines: LineCounter,
    private readonly doc: Document,
  ) {}

  config(env: Record<string, string | undefined>): Config {
    const c = defaultConfig();
    c.file = this.file;
    if (env.MM_API_KEY) c.apiKey = env.MM_API_KEY;
    const root: Slot = { node: this.doc.contents ?? undefined, key: "", pos: 0 };
    if (root.node === undefined || (isScalar(root.node) && root.node.value === null)) return c;
    if (!isMap(root.node)) this.expected(root, "a mapping of keys (key: value lines)");
    let provider: Entry | undefined;
    let url: Entry | undefined;
    let system: Entry | undefined;
    for (const e of this.entries(root, TOP_KEYS)) {
      const name = e.name as typeof TOP_KEYS[number];
      switch (name) {
        case "provider":
          provider = e;
          c.provider = this.provider(e);
          break;
        case "url":
          url = e;
          c.url = this.url(e);
          break;
        case "model":
          c.model = this.string(e, true);
          break;
        case "apiKey":
          c.apiKey = this.string(e, true);
          break;
        case "system":
        case "systemFile":
          if (system) {
            const first = `${system.key} is on line ${this.line(system.keyPos)}`;
            this.fail(
              e.keyPos,
              e.key,
              `${e.key}: expected only one of system and systemFile, found both (${first})`,
            );
          }
          system = e;
          c[name] = this.string(e, name === "systemFile");
          break;
        case "temperature":
          c.temperature = this.number(e, 0, 2);
          break;
        case "topP":
          c.topP = this.number(e, 0, 1);
          break;
        case "maxTokens":
        case "contextSize":
        case "maxOutput":
        case "maxTurns":
          c[name] = this.integer(e, 1);
          break;
        case "previewLines":
          c.previewLines = this.integer(e, 0);
          break;
        case "yolo":
        case "bashTool":
        case "editTools":
        case "fetchContentTool":
        case "askUserTool":
        case "saveAnswerTool":
        case "unloadModels":
          c[name] = this.boolean(e);
          break;
        case "bashTimeout":
        case "watchdogTimeout":
          c[name] = this.duration(e);
          break;
        case "skillsDir":
          c.skillsDir = this.string(e, true);
          break;
        case "structuredOutput":
          if (!isMap(e.node)) this.expected(e, "a mapping (a JSON Schema)");
          c.structuredOutput = this.plain(e) as Record<string, unknown>;
          break;
        case "lsp":
          for (const l of this.entries(e, LSP_KEYS, true)) {
            const names = new Set<string>();
            c.lsp.servers = this.list(l, true).map((s) => this.lspServer(s, names));
          }
          break;
        case "mmConfigs":
          for (const a of this.dict(e)) c.mmConfigs[a.name] = this.agent(a);
          break;
        case "sessions":
          for (const x of this.entries(e, SESSION_KEYS, true)) {
            if (x.name === "dir") c.sessions.dir = this.string(x, true);
            else c.sessions[x.name as BooleanSessionKey] = this.boolean(x);
          }
          break;
        case "hooks":
          for (const h of this.entries(e, HOOK_EVENTS, true)) {
            c.hooks[h.name as HookEvent] = this.list(h, true).map((x) => this.hook(x));
          }
          break;
        case "tools": {
          const names = new Set<string>();
          c.tools = this.list(e, true).map((t) => this.tool(t, names));
          break;
        }
        case "acp":
          for (const a of this.entries(e, ACP_KEYS, true)) c.acp.title = this.string(a, true);
          break;
      }
    }
    if (provider && !url) c.url = DEFAULT_URLS[c.provider];
    return c;
  }

  // ---- the parts -------------------------------------------------------------------------------

  provider(s: Slot): ProviderName {
    const value = this.string(s, false);
    if ((PROVIDERS as readonly string[]).includes(value)) return value as ProviderName;
    const near = nearest(value, PROVIDERS);
    this.expected(s, `one of ${PROVIDERS.join(", ")}`, near ? ` — did you mean "${near}"?` : "");
  }

  url(s: Slot): string {
    const value = this.string(s, false);
    let ok = false;
    try {
      const u = new URL(value);
      ok = (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
    } catch {
      ok = false;
    }
    if (!ok) {
      const hint = value && !value.includes("://") ? ` — write "http://${value}"` : "";
      this.expected(s, "an http:// or https:// URL", hint);
    }
    return value.replace(/\/+$/, "");
  }

  lspServer(s: Slot, names: Set<string>): LspServerConfig {
    let name: string | undefined;
    let command: string | undefined;
    const server: Partial<LspServerConfig> = { args: [], extensions: [] };
    for (const e of this.entries(s, LSP_SERVER_KEYS)) {
      if (e.name === "name") {
        name = this.string(e, true);
        if (names.has(name)) this.expected(e, "a name no other server has");
        names.add(name);
      } else if (e.name === "command") {
        if (isSeq(e.node)) this.expected(e, "a program name (its arguments go in args)");
        command = this.string(e, true);
      } else if (e.name === "args") server.args = this.strings(e);
      else if (e.name === "extensions") server.extensions = this.strings(e);
      else {
        const options = this.plain(e);
        if (options !== null && options !== undefined) server.initializationOptions = options;
      }
    }
    if (name === undefined) this.missing(s, "name", "a string");
    if (command === undefined) this.missing(s, "command", "a program name");
    return { name, command, ...server } as LspServerConfig;
  }

  agent(s: Slot): AgentRef {
    const agent: Partial<AgentRef> = {};
    for (const e of this.entries(s, AGENT_KEYS)) {
      if (e.name === "file") agent.file = this.string(e, true);
      else if (e.name === "description") agent.description = this.string(e, false);
      else agent.yolo = this.boolean(e);
    }
    if (agent.file === undefined) this.missing(s, "file", "the path of an agent file");
    return { file: agent.file, ...agent } as AgentRef;
  }

  hook(s: Slot): HookConfig {
    const hook: Partial<HookConfig> = {};
    for (const e of this.entries(s, HOOK_KEYS)) {
      if (e.name === "matcher") {
        const matcher = this.string(e, true);
        try {
          new RegExp(matcher);
        } catch (err) {
          this.expected(e, "a tool name or a regular expression", ` (${errorMessage(err)})`);
        }
        hook.matcher = matcher;
      } else if (e.name === "command") hook.command = this.argv(e);
      else hook.timeout = this.duration(e);
    }
    if (hook.command === undefined) this.missing(s, "command", ARGV);
    return { command: hook.command, ...hook } as HookConfig;
  }

  tool(s: Slot, names: Set<string>): DeclaredToolConfig {
    let name: string | undefined;
    let description: string | undefined;
    let command: Entry | undefined;
    let argv: string[] = [];
    const parameters: Record<string, DeclaredParameter> = {};
    let timeout: number | undefined;
    for (const e of this.entries(s, TOOL_KEYS)) {
      switch (e.name) {
        case "name":
          name = this.string(e, true);
          if (!NAME.test(name)) {
            this.expected(e, `a name ${NAME_RULE}`);
          }
          if (BUILTIN_TOOLS.includes(name)) this.expected(e, "a name that no built-in tool has");
          if (names.has(name)) this.expected(e, "a name no other declared tool has");
          names.add(name);
          break;
        case "description":
          description = this.string(e, false);
          break;
        case "command":
          command = e;
          argv = this.argv(e);
          break;
        case "parameters":
          for (const p of this.dict(e)) {
            if (!NAME.test(p.name)) {
              const found = JSON.stringify(p.name);
              this.fail(
                p.keyPos,
                p.key,
                `${p.key}: expected a parameter name ${NAME_RULE}, found ${found}`,
              );
            }
            parameters[p.name] = this.parameter(p);
          }
          break;
        case "timeout":
          timeout = this.duration(e);
          break;
      }
    }
    if (name === undefined) this.missing(s, "name", "a tool name");
    if (command === undefined) this.missing(s, "command", ARGV);
    this.placeholders(command, Object.keys(parameters));
    const tool: DeclaredToolConfig = { name, command: argv, parameters };
    if (description !== undefined) tool.description = description;
    if (timeout !== undefined) tool.timeout = timeout;
    return tool;
  }

  /** Every `{{p}}` in a declared tool's command must name one of its parameters. */
  placeholders(command: Entry, names: string[]): void {
    const what = names.length
      ? `placeholders that name a parameter (${names.join(", ")})`
      : "no placeholder (the tool has no parameters)";
    for (const arg of this.list(command)) {
      const text = String(isScalar(arg.node) ? arg.node.value : "");
      for (const [whole, inner] of text.matchAll(PLACEHOLDER)) {
        if (names.includes(inner)) continue;
        const near = nearest(inner.trim(), names);
        const hint = near ? ` — did you mean {{${near}}}?` : "";
        this.fail(arg.pos, arg.key, `${arg.key}: expected ${what}, found ${whole}${hint}`);
      }
    }
  }

  parameter(s: Slot): DeclaredParameter {
    const p: Partial<DeclaredParameter> = {};
    let enumEntry: Entry | undefined;
    let defaultEntry: Entry | undefined;
    for (const e of this.entries(s, PARAMETER_KEYS, true)) {
      switch (e.name) {
        case "type": {
          const type = this.string(e, false);
          if (!(PARAMETER_TYPES as readonly string[]).includes(type)) {
            const near = nearest(type, PARAMETER_TYPES);
            this.expected(
              e,
              `one of ${PARAMETER_TYPES.join(", ")}`,
              near ? ` — did you mean "${near}"?` : "",
            );
          }
          p.type = type as DeclaredParameter["type"];
          break;
        }
        case "description":
          p.description = this.string(e, false);
          break;
        case "enum":
          enumEntry = e;
          if (!isSeq(e.node) || e.node.items.length === 0) {
            this.expected(e, "a non-empty list of values");
          }
          break;
        case "default":
          defaultEntry = e;
          break;
        case "optional":
          p.optional = this.boolean(e);
          break;
      }
    }
    const type = p.type ?? "string";
    if (enumEntry) p.enum = this.list(enumEntry).map((v) => this.typed(v, type));
    if (defaultEntry) {
      const value = this.typed(defaultEntry, type);
      if (p.enum && !p.enum.includes(value)) {
        this.expected(defaultEntry, `one of ${p.enum.map((v) => JSON.stringify(v)).join(", ")}`);
      }
      p.default = value;
    }
    const out: DeclaredParameter = { type };
    if (p.description !== undefined) out.description = p.description;
    if (p.enum !== undefined) out.enum = p.enum;
    if (p.default !== undefined) out.default = p.default;
    if (p.optional !== undefined) out.optional = p.optional;
    return out;
  }

  /** A scalar of a declared parameter's type. */
  typed(s: Slot, type: DeclaredParameter["type"]): string | number | boolean {
    const v = isScalar(s.node) ? s.node.value : undefined;
    switch (type) {
      case "string":
        if (typeof v === "string") return v;
        return this.expected(s, "a string");
      case "number":
        if (typeof v === "number" && Number.isFinite(v)) return v;
        return this.expected(s, "a number");
      case "integer":
        if (typeof v === "number" && Number.isInteger(v)) return v;
        return this.expected(s, "an integer");
      case "boolean":
        if (typeof v === "boolean") return v;
        return this.expected(s, "true or false");
    }
  }

  // ---- scalars ---------------------------------------------------------------------------------

  boolean(s: Slot): boolean {
    if (isScalar(s.node) && typeof s.node.value === "boolean") return s.node.value;
    return this.expected(s, "true or false");
  }

  string(s: Slot, nonEmpty: boolean): string {
    if (isScalar(s.node) && typeof s.node.value === "string") {
      if (!nonEmpty || s.node.value.trim() !== "") return s.node.value;
      return this.expected(s, "a non-empty string");
    }
    return this.expected(s, nonEmpty ? "a non-empty string" : "a string");
  }

  integer(s: Slot, min: number): number {
    const v = isScalar(s.node) ? s.node.value : undefined;
    if (typeof v === "number" && Number.isInteger(v) && v >= min) return v;
    return this.expected(s, `an integer ≥ ${min}`);
  }

  number(s: Slot, min: number, max: number): number {
    const v = isScalar(s.node) ? s.node.value : undefined;
    if (typeof v === "number" && v >= min && v <= max) return v;
    return this.expected(s, `a number from ${min} to ${max}`);
  }

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

  // ---- collections -----------------------------------------------------------------------------

  /** The items of a list (`orNothing`: an empty value counts as an empty list). */
  list(s: Slot, orNothing = false): Slot[] {
    if (orNothing && this.isNothing(s)) return [];
    if (!isSeq(s.node)) return this.expected(s, "a list");
    return s.node.items.map((item, i) => this.item(s, item, i));
  }

  item(s: Slot, item: unknown, i: number): Slot {
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
  slot(node: unknown, key: string, fallback: number): Slot {
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

  fail(pos: number, key: string, detail: string): never {
    const { line, col } = this.lines.linePos(pos);
    throw new ConfigError(this.file, line, col, key, detail);
  }

  line(pos: number): number {
    return this.lines.linePos(pos).line;
  }

  /** What the file holds at a slot, in a few words: `"nope"`, `3`, `a list`, `nothing`. */
  found(s: Slot): string {
    const node = s.node;
    if (node === undefined || node === null) return "nothing";
    if (isMap(node)) return node.items.length ? "a mapping" : "an empty mapping";
    if (isSeq(node)) return node.items.length ? "a list" : "an empty list";
    if (isScalar(node)) {
      const v = node.value;
      if (typeof v === "string") return quote(v);
      if (v === null) {
        const [start, end] = node.range ?? [0, 0];
        return this.text.slice(start, end).trim() ? "null" : "nothing";
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
