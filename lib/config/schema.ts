/**
 * The agent file's keys (mm.md §2): every key, the type of its value and how it is checked, read
 * onto a {@link Config} that starts at the defaults. The first fault throws a ConfigError.
 */
import {
  type AgentRef,
  type Config,
  type DeclaredParameter,
  type DeclaredToolConfig,
  DEFAULT_URLS,
  EFFORTS,
  HOOK_EVENTS,
  type HookConfig,
  type HookEvent,
  type LspServerConfig,
  NOTIFY_MODES,
  type ProviderName,
  PROVIDERS,
  SANDBOX_MODES,
  type SandboxMode,
  SEND_REASONING,
  THINKING,
} from "./config.ts";
import { errorMessage } from "./errors.ts";
import { checkMcpNames, mcpName, readMcpOptions, readMcpServers } from "./mcp.ts";
import { ARGV, type Entry, type Reader, type Slot } from "./reader.ts";
import { nearest } from "../nearest.ts";
import {
  MCP_RULE,
  parseRule,
  patternKind,
  RULE_LISTS,
  RULE_SHAPE,
  type RuleSpec,
  ruleText,
} from "../permissions/rules.ts";

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
  "mcp_tools",
  "mcp_call",
];

/** A key of the agent file's top level: every key of Config but `file`. */
export type TopKey = Exclude<keyof Config, "file">;

/**
 * How the value of top-level key `K` is read; `earlier` holds the top-level entries before it,
 * `env` is mm's environment (for the `${VAR}` of `mcpServers`).
 */
type ReadKey<K extends TopKey> = (
  r: Reader,
  e: Entry,
  c: Config,
  earlier: Map<string, Entry>,
  env: Record<string, string | undefined>,
) => Config[K];

/**
 * Every top-level key with how its value is read, in the order the "known keys" hint names them
 * (the order of docs/agent-file.md): the one list of the top-level keys, which the compiler holds
 * to Config (a key missing, misspelt or left over is a type error).
 */
const TOP_LEVEL: { [K in TopKey]: ReadKey<K> } = {
  provider: (r, e) => provider(r, e),
  url: (r, e) => url(r, e),
  model: (r, e) => r.string(e, true),
  apiKey: (r, e) => r.string(e, true),
  system: (r, e, _c, earlier) => systemPrompt(r, e, earlier),
  systemFile: (r, e, _c, earlier, env) => homePath(systemPrompt(r, e, earlier), env),
  temperature: (r, e) => r.number(e, 0, 2),
  topP: (r, e) => r.number(e, 0, 1),
  maxTokens: (r, e) => r.integer(e, 1),
  contextSize: (r, e) => r.integer(e, 1),
  // `thinking: on` / `off` as YAML 1.1 booleans too.
  thinking: (r, e) => {
    const v = r.scalar(e);
    return typeof v === "boolean" ? (v ? "on" : "off") : oneOf(r, e, THINKING);
  },
  reasoningEffort: (r, e) => oneOf(r, e, EFFORTS),
  sendReasoning: (r, e) => oneOf(r, e, SEND_REASONING),
  yolo: (r, e) => r.boolean(e),
  bashTool: (r, e) => r.boolean(e),
  bashTimeout: (r, e) => r.duration(e),
  editTools: (r, e) => r.boolean(e),
  maxOutput: (r, e) => r.integer(e, 1),
  previewLines: (r, e) => r.integer(e, 0),
  maxTurns: (r, e) => r.integer(e, 1),
  watchdogTimeout: (r, e) => r.duration(e),
  turnTimeout: (r, e) => r.duration(e),
  skillsDir: (r, e, _c, _earlier, env) => homePath(r.string(e, true), env),
  fetchContentTool: (r, e) => r.boolean(e),
  askUserTool: (r, e) => r.boolean(e),
  saveAnswerTool: (r, e) => r.boolean(e),
  unloadModels: (r, e) => r.boolean(e),
  warmup: (r, e) => r.boolean(e),
  notify: (r, e) => oneOf(r, e, NOTIFY_MODES),
  outputSchema: (r, e, c, earlier) => outputSchema(r, e, c, earlier),
  structuredOutput: (r, e, c, earlier) => outputSchema(r, e, c, earlier),
  lsp: (r, e, c) => lsp(r, e, c.lsp),
  mmConfigs: (r, e, c, _earlier, env) => agents(r, e, c.mmConfigs, env),
  sessions: (r, e, c, _earlier, env) => sessions(r, e, c.sessions, env),
  hooks: (r, e, c) => hooks(r, e, c.hooks),
  tools: (r, e, c) => byName(c.tools, tools(r, e)),
  mcpServers: (r, e, c, _earlier, env) => ({ ...c.mcpServers, ...readMcpServers(r, e, env) }),
  mcp: (r, e, c) => readMcpOptions(r, e, c.mcp),
  acp: (r, e, c) => acp(r, e, c.acp),
  window: (r, e, c) => windowMode(r, e, c.window),
  sandbox: (r, e) => sandboxMode(r, e),
  sandboxNetwork: (r, e) => r.boolean(e),
  permissions: (r, e, c) => permissions(r, e, c.permissions),
};

