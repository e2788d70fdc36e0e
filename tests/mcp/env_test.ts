/** The minimal environment of a stdio MCP server (lib/mcp/env.ts). */

import { addServerSecrets, serverEnv } from "../../lib/mcp/env.ts";
import { redact } from "../../lib/secrets.ts";
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

Deno.test("addServerSecrets: an MCP server's tokens in env and headers are redacted, its other settings not", () => {
  addServerSecrets({
    env: { GITHUB_TOKEN: "ghp_envtoken123456", NODE_ENV: "production-mode" },
    headers: { Authorization: "Bearer hdr-token-abcdef", "X-Api-Key": "xkey-9876543210" },
  });
  assertEquals(
    redact("ghp_envtoken123456 hdr-token-abcdef xkey-9876543210 production-mode"),
    "*** *** *** production-mode",
  );
});
