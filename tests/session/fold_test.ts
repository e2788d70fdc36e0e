/** Words folded for matching (lib/session/fold.ts): case, accents, any script; a query's words. */

import { locateWords } from "../../lib/session/excerpt.ts";
import {
  countBits,
  foldText,
  foldWithMap,
  MAX_WORD_LENGTH,
  queryWords,
  WordMatcher,
} from "../../lib/session/fold.ts";
import { mayHold } from "../../lib/session/search.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("matching", async (t) => {
  await t.step("case and accents fold: preference finds Préférence", () => {
    assertEquals(foldText("Préférence ÉTÉ"), "preference ete");
    assertEquals(foldText("pre\u0301fe\u0301rence"), "preference");
    assertEquals(foldText("ΛΌΓΟΣ λόγος"), "λογοσ λογοσ");
    const m = new WordMatcher(["preference"]);
    assertEquals(m.any("Ma Préférence"), true);
    assertEquals(m.any("ma PRE\u0301FE\u0301RENCE"), true, "decomposed accents");
    assertEquals(m.any("PREFERENCE"), true);
    assertEquals(m.any("préfér ence"), false);
  });

  await t.step("words outside ASCII: Greek with its final sigma, Cyrillic, Korean", () => {
    assertEquals(new WordMatcher(queryWords("λόγος")).any("ΤΟ ΛΌΓΟΣ ΕΊΝΑΙ"), true);
    assertEquals(new WordMatcher(queryWords("ёлка")).any("Новогодняя ЕЛКА"), true);
    assertEquals(new WordMatcher(queryWords("한국")).any("나는 한국어를 배운다"), true);
    assertEquals(new WordMatcher(queryWords("한국")).any("나는 일본어를 배운다"), false);
    assertEquals(new WordMatcher(queryWords("kelvin")).any("in \u212Aelvin"), true);
  });

  await t.step("the folded text keeps the way back to the original", () => {
    const text = "Voici la Préférence 😀 ΛΌΓΟΣ";
    const f = foldWithMap(text);
    assertEquals(f.text, foldText(text));
    const at = f.text.indexOf("λογοσ");
    assertEquals(text.slice(f.map![at]), "ΛΌΓΟΣ");
    assertEquals(locateWords(text, ["preference"]), { start: 9, firstEnd: 19, end: 19 });
    assertEquals(foldWithMap("plain ASCII").map, undefined);
  });

  await t.step("the query split into words, each once; short words left out beside longer", () => {
    assertEquals(queryWords("Préférence de l'utilisateur, préférence!"), [
      "preference",
      "utilisateur",
    ]);
    assertEquals(queryWords("de a"), ["de", "a"], "only short words: all kept");
    assertEquals(queryWords("C++ node.js"), ["node"]);
    assertEquals(queryWords("  ?!, — "), []);
  });

  await t.step("a word longer than 64 characters is cut to its start, and never throws", () => {
    assertEquals(queryWords("x".repeat(30_000) + " b"), ["x".repeat(MAX_WORD_LENGTH)]);
    assertEquals(MAX_WORD_LENGTH, 64);
    for (const word of ["a".repeat(30_000), "é".repeat(30_000), "λ".repeat(1_000_000)]) {
      const m = new WordMatcher(queryWords(word));
      assertEquals(m.any("un café noir, λόγος"), false);
      assertEquals(m.any("a".repeat(64) + " é".repeat(3)), word.startsWith("a"));
    }
  });

  await t.step("a word matches inside a longer word", () => {
    const m = new WordMatcher(queryWords("deploy"));
    assertEquals(m.any("the redeployment failed"), true);
    assertEquals(m.any("the redéployment failed"), true);
  });

  await t.step("a mask of the words held", () => {
    const m = new WordMatcher(queryWords("alpha beta gamma"));
    assertEquals(m.mask("beta and ALPHA"), 0b011);
    assertEquals(countBits(m.mask("gamma alpha beta")), 3);
    assertEquals(m.mask("nothing"), 0);
  });

  await t.step("a raw file is skipped only when it cannot hold a word", () => {
    const m = new WordMatcher(["preference"]);
    assertEquals(mayHold('{"content": "Pr\\u00e9f\\u00e9rence"}', m), true, "\\u escapes");
    assertEquals(mayHold('{"content": "colour \\u001b[31mred"}', m), false, "control escapes");
    assertEquals(mayHold('{"content": "my préférence"}', m), true);
    assertEquals(mayHold('{"content": "nothing — here"}', m), false);
  });
});
