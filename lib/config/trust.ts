/**
 * Which keys of a project's agent file need the user's trust (mm.md §2, docs/security.md): those
 * that run programs (`hooks`, `tools`, `mcpServers`, `lsp`, `mmConfigs`), that let calls run
 * unasked (`yolo: true`, `permissions.allow`) or loosen the sandbox (`sandbox`, `sandboxNetwork`),
 * that send the key or the conversation to another machine (`url`,
 * `apiKey`, `provider` to a host that is not loopback), or that read or write outside the project
 * folder (`systemFile`, `skillsDir`, `sessions.dir`: judged on real paths, symbolic links
 * followed). Pure but for those real paths: the layers hand it what they read.
 */
import { UserError } from "../presentation.ts";
import { createHash } from "node:crypto";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { type Config, SANDBOX_MODES, type SandboxMode } from "./config.ts";
import type { TopKey } from "./schema.ts";

/** One thing a project file would do that needs trust. */
export interface TrustItem {
  /** The top-level key that says it (`hooks`, `url`…). */
  key: TopKey;
  /** What it runs, reaches or widens: `hooks.preGeneration: sh -c …`, `evil.example (url)`. */
  text: string;
  /** `runs`: a program; `host`: a machine it connects to; `widens`: more access. */
  kind: "runs" | "host" | "widens";
}

/** What the trust check reads of a project file. */
export interface ProjectRead {
  /** The top-level keys the file sets. */
  keys: readonly TopKey[];
  /** The file read alone over the defaults: its own hooks, tools, servers… */
  own: Config;
  /** The configuration before it (defaults and the user's file), and with it. */
  before: Config;
  after: Config;
  /** The project folder (the working directory). */
  folder: string;
  /** What the agent file of each of its `mmConfigs` would do, by the agent's name. */
  agents?: Record<string, readonly TrustItem[]>;
}

/** The items of a project file that need trust, in key order; empty when it needs none. */
export function trustItems(p: ProjectRead): TrustItem[] {
  const items: TrustItem[] = [];
  const has = (k: TopKey) => p.keys.includes(k);
  const add = (key: TopKey, kind: TrustItem["kind"], text: string) =>
    items.push({ key, kind, text });
  if (has("hooks")) {
    for (const [event, hooks] of Object.entries(p.own.hooks)) {
      for (const h of hooks ?? []) add("hooks", "runs", `hooks.${event}: ${argv(h.command)}`);
    }
  }
  if (has("tools")) {
    for (const t of p.own.tools) add("tools", "runs", `tools.${t.name}: ${argv(t.command)}`);
  }
  if (has("mcpServers")) {
    for (const [name, s] of Object.entries(p.own.mcpServers)) {
      if (s.type === "stdio") add("mcpServers", "runs", `mcpServers.${name}: ${argv(s.command)}`);
      else add("mcpServers", "host", `${hostOf(s.url ?? "")} (mcpServers.${name})`);
    }
  }
  if (has("lsp")) {
    for (const s of p.own.lsp.servers) {
      add("lsp", "runs", `lsp.servers.${s.name}: ${argv([s.command, ...s.args])}`);
    }
  }
  if (has("mmConfigs")) {
    for (const [name, a] of Object.entries(p.own.mmConfigs)) {
      add("mmConfigs", "runs", `mmConfigs.${name}: mm with the agent file ${a.file}`);
      for (const i of p.agents?.[name] ?? []) {
        add("mmConfigs", i.kind, `mmConfigs.${name} › ${i.text}`);
      }
    }
  }
  if (has("yolo") && p.own.yolo) {
    add("yolo", "widens", "yolo: true (the model's calls run without asking)");
  }
  const urlChanged = p.after.url !== p.before.url && !isLoopback(p.after.url);
  if (has("url") && urlChanged) add("url", "host", `${hostOf(p.after.url)} (url)`);
  else if (has("provider") && urlChanged) {
    add("provider", "host", `${hostOf(p.after.url)} (provider ${p.after.provider})`);
  }
  if (has("apiKey") && !isLoopback(p.after.url)) {
    add("apiKey", "widens", `apiKey: sent to ${hostOf(p.after.url)}`);
  }
  if (has("permissions")) {
    for (const rule of p.own.permissions.allow) {
      add("permissions", "widens", `permissions.allow: ${rule}`);
    }
  }
  if (has("sandbox") && looser(p.after.sandbox, p.before.sandbox)) {
    add("sandbox", "widens", `sandbox: ${p.after.sandbox} (looser than ${p.before.sandbox})`);
  }
  if (has("sandboxNetwork") && p.after.sandboxNetwork && !p.before.sandboxNetwork) {
    add("sandboxNetwork", "widens", "sandboxNetwork: true (the network back under the sandbox)");
  }
  const outside = (key: TopKey, label: string, path: string | undefined) => {
    if (path !== undefined && isOutside(p.folder, path)) {
      add(key, "widens", `${label}: ${resolve(p.folder, path)} (outside this folder)`);
    }
  };
  if (has("systemFile")) outside("systemFile", "systemFile", p.own.systemFile);
  if (has("skillsDir")) outside("skillsDir", "skillsDir", p.own.skillsDir);
  if (has("sessions") && p.own.sessions.dir !== p.before.sessions.dir) {
    outside("sessions", "sessions.dir", p.own.sessions.dir);
  }
  return items;
}

