import { assertEquals } from "./helpers/assert.ts";
import { errorLine, UserError, warningText } from "../lib/presentation.ts";
import { UsageError } from "../lib/cli/flags.ts";
import { ConfigError } from "../lib/config/errors.ts";
import { ProviderError } from "../lib/provider/errors.ts";
import { SessionRequestError } from "../lib/session/recorder.ts";
import { SessionFileError } from "../lib/session/store.ts";
import { SessionBusyError, SessionLockError } from "../lib/session/lock.ts";
import { InitError } from "../lib/commands/init.ts";
import { CompactError } from "../lib/agent/fit.ts";
import { LspError } from "../lib/lsp/client.ts";

Deno.test("warningText", async (t) => {
  await t.step("brackets the text after `warning: `", () => {
    assertEquals(warningText("MCP server a: gone"), "[warning: MCP server a: gone]");
  });
  await t.step("keeps the text as it is", () => {
    assertEquals(warningText(""), "[warning: ]");
    assertEquals(warningText("a]b\nc"), "[warning: a]b\nc]");
  });
});

Deno.test("errorLine", async (t) => {
  await t.step("a sentence follows `mm: `", () => {
    assertEquals(errorLine("cannot reach the server", "sentence"), "mm: cannot reach the server");
  });
  await t.step("a bracketed text is shown as it is", () => {
    assertEquals(errorLine("[error: interrupted]", "bracketed"), "[error: interrupted]");
  });
  await t.step("the kind decides, not the string", () => {
    assertEquals(
      errorLine("[a server's own brackets]", "sentence"),
      "mm: [a server's own brackets]",
    );
    assertEquals(errorLine("no bracket", "bracketed"), "no bracket");
  });
});

Deno.test("UserError", async (t) => {
  const cases: [string, Error, 1 | 2][] = [
    ["UsageError", new UsageError("-x is unknown"), 2],
    ["ConfigError", new ConfigError("mm.yaml", 1, 2, "yolo", "yolo: expected true"), 2],
    ["SessionRequestError", new SessionRequestError("no session s"), 2],
    ["SessionFileError", new SessionFileError("/s.json", "not JSON"), 2],
    ["InitError", new InitError("MM_INIT_PROBE: bad"), 2],
    ["ProviderError", new ProviderError("unreachable", "cannot reach"), 1],
    ["SessionBusyError", new SessionBusyError("s", 12), 1],
    ["SessionLockError", new SessionLockError("s", "/s.lock", "a directory"), 1],
  ];
  for (const [name, error, code] of cases) {
    await t.step(`${name} is one, exit code ${code}`, () => {
      assertEquals(error instanceof UserError, true);
      assertEquals((error as UserError).exitCode, code);
      // The editor is told the class's own name (acp/agent.ts: `reason`).
      assertEquals(error.name, name);
    });
  }
  await t.step("a bug's error is not one", () => {
    for (
      const e of [new Error("x"), new TypeError("x"), new CompactError("x"), new LspError("x")]
    ) {
      assertEquals(e instanceof UserError, false, e.name);
    }
  });
  await t.step("the message is the sentence as given", () => {
    assertEquals(new UserError("fix it", 2).message, "fix it");
    assertEquals(new UsageError("-x").message, "-x — run mm --help for the flags");
  });
});
