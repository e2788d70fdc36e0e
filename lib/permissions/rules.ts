/**
 * The agent file's permission rules (`permissions: {allow, ask, deny}`, docs/security.md): how a
 * rule is written and read, what of a call it matches, the decision of a set of rules (deny > ask >
 * allow > the mode's default), the session's rules an "always" adds, and the texts the model and
 * the user read of them. Pure: the gate (lib/agent/dispatch.ts) hands it what a call touches.
 */

import { isAbsolute, resolve } from "node:path";
import { splitCommands, type SplitLine, withoutAssignments } from "./shell_split.ts";
import { commandWords, programWords } from "./shell_words.ts";

/** The three lists of `permissions:`, strongest first. */
export const RULE_LISTS = ["deny", "ask", "allow"] as const;

/** One of {@linkcode RULE_LISTS}. */
export type RuleList = typeof RULE_LISTS[number];

/** The `permissions:` key as written: each list's rules, as strings. */
export type PermissionsConfig = Record<RuleList, string[]>;

/** A rule as written, read: `bash(git status*)` is tool `bash`, pattern `git status*`. */
export interface RuleSpec {
  tool: string;
  pattern?: string;
}

/** A rule in force: its list, what it says, and whether "always" added it for the session. */
export interface Rule extends RuleSpec {
  list: RuleList;
  /** As written: `bash(git status*)`. */
  text: string;
  session?: true;
}

/** What a rule's pattern matches for a tool: its command, its paths, its host, an MCP tool name. */
export type PatternKind = "command" | "path" | "host" | "name";

/** The pseudo-tool of the rules on MCP tools: `mcp(fs_*)` globs over `<server>_<tool>` names. */
export const MCP_RULE = "mcp";

/** Which built-in tools take a pattern, and what it matches; the others take a bare name only. */
const PATTERN_KINDS: Record<string, PatternKind> = {
  bash: "command",
  read_file: "path",
  write_file: "path",
  edit_file: "path",
  save_answer: "path",
  lsp: "path",
  fetch_content: "host",
  [MCP_RULE]: "name",
};

/** What `tool`'s pattern matches, or undefined when the tool takes no pattern. */
export function patternKind(tool: string): PatternKind | undefined {
  return PATTERN_KINDS[tool];
}

/** What the agent file's fault says a rule should look like. */
export const RULE_SHAPE = "a rule like bash(git status*), write_file(src/**) or a tool name";

/** A rule's text read, or why it cannot be (the words after "found …"). */
export function parseRule(text: string): { ok: true; rule: RuleSpec } | { ok: false } {
  const m = /^([A-Za-z0-9_-]{1,64})(?:\((.*)\))?$/s.exec(text.trim());
  if (!m) return { ok: false };
  if (m[2] === undefined) return { ok: true, rule: { tool: m[1] } };
  const pattern = m[2].trim();
  if (!pattern || /[\n\r]/.test(pattern)) return { ok: false };
  return { ok: true, rule: { tool: m[1], pattern } };
}

/** A rule as written again, from what it says. */
export function ruleText(rule: RuleSpec): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

/** The rules of `permissions:`, in force, strongest list first (each list in file order). */
export function rulesOf(config: PermissionsConfig | undefined): Rule[] {
  if (!config) return [];
  const out: Rule[] = [];
  for (const list of RULE_LISTS) {
    for (const text of config[list] ?? []) {
      const parsed = parseRule(text);
      if (parsed.ok) out.push({ list, ...parsed.rule, text: ruleText(parsed.rule) });
    }
  }
  return out;
}

/** What of one call the rules look at. */
export interface CallSubject {
  /** The tool's name. */
  tool: string;
  /** The MCP tool the call runs (`<server>_<tool>`), also through catalog mode's mcp_call. */
  mcp?: string;
  /** bash: the line's simple commands. */
  commands?: SplitLine;
  /** The call's paths, absolute: as resolved against the project, and where their links lead. */
  paths?: { given: string; real: string }[];
  /** fetch_content: the URL's host name. */
  host?: string;
}

