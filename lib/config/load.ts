/**
 * The agent file, loaded: the files found and layered (layers.ts), each read with positions
 * (reader.ts) and checked key by key (schema.ts) over the defaults and the environment.
 *
 * A bad agent file is never half-applied: the first fault throws a {@link ConfigError} naming
 * `file:line:column`, the key, what was expected and what was found.
 */
import { type Config, defaultConfig } from "./config.ts";
import type { FindOptions } from "./find.ts";
import { loadLayers } from "./layers.ts";
import { readYaml } from "./reader.ts";
import { readConfig } from "./schema.ts";

export { PROMPT_FILE_LIMIT, TOO_LARGE_REASON } from "./system_file.ts";

/**
 * Every agent file of a run layered, the project's keys that need trust included: what an asked
 * agent's `mm -acp` would read (the child checks trust itself). Built-in defaults (plus
 * `$MM_API_KEY`) without any file.
 */
export function loadConfig(opts: FindOptions): Config {
  return loadLayers(opts).config;
}

/** The defaults of an agent file at `file`, with `$MM_API_KEY`. */
function withEnv(file: string, env: Record<string, string | undefined>): Config {
  const config = defaultConfig();
  config.file = file;
  if (env.MM_API_KEY) config.apiKey = env.MM_API_KEY;
  return config;
}

/** Checks one agent file's text against mm.md §2 and returns the whole, defaulted configuration. */
export function parseConfig(
  text: string,
  file: string,
  env: Record<string, string | undefined>,
): Config {
  return readConfig(readYaml(text, file), withEnv(file, env), env);
}
