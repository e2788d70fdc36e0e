/** Typography folded and mapped back (tools/edit_file/typography.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import {
  foldNormal,
  foldTypography,
  hasTypography,
  toFileTypography,
} from "../../../tools/edit_file/typography.ts";

Deno.test("typography", async (t) => {
  await t.step("quotes, dashes, non-breaking spaces and hyphens, the ellipsis", () => {
    assertEquals(
      foldTypography("\u201Ca\u201D \u2018b\u2019 \u2013 \u2014 \u2011 x\u00A0y \u2026"),
      "\"a\" 'b' - - - x y ...",
    );
    assertEquals(hasTypography("plain 'ascii' -- ..."), false);
    assertEquals(hasTypography("it\u2019s"), true);
  });

  await t.step("foldNormal: where each character came from", () => {
    assertEquals(foldNormal("a\u2026b"), {
      text: "a...b",
      from: [0, 1, 1, 1, 2],
      to: [1, 2, 2, 2, 3],
    });
  });

  await t.step("new's prettified characters, in a file that never writes them, as ASCII", () => {
    assertEquals(
      toFileTypography("say \u201Chi\u201D \u2014 it\u2019s\u2026", 'say "x" - it\'s...'),
      'say "hi" - it\'s...',
    );
  });

  await t.step("new's ASCII, in a file that only writes curly forms, curled by its place", () => {
    assertEquals(
      toFileTypography('"Hi," he said. "It\'s late..."', "\u201CA\u201D it\u2019s\u2026"),
      "\u201CHi,\u201D he said. \u201CIt\u2019s late\u2026\u201D",
    );
  });

  await t.step("a file that writes both forms: new as sent", () => {
    assertEquals(toFileTypography('"a" \u201Cb\u201D', '"x" \u201Cy\u201D'), '"a" \u201Cb\u201D');
  });
});
