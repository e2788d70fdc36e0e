/** The excerpt of a hit (lib/session/excerpt.ts): around the words found, on one line. */

import { excerpt } from "../../lib/session/excerpt.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("excerpts", async (t) => {
  await t.step("80 characters before the first word, 160 after it, … where cut", () => {
    const text = "A".repeat(100) + " needle " + "B".repeat(1000);
    assertEquals(
      excerpt(text, ["needle"]),
      "…" + "A".repeat(79) + " needle " + "B".repeat(159) + "…",
    );
  });

  await t.step("nothing cut at a text's ends: no …", () => {
    assertEquals(excerpt("short needle text", ["needle"]), "short needle text");
    assertEquals(excerpt("   \n needle  \n", ["needle"]), "needle");
  });

  await t.step("from the first word found to the last, 600 characters at most", () => {
    const near = "x".repeat(100) + "alpha" + "y".repeat(300) + "omega" + "z".repeat(500);
    assertEquals(
      excerpt(near, ["omega", "alpha"]),
      "…" + "x".repeat(80) + "alpha" + "y".repeat(300) + "omega" + "…",
    );
    const far = "x".repeat(100) + "alpha" + "y".repeat(1900) + "omega" + "z".repeat(100);
    const cut = excerpt(far, ["alpha", "omega"]);
    assertEquals(cut, "…" + "x".repeat(80) + "alpha" + "y".repeat(515) + "…");
    assertEquals(cut.length, 602);
  });

  await t.step("whitespace collapsed: one line", () => {
    const text = "first line\n\n  second\tline with the needle\r\nthird line";
    assertEquals(excerpt(text, ["needle"]), "first line second line with the needle third line");
  });

  await t.step("cut from the original text, accents and all", () => {
    const text = "x".repeat(200) + " Ma PRÉFÉRENCE est le thé.";
    assertEquals(
      excerpt(text, ["preference"]),
      "…" + "x".repeat(76) + " Ma PRÉFÉRENCE est le thé.",
    );
  });

  await t.step("no word in the text: its beginning, 240 characters", () => {
    const text = "w".repeat(500);
    assertEquals(excerpt(text, ["needle"]), "w".repeat(240) + "…");
  });

  await t.step("never half a surrogate pair", () => {
    const text = "😀".repeat(100) + "needle" + "😀".repeat(200);
    const cut = excerpt(text, ["needle"]);
    assertEquals(cut.includes("\uFFFD"), false);
    assertEquals([...cut.slice(1, -1)].every((c) => c === "😀" || "needle".includes(c)), true);
  });
});
