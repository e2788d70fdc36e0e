import { editDistance, nearest } from "../lib/nearest.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("editDistance", async (t) => {
  const rows: [string, string, number][] = [
    ["", "", 0],
    ["yolo", "yolo", 0],
    ["", "abc", 3],
    ["abc", "", 3],
    ["yolo", "yollo", 1],
    ["yolo", "yolo_", 1],
    ["yolo", "oylo", 1],
    ["kitten", "sitting", 3],
    ["Yolo", "yolo", 1],
  ];
  for (const [a, b, d] of rows) {
    await t.step(`${JSON.stringify(a)} → ${JSON.stringify(b)} is ${d}`, () => {
      assertEquals(editDistance(a, b), d);
      assertEquals(editDistance(b, a), d);
    });
  }
});

Deno.test("nearest", async (t) => {
  const keys = ["yolo", "bashTool", "bashTimeout", "editTools", "maxTurns", "acp"] as const;
  await t.step("one insertion", () => assertEquals(nearest("yollo", keys), "yolo"));
  await t.step("trailing underscore", () => assertEquals(nearest("yolo_", keys), "yolo"));
  await t.step("case only", () => assertEquals(nearest("Yolo", keys), "yolo"));
  await t.step("all upper case", () => assertEquals(nearest("BASHTOOL", keys), "bashTool"));
  await t.step("swapped neighbours", () => assertEquals(nearest("oylo", keys), "yolo"));
  await t.step("snake case", () => assertEquals(nearest("bash_timeout", keys), "bashTimeout"));
  await t.step("the closest of two", () => {
    assertEquals(nearest("bashTimout", keys), "bashTimeout");
    assertEquals(nearest("bashToo", keys), "bashTool");
  });
  await t.step("long word, distance up to a third", () => {
    assertEquals(nearest("edtTols", keys), "editTools");
    assertEquals(nearest("maxTurnsXYZ", keys), "maxTurns");
  });
  await t.step("nothing near", () => assertEquals(nearest("provider", keys), undefined));
  await t.step("nothing in common", () => assertEquals(nearest("x", ["ls"]), undefined));
  await t.step("no candidates", () => assertEquals(nearest("yolo", []), undefined));
  await t.step("ties go to the first candidate", () => {
    assertEquals(nearest("ab", ["ac", "ad"]), "ac");
  });
  await t.step("exact match", () => assertEquals(nearest("acp", keys), "acp"));
});
