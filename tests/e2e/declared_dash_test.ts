/**
 * Declared tools: a value is never an option (issue 17), through the real `mm -p`: a value that
 * starts with `-` where it stands alone as an argument is an invalid call, nothing runs, unless
 * `--` comes before it or the parameter says `allowDash: true`.
 */

import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** An agent file with one declared tool `sort_file` running `command`, and no bash. */
function agentFile(model: string, command: string, extra = ""): string {
  return `url: ${server.url}\nmodel: ${model}\nbashTool: false\ntools:\n  - name: sort_file\n` +
    `    description: Sorts a file.\n    command: ${command}\n    parameters:\n` +
    `      file: {type: string, description: The file.${extra}}\n`;
}

Deno.test("declared tools: a value is never an option", async (t) => {
  await runCases(t, {
    "[sort, {{file}}] with -o/elsewhere: an invalid call, nothing written": async () => {
      const outside = await tempDir("mm-outside-");
      const dir = await workdir(agentFile("dash", '["sort", "{{file}}"]'));
      await Deno.writeTextFile(`${dir}/list.txt`, "b\na\n");
      server.script("dash", [
        { toolCalls: [{ name: "sort_file", arguments: { file: `-o${outside}/x` } }] },
        { toolCalls: [{ name: "sort_file", arguments: { file: "list.txt" } }] },
        { text: "done" },
      ]);
      const run = await runMM(["-p", "sort"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const [refused, sorted] = server.toolOutputs("dash");
      assertEquals(
        refused,
        `[sort_file: invalid call, nothing was run — file: "-o${outside}/x" starts with "-", which the program would take as an option — give a value that does not start with "-" (for a file: ./-o${outside}/x). You sent: {"file":"-o${outside}/x"}. Expected: file (string): The file. Call sort_file again with each parameter as its own field.]`,
      );
      assertEquals(sorted, "a\nb\n");
      assertEquals([...Deno.readDirSync(outside)], []);
    },
    "[sort, {{a}}{{b}}] with a empty and b -o/elsewhere: refused, nothing written": async () => {
      const outside = await tempDir("mm-outside-");
      const dir = await workdir(
        `url: ${server.url}\nmodel: dash-joined\nbashTool: false\ntools:\n  - name: sort_file\n` +
          `    command: ["sort", "{{a}}{{b}}"]\n    parameters:\n` +
          `      a: {type: string, optional: true}\n      b: {type: string}\n`,
      );
      await Deno.writeTextFile(`${dir}/list.txt`, "b\na\n");
      server.script("dash-joined", [
        { toolCalls: [{ name: "sort_file", arguments: { b: `-o${outside}/x` } }] },
        { toolCalls: [{ name: "sort_file", arguments: { a: "", b: `-o${outside}/y` } }] },
        { toolCalls: [{ name: "sort_file", arguments: { a: "list", b: ".txt" } }] },
        { text: "done" },
      ]);
      const run = await runMM(["-p", "sort"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const [first, second, sorted] = server.toolOutputs("dash-joined");
      for (const [refused, name] of [[first, "x"], [second, "y"]]) {
        assertEquals(
          refused.startsWith(
            `[sort_file: invalid call, nothing was run — b: "-o${outside}/${name}" starts with "-", which the program would take as an option`,
          ),
          true,
          refused,
        );
      }
      assertEquals(sorted, "a\nb\n");
      assertEquals([...Deno.readDirSync(outside)], []);
    },
    "with -- before the placeholder, the value is a file name": async () => {
      const dir = await workdir(agentFile("dash-end", '["sort", "--", "{{file}}"]'));
      await Deno.writeTextFile(`${dir}/-r`, "a\nb\n");
      server.script("dash-end", [
        { toolCalls: [{ name: "sort_file", arguments: { file: "-r" } }] },
        { text: "done" },
      ]);
      const run = await runMM(["-p", "sort"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.toolOutputs("dash-end"), ["a\nb\n"]);
    },
    "allowDash: true lets the parameter's value be an option, on purpose": async () => {
      const dir = await workdir(
        agentFile("dash-allowed", '["sort", "{{file}}", "list.txt"]', ", allowDash: true"),
      );
      await Deno.writeTextFile(`${dir}/list.txt`, "a\nb\n");
      server.script("dash-allowed", [
        { toolCalls: [{ name: "sort_file", arguments: { file: "-r" } }] },
        { text: "done" },
      ]);
      const run = await runMM(["-p", "sort"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(server.toolOutputs("dash-allowed"), ["b\na\n"]);
    },
    "git log … {{ref}} with --output=: refused; a placeholder inside an argument is not":
      async () => {
        const dir = await workdir(
          `url: ${server.url}\nmodel: dash-git\nbashTool: false\ntools:\n  - name: show\n` +
            `    command: ["echo", "{{ref}}", "--format={{format}}"]\n    parameters:\n` +
            `      ref: {type: string}\n      format: {type: string}\n`,
        );
        server.script("dash-git", [
          { toolCalls: [{ name: "show", arguments: { ref: "--output=/tmp/x", format: "-x" } }] },
          { toolCalls: [{ name: "show", arguments: { ref: "main", format: "-x" } }] },
          { text: "done" },
        ]);
        const run = await runMM(["-p", "log"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        const [refused, ran] = server.toolOutputs("dash-git");
        assertEquals(
          refused.startsWith(
            '[show: invalid call, nothing was run — ref: "--output=/tmp/x" starts with "-"',
          ),
          true,
          refused,
        );
        assertEquals(ran, "main --format=-x\n");
      },
  });
  await server.close();
});
