/**
 * The built-in tools, in the order they are declared to the model; and the tools' face: what the
 * front ends and commands use of tools/ is exported here.
 */

import type { Config } from "../lib/config/config.ts";
import type { AvailableServers } from "../lib/lsp/servers.ts";
import type { AgentInfo } from "../lib/subagent/ask.ts";
import type { AnyTool } from "../lib/tool.ts";
import { askAgentTool } from "./ask_agent.ts";
import { askUser } from "./ask_user.ts";
import { bash } from "./bash.ts";
import { declaredTool } from "./declared.ts";
import { editFile } from "./edit_file/mod.ts";
import { fetchContent } from "./fetch_content.ts";
import { lsp, lspTool } from "./lsp/mod.ts";
import { readFile } from "./read_file.ts";
import { findSkills, readSkillTool } from "./read_skill.ts";
import { saveAnswer } from "./save_answer.ts";
import { searchMemory } from "./search_memory.ts";
import { unloadModel } from "./unload_model.ts";
import { writeFile } from "./write_file.ts";

// What the front ends and commands use of the tools' insides: they import nothing else of tools/
// (scripts/check_imports.ts).
export { agentName } from "./ask_agent.ts";
export { lspBannerLine } from "./lsp/texts.ts";
export { declarationSize, mcpTools } from "./mcp/mod.ts";
export { mcpTool } from "./mcp/tool.ts";
export { disabledMcpAnswer } from "./mcp/unknown.ts";

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

/** What start-up found that the tools are built for. */
export interface FoundAtStartup {
  /** The configured language servers found on the PATH. */
  lspServers: AvailableServers;
  /** The agents of `mmConfigs`, their files read once. */
  agents: AgentInfo[];
}

/**
 * Every tool of a run, built once at start-up: the built-ins `config` declares (lsp when one of
 * the servers was found), `read_skill` when `skillsDir` holds a skill, `ask_agent` when
 * `mmConfigs` names an agent, and the declared tools of the `tools:` block.
 */
export async function startupTools(
  config: Config,
  cwd: string,
  found: FoundAtStartup,
): Promise<AnyTool[]> {
  const tools = declaredTools(config, found.lspServers);
  const skills = await findSkills(cwd, config);
  if (skills.length) tools.push(readSkillTool(skills));
  if (found.agents.length) tools.push(askAgentTool(found.agents));
  for (const entry of config.tools) tools.push(declaredTool(entry));
  return tools;
}
