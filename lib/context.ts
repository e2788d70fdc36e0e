/** The real tool context: the file system and processes of this machine. */

import type { Config } from "./config/config.ts";
import { realExec } from "./exec.ts";
import { realFiles } from "./files.ts";
import type { ToolContext } from "./tool.ts";

/** The context tools run in for a turn in `cwd`. */
export function realContext(config: Config, cwd: string, signal: AbortSignal): ToolContext {
  return { cwd, config, fs: realFiles(cwd), exec: realExec, http: { fetch }, signal };
}
