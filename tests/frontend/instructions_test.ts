/** AGENTS.md from the whole repository: global, git root down, CLAUDE.md, 32 KiB, the banner. */

import { join } from "node:path";
import {
  agentsMdText,
  cutNote,
  INSTRUCTIONS_LIMIT,
  readInstructions,
} from "../../lib/frontend/instructions.ts";
import { banner } from "../../lib/frontend/terminal/banner.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { TOO_LARGE_REASON } from "../../lib/config/load.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";

/** A git repository `repo/` with `repo/sub/deep`, and a home with its config folder. */
async function layout() {
  const root = await Deno.makeTempDir({ prefix: "mm-instructions-" });
  const repo = join(root, "repo");
  await Deno.mkdir(join(repo, ".git"), { recursive: true });
  await Deno.mkdir(join(repo, "sub", "deep"), { recursive: true });
  await Deno.mkdir(join(root, "home", ".config", "mm"), { recursive: true });
  const env = { HOME: join(root, "home") };
  return { root, repo, env };
}

Deno.test("instructions", async (t) => {
  await t.step(
    "global, then the git root down to the working directory; CLAUDE.md fills in",
    async () => {
      const { root, repo, env } = await layout();
      await Deno.writeTextFile(join(root, "AGENTS.md"), "Outside the repository.");
      await Deno.writeTextFile(join(root, "home", ".config", "mm", "AGENTS.md"), "Global.");
      await Deno.writeTextFile(join(repo, "AGENTS.md"), "Root.");
      await Deno.writeTextFile(join(repo, "CLAUDE.md"), "Root's CLAUDE.md: not read.");
      await Deno.writeTextFile(join(repo, "sub", "CLAUDE.md"), "Sub, from CLAUDE.md.");
      await Deno.writeTextFile(join(repo, "sub", "deep", "AGENTS.md"), "Deep.");
      const got = await readInstructions(join(repo, "sub", "deep"), env);
      assertEquals(got.files, [
        "~/.config/mm/AGENTS.md",
        "AGENTS.md",
        "sub/CLAUDE.md",
        "sub/deep/AGENTS.md",
      ]);
      assertEquals(
        got.text,
        "## ~/.config/mm/AGENTS.md\n\nGlobal.\n\n## AGENTS.md\n\nRoot.\n\n" +
          "## sub/CLAUDE.md\n\nSub, from CLAUDE.md.\n\n## sub/deep/AGENTS.md\n\nDeep.",
      );
      assertEquals(got.warnings, []);
      // XDG_CONFIG_HOME names the global folder.
      await Deno.mkdir(join(root, "xdg", "mm"), { recursive: true });
      await Deno.writeTextFile(join(root, "xdg", "mm", "AGENTS.md"), "XDG.");
      const xdg = await readInstructions(repo, { ...env, XDG_CONFIG_HOME: join(root, "xdg") });
      assertEquals(xdg.files, [join(root, "xdg", "mm", "AGENTS.md"), "AGENTS.md"]);
      await Deno.remove(root, { recursive: true });
    },
  );

  await t.step("one file alone is its text, as before; none is nothing", async () => {
    const { root, repo, env } = await layout();
    assertEquals(await readInstructions(repo, env), { text: "", files: [], warnings: [] });
    await Deno.writeTextFile(join(repo, "AGENTS.md"), "Use tabs.\n");
    assertEquals((await readInstructions(join(repo, "sub"), env)).text, "Use tabs.");
    await Deno.remove(root, { recursive: true });
  });

  await t.step("outside a repository, the working directory's alone", async () => {
    const root = await Deno.makeTempDir({ prefix: "mm-instructions-" });
    await Deno.mkdir(join(root, "a", "b"), { recursive: true });
    await Deno.writeTextFile(join(root, "a", "AGENTS.md"), "Parent.");
    await Deno.writeTextFile(join(root, "a", "b", "AGENTS.md"), "Here.");
    const got = await readInstructions(join(root, "a", "b"), {});
    assertEquals([got.files, got.text], [["AGENTS.md"], "Here."]);
    await Deno.remove(root, { recursive: true });
  });

  await t.step(
    "32 KiB in all: the file that crosses it is cut with a note, later ones not read",
    async () => {
      const { root, repo, env } = await layout();
      await Deno.writeTextFile(join(repo, "AGENTS.md"), "r".repeat(20_000));
      await Deno.writeTextFile(join(repo, "sub", "AGENTS.md"), "s".repeat(20_000));
      await Deno.writeTextFile(join(repo, "sub", "deep", "AGENTS.md"), "Never read.");
      const got = await readInstructions(join(repo, "sub", "deep"), env);
      assertEquals(got.files, ["AGENTS.md", "sub/AGENTS.md"]);
      assertEquals(got.text.endsWith(`\n\n${cutNote("sub/AGENTS.md")}`), true);
      const body = got.text.slice(0, -(cutNote("sub/AGENTS.md").length + 2));
      assertEquals(new TextEncoder().encode(body).length, INSTRUCTIONS_LIMIT);
      assertEquals(got.text.includes("Never read."), false);
      assertEquals(
        cutNote("x.md"),
        "[mm: the instructions are cut here, at 32 KiB in all: the rest of x.md and any file after it are not read]",
      );
      await Deno.remove(root, { recursive: true });
    },
  );

  await t.step("a file over 1 MiB is refused with a warning, the others still read", async () => {
    const { root, repo, env } = await layout();
    await Deno.writeTextFile(join(repo, "AGENTS.md"), "x".repeat(1024 * 1024 + 1));
    await Deno.writeTextFile(join(repo, "sub", "AGENTS.md"), "Sub.");
    const got = await readInstructions(join(repo, "sub"), env);
    assertEquals(got.warnings, [agentsMdText(join(repo, "AGENTS.md"), TOO_LARGE_REASON)]);
    assertEquals([got.files, got.text], [["sub/AGENTS.md"], "Sub."]);
    await Deno.remove(root, { recursive: true });
  });

  await t.step("the banner names the files read", () => {
    const text = banner(defaultConfig(), "m", ["bash"], undefined, undefined, [
      "~/.config/mm/AGENTS.md",
      "AGENTS.md",
    ]);
    assertStringIncludes(text, "\ninstructions: ~/.config/mm/AGENTS.md, AGENTS.md\n");
    assertEquals(banner(defaultConfig(), "m", ["bash"]).includes("instructions:"), false);
  });
});
