/** Decoration taken off old and new (tools/edit_file/decoration.ts): numbers, fences, escapes. */

import { assertEquals } from "../../helpers/assert.ts";
import {
  newWithoutDecoration,
  withoutEscapes,
  withoutFences,
  withoutLineNumbers,
} from "../../../tools/edit_file/decoration.ts";

Deno.test("decoration", async (t) => {
  await t.step("line numbers: each other tool's style, when consecutive", () => {
    for (
      const [old, bare] of [
        ["     4\ta\n     5\tb", "a\nb"],
        ["    12→a\n    13→b", "a\nb"],
        ["00012| a\n00013| b", "a\nb"],
        ["7: a\n8: b\n", "a\nb\n"],
        ["     4\t\n     5\tb", "\nb"],
      ]
    ) {
      assertEquals(withoutLineNumbers(old, "", "x")?.old, bare, old);
    }
    assertEquals(withoutLineNumbers("4\ta\n6\tb", "", "x"), undefined, "not consecutive");
    assertEquals(withoutLineNumbers("4: a", "", "x"), undefined, "one line is no evidence");
    assertEquals(withoutLineNumbers("1\ta\n2\tb", "", "id\tname\n1\tz\n"), undefined, "TSV");
    assertEquals(withoutLineNumbers("a\nb", "", "x"), undefined);
  });

  await t.step("line numbers: off new's lines numbered as old's numbering could give them", () => {
    assertEquals(
      withoutLineNumbers("1: a:\n2:   b: 1", "1: a:\n2:   b: 1\n  404: missing\n3:   c: 2", "x"),
      { old: "a:\n  b: 1", new: "a:\n  b: 1\n  404: missing\n  c: 2", relaxation: "lineNumbers" },
    );
  });

  await t.step(
    "line numbers: mm's own on every line of old, off new's lines that carry one",
    () => {
      assertEquals(withoutLineNumbers("4 │ a\n5 │ b", "4 │ a\nc", "x"), {
        old: "a\nb",
        new: "a\nc",
        relaxation: "lineNumbers",
      });
    },
  );

  await t.step("fences: around old (and new), never in a file with fences", () => {
    assertEquals(withoutFences("```go\na\n```", "```go\nb\n```", "x"), {
      old: "a",
      new: "b",
      relaxation: "fences",
    });
    assertEquals(withoutFences("```\na\n```\n", "b\n", "x")?.old, "a\n", "the final newline kept");
    assertEquals(withoutFences("~~~\na\n~~~", "b", "x")?.new, "b");
    assertEquals(withoutFences("```\na\n```", "b", "text\n```sh\nx\n```\n"), undefined);
    assertEquals(withoutFences("```\na\n~~~", "b", "x"), undefined, "not the same fence");
    assertEquals(withoutFences("```\n```", "b", "x"), undefined, "nothing inside");
  });

  await t.step("escapes: one line, JSON escapes only, none of them in the file", () => {
    assertEquals(withoutEscapes('a:\\n  b: \\"x\\"', 'a:\\n  b: \\"y\\"', 'a:\n  b: "x"\n'), {
      old: 'a:\n  b: "x"',
      new: 'a:\n  b: "y"',
      relaxation: "escapes",
    });
    assertEquals(withoutEscapes("a\\nb", "c", "a\nb\n")?.new, "c", "new unescaped only if escaped");
    assertEquals(withoutEscapes("a\\nb", "c\\nd\ne", "a\nb\n")?.new, "c\\nd\ne");
    assertEquals(withoutEscapes("a\\nb", "c", 'printf("\\n")'), undefined, "the file holds \\n");
    assertEquals(withoutEscapes("a\\nb\\d", "c", "x"), undefined, "\\d is no JSON escape");
    assertEquals(withoutEscapes("a\nb\\n", "c", "x"), undefined, "old has a real newline");
    assertEquals(withoutEscapes("C:\\\\x", "c", "x"), undefined, "only a backslash");
    assertEquals(withoutEscapes("print('a\\\\n')", "print('b\\\\n')", "    print('a\\n')\n"), {
      old: "print('a\\n')",
      new: "print('b\\n')",
      relaxation: "escapes",
    }, "doubled backslashes alone, read once more as the file's text");
  });

  await t.step("decoration on new alone: a fence in a code file, mm's numbers", () => {
    assertEquals(newWithoutDecoration("a", "```go\nb\n```", "a\n", "a.go")?.new, "b");
    assertEquals(newWithoutDecoration("a", "```sh\nb\n```", "a\n", "README.md"), undefined);
    assertEquals(newWithoutDecoration("a", "```\nb\n```", "```\na\n```\n", "a.go"), undefined);
    assertEquals(newWithoutDecoration("a", "4 │ b", "a\n", "a.go")?.new, "b");
    assertEquals(newWithoutDecoration("4 │ a", "4 │ b", "a\n", "a.go"), undefined);
  });
});
