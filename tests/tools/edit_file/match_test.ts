import { assertEquals } from "../../helpers/assert.ts";
import { FileText, findAll, resolveEdit, stripPadding } from "../../../tools/edit_file/match.ts";
import { boundedDistance, closestRegion } from "../../../tools/edit_file/closest.ts";
import { stripCopiedPrefix, withoutCopiedPrefix } from "../../../tools/edit_file/decoration.ts";
import { numberLine } from "../../../tools/_lines.ts";

Deno.test("edit_match: the passes", async (t) => {
  const file = new FileText("a\n\tb := 1\n\tc := 2\nd\n");

  await t.step("exact: the region of old, new as sent", () => {
    assertEquals(resolveEdit(file, "b := 1", "b := 9"), {
      kind: "found",
      pass: "exact",
      start: 3,
      end: 9,
      replacement: "b := 9",
    });
  });

  await t.step("edges: the region without the padding, new without it either", () => {
    assertEquals(resolveEdit(file, "\n  b := 1  \n", "\n  b := 9  \n"), {
      kind: "found",
      pass: "edges",
      start: 3,
      end: 9,
      replacement: "b := 9",
    });
  });

  await t.step("indent: whole lines, new re-indented", () => {
    assertEquals(resolveEdit(file, "  b := 1\n  c := 2\n", "  b := 1\n  c := 3\n"), {
      kind: "found",
      pass: "indent",
      start: 2,
      end: 17,
      replacement: "\tb := 1\n\tc := 3",
    });
  });

  await t.step("the first line copied from after its indentation", () => {
    const f = new FileText("func f() {\n\tif x {\n\t\ty()\n\t}  \n}\n");
    const r = resolveEdit(f, "if x {\n\t\ty()\n\t}", "if x {\n\t\tz()\n\t}");
    assertEquals(r.kind === "found" && [r.pass, r.replacement], ["exact", "if x {\n\t\tz()\n\t}"]);
    const loose = resolveEdit(f, "if x {\n\t\ty()\n\t}\n}", "if x {\n\t\tz()\n\t}\n}");
    // The unchanged `\t}  ` keeps the file's own bytes, its trailing spaces included.
    assertEquals(loose.kind === "found" && [loose.pass, loose.replacement], [
      "indent",
      "\tif x {\n\t\tz()\n\t}  \n}",
    ]);
  });

  await t.step("ambiguous in any pass: the count and the line of each", () => {
    const twice = new FileText("x\n  y\nx\n  y\n");
    assertEquals(resolveEdit(twice, "x", "z"), { kind: "ambiguous", count: 2, lines: [1, 3] });
    assertEquals(resolveEdit(twice, " x ", "z"), { kind: "ambiguous", count: 2, lines: [1, 3] });
    assertEquals(resolveEdit(twice, "x\ny", "z"), { kind: "ambiguous", count: 2, lines: [1, 3] });
  });

  await t.step("overlapping occurrences count; several on one line list the line once", () => {
    assertEquals(findAll("aaa", "aa"), [0, 1]);
    assertEquals(resolveEdit(new FileText("aaa\n"), "aa", "b"), {
      kind: "ambiguous",
      count: 2,
      lines: [1],
    });
  });

  await t.step("not found: with the closest region when one is close", () => {
    assertEquals(resolveEdit(file, "b := 5\nc := 2", "x"), {
      kind: "notFound",
      closest: { first: 2, lines: ["\tb := 1", "\tc := 2"] },
    });
    assertEquals(resolveEdit(file, "zzz", "x"), { kind: "notFound", closest: undefined });
  });
});

Deno.test("edit_match: copied prefixes", async (t) => {
  await t.step("read_file's numbered lines, the diff's, the refusal's gutters", () => {
    for (
      const line of [
        numberLine(7, 3, "x"),
        "- 4 │ x",
        "+ 12 │ x",
        "  │ 4 │ x",
        "  │  9 │ x",
        "  │ x",
      ]
    ) {
      assertEquals(stripCopiedPrefix(line), "x", line);
    }
    assertEquals(stripCopiedPrefix("  4 │"), "");
    assertEquals(stripCopiedPrefix("x │ y"), undefined);
    assertEquals(stripCopiedPrefix("\tx"), undefined);
  });
  await t.step("taken off only when every line has one", () => {
    assertEquals(withoutCopiedPrefix("1 │ a\n2 │ b\n"), "a\nb\n");
    assertEquals(withoutCopiedPrefix("1 │ a\nb"), undefined);
    assertEquals(withoutCopiedPrefix("1 │ a\nb", false), "a\nb");
  });
  await t.step("a file that holds such lines is matched as it is first", () => {
    const f = new FileText("1 │ a\n");
    const r = resolveEdit(f, "1 │ a", "1 │ b");
    assertEquals(r.kind === "found" && r.replacement, "1 │ b");
  });
});

Deno.test("edit_match: padding and the closest region", async (t) => {
  await t.step("padding comes off new as far as new carries it", () => {
    assertEquals(stripPadding("\n\nx\n", 2, "\n"), "x");
    assertEquals(stripPadding("\nx", 2, ""), "x");
    assertEquals(stripPadding("x\n\n", 0, "\n"), "x\n", "one blank line added, kept");
    assertEquals(stripPadding("x  ", 0, "  "), "x");
    assertEquals(stripPadding("\n", 1, "\n"), "", "never less than one line");
  });

  await t.step("half the lines must line up: 2 of 4 is offered, 1 of 3 is not", () => {
    const f = new FileText("alpha one\nbeta two\ngamma three\ndelta four\n");
    assertEquals(closestRegion(f, "alpha one\nbeta two\nzzz\nyyy"), {
      first: 1,
      lines: ["alpha one", "beta two", "gamma three", "delta four"],
    });
    assertEquals(closestRegion(f, "alpha one\nzzz\nyyy"), undefined);
  });

  await t.step("lines line up ignoring whitespace, or when 80% similar", () => {
    const f = new FileText("x\nfunction  total(a, b) {\n  return a + b;\n}\n");
    assertEquals(closestRegion(f, "function total(a, b) {\nreturn a - b;"), {
      first: 2,
      lines: ["function  total(a, b) {", "  return a + b;"],
    });
    assertEquals(closestRegion(f, "completely different"), undefined);
  });

  await t.step("an old longer than the file is compared with what there is", () => {
    const f = new FileText("one\ntwo\n");
    assertEquals(closestRegion(f, "one\ntwo\nthree"), { first: 1, lines: ["one", "two"] });
  });

  await t.step("bounded edit distance", () => {
    assertEquals(boundedDistance("kitten", "sitting", 5), 3);
    assertEquals(boundedDistance("kitten", "sitting", 2), 3);
    assertEquals(boundedDistance("abc", "abc", 0), 0);
    assertEquals(boundedDistance("a", "abcdef", 2), 3);
  });
});
