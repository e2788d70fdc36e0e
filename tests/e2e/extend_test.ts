/** Skills and declared tools through the real `mm -p`. */

import { LOOP_DETECTED } from "../../lib/agent/loop_detector.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

function toolOutputs(model: string, n: number): string[] {
  return server.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

// deno-lint-ignore no-explicit-any
function declared(model: string, name: string): any {
  // deno-lint-ignore no-explicit-any
  return server.chats(model)[0].body.tools?.find((t: any) => t.function.name === name)?.function;
}

async function skillsDir(dir: string): Promise<void> {
  const s = `${dir}/.mm/skills`;
  await Deno.mkdir(`${s}/bisect/`, { recursive: true });
  await Deno.mkdir(`${s}/release`, { recursive: true });
  await Deno.mkdir(`${s}/empty`, { recursive: true });
  await Deno.writeTextFile(
    `${s}/review.md`,
    "---\ndescription: How to review a change\n---\n# Review\nRead the diff first.\n",
  );
  await Deno.writeTextFile(`${s}/bisect/SKILL.md`, "# Find a regression with git bisect\nSteps…\n");
  await Deno.writeTextFile(`${s}/release.md`, "Cut a release from main.\n");
  await Deno.writeTextFile(`${s}/release/SKILL.md`, "# The folder loses to the flat file\n");
}

const TOOLS = `tools:
  - name: run_tests
    description: Run the test suite.
    command: ["printf", "%s|", "{{pattern}}", "{{count}}", "{{verbose}}", "--level={{level}}"]
    parameters:
      pattern: {type: string, description: Which tests.}
      count: {type: integer, description: How many times., optional: true, default: 2}
      verbose: {type: boolean, description: Say more., optional: true}
      level: {type: string, description: The level., enum: [low, high], optional: true}
  - name: nap
    description: Sleep.
    command: ["sleep", "{{seconds}}"]
    timeout: 300ms
    parameters:
      seconds: {type: number, description: How long.}
  - name: ghost
    command: ["no-such-program-for-mm"]
    parameters: {}
`;

Deno.test("extending mm", async (t) => {
  await runCases(t, {
    "read_skill: the catalogue, both layouts, the flat file winning, traversal refused":
      async () => {
        server.script("skills", [
          {
            toolCalls: [
              { name: "read_skill", arguments: { name: "bisect" } },
              { name: "read_skill", arguments: { name: "release" } },
              { name: "read_skill", arguments: { name: "../../etc/passwd" } },
              { name: "read_skill", arguments: { name: "nope" } },
            ],
          },
          { text: "ok" },
        ]);
        const dir = await workdir(`url: ${server.url}\nmodel: skills\n`);
        await skillsDir(dir);
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(
          declared("skills", "read_skill").description.split("\n").slice(1),
          [
            "  bisect — Find a regression with git bisect",
            "  release — Cut a release from main.",
            "  review — How to review a change",
          ],
        );
        assertEquals(toolOutputs("skills", 1), [
          "# Find a regression with git bisect\nSteps…\n",
          "Cut a release from main.\n",
          'No skill named "../../etc/passwd". Available skills: bisect, release, review',
          'No skill named "nope". Available skills: bisect, release, review',
        ]);
        assertStringIncludes(run.stderr, "📖 read_skill: bisect\n📖 read_skill: release\n");
        assertEquals(run.stderr.includes("Steps…"), false, "the content is not echoed");
        assertStringIncludes(run.stderr, "📖 4 skill(s)");
      },
    "read_skill is not declared without skills": async () => {
      server.script("no-skills", [{ text: "ok" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: no-skills\n`);
      await Deno.mkdir(`${dir}/.mm/skills/empty`, { recursive: true });
      await runMM(["-p", "x"], { cwd: dir });
      assertEquals(declared("no-skills", "read_skill"), undefined);
    },
    "a declared tool's schema: descriptions in words, no required, no enum": async () => {
      server.script("schema", [{ text: "ok" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: schema\n${TOOLS}`);
      await runMM(["-p", "x"], { cwd: dir });
      assertEquals(declared("schema", "run_tests"), {
        name: "run_tests",
        description:
          "Run the test suite. Required parameters: pattern. Give each parameter as its own field.",
        parameters: {
          type: "object",
          properties: {
            pattern: { type: "string", description: "Which tests." },
            count: { type: "integer", description: "How many times. Optional, default 2." },
            verbose: { type: "boolean", description: "Say more. Optional." },
            level: { type: "string", description: "The level. One of: low, high. Optional." },
          },
        },
      });
    },
    "a declared tool runs its argv: coercion, defaults, left-out placeholders, no shell":
      async () => {
        server.script("declared", [
          {
            toolCalls: [
              {
                name: "run_tests",
                arguments: { pattern: "unit", count: "3", verbose: "TRUE", level: "high" },
              },
              {
                name: "run_tests",
                arguments: { pattern: "; touch pwned; $(touch pwned2) | cat > x" },
              },
              { name: "run_tests", arguments: { pattern: "-rf" } },
            ],
          },
          { text: "ok" },
        ]);
        const dir = await workdir(`url: ${server.url}\nmodel: declared\n${TOOLS}`);
        const run = await runMM(["-p", "x"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("declared", 1), [
          "unit|3|true|--level=high|",
          "; touch pwned; $(touch pwned2) | cat > x|2|--level=|",
          // A value that would be an option is an invalid call (docs/extending.md).
          '[run_tests: invalid call, nothing was run — pattern: "-rf" starts with "-", which the program would take as an option — give a value that does not start with "-" (for a file: ./-rf). You sent: {"pattern":"-rf"}. Expected: pattern (string): Which tests; count (integer, optional): How many times. Optional, default 2; verbose (boolean, optional): Say more. Optional; level (string, optional): The level. One of: low, high. Optional. Call run_tests again with each parameter as its own field.]',
        ]);
        for (const f of ["pwned", "pwned2", "x"]) {
          assertEquals(await exists(`${dir}/${f}`), false, `${f} must not exist`);
        }
        assertStringIncludes(run.stderr, "🧰 run_tests: printf %s| unit 3 true --level=high\n");
        assertEquals(run.stderr.includes("⚙"), false, "declared tools are not counted as commands");
      },
    "an invalid call lists every fault and runs nothing": async () => {
      server.script("invalid", [
        {
          toolCalls: [{
            name: "run_tests",
            arguments: { count: "many", verbose: "yes", level: "medium", colour: "red" },
          }],
        },
        { text: "ok" },
      ]);
      const dir = await workdir(`url: ${server.url}\nmodel: invalid\n${TOOLS}`);
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(
        toolOutputs("invalid", 1)[0],
        '[run_tests: invalid call, nothing was run — "colour" is not a parameter of this tool; pattern is missing; count: "many" is not an integer; verbose: "yes" is not a boolean; level: medium is not one of low, high. You sent: {"count":"many","verbose":"yes","level":"medium","colour":"red"}. Expected: pattern (string): Which tests; count (integer, optional): How many times. Optional, default 2; verbose (boolean, optional): Say more. Optional; level (string, optional): The level. One of: low, high. Optional. Call run_tests again with each parameter as its own field.]',
      );
      assertStringIncludes(run.stderr, '🧰 run_tests: {"count":"many"');
      server.script("enum", [
        { toolCalls: [{ name: "run_tests", arguments: { pattern: "a", level: "medium" } }] },
        { text: "ok" },
      ]);
      const dir2 = await workdir(`url: ${server.url}\nmodel: enum\n${TOOLS}`);
      await runMM(["-p", "x"], { cwd: dir2 });
      assertStringIncludes(
        toolOutputs("enum", 1)[0],
        "[run_tests: invalid call, nothing was run — level: medium is not one of low, high. You sent:",
      );
    },
    "timeout, program not found, permission, loop detection": async () => {
      const ghost = { toolCalls: [{ name: "ghost", arguments: {} }] };
      server.script("edges", [
        { toolCalls: [{ name: "nap", arguments: { seconds: 5 } }] },
        ghost,
        ghost,
        ghost,
        { text: "ok" },
      ]);
      const dir = await workdir(`url: ${server.url}\nmodel: edges\n${TOOLS}`);
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs("edges", 1), ["[error: 300ms timeout exceeded]"]);
      assertMatch(
        toolOutputs("edges", 2).at(-1)!,
        /^\[error: no-such-program-for-mm cannot be started: .+\]$/,
      );
      assertStringIncludes(toolOutputs("edges", 4).at(-1)!, LOOP_DETECTED);
      server.script("refused", [
        { toolCalls: [{ name: "run_tests", arguments: { pattern: "a" } }] },
        { text: "ok" },
      ]);
      const dir2 = await workdir(`url: ${server.url}\nmodel: refused\nyolo: false\n${TOOLS}`);
      await runMM(["-p", "x"], { cwd: dir2 });
      assertEquals(toolOutputs("refused", 1), ["[run_tests rejected by the user]"]);
    },
    "a declared tool named like a built-in, or a placeholder naming no parameter, stops mm":
      async () => {
        const clash = await workdir(
          `model: m\ntools:\n  - name: bash\n    command: ["ls"]\n    parameters: {}\n`,
        );
        const a = await runMM(["-p", "x"], { cwd: clash });
        assertEquals(a.code, 2);
        assertStringIncludes(a.stderr, "bash");
        const stray = await workdir(
          `model: m\ntools:\n  - name: t\n    command: ["ls", "{{nope}}"]\n    parameters: {}\n`,
        );
        const b = await runMM(["-p", "x"], { cwd: stray });
        assertEquals(b.code, 2);
        assertStringIncludes(b.stderr, "nope");
      },
  });
  await server.close();
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
