/**
 * Bash lines that once slipped past a rule (issue 24 review): nested backticks, redirections,
 * quotes and wrappers — what allow, ask and deny now decide of each (lib/permissions/rules.ts,
 * shell_split.ts, shell_words.ts).
 */

import { assertEquals } from "../helpers/assert.ts";
import { bashSubject, decide, rulesOf } from "../../lib/permissions/rules.ts";
import { splitCommands } from "../../lib/permissions/shell_split.ts";
import { commandWords, programWords } from "../../lib/permissions/shell_words.ts";

const places = { cwd: "/p", home: "/h" };

/** The decision of `permissions` on `command`: `deny: bash(rm *)`, or undefined (the mode's). */
function decision(permissions: Partial<Record<"allow" | "ask" | "deny", string[]>>, line: string) {
  const rules = rulesOf({ allow: [], ask: [], deny: [], ...permissions });
  const d = decide(rules, bashSubject(line), places);
  return d && `${d.kind}: ${d.rule.text}`;
}

/** Lines an allow rule must not allow: [rule, line]. */
const NOT_ALLOWED: [string, string][] = [
  ["bash(echo *)", "echo `echo \\`touch PWNED\\` `"],
  ["bash(echo *)", 'echo "`echo \\`touch PWNED\\``"'],
  ["bash(echo *)", "echo ${x:-$(touch PWNED)}"],
  ["bash(echo *)", "echo ${x:-`touch PWNED`}"],
  ["bash(cat *)", "cat <<EOF\nx\nEOF"],
  ["bash(eval *)", "eval 'touch PWNED'"],
  ["bash(git status*)", "git status > ~/.bashrc"],
  ["bash(git status*)", "git status >> ~/.bashrc"],
  ["bash(git status*)", "git status &> out"],
  ["bash(git status*)", "git status 2> err"],
  ["bash(git status*)", "git status >| out"],
  ["bash(git status*)", "git status>out"],
  ["bash(git status*)", "git status >&out"],
  ["bash(git status*)", "git status 1<>out"],
  ["bash(echo *)", "$X hi"],
];

/** Lines an allow rule still allows: [rule, line]. */
const ALLOWED: [string, string][] = [
  ["bash(echo *)", "echo `echo hi`"],
  ["bash(git status*)", "git status > /dev/null"],
  ["bash(git status*)", "git status 2>&1"],
  ["bash(git status*)", "git status 2>/dev/null"],
  ["bash(git status*)", '"git" status'],
  ["bash(make > build.log)", "make > build.log"],
  ["bash(echo *)", "echo ${HOME}"],
];

/** Lines a `deny: bash(rm *)` must refuse. */
const DENIED = [
  '"rm" x',
  "\\rm x",
  'r""m x',
  "'rm' x",
  "command rm x",
  "builtin rm x",
  "env rm x",
  "env -i FOO=1 rm x",
  "exec rm x",
  "nice rm x",
  "nice -n 5 rm x",
  "nohup rm x",
  "sudo rm x",
  "sudo -u root rm x",
  "/bin/rm x",
  "time rm x",
  "time -p rm x",
  "timeout 5 rm x",
  "timeout -s KILL 5s rm x",
  "xargs rm",
  "find . | xargs -n 1 rm",
  "sudo env nice /usr/bin/rm x",
  "eval 'rm x'",
  "bash -c 'rm x'",
  "sh -c 'ls; rm x'",
  "echo `echo \\`rm x\\` `",
];

Deno.test("allow is conservative", async (t) => {
  for (const [rule, line] of NOT_ALLOWED) {
    await t.step(`${rule} — ${JSON.stringify(line)}`, () => {
      assertEquals(decision({ allow: [rule] }, line), undefined);
    });
  }
  for (const [rule, line] of ALLOWED) {
    await t.step(`still: ${rule} — ${JSON.stringify(line)}`, () => {
      assertEquals(decision({ allow: [rule] }, line), `allow: ${rule}`);
    });
  }
});

Deno.test("deny and ask see through quotes and wrappers", async (t) => {
  for (const line of DENIED) {
    await t.step(JSON.stringify(line), () => {
      assertEquals(decision({ deny: ["bash(rm *)"] }, line), "deny: bash(rm *)");
      assertEquals(decision({ ask: ["bash(rm *)"] }, line), "ask: bash(rm *)");
    });
  }
  await t.step("not too far: rm as an argument, rmdir", () => {
    assertEquals(decision({ deny: ["bash(rm *)"] }, "echo rm x"), undefined);
    assertEquals(decision({ deny: ["bash(rm *)"] }, "rmdir x"), undefined);
    assertEquals(decision({ deny: ["bash(rm *)"] }, "git commit -m 'rm x'"), undefined);
  });
  await t.step("a program named by an expansion: deny asks, ask asks, allow never", () => {
    for (const line of ["$X x", "r${IFS}m x", '"$(echo rm)" x', "X=rm; $X x"]) {
      assertEquals(decision({ deny: ["bash(rm *)"] }, line), "ask: bash(rm *)", line);
      assertEquals(decision({ ask: ["bash(rm *)"] }, line), "ask: bash(rm *)", line);
    }
  });
});

Deno.test("splitCommands: lines it is not sure of are not complete", () => {
  const split = splitCommands("echo `echo \\`touch PWNED\\` `");
  assertEquals(split.complete, false);
  assertEquals(split.commands.includes("touch PWNED"), true);
  assertEquals(splitCommands("echo `echo hi`").complete, true);
  assertEquals(splitCommands("cat <<EOF\nx\nEOF").complete, false);
  assertEquals(splitCommands("cat <<< word").complete, true);
});

Deno.test("commandWords and programWords", () => {
  const read = commandWords(`FOO=1 sudo -u me "/bin/r"m 'a b' 2>&1 > out`);
  assertEquals(read.words.map((w) => w.text), ["FOO=1", "sudo", "-u", "me", "/bin/rm", "a b"]);
  assertEquals(read.writes, true);
  assertEquals(programWords(read.words).map((w) => w.text), ["rm", "a b"]);
  assertEquals(commandWords("ls 2>/dev/null").writes, false);
  assertEquals(commandWords("diff <(ls a) b").writes, false);
  assertEquals(commandWords("r${IFS}m x").words[0].expands, true);
});
