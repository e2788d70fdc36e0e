/** The minimal environment of a stdio MCP server (lib/mcp/env.ts). */

import { serverEnv } from "../../lib/mcp/env.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("serverEnv", async (t) => {
  const mm = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    LANG: "C.UTF-8",
    MM_API_KEY: "sk-secret",
    OPENAI_API_KEY: "sk-other",
    GITHUB_TOKEN: "ghp_x",
    BASH_FUNC_f: "() { :; }",
    TERM: "() { evil; }",
  };
  await t.step("what programs need, never mm's secrets", () => {
    assertEquals(serverEnv(mm, {}, "linux"), {
      PATH: "/usr/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
    });
  });
  await t.step("the server's own env over it", () => {
    assertEquals(serverEnv(mm, { GITHUB_TOKEN: "ghp_mine", PATH: "/opt/bin" }, "linux"), {
      PATH: "/opt/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      GITHUB_TOKEN: "ghp_mine",
    });
  });
  await t.step("Windows' own list", () => {
    assertEquals(serverEnv({ PATH: "C:\\bin", USERPROFILE: "C:\\u", HOME: "x" }, {}, "windows"), {
      PATH: "C:\\bin",
      USERPROFILE: "C:\\u",
    });
  });
});
