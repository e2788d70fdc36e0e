/** The line diff of a change (lib/diff.ts). */

import { DIFF_TOO_SLOW, diffHunks, lineDiff } from "../lib/diff.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("diff: a change as its hunks, its unified lines and its counts", () => {
  const hunks = diffHunks("a\nb\nc\n", "a\nB\nc\nd\n");
  assertEquals(hunks?.hunks.length, 1);
  assertEquals(hunks?.hunks[0].lines, [" a", "-b", "+B", " c", "+d"]);
  assertEquals([hunks?.added, hunks?.deleted], [2, 1]);
  const lines = lineDiff("a\nb\nc\n", "a\nB\nc\nd\n");
  assertEquals(lines?.hunks.split("\n").slice(1), [" a", "-b", "+B", " c", "+d"]);
  assertEquals(DIFF_TOO_SLOW, "(the diff took too long to compute and is not shown)");
});
