/** Every subcommand's `--help`: the real `mm`, its own options on stdout, exit code 0. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runMM, tempDir } from "../helpers/mm.ts";
import { SUBCOMMAND_HELP } from "../../lib/cli/flags.ts";
import { TRUST_HELP } from "../../lib/commands/trust.ts";

Deno.test("--help of every subcommand", async (t) => {
  const cwd = await tempDir();
  const cases: [string, string][] = [
    ["init", SUBCOMMAND_HELP.init],
    ["doctor", SUBCOMMAND_HELP.doctor],
    ["sessions", SUBCOMMAND_HELP.sessions],
    ["trust", TRUST_HELP],
  ];
  for (const [command, text] of cases) {
    await t.step(`mm ${command} --help`, async () => {
      const run = await runMM([command, "--help"], { cwd });
      assertEquals(run.code, 0);
      assertEquals(run.stdout, text);
    });
  }
  await t.step("mm --help lists the exit codes", async () => {
    const run = await runMM(["--help"], { cwd });
    assertEquals(run.code, 0);
    assertStringIncludes(run.stdout, "  143  SIGTERM");
  });
  await Deno.remove(cwd, { recursive: true });
});
