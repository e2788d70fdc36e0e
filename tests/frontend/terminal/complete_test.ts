/** Tab completion (lib/frontend/terminal/complete.ts): the fuzzy ranking, the `@` word, the cycle. */

import {
  mentionAt,
  mentionCompleter,
  modelCompleter,
  PathIndex,
  rankPaths,
  TabCycle,
} from "../../../lib/frontend/terminal/complete.ts";
import { assertEquals } from "../../helpers/assert.ts";

const paths = ["README.md", "docs/readme-old.md", "lib/agent/read.ts", "tests/fixtures/README.md"];

Deno.test("rankPaths: a subsequence, ranked by basename, shorter first", () => {
  assertEquals(rankPaths("REA", paths), [
    "README.md",
    "lib/agent/read.ts",
    "docs/readme-old.md",
    "tests/fixtures/README.md",
  ]);
  assertEquals(rankPaths("lar", paths), ["lib/agent/read.ts"]);
  assertEquals(rankPaths("zzz", paths), []);
});

Deno.test("mentionAt: an @ that starts a word, up to the caret", () => {
  assertEquals(mentionAt("see @REA", 8), { start: 4, query: "REA" });
  assertEquals(mentionAt("me@x.com", 8), undefined);
  assertEquals(mentionAt("@", 1), { start: 0, query: "" });
});

Deno.test("Tab: the best choice, then the next on each Tab", async () => {
  const complete = mentionCompleter(new PathIndex("/p", () => Promise.resolve(paths)));
  const cycle = new TabCycle();
  const first = await cycle.tab(complete, "x @REA", 6);
  assertEquals(first, { text: "x @README.md ", cursor: 13 });
  const second = await cycle.tab(complete, first!.text, first!.cursor);
  assertEquals(second?.text, "x @lib/agent/read.ts ");
  cycle.reset();
  assertEquals(await cycle.tab(complete, "no mention", 10), undefined);
  const models = modelCompleter(() => Promise.resolve(["qwen3:8b", "llama3"]));
  assertEquals(await new TabCycle().tab(models, "/model ll", 9), {
    text: "/model llama3",
    cursor: 13,
  });
});
