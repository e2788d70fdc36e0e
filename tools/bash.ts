/** bash: one shell command, `bash -c <command>`, output merged and truncated (tools.md, `bash`). */

import type { Tool } from "../lib/tool.ts";
import { commandOutput } from "./_command.ts";

/** Input of bash, after coercion. */
export interface BashInput {
  command: string;
}

/** The tool's description, as the model reads it. */
export const BASH_DESCRIPTION =
  "Run a shell command with bash -c in the working directory. stdout and stderr are merged; no stdin.";

/** The `command` field's description (tools.md, `bash`). */
export const COMMAND_DESCRIPTION = "The shell command to run.";

/** The output when bash itself cannot be started. */
export function startErrorText(reason: string): string {
  return `[error: bash cannot be started: ${reason}]`;
}

/** bash: runs `bash -c <command>` in the working directory, with the configured timeout. */
export const bash: Tool<BashInput> = {
  name: "bash",
  kind: "execute",
  emoji: "🛠️",
  asks: true,
  touches: () => "tree",
  counter: "commands",
  declared: (config) => config.bashTool,
  description: BASH_DESCRIPTION,
  parameters: {
    command: { type: "string", description: COMMAND_DESCRIPTION, aliases: ["cmd"] },
  },
  summary: (input) => input.command,
  async run(input, ctx) {
    const timeout = ctx.config.bashTimeout;
    const result = await ctx.exec.run({
      argv: ["bash", "-c", input.command],
      cwd: ctx.cwd,
      timeout,
      signal: ctx.signal,
    });
    if (result.startError !== undefined) {
      return { output: startErrorText(result.startError), failed: true };
    }
    return commandOutput(result, timeout, ctx.config.maxOutput);
  },
};
