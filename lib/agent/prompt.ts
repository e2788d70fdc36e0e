/** The system prompt: the agent file's, else the built-in one, with AGENTS.md appended. */

import { join, resolve } from "node:path";
import type { Config } from "../config/config.ts";
import { ConfigError } from "../config/errors.ts";

/** The built-in system prompt; `{cwd}` and `{os}` are filled in. Short: a small model's window is small. */
export const BUILTIN_SYSTEM_PROMPT =
  `You are mm, a coding agent. You work in {cwd} ({os}) through the tools you are given.
- Look before you change: read the files a task touches, run commands to check facts.
- Do what the user asked, then check it worked (run the tests or the program).
- Never claim a result you did not see in a tool's output.
- When done, answer briefly: what you did and what you found.`;

/** The system prompt for a turn in `cwd`. Reads `systemFile` and `AGENTS.md` when present. */
export async function systemPrompt(config: Config, cwd: string): Promise<string> {
  let prompt: string;
  if (config.system !== undefined) prompt = config.system;
  else if (config.systemFile !== undefined) {
    const base = config.file ? resolve(config.file, "..") : cwd;
    const path = resolve(base, config.systemFile);
    try {
      prompt = await Deno.readTextFile(path);
    } catch (e) {
      const reason = e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message;
      throw new ConfigError(
        config.file ?? path,
        0,
        0,
        "systemFile",
        `systemFile: ${path} cannot be read (${reason})`,
      );
    }
  } else {
    prompt = BUILTIN_SYSTEM_PROMPT.replace("{cwd}", cwd).replace("{os}", Deno.build.os);
  }
  try {
    const agents = await Deno.readTextFile(join(cwd, "AGENTS.md"));
    if (agents.trim()) prompt += `\n\n# AGENTS.md\n\n${agents.trim()}\n`;
  } catch {
    // No AGENTS.md: nothing to append.
  }
  return prompt;
}
