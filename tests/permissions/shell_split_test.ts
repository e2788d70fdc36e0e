/** A bash line cut into its simple commands (lib/permissions/shell_split.ts). */

import { assertEquals } from "../helpers/assert.ts";
import { splitCommands, withoutAssignments } from "../../lib/permissions/shell_split.ts";

const TABLE: [string, string[], boolean?][] = [
  ["git status", ["git status"]],
  ["git status; rm -rf x", ["git status", "rm -rf x"]],
  ["a && b || c | d & e", ["a", "b", "c", "d", "e"]],
  ["a\nb\r\nc", ["a", "b", "c"]],
  ["echo 'a; b' && c", ["echo 'a; b'", "c"]],
  ['echo "a && b" | c', ['echo "a && b"', "c"]],
  ["echo a\\;b", ["echo a\\;b"]],
  ["echo $(rm -rf x)", ["rm -rf x", "echo $(rm -rf x)"]],
  ['echo "$(rm -rf x)"', ["rm -rf x", 'echo "$(rm -rf x)"']],
  ["echo `rm -rf x`", ["rm -rf x", "echo `rm -rf x`"]],
  ['echo "`rm x`"', ["rm x", 'echo "`rm x`"']],
  ["diff <(ls a) >(cat)", ["ls a", "cat", "diff <(ls a) >(cat)"]],
  ["echo $(a $(b; c))", ["b", "c", "a $(b; c)", "echo $(a $(b; c))"]],
  ["(cd x && rm y)", ["cd x", "rm y"]],
  ["{ rm x; }", ["rm x"]],
  ["if true; then rm x; fi", ["true", "rm x"]],
  ["while read l; do rm $l; done", ["read l", "rm $l"]],
  ["! rm x", ["rm x"]],
  ["make 2>&1 | tee log", ["make 2>&1", "tee log"]],
  ["make &> log", ["make &> log"]],
  ["echo a >| f", ["echo a >| f"]],
  ["git   status   -s", ["git status -s"]],
  ["ls \\\n  -l", ["ls -l"]],
  ["echo $((1 + 2))", ["1 + 2", "echo $((1 + 2))"]],
  ["", []],
  [" ; ;; ", []],
  ["echo 'open", ["echo 'open"], false],
  ['echo "open', ['echo "open'], false],
  ["echo $(rm x", ["rm x", "echo $(rm x"], false],
  ["echo `rm x", ["rm x", "echo `rm x"], false],
];

Deno.test("splitCommands: a line's simple commands", async (t) => {
  for (const [line, commands, complete = true] of TABLE) {
    await t.step(JSON.stringify(line), () => {
      assertEquals(splitCommands(line), { commands, complete });
    });
  }
});

Deno.test("withoutAssignments: leading NAME=value words left out", () => {
  assertEquals(withoutAssignments("FOO=1 BAR='a b' rm x"), "rm x");
  assertEquals(withoutAssignments('A="x y" make'), "make");
  assertEquals(withoutAssignments("rm A=1"), "rm A=1");
  assertEquals(withoutAssignments("FOO=1"), "FOO=1");
});
