import { assertEquals } from "../helpers/assert.ts";
import {
  cleanSymbol,
  cleanWord,
  findOccurrences,
  identifiers,
  isCommentLine,
  occurrenceLines,
  renameNames,
} from "../../lib/lsp/symbol.ts";

Deno.test("lsp symbol cleaning and search", async (t) => {
  await t.step("stray quotes and punctuation are cut off", () => {
    assertEquals(cleanSymbol("Greet', "), "Greet");
    assertEquals(cleanSymbol('"greet"'), "greet");
    assertEquals(cleanSymbol("`greet`."), "greet");
    assertEquals(cleanSymbol("greet()"), "greet");
    assertEquals(cleanSymbol("greet(name)"), "greet");
    assertEquals(cleanSymbol("  greet\n"), "greet");
  });

  await t.step("a receiver. or pkg. prefix is dropped (also Type:: and ptr->)", () => {
    assertEquals(cleanSymbol("person.Greet"), "Greet");
    assertEquals(cleanSymbol("fmt.Println("), "Println");
    assertEquals(cleanSymbol("self.name"), "name");
    assertEquals(cleanSymbol("Person::greet"), "greet");
    assertEquals(cleanWord("p->size"), "size");
  });

  await t.step(
    "identifiers keep non-ASCII letters and $; numbers alone are not identifiers",
    () => {
      assertEquals(cleanSymbol("größe"), "größe");
      assertEquals(cleanSymbol("名前"), "名前");
      assertEquals(cleanSymbol("$scope"), "$scope");
      assertEquals(identifiers("Greet 1 12 Hello"), ["Greet", "Hello"]);
      assertEquals(cleanSymbol("42"), "");
      assertEquals(cleanSymbol("()"), "");
    },
  );

  await t.step("several words: a declaration keyword before the name is skipped", () => {
    assertEquals(cleanSymbol("func Greet"), "Greet");
    assertEquals(cleanSymbol("function greet()"), "greet");
    assertEquals(cleanSymbol("Greet 1 12"), "Greet");
  });

  await t.step("rename: several words in symbol and no new_name mean symbol … new name", () => {
    assertEquals(renameNames("Greet 1 12 Hello", ""), { symbol: "Greet", newName: "Hello" });
    assertEquals(renameNames("Greet -> Hello", ""), { symbol: "Greet", newName: "Hello" });
    assertEquals(renameNames("Greet", ""), { symbol: "Greet", newName: "" });
    assertEquals(renameNames("Greet 3", ""), { symbol: "Greet", newName: "" });
    assertEquals(renameNames("person.Greet", "'Hello',"), { symbol: "Greet", newName: "Hello" });
    assertEquals(renameNames("Greet Hello", "Hi"), { symbol: "Greet", newName: "Hi" });
    assertEquals(renameNames("Greet", "to Hello"), { symbol: "Greet", newName: "Hello" });
  });

  await t.step("comment lines", () => {
    for (const l of ["// x", "  # x", "/* x", " * x", "-- x", "; x", '"""x', "<!-- x"]) {
      assertEquals(isCommentLine(l), true, l);
    }
    for (const l of ["x = 1 // y", "greet()", "  return x", "#[derive]x"]) {
      assertEquals(isCommentLine(l), l === "#[derive]x", l);
    }
  });

  const text = [
    "// greet: say greet",
    "func greet() {}",
    "greeting := greet() + greet2()",
    "# greet again",
    "😀 漢字 greet",
  ].join("\n");

  await t.step("whole words only, code lines first, comment lines last, each in file order", () => {
    assertEquals(findOccurrences(text, "greet"), [
      { line: 2, column: 6 },
      { line: 3, column: 13 },
      { line: 5, column: 6 },
      { line: 1, column: 4 },
      { line: 1, column: 15 },
      { line: 4, column: 3 },
    ]);
  });

  await t.step("columns count characters: after an emoji and CJK text", () => {
    assertEquals(findOccurrences(text, "greet", 5), [{ line: 5, column: 6 }]);
  });

  await t.step("line restricts the search", () => {
    assertEquals(findOccurrences(text, "greet", 3), [{ line: 3, column: 13 }]);
    assertEquals(findOccurrences(text, "greet2", 2), []);
    assertEquals(occurrenceLines(text, "greet"), [1, 2, 3, 4, 5]);
  });

  await t.step("another case only when the exact spelling is nowhere", () => {
    assertEquals(findOccurrences(text, "Greet"), findOccurrences(text, "greet"));
    assertEquals(findOccurrences("Greet greet", "Greet"), [{ line: 1, column: 1 }]);
    assertEquals(findOccurrences(text, "nothing"), []);
    assertEquals(findOccurrences(text, ""), []);
  });
});
