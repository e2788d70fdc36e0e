/** The built-in tools, in the order they are declared to the model. */

import { resolve } from "node:path";
import type { Config } from "../lib/config/config.ts";
import type { AvailableServers } from "../lib/lsp/servers.ts";
import type { AnyTool } from "../lib/tool.ts";
import { askAgentTool } from "./ask_agent.ts";
import { askUser } from "./ask_user.ts";
import { bash } from "./bash.ts";
import { declaredTool } from "./declared.ts";
import { editFile } from "./edit_file.ts";
import { fetchContent } from "./fetch_content.ts";
import { lsp, lspTool } from "./lsp/mod.ts";
import { readFile } from "./read_file.ts";
import { readSkillTool, scanSkills } from "./read_skill.ts";
import { saveAnswer } from "./save_answer.ts";
import { searchMemory } from "./search_memory.ts";
import { unloadModel } from "./unload_model.ts";
import { writeFile } from "./write_file.ts";

/** The built-in tools, in the order they are declared to the model, with `lspEntry` as lsp. */
function builtinTools(lspEntry: AnyTool): AnyTool[] {
  return [
    bash,
    readFile,
    writeFile,
    editFile,
    lspEntry,
    askUser,
    searchMemory,
    saveAnswer,
    fetchContent,
    unloadModel,
  ];
}

/** Every built-in tool this version has (lsp as before discovery, never declared). */
export const BUILTIN_TOOLS: readonly AnyTool[] = builtinTools(lsp);

/** The tools `config` declares; lsp only with `lspServers`, the servers found at start-up. */
export function declaredTools(config: Config, lspServers?: AvailableServers): AnyTool[] {
  return builtinTools(lspServers ? lspTool(lspServers) : lsp).filter((t) => t.declared(config));
}

/**
 * Every tool of a run, built once at start-up: the built-ins `config` declares (lsp when one of
 * `lspServers` was found), `read_skill` when `skillsDir` holds a skill, `ask_agent` when
 * `mmConfigs` names an agent, and the declared tools of the `tools:` block.
 */
export async function startupTools(
  config: Config,
  cwd: string,
  lspServers: AvailableServers,
): Promise<AnyTool[]> {
  const tools = declaredTools(config, lspServers);
  const skills = await scanSkills(resolve(cwd, config.skillsDir));
  if (skills.length) tools.push(readSkillTool(skills));
  if (Object.keys(config.mmConfigs).length) tools.push(askAgentTool(config));
  for (const entry of config.tools) tools.push(declaredTool(entry));
  return tools;
}
