import { helpText, parseFlags, SUBCOMMAND_HELP, UsageError } from "../../lib/cli/flags.ts";
import { PROVIDER_LIST, PROVIDERS } from "../../lib/config/config.ts";
import { assertEquals, assertStringIncludes, assertThrows } from "../helpers/assert.ts";

Deno.test("parseFlags", async (t) => {
  await t.step("Go style and GNU style are the same", () => {
    for (const args of [["-p", "hi"], ["--prompt", "hi"], ["-prompt=hi"], ["--p=hi"]]) {
      assertEquals(parseFlags(args).prompt, "hi");
    }
    assertEquals(parseFlags(["-tui"]).tui, true);
    assertEquals(parseFlags(["--tui"]).tui, true);
    assertEquals(parseFlags(["-acp"]).acp, true);
    assertEquals(parseFlags(["--acp"]).acp, true);
  });
  await t.step("a prompt may start with a dash when it is not a flag", () => {
    assertEquals(parseFlags(["-p", "-list the files"]).prompt, "-list the files");
    assertEquals(parseFlags(["-p", "--json"]).prompt, "");
    assertEquals(parseFlags(["-p", "-x"]).prompt, "-x");
    assertEquals(parseFlags(["-p", "--", "--dash prompt"]).prompt, "--dash prompt");
  });
  await t.step("a misspelt flag after -p is said so, not sent as the prompt", () => {
    for (
      const [args, said] of [
        [["-p", "--jsno"], "unknown flag --jsno (did you mean --json?)"],
        [["-p", "--contineu", "x"], "unknown flag --contineu (did you mean --continue?)"],
        [["-p", "-yoloo", "x"], "unknown flag -yoloo (did you mean --yolo?)"],
      ] as const
    ) {
      const e = assertThrows(() => parseFlags([...args]), UsageError);
      assertStringIncludes(e.message, said);
    }
  });
  await t.step("-p with no value, or -, reads stdin", () => {
    assertEquals(parseFlags(["-p"]).prompt, "");
    assertEquals(parseFlags(["-p", "-"]).prompt, "-");
    assertEquals(parseFlags(["-p", "--json"]).prompt, "");
    assertEquals(parseFlags(["-p", "--json"]).json, true);
  });
  await t.step("flags between -p and its prompt: the one argument after them is the prompt", () => {
    const f = parseFlags(["-p", "--continue", "again"]);
    assertEquals([f.prompt, f.continue, f.args], ["again", true, []]);
    assertEquals(parseFlags(["-p", "--yolo", "--model", "m", "do it"]).prompt, "do it");
    assertEquals(parseFlags(["-p", "--json", "--", "-x"]).prompt, "-x");
    // Two arguments are still a prompt left unquoted.
    assertEquals(parseFlags(["-p", "--json", "a", "b"]).args, ["a", "b"]);
  });
  await t.step("values", () => {
    const f = parseFlags([
      "-c",
      "a.yaml",
      "--model",
      "qwen3",
      "--provider=llamacpp",
      "-url",
      "http://x:1",
      "--session",
      "abc",
      "--continue",
      "--json",
    ]);
    assertEquals(
      [f.config, f.model, f.provider, f.url, f.session, f.continue, f.json],
      ["a.yaml", "qwen3", "llamacpp", "http://x:1", "abc", true, true],
    );
  });
  await t.step("--yolo, --yolo=false, -yolo=0", () => {
    assertEquals(parseFlags([]).yolo, undefined);
    assertEquals(parseFlags(["--yolo"]).yolo, true);
    assertEquals(parseFlags(["--yolo=false"]).yolo, false);
    assertEquals(parseFlags(["-yolo=0"]).yolo, false);
    assertEquals(parseFlags(["-yolo=TRUE"]).yolo, true);
  });
  await t.step("subcommands and --ask", () => {
    assertEquals(parseFlags(["init"]).command, "init");
    assertEquals(parseFlags(["doctor"]).command, "doctor");
    const f = parseFlags(["--ask", "reviewer", "look at this"]);
    assertEquals([f.ask, f.command, f.args], ["reviewer", undefined, ["look at this"]]);
  });
  await t.step("-v, --version, -h, --help", () => {
    assertEquals(parseFlags(["-v"]).version, true);
    assertEquals(parseFlags(["--version"]).version, true);
    assertEquals(parseFlags(["-h"]).help, true);
    assertEquals(parseFlags(["--help"]).help, true);
  });
});

