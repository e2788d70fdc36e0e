/** The real tool context: the file system and processes of this machine. */

import type { Config } from "./config/config.ts";
import { execFor } from "./exec/run.ts";
import { realFiles } from "./files.ts";
import type { Lsp, ToolContext } from "./tool.ts";

/** The context tools run in for a turn in `cwd`; `lsp` is the session's language servers. */
export function realContext(
  config: Config,
  cwd: string,
  signal: AbortSignal,
  lsp?: Lsp,
): ToolContext {
  return { cwd, config, fs: realFiles(cwd), exec: execFor(config), http: { fetch }, signal, lsp };
}
