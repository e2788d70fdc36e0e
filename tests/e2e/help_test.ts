/** Every subcommand's `--help`: the real `mm`, its own options on stdout, exit code 0. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runMM, tempDir } from "../helpers/mm.ts";
import { SUBCOMMAND_HELP } from "../../lib/cli/flags.ts";
import { TRUST_HELP } from "../../lib/commands/trust.ts";
import { UNDO_HELP } from "../../lib/commands/undo.ts";

Deno.test("--help of every subcommand", async (t) => {
  const cwd = await tempDir();
  const cases: [string, string][] = [
    ["init", SUBCOMMAND_HELP.init],
    ["doctor", SUBCOMMAND_HELP.doctor],
    ["sessions", SUBCOMMAND_HELP.sessions],
    ["trust", TRUST_HELP],
    ["undo", UNDO_HELP],
  ];
  for (const [command, text] of cases) {
    await t.step(`mm ${command} --help`, async () => {
      const run = await runMM([command, "--help"], { cwd });
      assertEquals(run.code, 0);
      assertEquals(run.stdout, text);
    });
  }
  await t.step("every --help: a Usage: block and its exit codes", () => {
    for (const [command, text] of cases) {
      assertEquals(text.startsWith(`Usage:\n  mm ${command}`), true, command);
      assertStringIncludes(text, "\nExit codes: 0 ");
    }
    assertStringIncludes(UNDO_HELP, "2 a bad flag or agent file, or\nan unknown session");
    assertStringIncludes(TRUST_HELP, "no terminal and no --yes");
  });
  await t.step("a bad flag after a subcommand points to its --help", async () => {
    const run = await runMM(["undo", "--bogus"], { cwd });
    assertEquals(run.code, 2);
    assertEquals(run.stderr, "mm: unknown flag --bogus — run mm undo --help for the flags\n");
  });
  await t.step("mm --help lists the exit codes", async () => {
    const run = await runMM(["--help"], { cwd });
    assertEquals(run.code, 0);
    assertStringIncludes(run.stdout, "  143  SIGTERM");
  });
  await Deno.remove(cwd, { recursive: true });
});
