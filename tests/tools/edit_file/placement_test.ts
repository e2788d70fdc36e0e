/** Placing new line by line (tools/edit_file/placement.ts): unchanged, changed, added lines. */

import { assertEquals } from "../../helpers/assert.ts";
import { FileText } from "../../../tools/edit_file/file_text.ts";
import { literalsFor, squeeze } from "../../../tools/edit_file/interior.ts";
import { alignLines, carry, place, type Placing } from "../../../tools/edit_file/placement.ts";
import { foldNormal } from "../../../tools/edit_file/typography.ts";

/** A placing over whole lines `first..last` (0-based) of `text`, relaxed unless said. */
function over(text: string, first: number, last: number, over: Partial<Placing>): Placing {
  const f = new FileText(text);
  return {
    lines: f.lines,
    starts: f.starts,
    start: f.starts[first],
    end: f.starts[last] + f.lines[last].length,
    model: [],
    text: "",
    exact: false,
    firstLine: "verbatim",
    unit: f.unit,
    modelWidth: 4,
    keepTrailing: false,
    ...over,
  };
}

Deno.test("placement", async (t) => {
  await t.step("alignLines: the lines new keeps, by a longest common subsequence", () => {
    assertEquals(alignLines(["a", "b", "c"], ["a", "x", "c"]), [0, -1, 2]);
    assertEquals(alignLines(["a", "x", "a"], ["a", "a"]), [0, 2]);
    assertEquals(alignLines(["a  ", "b"], ["a", "b", "b"]), [0, 1, -1], "trailing blanks aside");
    assertEquals(alignLines(["  a"], ["a"]), [-1], "indentation counts");
  });

  await t.step("an unchanged line keeps the file's bytes, its trailing spaces too", () => {
    const text = "one  \ntwo  \nthree\n";
    assertEquals(
      place(over(text, 0, 2, { model: ["one", "two", "three"], text: "one\n2\nthree" })),
      "one  \n2  \nthree",
      "the changed line keeps the break the model did not see",
    );
  });

  await t.step("a changed line against the line it replaces; each its own shift", () => {
    const text = "root:\n  a:\n    x: 1\n  b:\n    y: 2\n";
    assertEquals(
      place(over(text, 1, 4, {
        model: ["  a:", "    x: 1", "b:", "  y: 2"],
        text: "  a:\n    x: 5\nb:\n  y: 3",
        modelWidth: 2,
      })),
      "  a:\n    x: 5\n  b:\n    y: 3",
    );
  });

  await t.step(
    "an added line against its nearest unchanged neighbour (the previous on a tie)",
    () => {
      const text = "func f() {\n\ta()\n}\n";
      assertEquals(
        place(over(text, 0, 2, {
          model: ["func f() {", "    a()", "}"],
          text: "func f() {\n    a()\n    if x {\n        b()\n    }\n}",
        })),
        "func f() {\n\ta()\n\tif x {\n\t\tb()\n\t}\n}",
      );
    },
  );

  await t.step("an exact match inside the indentation takes its base from old", () => {
    const f = new FileText("class A:\n    def f(self):\n        return 1\n");
    const start = f.starts[1] + 2;
    assertEquals(
      place({
        ...over(f.text, 1, 1, {}),
        start,
        end: start + "  def f(self):".length,
        model: ["  def f(self):"],
        text: '  def f(self):\n    """Doc."""',
        exact: true,
        modelWidth: 2,
      }),
      '  def f(self):\n        """Doc."""',
    );
  });

  await t.step("an unindented first line takes the shift most of old's other lines have", () => {
    const text = "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n";
    assertEquals(
      place(over(text, 1, 3, {
        model: ["if x {", "\t\ty()", "\t}"],
        text: "if x {\n\t\ty()\n\t\tz()\n\t}",
      })),
      "\tif x {\n\t\ty()\n\t\tz()\n\t}",
    );
    // Alone, an unindented line is the model's own frame: what it adds stays at its level.
    const py = "def f():\n    y = 1\n";
    const f = new FileText(py);
    assertEquals(
      place({
        ...over(py, 1, 1, {}),
        start: f.starts[1] + 4,
        model: ["y = 1"],
        text: "y = 1\nprint(y)",
        exact: true,
      }),
      "y = 1\n    print(y)",
    );
  });

  await t.step("blank lines: empty in a relaxed match, as sent in an exact one", () => {
    const text = "a\nb\n";
    assertEquals(place(over(text, 0, 1, { model: ["a", "b"], text: "a\n   \nb" })), "a\n\nb");
    assertEquals(
      place(over(text, 0, 1, { model: ["a", "b"], text: "a\n   \nb", exact: true })),
      "a\n   \nb",
    );
  });

  await t.step("carry: the file's typography and spacing where new says what old said", () => {
    const fold = (c: string) => foldNormal(c);
    assertEquals(
      carry(
        "He said \u201Chello\u201D \u2014 twice.",
        'He said "hello" - twice.',
        'He said "bye" - twice.',
        fold,
      ),
      "He said \u201Cbye\u201D \u2014 twice.",
    );
    const js = (c: string) => squeeze(c, literalsFor("a.ts"));
    assertEquals(
      carry("fn(a: i32, b: i32)", "fn(a:i32,b:i32)", "fn(a:i64,b:i64)", js),
      "fn(a: i64, b: i64)",
    );
    assertEquals(
      carry("count := 1", "count  :=  1", "count  :=  2", js),
      "count := 2",
      "in place of",
    );
    assertEquals(carry("f(a, b)", "f(a,b)", "f(a,b,c)", js), "f(a, b,c)", "added as typed");
    assertEquals(carry("x = 1", "x = 1", "totally different()", js), "totally different()");
  });
});
