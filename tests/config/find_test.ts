/** Where the agent file is found (lib/config/find.ts): -c, $MM_CONFIG, the project, the user's. */

import { join } from "node:path";
import { ConfigError } from "../../lib/config/errors.ts";
import { findConfigFile } from "../../lib/config/find.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { tree } from "../helpers/config.ts";

Deno.test("findConfigFile: discovery order", async (t) => {
  const root = await tree({
    "proj/mm.yaml": "",
    "proj/.mm/mm.yaml": "",
    "proj/custom.yaml": "",
    "other/.mm/mm.yaml": "",
    "xdg/mm/mm.yaml": "",
    "home/.config/mm/mm.yaml": "",
    "env.yaml": "",
    "empty/.keep": "",
    "home2/.keep": "",
  });
  const proj = join(root, "proj");
  const home = join(root, "home");
  const xdg = join(root, "xdg");
  try {
    await t.step("-c wins over everything", () => {
      const env = { MM_CONFIG: join(root, "env.yaml"), XDG_CONFIG_HOME: xdg };
      assertEquals(
        findConfigFile({ flag: "custom.yaml", env, cwd: proj, home }),
        join(proj, "custom.yaml"),
      );
    });
    await t.step("-c with an absolute path", () => {
      const file = join(root, "env.yaml");
      assertEquals(findConfigFile({ flag: file, env: {}, cwd: proj, home }), file);
    });
    await t.step("-c with ~/", () => {
      assertEquals(
        findConfigFile({ flag: "~/.config/mm/mm.yaml", env: {}, cwd: proj, home }),
        join(home, ".config/mm/mm.yaml"),
      );
    });
    await t.step("$MM_CONFIG comes next", () => {
      const env = { MM_CONFIG: join(root, "env.yaml"), XDG_CONFIG_HOME: xdg };
      assertEquals(findConfigFile({ env, cwd: proj, home }), join(root, "env.yaml"));
    });
    await t.step("$MM_CONFIG relative to cwd", () => {
      const env = { MM_CONFIG: "../env.yaml" };
      assertEquals(findConfigFile({ env, cwd: proj, home }), join(root, "env.yaml"));
    });
    await t.step("an empty $MM_CONFIG is unset", () => {
      assertEquals(
        findConfigFile({ env: { MM_CONFIG: "" }, cwd: proj, home }),
        join(proj, "mm.yaml"),
      );
    });
    await t.step("./mm.yaml before ./.mm/mm.yaml", () => {
      assertEquals(
        findConfigFile({ env: { XDG_CONFIG_HOME: xdg }, cwd: proj, home }),
        join(proj, "mm.yaml"),
      );
    });
    await t.step("./.mm/mm.yaml before the user's file", () => {
      assertEquals(
        findConfigFile({ env: { XDG_CONFIG_HOME: xdg }, cwd: join(root, "other"), home }),
        join(root, "other/.mm/mm.yaml"),
      );
    });
    await t.step("$XDG_CONFIG_HOME/mm/mm.yaml", () => {
      assertEquals(
        findConfigFile({ env: { XDG_CONFIG_HOME: xdg }, cwd: join(root, "empty"), home }),
        join(xdg, "mm/mm.yaml"),
      );
    });
    await t.step("$XDG_CONFIG_HOME set: ~/.config is not looked at", () => {
      const env = { XDG_CONFIG_HOME: join(root, "empty") };
      assertEquals(findConfigFile({ env, cwd: join(root, "empty"), home }), undefined);
    });
    await t.step("a relative $XDG_CONFIG_HOME is ignored", () => {
      const env = { XDG_CONFIG_HOME: "xdg" };
      assertEquals(findConfigFile({ env, cwd: root, home }), join(home, ".config/mm/mm.yaml"));
    });
    await t.step("~/.config/mm/mm.yaml without $XDG_CONFIG_HOME", () => {
      assertEquals(
        findConfigFile({ env: {}, cwd: join(root, "empty"), home }),
        join(home, ".config/mm/mm.yaml"),
      );
    });
    await t.step("home from $HOME when not given", () => {
      assertEquals(
        findConfigFile({ env: { HOME: home }, cwd: join(root, "empty") }),
        join(home, ".config/mm/mm.yaml"),
      );
    });
    await t.step("no file anywhere", () => {
      assertEquals(
        findConfigFile({ env: {}, cwd: join(root, "empty"), home: join(root, "home2") }),
        undefined,
      );
    });
    await t.step("a directory named mm.yaml is skipped", async () => {
      const dir = await tree({ "mm.yaml/.keep": "", ".mm/mm.yaml": "" });
      try {
        assertEquals(findConfigFile({ env: {}, cwd: dir, home: dir }), join(dir, ".mm/mm.yaml"));
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
    await t.step("-c naming a missing file", () => {
      const err = assertThrows(
        () => findConfigFile({ flag: "nope.yaml", env: {}, cwd: proj, home }),
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
        () => findConfigFile({ flag: ".mm", env: {}, cwd: proj, home }),
        ConfigError,
      );
      assertEquals(err.message, `${join(proj, ".mm")}: the agent file named by -c is not a file`);
    });
    await t.step("$MM_CONFIG naming a missing file", () => {
      const env = { MM_CONFIG: join(root, "gone.yaml") };
      const err = assertThrows(() => findConfigFile({ env, cwd: proj, home }), ConfigError);
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
