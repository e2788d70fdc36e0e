/** Placeholders in new and elision markers in old (tools/edit_file/placeholder.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import {
  addedPlaceholder,
  isElisionMarker,
  isPlaceholder,
} from "../../../tools/edit_file/placeholder.ts";

Deno.test("placeholders", async (t) => {
  await t.step("comments that are dots or say the code goes on", () => {
    for (
      const line of [
        "// ... existing code ...",
        "  // ...existing code...",
        "// rest of methods ...",
        "# ...",
        "/* ... */",
        "<!-- ... -->",
        "{/* ... */}",
        "-- ...",
        "// … other methods …",
        "// [...]",
        "// ... (rest unchanged)",
        "// existing code",
        "// existing code here",
        "# rest of the file unchanged",
        "// other methods remain the same",
      ]
    ) assertEquals(isPlaceholder(line, "a.ts"), true, line);
  });

  await t.step("comments that only look like one", () => {
    for (
      const line of [
        "// TODO: handle errors...",
        "// ...and then we retry",
        "// existing users are migrated below",
        "// rest",
        "x = y; // ...",
        "// the rest of the world",
        "#",
      ]
    ) assertEquals(isPlaceholder(line, "a.ts"), false, line);
  });

  await t.step("bare dots: a placeholder in code, content in Python, YAML, prose", () => {
    assertEquals(isPlaceholder("  ...", "a.ts"), true);
    assertEquals(isPlaceholder("...", "a.py"), false);
    assertEquals(isPlaceholder("...", "a.yaml"), false);
    assertEquals(isPlaceholder("...", "README.md"), false);
    assertEquals(isPlaceholder("...", "Makefile"), false, "no extension: not known as code");
    assertEquals(isElisionMarker("    ...", "a.py"), true, "in old, dots always elide");
  });

  await t.step("added: one old does not have as often", () => {
    assertEquals(addedPlaceholder("a\n", "a\n// ...\n", "a.ts"), "// ...");
    assertEquals(addedPlaceholder("a\n// ...\nb", "a\n// ...\nc", "a.ts"), undefined);
    assertEquals(addedPlaceholder("// ...", "// ...\n// ...", "a.ts"), "// ...");
    assertEquals(addedPlaceholder("def f():", "def f():\n    ...", "a.py"), undefined);
  });
});
