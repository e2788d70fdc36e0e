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
import { readYaml } from "./reader.ts";
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
  return parseConfig(text, file, opts.env);
}

/** Checks an agent file's text against mm.md §2 and returns the whole, defaulted configuration. */
export function parseConfig(
  text: string,
  file: string,
  env: Record<string, string | undefined>,
): Config {
  const reader = readYaml(text, file);
  const config = defaultConfig();
  config.file = file;
  if (env.MM_API_KEY) config.apiKey = env.MM_API_KEY;
  return readConfig(reader, config, env);
}
