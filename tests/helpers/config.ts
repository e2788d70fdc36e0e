/** Agent files for the config tests: parsed as `mm.yaml`, their faults, a temporary tree. */

import { join } from "node:path";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { assertThrows } from "./assert.ts";

/** Parses `text` as `mm.yaml` with an empty environment. */
export function parse(text: string, env: Record<string, string | undefined> = {}): Config {
  return parseConfig(text, "mm.yaml", env);
}

/** The message of the ConfigError that parsing `text` throws. */
export function fault(text: string): string {
  return assertThrows(() => parse(text), ConfigError).message;
}

/** The defaults plus `file: "mm.yaml"` plus `changes`. */
export function withDefaults(changes: Partial<Config>): Config {
  return { ...defaultConfig(), file: "mm.yaml", ...changes };
}

/** A temporary tree: `files` maps relative paths to contents. */
export async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "mm-config-" });
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return root;
}
