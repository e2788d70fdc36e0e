/** How a call looks in the terminal (lib/frontend/terminal/display.ts). */

import {
  changeLines,
  hookInputLine,
  previewLines,
  toolLine,
} from "../../../lib/frontend/terminal/display.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("changeLines: the diff a permission prompt shows", async (t) => {
  await t.step("a replaced line", () => {
    assertEquals(changeLines({ oldText: "one\nold\n", newText: "one\nNEW\n" }), [
      "@@ -1,2 +1,2 @@",
      " one",
      "-old",
      "+NEW",
    ]);
  });
  await t.step("a new file: every line added", () => {
    assertEquals(changeLines({ newText: "a\n" }), ["@@ -0,0 +1,1 @@", "+a"]);
  });
  await t.step("cut after max lines, with the size of the whole; never to hide one line", () => {
    const newText = Array.from({ length: 10 }, (_, i) => `l${i}\n`).join("");
    assertEquals(changeLines({ newText }, 4), [
      "@@ -0,0 +1,10 @@",
      "+l0",
      "+l1",
      "+l2",
      "… 7 more lines (+10 −0 in all)",
    ]);
    assertEquals(changeLines({ newText }, 10).length, 11);
  });
  await t.step("a replaced binary file is said first: no new file's diff alone", () => {
    assertEquals(changeLines({ newText: "a\n", replaces: "a binary file of 3 bytes" }), [
      "(replaces a binary file of 3 bytes, not shown)",
      "@@ -0,0 +1,1 @@",
      "+a",
    ]);
  });
  await t.step("what a terminal must not obey is made visible", () => {
    assertEquals(changeLines({ newText: "\x1b[2J\n" }), ["@@ -0,0 +1,1 @@", "+^[[2J"]);
  });
});

Deno.test("hookInputLine: what runs after a preToolCall hook", () => {
  assertEquals(hookInputLine("bash", "echo a\necho b"), "   ↳ preToolCall hook: bash: echo a …");
});

Deno.test("a call's line and its preview show at most 500 characters of a line", () => {
  const long = "x".repeat(30_000);
  assertEquals(toolLine("🧰", "t", long), `🧰 t: ${"x".repeat(499)}…`);
  assertEquals(previewLines(long, 3), [`   ${"x".repeat(499)}…`]);
  assertEquals(previewLines("short", 3), ["   short"]);
});