Deno.test("parseFlags refuses bad command lines in one line", async (t) => {
  const cases: [string[], string][] = [
    [
      ["--modle", "x"],
      "unknown flag --modle (did you mean --model?) — run mm --help for the flags",
    ],
    [["--frobnicate"], "unknown flag --frobnicate — run mm --help for the flags"],
    [["--model"], "--model needs a value (MODEL) — run mm --help for the flags"],
    [["-c"], "-c needs a value (FILE) — run mm --help for the flags"],
    [["--url", "--json"], "--url needs a value (URL) — run mm --help for the flags"],
    [["--yolo=maybe"], '--yolo takes true or false, not "maybe" — run mm --help for the flags'],
    [
      ["--ask", "helper", "hi", "-p", "x"],
      "--ask helper takes its prompt after the name, not with -p — run mm --help for the flags",
    ],
  ];
  for (const [args, message] of cases) {
    await t.step(args.join(" "), () => {
      const e = assertThrows(() => parseFlags(args), UsageError);
      assertEquals(e.message, message);
      assertEquals(e.message.includes("\n"), false);
    });
  }
});

Deno.test("mm trust and its flags", () => {
  const f = parseFlags(["trust", "--revoke", "/some/dir"]);
  assertEquals([f.command, f.revoke, f.list, f.args], ["trust", true, false, ["/some/dir"]]);
  assertEquals(parseFlags(["trust", "--list"]).list, true);
  assertEquals(parseFlags(["--trust", "-p", "hi"]).trust, true);
  assertEquals(parseFlags(["-p", "hi"]).trust, false);
});

Deno.test("--plan: plan mode for -p, off unless given", () => {
  assertEquals(parseFlags(["-p", "hi", "--plan"]).plan, true);
  assertEquals(parseFlags(["-plan", "-p", "hi"]).plan, true);
  assertEquals(parseFlags(["-p", "hi"]).plan, false);
});

Deno.test("helpText describes every flag", () => {
  const help = helpText();
  for (
    const flag of [
      "-p, --prompt",
      "--tui",
      "--acp",
      "-c, --config",
      "--model",
      "--provider",
      "--url",
      "--yolo",
      "--continue",
      "--session",
      "--json",
      "-v, --version",
      "-h, --help",
      "--ask",
      "--trust",
      "--list",
      "--revoke",
      "--output-schema FILE",
      "--timeout DURATION",
      "--plan",
    ]
  ) assertStringIncludes(help, flag);
  assertStringIncludes(help, "124  mm -p --timeout");
  assertStringIncludes(help, "130 interrupted");
  for (
    const command of ["mm init", "doctor", "mm sessions", "mm --ask NAME", "mm trust", "mm undo"]
  ) {
    assertStringIncludes(help, command);
  }
});

Deno.test("--output-schema and --timeout take a value", () => {
  const f = parseFlags(["-p", "hi", "--output-schema", "s.json", "--timeout=90s"]);
  assertEquals([f.prompt, f.outputSchema, f.timeout], ["hi", "s.json", "90s"]);
  assertEquals(parseFlags(["-p", "hi"]).outputSchema, undefined);
  assertThrows(
    () => parseFlags(["-p", "hi", "--timeout"]),
    UsageError,
    "--timeout needs a value (DURATION)",
  );
});

Deno.test("help texts", async (t) => {
  await t.step("mm --help lists every exit code mm uses", () => {
    const help = helpText();
    for (const code of ["0", "1", "2", "124", "129", "130", "131", "141", "143"]) {
      assertEquals(new RegExp(`^  ${code} `, "m").test(help), true, `exit code ${code}`);
    }
  });
  await t.step("each subcommand's help lists its own options", async () => {
    assertEquals(SUBCOMMAND_HELP.init.includes("--provider NAME"), true);
    assertEquals(SUBCOMMAND_HELP.init.includes("--trust"), false);
    // Every provider mm supports, the same list everywhere.
    for (const name of PROVIDERS) assertStringIncludes(SUBCOMMAND_HELP.init, name);
    assertStringIncludes(helpText(), `--provider NAME         ${PROVIDER_LIST},`);
    const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
    assertStringIncludes(readme, `provider: llamacpp # ${PROVIDER_LIST}\n`);
    assertEquals(SUBCOMMAND_HELP.doctor.includes("-c, --config FILE"), true);
    assertEquals(SUBCOMMAND_HELP.sessions.startsWith("Usage:\n  mm sessions"), true);
    // A bad flag after a subcommand points to that subcommand's --help.
    assertThrows(() => parseFlags(["undo", "--bogus"]), UsageError, "run mm undo --help");
  });
});
