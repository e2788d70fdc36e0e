/** `/rewind`'s list (lib/undo/take_back.ts turnLine): each turn names the files it changed. */

import { FILES_NAMED, turnLine } from "../../lib/undo/take_back.ts";
import type { TurnRecord } from "../../lib/undo/store.ts";
import type { PathState } from "../../lib/undo/state.ts";
import { assertEquals, assertMatch } from "../helpers/assert.ts";

const cwd = "/work/p";
const file = (sha: string): PathState => ({ kind: "file", sha, size: 1 });

/** A record whose turn changed `changed` and left `same` as it was. */
function record(changed: string[], same: string[] = []): TurnRecord {
  const before: Record<string, PathState> = {};
  const after: Record<string, PathState> = {};
  for (const p of changed) [before[`${cwd}/${p}`], after[`${cwd}/${p}`]] = [file("a"), file("b")];
  for (const p of same) before[`${cwd}/${p}`] = after[`${cwd}/${p}`] = file("a");
  return { turn: 1, time: new Date().toISOString(), prompt: "fix it", before, after, bytes: 0 };
}

Deno.test("turnLine: the files a turn changed, named", async (t) => {
  const turn = { turn: 1, prompt: "fix it\nplease" };
  await t.step("two files changed, one left as it was", () => {
    assertMatch(
      turnLine(turn, record(["a.ts", "src/b.ts"], ["c.ts"]), cwd),
      / {2}fix it {2}\(a\.ts, src\/b\.ts\)$/,
    );
  });
  await t.step(`more than ${FILES_NAMED}: the first ${FILES_NAMED}, then +N more`, () => {
    const line = turnLine(turn, record(["a", "b", "c", "d", "e"]), cwd);
    assertMatch(line, /\(a, b, c \+2 more\)$/);
  });
  await t.step("none changed; nothing kept", () => {
    assertMatch(turnLine(turn, record([], ["c.ts"]), cwd), /\(no files changed\)$/);
    assertEquals(turnLine(turn, undefined, cwd), "  1  --:--  fix it  (files not kept)");
  });
});