const TOP_KEYS = Object.keys(TOP_LEVEL) as TopKey[];
const LSP_KEYS = ["servers"] as const satisfies readonly (keyof Config["lsp"])[];
const LSP_SERVER_KEYS = [
  "name",
  "command",
  "args",
  "extensions",
  "initializationOptions",
] as const satisfies readonly (keyof LspServerConfig)[];
const AGENT_KEYS = ["file", "description", "yolo"] as const satisfies readonly (keyof AgentRef)[];
const SESSION_KEYS = [
  "enabled",
  "dir",
  "keep",
  "autoSearchMemory",
  "searchMemory",
] as const satisfies readonly (keyof Config["sessions"])[];
const HOOK_KEYS = [
  "matcher",
  "command",
  "timeout",
] as const satisfies readonly (keyof HookConfig)[];
const TOOL_KEYS = [
  "name",
  "description",
  "command",
  "parameters",
  "timeout",
] as const satisfies readonly (keyof DeclaredToolConfig)[];
const PARAMETER_KEYS = [
  "type",
  "description",
  "enum",
  "default",
  "optional",
  "allowDash",
] as const satisfies readonly (keyof DeclaredParameter)[];
const PARAMETER_TYPES = ["string", "number", "integer", "boolean"] as const;
const ACP_KEYS = ["title"] as const satisfies readonly (keyof Config["acp"])[];
const WINDOW_KEYS = ["mouse"] as const satisfies readonly (keyof Config["window"])[];
type BooleanSessionKey = "enabled" | "autoSearchMemory" | "searchMemory";

/** Names of declared tools and their parameters: what every OpenAI-compatible server accepts. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NAME_RULE = "of letters, digits, _ and - (at most 64 characters)";
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/**
 * Reads every key of the file onto `c` (the defaults), in file order, and returns it; `env` is
 * mm's environment, for the `${VAR}` of `mcpServers`.
 */
export function readConfig(
  r: Reader,
  c: Config,
  env: Record<string, string | undefined> = {},
): Config {
  const root = r.root();
  if (r.isNothing(root)) return c;
  if (!r.isMapping(root)) r.expected(root, "a mapping of keys (key: value lines)");
  const earlier = new Map<string, Entry>();
  for (const e of r.entries(root, TOP_KEYS)) {
    readKey(e.name as TopKey, r, e, c, earlier, env);
    earlier.set(e.name, e);
  }
  if (earlier.has("provider") && !earlier.has("url")) c.url = DEFAULT_URLS[c.provider];
  const servers = earlier.get("mcpServers");
  if (servers) checkMcpNames(r, servers, [...BUILTIN_TOOLS, ...c.tools.map((t) => t.name)]);
  const rules = earlier.get("permissions");
  if (rules) checkRuleTools(r, rules, c);
  return c;
}

