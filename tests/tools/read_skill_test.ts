/** read_skill's catalogue: skillsDir, the project's .agents/skills up to the git root, the user's. */

import { join } from "node:path";
import { defaultConfig } from "../../lib/config/config.ts";
import { findSkills, readSkillTool, skillFolders } from "../../tools/read_skill.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { assertEquals } from "../helpers/assert.ts";

async function skill(dir: string, name: string, description: string, body = "") {
  await Deno.mkdir(join(dir, name), { recursive: true });
  await Deno.writeTextFile(
    join(dir, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}`,
  );
}

Deno.test("read_skill: where skills come from", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "mm-skills-" });
  const repo = join(root, "repo");
  const cwd = join(repo, "app");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await Deno.mkdir(cwd, { recursive: true });
  const env = { XDG_CONFIG_HOME: join(root, "xdg") };
  const config = defaultConfig();

  await t.step("the folders, in the order a name clash is settled", () => {
    assertEquals(skillFolders(cwd, config, env), [
      join(cwd, ".mm", "skills"),
      join(cwd, ".agents", "skills"),
      join(repo, ".agents", "skills"),
      join(root, "xdg", "mm", "skills"),
    ]);
  });

  await t.step(
    "the project's win over the global ones; .mm/skills over .agents/skills",
    async () => {
      await skill(join(root, "xdg", "mm", "skills"), "deploy", "Global deploy.", "GLOBAL");
      await skill(join(root, "xdg", "mm", "skills"), "review", "Global review.");
      await skill(join(repo, ".agents", "skills"), "deploy", "Project deploy.", "PROJECT");
      await skill(join(repo, ".agents", "skills"), "release", "Root release.");
      await skill(join(cwd, ".mm", "skills"), "release", "Own release.");
      const found = await findSkills(cwd, config, env);
      assertEquals(found.map((s) => [s.name, s.description]), [
        ["deploy", "Project deploy."],
        ["release", "Own release."],
        ["review", "Global review."],
      ]);
      const tool = readSkillTool(found);
      const ctx = fakeContext({ cwd });
      ctx.fs.read = (path: string) => Deno.readFile(path); // the real files of this test
      const read = await tool.run({ name: "deploy" }, ctx);
      assertEquals(read.output.includes("PROJECT"), true);
      assertEquals(read.locations, [join(repo, ".agents", "skills", "deploy", "SKILL.md")]);
      const global = await tool.run({ name: "review" }, ctx);
      assertEquals(global.locations, [join(root, "xdg", "mm", "skills", "review", "SKILL.md")]);
    },
  );

  await Deno.remove(root, { recursive: true });
});
