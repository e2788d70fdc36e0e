/** The built-in tools, in the order they are declared to the model. */

import type { Config } from "../lib/config/config.ts";
import type { AnyTool } from "../lib/tool.ts";
import { bash } from "./bash.ts";
import { readFile } from "./read_file.ts";
import { writeFile } from "./write_file.ts";

/** Every built-in tool this version has. */
export const BUILTIN_TOOLS: readonly AnyTool[] = [bash, readFile, writeFile];

/** The tools `config` declares. */
export function declaredTools(config: Config): AnyTool[] {
  return BUILTIN_TOOLS.filter((t) => t.declared(config));
}