/** Where a rule's paths are taken from: the project, and the home directory of `~/`. */
export interface RulePlaces {
  cwd: string;
  home?: string;
}

/** The host name of `url`, lower case, or undefined when it is not an http(s) URL. */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url.trim());
    return u.protocol === "http:" || u.protocol === "https:"
      ? u.hostname.toLowerCase().replace(/^\[|\]$/g, "")
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `pattern` as a regular expression: `*` any run of characters (in a path, within one directory),
 * `**` any run of directories, `?` one character; nothing else is special.
 */
export function globRegExp(pattern: string, path: boolean, caseless = false): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*" && path) {
      i++;
      if (pattern[i + 1] === "/") {
        i++;
        out += "(?:.*/)?";
      } else out += ".*";
    } else if (c === "*") out += path ? "[^/]*" : ".*";
    else if (c === "?") out += path ? "[^/]" : ".";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, caseless ? "is" : "s");
}

/** A path rule's pattern as an absolute pattern: `~/` the home directory, else from the project. */
export function absolutePattern(pattern: string, places: RulePlaces): string | undefined {
  if (pattern === "~" || pattern.startsWith("~/")) {
    return places.home ? places.home.replace(/\/+$/, "") + pattern.slice(1) : undefined;
  }
  return isAbsolute(pattern) ? pattern : resolve(places.cwd, pattern);
}

/**
 * Whether `rule` matches the call: a bare rule every call of its tool; a pattern, for `allow`,
 * every part of the call (every simple command of a bash line, every path; a line not read to its
 * end matches no allow), for `ask` and `deny` any part.
 */
export function ruleMatches(rule: Rule, call: CallSubject, places: RulePlaces): boolean {
  if (rule.tool === MCP_RULE) {
    if (call.mcp === undefined) return false;
    return rule.pattern === undefined || globRegExp(rule.pattern, false).test(call.mcp);
  }
  if (rule.tool !== call.tool && rule.tool !== call.mcp) return false;
  if (rule.pattern === undefined) return true;
  const every = rule.list === "allow";
  const some = (parts: string[], test: (part: string) => boolean) =>
    parts.length > 0 && (every ? parts.every(test) : parts.some(test));
  switch (patternKind(rule.tool)) {
    case "command": {
      if (!call.commands || (every && !call.commands.complete)) return false;
      const pattern = rule.pattern;
      const re = globRegExp(pattern.replace(/\s+/g, " "), false);
      if (every) return some(call.commands.commands, (c) => allows(re, pattern, c));
      // Quotes, assignments and wrappers never hide a command from ask or deny; nor, from ask, a
      // program named by an expansion (`$X f`, `r${IFS}m`), which may be anything.
      return some(
        call.commands.commands,
        (c) => commandForms(c).some((f) => re.test(f)) || (rule.list === "ask" && suspect(c)),
      );
    }
    case "path": {
      const pattern = absolutePattern(rule.pattern, places);
      if (pattern === undefined) return false;
      const re = globRegExp(pattern, true);
      // Allowed is where the path leads; asked or denied, also the name it is reached by.
      const paths = call.paths ?? [];
      return every
        ? paths.length > 0 && paths.every((p) => re.test(p.real))
        : paths.some((p) => re.test(p.given) || re.test(p.real));
    }
    case "host":
      return call.host !== undefined && globRegExp(rule.pattern, false, true).test(call.host);
    default:
      return false;
  }
}

/**
 * Whether an allow rule's `re` (of `pattern`) allows simple command `c`: as written or unquoted,
 * with no output redirection into a file (unless the pattern holds a `>`), no here-document, and
 * a program word that is not an expansion.
 */
function allows(re: RegExp, pattern: string, c: string): boolean {
  const read = commandWords(c);
  if (read.heredoc || (read.writes && !pattern.includes(">"))) return false;
  if (!read.words.length || read.words[0].expands) return false;
  const program = programWords(read.words)[0];
  if (program === undefined || program.expands) return false;
  return re.test(c) || re.test(read.words.map((w) => w.text).join(" "));
}

