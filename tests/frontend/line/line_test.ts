/** Line mode's loop (lib/frontend/line/line.ts): the keys of a running turn. */

import { turnKeys } from "../../../lib/frontend/line/line.ts";
import type { Key } from "../../../lib/frontend/terminal/keys.ts";
import { assertEquals } from "../../helpers/assert.ts";

const typed = (text: string): Key[] =>
  text.split("").map((c) => c === "\n" ? { name: "enter" } : { name: "text", text: c });

Deno.test("turnKeys", async (t) => {
  await t.step("Esc and Ctrl-C cancel the turn", () => {
    let cancelled = 0;
    const keys = turnKeys(() => cancelled++);
    keys.listen({ name: "escape" });
    keys.listen({ name: "ctrl-c" });
    assertEquals([cancelled, keys.ahead()], [2, []]);
  });
  await t.step("a blind /abort line cancels, and is not typed again at the prompt", () => {
    let cancelled = 0;
    const keys = turnKeys(() => cancelled++);
    for (const k of typed("/new\n/abort\nnext")) keys.listen(k);
    assertEquals(cancelled, 1);
    assertEquals(keys.ahead(), typed("/new\nnext"));
  });
  await t.step("anything else is kept, keys in order", () => {
    const keys = turnKeys(() => {});
    const all: Key[] = [...typed("ab"), { name: "backspace" }, ...typed("c\n")];
    for (const k of all) keys.listen(k);
    assertEquals(keys.ahead(), all);
  });
});