/** Reads top-level key `name` into `c`. */
function readKey<K extends TopKey>(
  name: K,
  r: Reader,
  e: Entry,
  c: Config,
  earlier: Map<string, Entry>,
  env: Record<string, string | undefined>,
): void {
  c[name] = TOP_LEVEL[name](r, e, c, earlier, env);
}

/** The top-level keys a file sets, in file order (the file already read by {@linkcode readConfig}). */
export function keysSet(r: Reader): TopKey[] {
  const root = r.root();
  if (r.isNothing(root) || !r.isMapping(root)) return [];
  return [...r.entries(root, TOP_KEYS)].map((e) => e.name as TopKey);
}

/**
 * A list of named entries of an earlier agent file with a later one's over it: an entry of the
 * same name is replaced in its place, a new one is added at the end (mm.md §2: maps merge).
 */
function byName<T extends { name: string }>(earlier: readonly T[], later: readonly T[]): T[] {
  const kept = earlier.map((x) => later.find((y) => y.name === x.name) ?? x);
  return [...kept, ...later.filter((y) => !earlier.some((x) => x.name === y.name))];
}

// ---- the parts ---------------------------------------------------------------------------------

/**
 * A path key's value with a leading `~` or `~/` made the home directory (`HOME`, else
 * `USERPROFILE`), as a shell would; any other value, or no home known, is kept as written.
 */
export function homePath(value: string, env: Record<string, string | undefined>): string {
  const home = env.HOME || env.USERPROFILE;
  if (!home || !(value === "~" || value.startsWith("~/") || value.startsWith("~\\"))) {
    return value;
  }
  return home.replace(/[\\/]+$/, "") + value.slice(1);
}

function provider(r: Reader, s: Slot): ProviderName {
  const value = r.string(s, false);
  if ((PROVIDERS as readonly string[]).includes(value)) return value as ProviderName;
  const near = nearest(value, PROVIDERS);
  r.expected(s, `one of ${PROVIDERS.join(", ")}`, near ? ` — did you mean "${near}"?` : "");
}

/** A string that is one of `values` (the nearest named when it is not). */
function oneOf<T extends string>(r: Reader, s: Slot, values: readonly T[]): T {
  const value = r.string(s, false);
  if ((values as readonly string[]).includes(value)) return value as T;
  const near = nearest(value, values);
  r.expected(s, `one of ${values.join(", ")}`, near ? ` — did you mean "${near}"?` : "");
}