/** The shells whose `-c` string is a command line of its own. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh"]);

/**
 * The texts of simple command `c` ask and deny rules are matched against: as written, without its
 * assignments, unquoted, and as the command that runs (wrappers left out, the program's base
 * name); with the commands of an `eval` or a `sh -c` string, read again.
 */
export function commandForms(c: string, depth = 0): string[] {
  const read = commandWords(c);
  const program = programWords(read.words);
  const forms = [
    c,
    withoutAssignments(c),
    read.words.map((w) => w.text).join(" "),
    program.map((w) => w.text).join(" "),
  ];
  // xargs runs its command with more arguments: `xargs rm` runs `rm …`.
  const wrappers = read.words.slice(0, read.words.length - program.length);
  if (wrappers.some((w) => /(^|\/)xargs$/.test(w.text))) forms.push(`${forms[3]} …`);
  const name = program[0]?.text;
  let inner: string | undefined;
  if (name === "eval") inner = program.slice(1).map((w) => w.text).join(" ");
  else if (name !== undefined && SHELLS.has(name)) {
    const flag = program.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w.text));
    if (flag > 0) inner = program[flag + 1]?.text;
  }
  if (inner !== undefined && depth < 4) {
    for (const part of splitCommands(inner).commands) forms.push(...commandForms(part, depth + 1));
  }
  return forms;
}

/** Whether simple command `c`'s program is named by an expansion (`$X f`, `r${IFS}m`). */
function suspect(c: string): boolean {
  const read = commandWords(c);
  return read.words[0]?.expands === true || programWords(read.words)[0]?.expands === true;
}

/**
 * The deny rule that turns a call into a question: a bash line whose program is named by an
 * expansion cannot be told apart from what a deny rule refuses.
 */
function suspectDeny(rules: readonly Rule[], call: CallSubject): Rule | undefined {
  if (call.tool !== "bash" || !call.commands?.commands.some(suspect)) return undefined;
  return rules.find((r) => r.list === "deny" && r.tool === "bash" && r.pattern !== undefined);
}

/** What the rules say of a call: the first rule of the strongest list that matches. */
export type RuleDecision = { kind: RuleList; rule: Rule } | undefined;

/**
 * The rules' decision on a call: deny, else ask (an ask rule answered "always" for the session is
 * passed over), else allow (the agent file's or the session's); undefined: the mode decides.
 */
export function decide(
  rules: readonly Rule[],
  call: CallSubject,
  places: RulePlaces,
  lifted: ReadonlySet<string> = new Set(),
): RuleDecision {
  for (const list of RULE_LISTS) {
    const rule = rules.find((r) =>
      r.list === list && !(list === "ask" && lifted.has(r.text)) && ruleMatches(r, call, places)
    );
    if (rule) return { kind: list, rule };
    if (list === "deny") {
      const doubt = suspectDeny(rules, call);
      if (doubt) return { kind: "ask", rule: doubt };
    }
  }
  return undefined;
}

/** The subject of a bash call: its line's simple commands. */
export function bashSubject(command: string): CallSubject {
  return { tool: "bash", commands: splitCommands(command) };
}

/** Why a call asks: an ask rule, or the mode's default (with the paths out of the project it reads). */
export interface AskReason {
  rule?: Rule;
  /** Directories out of the project the call reaches (read_file's only reason to ask). */
  outside?: string[];
}

/**
 * The session's rule an "always" adds to a call that asked: the ask rule itself when one asked
 * (passed over for the session), the host of a fetch (`fetch_content(example.com)`), the
 * directories out of the project a read reached (`read_file(/etc/**)`), the MCP tool
 * (`mcp(fs_write)`), else the tool.
 */
