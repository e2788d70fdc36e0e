/**
 * Bash lines that once slipped past a permission rule (issue 24 review), through the real `mm -p`
 * against the scripted server: nested backticks and redirections past an allow, quotes and
 * wrappers past a deny.
 */

import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** One bash call per command, then an answer. */
function bashThenDone(model: string, ...commands: string[]): void {
  server.script(model, [
    { toolCalls: commands.map((command) => ({ name: "bash", arguments: { command } })) },
    { text: "done" },
  ]);
}

Deno.test("permission rules are not bypassed in mm -p", async (t) => {
  await runCases(t, {
    "allow bash(echo *): nested backticks do not run": async () => {
      bashThenDone("pb-nested", "echo `echo \\`touch PWNED\\` `");
      const dir = await workdir(
        `url: ${server.url}\nmodel: pb-nested\nyolo: false\npermissions: {allow: [bash(echo *)]}\n`,
      );
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await exists(`${dir}/PWNED`), false);
    },
    "allow bash(echo *): no redirection into a file": async () => {
      bashThenDone("pb-redirect", "echo owned > victim", "echo fine > /dev/null");
      const dir = await workdir(
        `url: ${server.url}\nmodel: pb-redirect\nyolo: false\npermissions: {allow: [bash(echo *)]}\n`,
      );
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await exists(`${dir}/victim`), false);
    },
    "deny bash(rm *): quotes and wrappers do not hide rm": async () => {
      const lines = ['"rm" a', "\\rm b", 'r""m c', "command rm d", "env rm e", "sudo -n rm f"];
      lines.push("/bin/rm g", "time rm h", "nice -n 1 rm i", "exec rm j", "echo k | xargs rm");
      lines.push("X=rm; $X l");
      bashThenDone("pb-deny", ...lines);
      const dir = await workdir(
        `url: ${server.url}\nmodel: pb-deny\nyolo: true\npermissions: {deny: [bash(rm *)]}\n`,
      );
      const names = "abcdefghijkl".split("");
      for (const n of names) await Deno.writeTextFile(`${dir}/${n}`, "");
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const left = [];
      for (const n of names) if (await exists(`${dir}/${n}`)) left.push(n);
      assertEquals(left, names);
    },
  });
});
