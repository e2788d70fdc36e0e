/**
 * The system prompt (mm.md §5): the agent file's `system` or `systemFile`, else the built-in one,
 * with the project's AGENTS.md appended. A pure function of what the front end's start-up read
 * (lib/frontend/start.ts reads the files).
 */

/** The built-in system prompt; `{cwd}` and `{os}` are filled in. Short: a small model's window is small. */
export const BUILTIN_SYSTEM_PROMPT =
  `You are mm, a coding agent. You work in {cwd} ({os}) through the tools you are given.
- Look before you change: read the files a task touches, run commands to check facts.
- Do what the user asked, then check it worked (run the tests or the program).
- Never claim a result you did not see in a tool's output.
- When done, answer briefly: what you did and what you found.`;

/** What a system prompt is made of. */
export interface PromptParts {
  /** The agent file's `system`, or the text of its `systemFile`; the built-in prompt when absent. */
  system?: string;
  /** The working directory, for the built-in prompt. */
  cwd: string;
  /** The operating system (`linux`, `darwin`, `windows`), for the built-in prompt. */
  os: string;
  /** The text of the project's AGENTS.md, when it has one. */
  agentsMd?: string;
}

/** The system prompt of `parts`. */
export function systemPrompt(parts: PromptParts): string {
  let prompt = parts.system ??
    BUILTIN_SYSTEM_PROMPT.replace("{cwd}", parts.cwd).replace("{os}", parts.os);
  const agents = parts.agentsMd?.trim();
  if (agents) prompt += `\n\n# AGENTS.md\n\n${agents}\n`;
  return prompt;
}

/** The paragraph the system prompt ends with while plan mode is on (docs/security.md, "Plan mode"). */
export const PLAN_MODE_PROMPT = `# Plan mode

Plan mode is on: only reading runs (read_file, lsp, searches, read-only commands like ls, cat, grep, git diff). Any other call is refused. Explore what the task touches, then answer with a short numbered plan: the files to change and how, and how to check it. The user switches plan mode off to carry it out.`;

/** The system prompt `prompt` as plan mode sends it: the plan paragraph after it. */
export function planModePrompt(prompt: string): string {
  return `${prompt.replace(/\n+$/, "")}\n\n${PLAN_MODE_PROMPT}\n`;
}
