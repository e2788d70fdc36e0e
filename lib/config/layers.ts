/**
 * The agent files layered (mm.md §2): built-in defaults (with `$MM_API_KEY`) ← the user's file ←
 * the project's file ← the file of `-c` or `$MM_CONFIG` (flags go over all, overrides.ts). Each
 * file is read over the one before: a scalar it sets wins, maps merge key by key (`mcpServers`,
 * `mmConfigs`, `lsp.servers` and `tools` by name, `hooks` appended per event). Each file is
 * checked on its own, so a fault names the file that holds it. The project file's keys that need
 * trust (trust.ts) are found here; whether the folder is trusted is the caller's to say.
 */
import { dirname, resolve } from "node:path";
import { type Config, defaultConfig } from "./config.ts";
import { ConfigError, errorMessage } from "./errors.ts";
import { findAgentFiles, type FindOptions, type LayerRole } from "./find.ts";
import { type Reader, readYaml } from "./reader.ts";
import { keysSet, readConfig, type TopKey } from "./schema.ts";
import { trustHash, type TrustItem, trustItems, withoutItems } from "./trust.ts";
import { createHash } from "node:crypto";
import { checkSystemFile } from "./system_file.ts";

/** One agent file of the run and the top-level keys it sets. */
export interface LayerFile {
  file: string;
  role: LayerRole;
  keys: TopKey[];
}

/** The project file's keys that need trust, and what the trust record of its folder must hold. */
export interface ProjectTrust {
  file: string;
  /** The project folder: the working directory. */
  folder: string;
  items: TrustItem[];
  /** The hash of its trust-relevant keys (trust.ts). */
  hash: string;
}

/** The agent files of a run, read and layered. */
export interface Layers {
  files: LayerFile[];
  /** Every layer applied, the project's keys that need trust included. */
  config: Config;
  /** The project's file when it has keys that need trust; undefined otherwise. */
  project?: ProjectTrust;
  /** Every layer applied but the project's keys that need trust (as if the user ignored them). */
  withoutProject: Config;
}

/** The keys whose values a trust record's hash covers. */
const TRUST_KEYS: readonly TopKey[] = [
  "hooks",
  "tools",
  "mcpServers",
  "lsp",
  "mmConfigs",
  "yolo",
  "provider",
  "url",
  "apiKey",
  "systemFile",
  "skillsDir",
  "sessions",
  "permissions",
  "sandbox",
  "sandboxNetwork",
];

/** Finds, reads and layers the agent files; a fault throws a ConfigError naming its file. */
export function loadLayers(opts: FindOptions): Layers {
  const base = defaultConfig();
  if (opts.env.MM_API_KEY) base.apiKey = opts.env.MM_API_KEY;
  let config = base;
  let without = base;
  let project: ProjectTrust | undefined;
  const files: LayerFile[] = [];
  for (const found of findAgentFiles(opts)) {
    const reader = readFile(found.file);
    const layer = readLayer(reader, found.file, config, opts.env);
    files.push({ ...found, keys: layer.keys });
    if (found.role === "project") {
      const own = readLayer(reader, found.file, base, opts.env).config;
      const items = trustItems({
        keys: layer.keys,
        own,
        before: config,
        after: layer.config,
        folder: opts.cwd,
        agents: layer.keys.includes("mmConfigs") ? agentItems(own, base, opts.env) : undefined,
      });
      if (items.length) {
        const values = trustValues(reader);
        if (layer.keys.includes("mmConfigs")) values.mmConfigsFiles = agentFileHashes(own);
        project = {
          file: found.file,
          folder: opts.cwd,
          items,
          hash: trustHash(found.file, values),
        };
        without = withoutItems(layer.config, config, items);
      } else without = layer.config;
    } else {
      without = project ? readLayer(reader, found.file, without, opts.env).config : layer.config;
    }
    config = layer.config;
  }
  return { files, config, project, withoutProject: without };
}

function readFile(file: string): Reader {
  let text: string;
  try {
    text = Deno.readTextFileSync(file);
  } catch (err) {
    throw new ConfigError(file, 0, 0, "", `the agent file cannot be read: ${errorMessage(err)}`);
  }
  return readYaml(text, file);
}

/**
 * One file read over `before`: its paths made absolute from its own folder (`systemFile`, the
 * files of `mmConfigs`), and a `system` or `systemFile` it sets replacing the other.
 */
function readLayer(
  reader: Reader,
  file: string,
  before: Config,
  env: Record<string, string | undefined>,
): { config: Config; keys: TopKey[] } {
  const start: Config = structuredClone(before);
  start.file = file;
  const priorAgents = start.mmConfigs;
  const config = readConfig(reader, start, env);
  const keys = keysSet(reader);
  const dir = dirname(file);
  if (keys.includes("system")) delete config.systemFile;
  if (keys.includes("systemFile") && config.systemFile !== undefined) {
    delete config.system;
    checkSystemFile(reader, config.systemFile, file);
    config.systemFile = resolve(dir, config.systemFile);
  }
  for (const [name, ref] of Object.entries(config.mmConfigs)) {
    if (priorAgents[name] !== ref) {
      config.mmConfigs[name] = { ...ref, file: resolve(dir, ref.file) };
    }
  }
  return { config, keys };
}

/** The values the project file writes for the keys a trust record covers. */
function trustValues(reader: Reader): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const e of reader.dict(reader.root())) {
    if (!(TRUST_KEYS as readonly string[]).includes(e.name)) continue;
    const value = reader.plain(e);
    if (e.name === "sessions") values[e.name] = (value as { dir?: unknown } | null)?.dir ?? null;
    else if (e.name === "permissions") {
      values[e.name] = (value as { allow?: unknown } | null)?.allow ?? null;
    } else values[e.name] = value;
  }
  return values;
}

/**
 * What the agent file of each of `own`'s `mmConfigs` would run and reach, read alone over the
 * defaults (what `mm trust` lists under the agent); nothing for a file that cannot be read.
 */
function agentItems(
  own: Config,
  base: Config,
  env: Record<string, string | undefined>,
): Record<string, TrustItem[]> {
  const out: Record<string, TrustItem[]> = {};
  for (const [name, agent] of Object.entries(own.mmConfigs)) {
    try {
      const layer = readLayer(readFile(agent.file), agent.file, base, env);
      out[name] = trustItems({
        keys: layer.keys,
        own: layer.config,
        before: base,
        after: layer.config,
        folder: dirname(agent.file),
      });
    } catch {
      out[name] = []; // missing or broken: the asked agent fails when it starts
    }
  }
  return out;
}

/** The SHA-256 of the bytes of each `mmConfigs` file of `own`, or `missing`: part of the trust hash. */
function agentFileHashes(own: Config): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, agent] of Object.entries(own.mmConfigs)) {
    try {
      out[name] = createHash("sha256").update(Deno.readFileSync(agent.file)).digest("hex");
    } catch {
      out[name] = "missing";
    }
  }
  return out;
}
