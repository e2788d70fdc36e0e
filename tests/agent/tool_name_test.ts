/** Tool names small models get wrong, matched to the declared tool (matchToolName). */

import { matchToolName } from "../../lib/agent/tool_name.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("tool names small models get wrong", async (t) => {
  const declared = ["read_file", "bash", "edit_file"];
  for (
    const name of [
      "read_file",
      "Read_File",
      "read-file",
      "read file",
      "readFile",
      "ReadFile",
      "read.file",
      " READ-FILE ",
    ]
  ) {
    await t.step(`${JSON.stringify(name)} is read_file`, () => {
      assertEquals(matchToolName(name.trim(), declared), "read_file");
    });
  }
  await t.step("another name is none", () => {
    assertEquals(matchToolName("read_files", declared), undefined);
    assertEquals(matchToolName("", declared), undefined);
    assertEquals(matchToolName("___", declared), undefined);
  });
  await t.step("two declared tools that read alike: only the exact name runs", () => {
    assertEquals(matchToolName("read_file", ["read_file", "readfile"]), "read_file");
    assertEquals(matchToolName("Read-File", ["read_file", "readfile"]), undefined);
  });
});