export function alwaysRule(call: CallSubject, why: AskReason): Rule {
  const allow = (spec: RuleSpec): Rule => ({
    list: "allow",
    ...spec,
    text: ruleText(spec),
    session: true,
  });
  if (why.rule) return { ...why.rule, session: true };
  if (call.mcp !== undefined) return allow({ tool: MCP_RULE, pattern: call.mcp });
  if (call.tool === "fetch_content" && call.host) {
    return allow({ tool: call.tool, pattern: call.host });
  }
  if (why.outside?.length && patternKind(call.tool) === "path") {
    return allow({ tool: call.tool, pattern: `${why.outside[0].replace(/\/+$/, "")}/**` });
  }
  return allow({ tool: call.tool });
}

/** What `mm doctor` knows of a run to tell a rule that can never match. */
export interface RuleWorld {
  /** The tools this agent file declares (built-ins, declared tools), by name. */
  declared: readonly string[];
  /** The MCP servers, by name as their tools' prefix (`fs` of `fs_read`). */
  mcpServers: readonly string[];
  /** The home directory of `~/`, when known. */
  home?: string;
}

/**
 * Why `rule` can never match, or undefined when it may: its tool is not declared, no MCP server's
 * tools fit it, a bare deny (or, for an allow, a bare ask) of its tool comes first, a bash pattern
 * holds more than one command, a host pattern holds a `/`, `~/` has no home.
 */
export function neverMatches(
  rule: Rule,
  rules: readonly Rule[],
  world: RuleWorld,
): string | undefined {
  if (rule.tool === MCP_RULE || world.mcpServers.some((m) => rule.tool.startsWith(`${m}_`))) {
    if (!world.mcpServers.length) return "no MCP server is configured";
    const literal = rule.tool === MCP_RULE ? (rule.pattern ?? "").split(/[*?]/)[0] : rule.tool;
    const fits = world.mcpServers.some((m) =>
      literal.startsWith(`${m}_`) || `${m}_`.startsWith(literal)
    );
    if (!fits) {
      return `no MCP server's tools are named so (servers: ${world.mcpServers.join(", ")})`;
    }
  } else if (!world.declared.includes(rule.tool)) {
    return `${rule.tool} is not declared by this agent file`;
  }
  const stronger = rules.find((r) =>
    r !== rule && r.pattern === undefined && r.tool === rule.tool &&
    (r.list === "deny" || (r.list === "ask" && rule.list === "allow")) && r.list !== rule.list
  );
  if (stronger) return `${ruleName(stronger)} comes first for every call of ${rule.tool}`;
  if (rule.pattern === undefined) return undefined;
  const kind = patternKind(rule.tool);
  if (kind === "command" && splitCommands(rule.pattern).commands.length > 1) {
    return "a bash rule is matched against one command at a time; write one rule per command";
  }
  if (kind === "host" && rule.pattern.includes("/")) {
    return "a fetch_content rule matches a host name (example.com, *.example.com), not a URL";
  }
  if (
    kind === "path" && absolutePattern(rule.pattern, { cwd: "/", home: world.home }) === undefined
  ) {
    return "~/ names no home directory here ($HOME is not set)";
  }
  return undefined;
}

// ---- texts -------------------------------------------------------------------------------------

/** How a call is named in the rules' refusals: `command` for bash, `rename` for lsp. */
function callWord(tool: string): string {
  if (tool === "bash") return "command";
  if (tool === "lsp") return "rename";
  return tool;
}

/** A rule as the texts name it: `deny: bash(rm *)`. */
export function ruleName(rule: Pick<Rule, "list" | "text">): string {
  return `${rule.list}: ${rule.text}`;
}

/** What the model reads of a call a deny rule refuses: the rule, and not to try it again. */
export function deniedText(tool: string, rule: Rule): string {
  return `[${callWord(tool)} denied by the permission rule "${
    ruleName(rule)
  }" — it will be denied every time; do not call it again]`;
}

/** What the model reads of a call an ask rule would ask about where nobody can be asked (`-p`). */
export function askRuleRejectedText(tool: string, rule: Rule): string {
  return `[${callWord(tool)} rejected: the permission rule "${
    ruleName(rule)
  }" asks the user, and nobody can be asked in this mode]`;
}

/** What the user is told when "always" added a rule for the session. */
export function sessionRuleText(rule: string): string {
  return `allowed for this session: ${rule}`;
}
