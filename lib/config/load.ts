/**
 * The agent file, loaded: found ({@link findConfigFile}), read with positions (reader.ts) and
 * checked key by key (schema.ts) over the defaults and the environment.
 *
 * A bad agent file is never half-applied: the first fault throws a {@link ConfigError} naming
 * `file:line:column`, the key, what was expected and what was found.
 */
import { type Config, defaultConfig } from "./config.ts";
import { ConfigError, errorMessage } from "./errors.ts";
import { findConfigFile, type FindOptions } from "./find.ts";
import { dirname, resolve } from "node:path";
import { type Reader, readYaml } from "./reader.ts";
import { readConfig } from "./schema.ts";

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
  const reader = readYaml(text, file);
  const config = readConfig(reader, withEnv(file, opts.env), opts.env);
  checkSystemFile(reader, config);
  return config;
}

/** The most bytes of `systemFile`, and of `AGENTS.md`, that go into the system prompt: 1 MiB. */
export const PROMPT_FILE_LIMIT = 1024 * 1024;

/** Why a prompt file larger than {@linkcode PROMPT_FILE_LIMIT} is not read. */
export const TOO_LARGE_REASON = "it is larger than the 1 MiB limit";

/**
 * Checks, with the rest of the agent file and before any request, that `systemFile` (relative to
 * the agent file) names a regular file mm may open, of at most {@linkcode PROMPT_FILE_LIMIT}
 * bytes: a fault at its key's position otherwise. The file is opened and closed, not read (the
 * start-up reads it, within the same limit).
 */
function checkSystemFile(reader: Reader, config: Config): void {
  if (config.systemFile === undefined || config.file === undefined) return;
  const path = resolve(dirname(config.file), config.systemFile);
  let reason: string | undefined;
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) reason = "it is a directory";
    else if (!info.isFile) reason = "it is not a regular file";
    else if (info.size > PROMPT_FILE_LIMIT) reason = TOO_LARGE_REASON;
    else Deno.openSync(path, { read: true }).close();
  } catch (err) {
    reason = err instanceof Deno.errors.NotFound ? "no such file" : errorMessage(err);
  }
  if (reason === undefined) return;
  for (const e of reader.dict(reader.root())) {
    if (e.name === "systemFile") {
      reader.fail(e.pos, "systemFile", `systemFile: ${path} cannot be read (${reason})`);
    }
  }
}

/** The defaults of an agent file at `file`, with `$MM_API_KEY`. */
function withEnv(file: string, env: Record<string, string | undefined>): Config {
  const config = defaultConfig();
  config.file = file;
  if (env.MM_API_KEY) config.apiKey = env.MM_API_KEY;
  return config;
}

/** Checks an agent file's text against mm.md §2 and returns the whole, defaulted configuration. */
export function parseConfig(
  text: string,
  file: string,
  env: Record<string, string | undefined>,
): Config {
  return readConfig(readYaml(text, file), withEnv(file, env), env);
}