function url(r: Reader, s: Slot): string {
  const value = r.string(s, false);
  let ok = false;
  try {
    const u = new URL(value);
    ok = (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    ok = false;
  }
  if (!ok) {
    const hint = value && !value.includes("://") ? ` — write "http://${value}"` : "";
    r.expected(s, "an http:// or https:// URL", hint);
  }
  return value.replace(/\/+$/, "");
}

/** `system` or `systemFile`: only one of the two may be given. */
function systemPrompt(r: Reader, e: Entry, earlier: Map<string, Entry>): string {
  const system = earlier.get("system") ?? earlier.get("systemFile");
  if (system) {
    const first = `${system.key} is on line ${r.line(system.keyPos)}`;
    r.fail(
      e.keyPos,
      e.key,
      `${e.key}: expected only one of system and systemFile, found both (${first})`,
    );
  }
  return r.string(e, e.name === "systemFile");
}

/** `outputSchema` or its alias `structuredOutput` (one of them per file): both fields set. */
function outputSchema(
  r: Reader,
  e: Entry,
  c: Config,
  earlier: Map<string, Entry>,
): Record<string, unknown> {
  const other = earlier.get(e.name === "outputSchema" ? "structuredOutput" : "outputSchema");
  if (other) {
    const first = `${other.key} is on line ${r.line(other.keyPos)}`;
    r.fail(
      e.keyPos,
      e.key,
      `${e.key}: expected only one of outputSchema and structuredOutput (its old name), found both (${first})`,
    );
  }
  if (!r.isMapping(e)) r.expected(e, "a mapping (a JSON Schema)");
  const schema = r.plain(e) as Record<string, unknown>;
  c.structuredOutput = schema;
  c.outputSchema = schema;
  return schema;
}

function lsp(r: Reader, e: Entry, current: Config["lsp"]): Config["lsp"] {
  const out = { ...current };
  for (const l of r.entries(e, LSP_KEYS, true)) {
    const names = new Set<string>();
    out.servers = byName(current.servers, r.list(l, true).map((s) => lspServer(r, s, names)));
  }
  return out;
}

function lspServer(r: Reader, s: Slot, names: Set<string>): LspServerConfig {
  let name: string | undefined;
  let command: string | undefined;
  const server: Partial<LspServerConfig> = { args: [], extensions: [] };
  for (const e of r.entries(s, LSP_SERVER_KEYS)) {
    if (e.name === "name") {
      name = r.string(e, true);
      if (names.has(name)) r.expected(e, "a name no other server has");
      names.add(name);
    } else if (e.name === "command") {
      if (r.isList(e)) r.expected(e, "a program name (its arguments go in args)");
      command = r.string(e, true);
    } else if (e.name === "args") server.args = r.strings(e);
    else if (e.name === "extensions") server.extensions = r.strings(e);
    else {
      const options = r.plain(e);
      if (options !== null && options !== undefined) server.initializationOptions = options;
    }
  }
  if (name === undefined) r.missing(s, "name", "a string");
  if (command === undefined) r.missing(s, "command", "a program name");
  return { name, command, ...server } as LspServerConfig;
}

function agents(
  r: Reader,
  e: Entry,
  current: Config["mmConfigs"],
  env: Record<string, string | undefined>,
): Config["mmConfigs"] {
  const out = { ...current };
  for (const a of r.dict(e)) out[a.name] = agent(r, a, env);
  return out;
}

function agent(r: Reader, s: Slot, env: Record<string, string | undefined>): AgentRef {
  const agent: Partial<AgentRef> = {};
  for (const e of r.entries(s, AGENT_KEYS)) {
    if (e.name === "file") agent.file = homePath(r.string(e, true), env);
    else if (e.name === "description") agent.description = r.string(e, false);
    else agent.yolo = r.boolean(e);
  }
  if (agent.file === undefined) r.missing(s, "file", "the path of an agent file");
  return { file: agent.file, ...agent } as AgentRef;
}

function sessions(
  r: Reader,
  e: Entry,
  current: Config["sessions"],
  env: Record<string, string | undefined>,
): Config["sessions"] {
  const out = { ...current };
  for (const x of r.entries(e, SESSION_KEYS, true)) {
    if (x.name === "dir") out.dir = homePath(r.string(x, true), env);
    else if (x.name === "keep") out.keep = r.integer(x, 0);
    else out[x.name as BooleanSessionKey] = r.boolean(x);
  }
  return out;
}

function hooks(r: Reader, e: Entry, current: Config["hooks"]): Config["hooks"] {
  const out = { ...current };
  for (const h of r.entries(e, HOOK_EVENTS, true)) {
    const event = h.name as HookEvent;
    out[event] = [...current[event] ?? [], ...r.list(h, true).map((x) => hook(r, x))];
  }
  return out;
}

function hook(r: Reader, s: Slot): HookConfig {
  const hook: Partial<HookConfig> = {};
  for (const e of r.entries(s, HOOK_KEYS)) {
    if (e.name === "matcher") {
      const matcher = r.string(e, true);
      try {
        new RegExp(matcher);
      } catch (err) {
        r.expected(e, "a tool name or a regular expression", ` (${errorMessage(err)})`);
      }
      hook.matcher = matcher;
    } else if (e.name === "command") hook.command = r.argv(e);
    else hook.timeout = r.duration(e);
  }
  if (hook.command === undefined) r.missing(s, "command", ARGV);
  return { command: hook.command, ...hook } as HookConfig;
}

function tools(r: Reader, e: Entry): DeclaredToolConfig[] {
  const names = new Set<string>();
  return r.list(e, true).map((t) => tool(r, t, names));
}

function tool(r: Reader, s: Slot, names: Set<string>): DeclaredToolConfig {
  let name: string | undefined;
  let description: string | undefined;
  let command: Entry | undefined;
  let argv: string[] = [];
  const parameters: Record<string, DeclaredParameter> = {};
  let timeout: number | undefined;
  for (const e of r.entries(s, TOOL_KEYS)) {
    switch (e.name) {
      case "name":
        name = r.string(e, true);
        if (!NAME.test(name)) {
          r.expected(e, `a name ${NAME_RULE}`);
        }
        if (BUILTIN_TOOLS.includes(name)) r.expected(e, "a name that no built-in tool has");
        if (names.has(name)) r.expected(e, "a name no other declared tool has");
        names.add(name);
        break;
      case "description":
        description = r.string(e, false);
        break;
      case "command":
        command = e;
        argv = r.argv(e);
        break;
      case "parameters":
        for (const p of r.dict(e)) {
          if (!NAME.test(p.name)) {
            const found = JSON.stringify(p.name);
            r.fail(
              p.keyPos,
              p.key,
              `${p.key}: expected a parameter name ${NAME_RULE}, found ${found}`,
            );
          }
          parameters[p.name] = parameter(r, p);
        }
        break;
      case "timeout":
        timeout = r.duration(e);
        break;
    }
  }
  if (name === undefined) r.missing(s, "name", "a tool name");
  if (command === undefined) r.missing(s, "command", ARGV);
  placeholders(r, command, Object.keys(parameters));
  const tool: DeclaredToolConfig = { name, command: argv, parameters };
  if (description !== undefined) tool.description = description;
  if (timeout !== undefined) tool.timeout = timeout;
  return tool;
}

/** Every `{{p}}` in a declared tool's command must name one of its parameters. */
function placeholders(r: Reader, command: Entry, names: string[]): void {
  const what = names.length
    ? `placeholders that name a parameter (${names.join(", ")})`
    : "no placeholder (the tool has no parameters)";
  for (const arg of r.list(command)) {
    const value = r.scalar(arg);
    const text = value === undefined ? "" : String(value);
    for (const [whole, inner] of text.matchAll(PLACEHOLDER)) {
      if (names.includes(inner)) continue;
      const near = nearest(inner.trim(), names);
      const hint = near ? ` — did you mean {{${near}}}?` : "";
      r.fail(arg.pos, arg.key, `${arg.key}: expected ${what}, found ${whole}${hint}`);
    }
  }
}

function parameter(r: Reader, s: Slot): DeclaredParameter {
  const p: Partial<DeclaredParameter> = {};
  let enumEntry: Entry | undefined;
  let defaultEntry: Entry | undefined;
  for (const e of r.entries(s, PARAMETER_KEYS, true)) {
    switch (e.name) {
      case "type": {
        const type = r.string(e, false);
        if (!(PARAMETER_TYPES as readonly string[]).includes(type)) {
          const near = nearest(type, PARAMETER_TYPES);
          r.expected(
            e,
            `one of ${PARAMETER_TYPES.join(", ")}`,
            near ? ` — did you mean "${near}"?` : "",
          );
        }
        p.type = type as DeclaredParameter["type"];
        break;
      }
      case "description":
        p.description = r.string(e, false);
        break;
      case "enum":
        enumEntry = e;
        if (!r.isList(e, true)) {
          r.expected(e, "a non-empty list of values");
        }
        break;
      case "default":
        defaultEntry = e;
        break;
      case "optional":
        p.optional = r.boolean(e);
        break;
      case "allowDash":
        p.allowDash = r.boolean(e);
        break;
    }
  }
  const type = p.type ?? "string";
  if (enumEntry) p.enum = r.list(enumEntry).map((v) => typed(r, v, type));
  if (defaultEntry) {
    const value = typed(r, defaultEntry, type);
    if (p.enum && !p.enum.includes(value)) {
      r.expected(defaultEntry, `one of ${p.enum.map((v) => JSON.stringify(v)).join(", ")}`);
    }
    p.default = value;
  }
  const out: DeclaredParameter = { type };
  if (p.description !== undefined) out.description = p.description;
  if (p.enum !== undefined) out.enum = p.enum;
  if (p.default !== undefined) out.default = p.default;
  if (p.optional !== undefined) out.optional = p.optional;
  if (p.allowDash !== undefined) out.allowDash = p.allowDash;
  return out;
}

/** A scalar of a declared parameter's type. */
function typed(r: Reader, s: Slot, type: DeclaredParameter["type"]): string | number | boolean {
  const v = r.scalar(s);
  switch (type) {
    case "string":
      if (typeof v === "string") return v;
      return r.expected(s, "a string");
    case "number":
      if (typeof v === "number" && Number.isFinite(v)) return v;
      return r.expected(s, "a number");
    case "integer":
      if (typeof v === "number" && Number.isInteger(v)) return v;
      return r.expected(s, "an integer");
    case "boolean":
      if (typeof v === "boolean") return v;
      return r.expected(s, "true or false");
  }
}

function acp(r: Reader, e: Entry, current: Config["acp"]): Config["acp"] {
  const out = { ...current };
  for (const a of r.entries(e, ACP_KEYS, true)) out.title = r.string(a, true);
  return out;
}

function windowMode(r: Reader, e: Entry, current: Config["window"]): Config["window"] {
  const out = { ...current };
  for (const a of r.entries(e, WINDOW_KEYS, true)) out.mouse = r.boolean(a);
  return out;
}

function sandboxMode(r: Reader, s: Slot): SandboxMode {
  const value = r.scalar(s);
  if ((SANDBOX_MODES as readonly unknown[]).includes(value)) return value as SandboxMode;
  const near = typeof value === "string" ? nearest(value, SANDBOX_MODES) : undefined;
  r.expected(s, `one of ${SANDBOX_MODES.join(", ")}`, near ? ` — did you mean "${near}"?` : "");
}

/**
 * `permissions: {allow, ask, deny}`: each a list of rules that read (their tools checked later),
 * appended to the earlier files' lists.
 */
function permissions(
  r: Reader,
  e: Entry,
  current: Config["permissions"],
): Config["permissions"] {
  const out = { ...current };
  for (const l of r.entries(e, RULE_LISTS, true)) {
    const list = l.name as keyof Config["permissions"];
    const read = r.list(l, true).map((s) => {
      const text = r.string(s, true);
      if (!parseRule(text).ok) r.expected(s, RULE_SHAPE);
      return text.trim();
    });
    // Lists append across files: a later file cannot take back an earlier file's deny.
    out[list] = [...new Set([...current[list], ...read])];
  }
  return out;
}

/**
 * Every rule of `permissions` names a tool mm knows — a built-in, a declared tool, `mcp` or an
 * MCP server's `<server>_…` — and a rule with a pattern names a tool that takes one; the nearest
 * name is suggested.
 */
function checkRuleTools(r: Reader, e: Entry, c: Config): void {
  const names = [...BUILTIN_TOOLS, ...c.tools.map((t) => t.name), MCP_RULE];
  const servers = Object.keys(c.mcpServers).map((s) => `${mcpName(s)}_`);
  for (const l of r.entries(e, RULE_LISTS, true)) {
    for (const s of r.list(l, true)) {
      const parsed = parseRule(r.string(s, true));
      if (!parsed.ok) continue;
      const rule: RuleSpec = parsed.rule;
      const mcpTool = servers.some((p) => rule.tool.startsWith(p));
      if (!names.includes(rule.tool) && !mcpTool) {
        const near = nearest(rule.tool, names);
        r.expected(
          s,
          "a rule on a tool mm knows (a built-in, a declared tool, mcp(…) or an MCP server's tool)",
          near ? ` — did you mean "${ruleText({ ...rule, tool: near })}"?` : "",
        );
      }
      if (rule.pattern !== undefined && (mcpTool || !patternKind(rule.tool))) {
        r.expected(
          s,
          `a bare tool name: ${rule.tool} takes no pattern (bash, read_file, write_file, edit_file, save_answer, lsp, fetch_content and mcp do)`,
        );
      }
    }
  }
}
