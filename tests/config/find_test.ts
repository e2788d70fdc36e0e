/** Where the agent files are found (lib/config/find.ts): the user's, the project's, -c or $MM_CONFIG. */

import { join } from "node:path";
import { ConfigError } from "../../lib/config/errors.ts";
import { findAgentFiles, type FindOptions } from "../../lib/config/find.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { tree } from "../helpers/config.ts";

/** The files found, as `role path` lines. */
function found(opts: FindOptions): string[] {
  return findAgentFiles(opts).map((f) => `${f.role} ${f.file}`);
}

Deno.test("findAgentFiles: the layers", async (t) => {
  const root = await tree({
    "proj/mm.yaml": "",
    "proj/.mm/mm.yaml": "",
    "proj/custom.yaml": "",
    "other/mm.yaml": "",
    "xdg/mm/mm.yaml": "",
    "home/.config/mm/mm.yaml": "",
    "env.yaml": "",
    "empty/.keep": "",
    "home2/.keep": "",
  });
  const proj = join(root, "proj");
  const home = join(root, "home");
  const xdg = join(root, "xdg");
  const user = join(xdg, "mm/mm.yaml");
  try {
    await t.step("the user's, the project's, then -c (over $MM_CONFIG)", () => {
      const env = { MM_CONFIG: join(root, "env.yaml"), XDG_CONFIG_HOME: xdg };
      assertEquals(found({ flag: "custom.yaml", env, cwd: proj, home }), [
        `user ${user}`,
        `project ${join(proj, ".mm/mm.yaml")}`,
        `named ${join(proj, "custom.yaml")}`,
      ]);
    });
    await t.step("a relative -c or $MM_CONFIG starts at base (editor mode's start folder)", () => {
      const cwd = join(root, "other");
      assertEquals(found({ flag: "custom.yaml", env: {}, cwd, base: proj, home }), [
        `user ${join(home, ".config/mm/mm.yaml")}`,
        `project ${join(cwd, "mm.yaml")}`,
        `named ${join(proj, "custom.yaml")}`,
      ]);
      assertEquals(
        found({ env: { MM_CONFIG: "../env.yaml" }, cwd, base: proj, home }).at(-1),
        `named ${join(root, "env.yaml")}`,
      );
    });
    await t.step("-c with an absolute path", () => {
      const file = join(root, "env.yaml");
      assertEquals(found({ flag: file, env: {}, cwd: join(root, "empty"), home }), [
        `user ${join(home, ".config/mm/mm.yaml")}`,
        `named ${file}`,
      ]);
    });
    await t.step("-c with ~/ naming the user's file: one layer, the named one", () => {
      assertEquals(
        found({ flag: "~/.config/mm/mm.yaml", env: {}, cwd: join(root, "empty"), home }),
        [
          `named ${join(home, ".config/mm/mm.yaml")}`,
        ],
      );
    });
    await t.step("-c naming the project's file: one layer, the named one", () => {
      assertEquals(found({ flag: "mm.yaml", env: {}, cwd: join(root, "other"), home: root }), [
        `named ${join(root, "other/mm.yaml")}`,
      ]);
    });
    await t.step("$MM_CONFIG when no -c", () => {
      const env = { MM_CONFIG: "../env.yaml", XDG_CONFIG_HOME: xdg };
      assertEquals(found({ env, cwd: proj, home }).at(-1), `named ${join(root, "env.yaml")}`);
    });
    await t.step("an empty $MM_CONFIG is unset", () => {
      assertEquals(found({ env: { MM_CONFIG: "" }, cwd: join(root, "empty"), home: root }), []);
    });
    await t.step("./.mm/mm.yaml before ./mm.yaml", () => {
      assertEquals(found({ env: {}, cwd: proj, home: root }), [
        `project ${join(proj, ".mm/mm.yaml")}`,
      ]);
    });
    await t.step("./mm.yaml when there is no ./.mm/mm.yaml", () => {
      assertEquals(found({ env: {}, cwd: join(root, "other"), home: root }), [
        `project ${join(root, "other/mm.yaml")}`,
      ]);
    });
    await t.step("$XDG_CONFIG_HOME set: ~/.config is not looked at", () => {
      const env = { XDG_CONFIG_HOME: join(root, "empty") };
      assertEquals(found({ env, cwd: join(root, "empty"), home }), []);
    });
    await t.step("a relative $XDG_CONFIG_HOME is ignored", () => {
      const env = { XDG_CONFIG_HOME: "xdg" };
      assertEquals(found({ env, cwd: join(root, "empty"), home }), [
        `user ${join(home, ".config/mm/mm.yaml")}`,
      ]);
    });
    await t.step("home from $HOME when not given", () => {
      assertEquals(found({ env: { HOME: home }, cwd: join(root, "empty") }), [
        `user ${join(home, ".config/mm/mm.yaml")}`,
      ]);
    });
    await t.step("no file anywhere", () => {
      assertEquals(found({ env: {}, cwd: join(root, "empty"), home: join(root, "home2") }), []);
    });
    await t.step("a directory named mm.yaml is skipped", async () => {
      const dir = await tree({ ".mm/mm.yaml/.keep": "", "mm.yaml": "" });
      try {
        assertEquals(found({ env: {}, cwd: dir, home: dir }), [`project ${join(dir, "mm.yaml")}`]);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
    await t.step("-c naming a missing file", () => {
      const err = assertThrows(
        () => findAgentFiles({ flag: "nope.yaml", env: {}, cwd: proj, home }),
        ConfigError,
      );
      assertEquals(
        err.message,
        `${join(proj, "nope.yaml")}: the agent file named by -c does not exist`,
      );
      assertEquals([err.file, err.line, err.column, err.key], [
        join(proj, "nope.yaml"),
        0,
        0,
        "-c",
      ]);
    });
    await t.step("-c naming a directory", () => {
      const err = assertThrows(
        () => findAgentFiles({ flag: ".mm", env: {}, cwd: proj, home }),
        ConfigError,
      );
      assertEquals(err.message, `${join(proj, ".mm")}: the agent file named by -c is not a file`);
    });
    await t.step("$MM_CONFIG naming a missing file", () => {
      const env = { MM_CONFIG: join(root, "gone.yaml") };
      const err = assertThrows(() => findAgentFiles({ env, cwd: proj, home }), ConfigError);
      assertEquals(
        err.message,
        `${join(root, "gone.yaml")}: the agent file named by $MM_CONFIG does not exist`,
      );
      assertEquals(err.key, "MM_CONFIG");
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