/** The top-level keys of `items`, each once, in order: what a refusal names. */
export function trustKeys(items: readonly TrustItem[]): TopKey[] {
  return [...new Set(items.map((i) => i.key))];
}

/**
 * The hash a trust record keeps: of the project file's path and of the values its trust-relevant
 * keys are written with (with the bytes of each `mmConfigs` file among them), so that a change of
 * any of them makes the folder untrusted again.
 */
export function trustHash(file: string, values: Record<string, unknown>): string {
  return createHash("sha256").update(stableJson({ file, values })).digest("hex");
}

/** `before` with `after`'s values of the trust-relevant keys left out: the project's keys ignored. */
export function withoutItems(after: Config, before: Config, items: readonly TrustItem[]): Config {
  const out: Config = { ...after };
  for (const key of trustKeys(items)) {
    if (key === "sessions") out.sessions = { ...after.sessions, dir: before.sessions.dir };
    else if (key === "provider") {
      out.provider = before.provider;
      out.url = before.url;
    } else if (key === "systemFile") {
      out.systemFile = before.systemFile;
      out.system = before.system;
    } else if (key === "permissions") {
      out.permissions = { ...after.permissions, allow: before.permissions.allow };
    } else setKey(out, before, key);
  }
  return out;
}

/** Whether sandbox mode `a` confines less than `b` (off < workspace < readonly). */
export function looser(a: SandboxMode, b: SandboxMode): boolean {
  return SANDBOX_MODES.indexOf(a) < SANDBOX_MODES.indexOf(b);
}

function setKey<K extends TopKey>(out: Config, from: Config, key: K): void {
  out[key] = from[key];
}

/** Whether `url`'s host is this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" ||
    /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether `path` (relative to `folder`) is outside `folder`, both taken as real paths: a symbolic
 * link inside the folder to a file or folder outside it (`prompt.md -> ~/.ssh/id_rsa`) is outside.
 */
export function isOutside(folder: string, path: string): boolean {
  const real = realPath(isAbsolute(path) ? path : `${folder}${sep}${path}`);
  const rel = relative(realPath(folder), real);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * `path` (absolute) as the system resolves it: each component in turn, a symbolic link followed
 * where one exists, `..` taken from the real folder reached so far (never lexically before a link);
 * what does not exist yet is kept as written. Without read permission, the path as written.
 */
export function realPath(path: string): string {
  let current = resolve(sep);
  for (const part of path.split(/[\\/]+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      current = resolve(current, "..");
      continue;
    }
    const next = join(current, part);
    try {
      current = Deno.realPathSync(next);
    } catch {
      current = next; // not there (yet), or not readable: as written
    }
  }
  return current;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function argv(command: readonly string[]): string {
  return command.map((a) => /^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a)).join(" ");
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as Record<string, unknown>).sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A project file with keys that need trust, in a folder the user has not trusted: exit code 2. */
export class TrustError extends UserError {
  /** `message`: {@linkcode untrustedText}. */
  constructor(message: string) {
    super(message, 2);
    this.name = "TrustError";
  }
}

/**
 * Why a project file is not applied: `<file> sets hooks, mcpServers, which run programs, connect to
 * other hosts or widen access, and this folder is not trusted — check them, then run mm trust (or
 * mm --trust for this run only)`.
 */
export function untrustedText(file: string, items: readonly TrustItem[]): string {
  return `${file} sets ${
    trustKeys(items).join(", ")
  }, which run programs, connect to other hosts or widen access, and this folder is not trusted — check them, then run mm trust (or mm --trust for this run only)`;
}

/** What a project file would run and reach, one line each, indented: what `mm trust` shows. */
export function trustLines(items: readonly TrustItem[]): string[] {
  const lines: string[] = [];
  const group = (kind: TrustItem["kind"], title: string) => {
    const of = items.filter((i) => i.kind === kind);
    if (of.length) lines.push(title, ...of.map((i) => `  ${i.text}`));
  };
  group("runs", "It runs:");
  group("host", "It connects to:");
  group("widens", "It widens access:");
  return lines;
}
