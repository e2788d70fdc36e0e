/**
 * read_skill (tools.md, `read_skill`): the skills of `skillsDir`, of the project's `.agents/skills`
 * (from the working directory up to the git root) and of the user's `~/.config/mm/skills`, read by
 * name; on a name found twice, the first in that order wins.
 */

import { basename, join, resolve } from "node:path";
import type { Config } from "../lib/config/config.ts";
import { projectFolders, userFolder } from "../lib/project_folders.ts";
import { errorReason } from "../lib/files.ts";
import { truncateMiddle } from "../lib/text.ts";
import type { AnyTool, Tool } from "../lib/tool.ts";
import { READ_LIMIT } from "./_files.ts";

/** One skill of the catalogue. */
export interface Skill {
  name: string;
  description: string;
  /** The file's path relative to the skills directory: `<name>.md` or `<name>/SKILL.md`. */
  file: string;
  /** The skills directory it was found in (absolute); absent: `skillsDir` of the working directory. */
  dir?: string;
}

/** The fixed sentence that opens the tool's description, before the catalogue. */
export const READ_SKILL_DESCRIPTION =
  "Read a skill: instructions for a kind of task. Read the one that fits before starting. Skills:";

/** What the model reads for a name that is not in the catalogue. */
export function unknownSkillText(name: string, skills: Skill[]): string {
  return `No skill named "${name}". Available skills: ${skills.map((s) => s.name).join(", ")}`;
}

/** What the model reads when a skill's file cannot be read (`it is a named pipe, not a file`). */
export function skillErrorText(file: string, reason: string): string {
  return `[read_skill: cannot read ${file}: ${reason}]`;
}

/** A skill's description: its front matter's `description`, else its first heading, else its first line. */
export function skillDescription(markdown: string): string {
  const text = markdown.replace(/^\uFEFF/, "");
  const front = text.match(/^---\r?\n([\s\S]*?)\r?\n---/);
  if (front) {
    const d = front[1].match(/^description:\s*(.+)$/m);
    if (d) return d[1].trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  const body = front ? text.slice(front[0].length) : text;
  const heading = body.match(/^#{1,6}\s+(.+)$/m);
  if (heading) return heading[1].trim();
  return body.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
}

/** The skills of `dir`, sorted by name; a flat `<name>.md` wins over `<name>/SKILL.md`. */
export async function scanSkills(dir: string): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  const folders: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".md")) {
        const name = e.name.slice(0, -3);
        found.set(name, { name, file: e.name, description: await describe(join(dir, e.name)) });
      } else if (e.isDirectory) folders.push(e.name);
    }
  } catch {
    return [];
  }
  for (const name of folders) {
    if (found.has(name)) continue;
    const file = join(name, "SKILL.md");
    try {
      found.set(name, { name, file, description: await describe(join(dir, file)) });
    } catch {
      // A folder without SKILL.md is not a skill.
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** mm's environment, or an empty one without the env permission. */
function ownEnv(): Record<string, string | undefined> {
  try {
    return Deno.env.toObject();
  } catch {
    return {};
  }
}

/**
 * The folders skills of `cwd` come from, the first winning a name clash: `skillsDir`, each
 * `.agents/skills` from `cwd` up to its git root (the nearest first), the user's `mm/skills`.
 */
export function skillFolders(
  cwd: string,
  config: Config,
  env: Record<string, string | undefined> = ownEnv(),
): string[] {
  const folders = [resolve(cwd, config.skillsDir)];
  for (const dir of projectFolders(cwd).reverse()) folders.push(join(dir, ".agents", "skills"));
  const user = userFolder(env);
  if (user !== undefined) folders.push(join(user, "skills"));
  return [...new Set(folders)];
}

/** The skills of every folder of {@linkcode skillFolders}, sorted by name; the first of a name wins. */
export async function findSkills(
  cwd: string,
  config: Config,
  env?: Record<string, string | undefined>,
): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  for (const dir of skillFolders(cwd, config, env)) {
    for (const skill of await scanSkills(dir)) {
      if (!found.has(skill.name)) found.set(skill.name, { ...skill, dir });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function describe(path: string): Promise<string> {
  return skillDescription(await Deno.readTextFile(path));
}

/** Input of read_skill. */
export interface ReadSkillInput {
  name: string;
}

/** The read_skill tool for the skills found in `skillsDir` at start-up. */
export function readSkillTool(skills: Skill[]): AnyTool {
  const catalogue = skills.map((s) => `  ${s.name} — ${s.description}`).join("\n");
  const tool: Tool<ReadSkillInput> = {
    name: "read_skill",
    kind: "read",
    emoji: "📖",
    asks: false,
    counter: "skills",
    preview: false,
    declared: () => skills.length > 0,
    description: `${READ_SKILL_DESCRIPTION}\n${catalogue}`,
    parameters: {
      name: {
        type: "string",
        description: "Skill name, exactly as listed in the tool description.",
      },
    },
    summary: (input) => input.name,
    async run(input, ctx) {
      const name = basename(input.name.trim()).replace(/\.md$/, "");
      const skill = skills.find((s) => s.name === name);
      if (!skill) return { output: unknownSkillText(input.name, skills), failed: true };
      const path = skill.dir
        ? join(skill.dir, skill.file)
        : resolve(ctx.cwd, ctx.config.skillsDir, skill.file);
      let bytes: Uint8Array | undefined;
      try {
        bytes = await ctx.fs.read(path, READ_LIMIT + 1);
      } catch (err) {
        return { output: skillErrorText(skill.file, errorReason(err)), failed: true };
      }
      if (bytes === undefined) {
        return { output: unknownSkillText(input.name, skills), failed: true };
      }
      const text = new TextDecoder().decode(bytes);
      return { output: truncateMiddle(text, ctx.config.maxOutput), locations: [path] };
    },
  };
  return tool;
}
