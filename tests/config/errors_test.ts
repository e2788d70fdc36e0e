/** ConfigError (lib/config/errors.ts): file, line, column and key, and the line it renders as. */

import { ConfigError } from "../../lib/config/errors.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";
import { parse } from "../helpers/config.ts";

Deno.test("ConfigError", async (t) => {
  await t.step("carries file, line, column and key", () => {
    const err = assertThrows(
      () => parseConfig("yolo: true\nsessions:\n  enabled: nope\n", "/p/mm.yaml", {}),
      ConfigError,
    );
    assertEquals(
      [err.file, err.line, err.column, err.key, err.name],
      ["/p/mm.yaml", 3, 12, "sessions.enabled", "ConfigError"],
    );
    assertEquals(
      err.message,
      '/p/mm.yaml:3:12: sessions.enabled: expected true or false, found "nope"',
    );
  });
  await t.step("an unknown key's key is its dotted name, at the key", () => {
    const err = assertThrows(
      () => parse("tools:\n  - name: t\n    command: [x]\n    timout: 1s"),
      ConfigError,
    );
    assertEquals([err.line, err.column, err.key], [4, 5, "tools[0].timout"]);
  });
  await t.step("a YAML syntax error has no key", () => {
    const err = assertThrows(() => parse("a: [b\nc: d"), ConfigError);
    assertEquals([err.line, err.column, err.key], [2, 1, ""]);
  });
  await t.step("is an Error", () => {
    assertEquals(new ConfigError("f", 1, 2, "k", "k: x") instanceof Error, true);
    assertEquals(new ConfigError("f", 1, 2, "k", "k: x").message, "f:1:2: k: x");
    assertEquals(new ConfigError("f", 0, 0, "", "gone").message, "f: gone");
  });
});
