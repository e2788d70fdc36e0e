/** The typography and interior passes' matching (tools/edit_file/normalized.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import { FileText } from "../../../tools/edit_file/file_text.ts";
import { stripPadding } from "../../../tools/edit_file/match.ts";
import {
  bothNormalizer,
  compose,
  interiorNormalizer,
  normalizedPass,
  trimNormal,
  typographyNormalizer,
} from "../../../tools/edit_file/normalized.ts";

const interior = interiorNormalizer("a.ts");
const pass = (text: string, old: string, neu: string, norm = interior) =>
  normalizedPass(new FileText(text, undefined, "a.ts"), old, neu, norm, stripPadding);

Deno.test("normalised matching", async (t) => {
  await t.step("a one-line old: a fragment of a line, between word boundaries", () => {
    assertEquals(pass("const total = sum(a, b);\n", "sum(a,b)", "add(a,b)"), {
      kind: "found",
      pass: "exact",
      start: 14,
      end: 23,
      replacement: "add(a, b)",
    });
    assertEquals(pass("const max = 10;\n", "x=1", "x=2"), undefined, "x=1 is inside max=10");
  });

  await t.step("several lines: whole lines, uniqueness kept, indentation reported", () => {
    const r = pass("if (a) {\n  f(x, y);\n}\n", "if(a){\nf(x,y);", "if(a){\nf(x,z);");
    assertEquals(r?.kind === "found" && [r.pass, r.replacement], [
      "indent",
      "if (a) {\n  f(x, z);",
    ]);
    assertEquals(pass("f(a, b);\nf(a, b);\n", "f(a,b);", "g();"), {
      kind: "ambiguous",
      count: 2,
      lines: [1, 2],
    });
  });

  await t.step("an old without a word is not matched loosely", () => {
    assertEquals(pass("} )\n", "})", "}"), undefined);
  });

  await t.step("typography, and both together", () => {
    const both = bothNormalizer(typographyNormalizer, interior);
    const r = pass(
      'log("a", "b");\n',
      "log(\u201Ca\u201D,\u201Cb\u201D);",
      "log(\u201Ca\u201D);",
      both,
    );
    assertEquals(r?.kind === "found" && r.replacement, 'log("a");');
    assertEquals(
      pass('x = "\u201Cq\u201D"\n', 'x = "\\"q\\""', "y", typographyNormalizer),
      undefined,
    );
  });

  await t.step("compose and trim keep where each character came from", () => {
    const inner = { text: "ab", from: [0, 3], to: [1, 4] };
    assertEquals(compose(inner, { text: "b", from: [1], to: [2] }), {
      text: "b",
      from: [3],
      to: [4],
    });
    assertEquals(trimNormal({ text: " a ", from: [0, 1, 2], to: [1, 2, 3] }), {
      text: "a",
      from: [1],
      to: [2],
    });
  });
});
