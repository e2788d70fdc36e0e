/** The agent file's YAML read with positions (lib/config/reader.ts): syntax errors, positioned. */

import { assertEquals } from "../helpers/assert.ts";
import { fault } from "../helpers/config.ts";

Deno.test("parseConfig: YAML syntax errors", async (t) => {
  await t.step("an unclosed flow sequence", () => {
    assertEquals(
      fault("yolo: false\nmodel: [a, b\nmaxTurns: 3"),
      "mm.yaml:3:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );
  });
  await t.step("a tab for indentation", () => {
    assertEquals(
      fault("sessions:\n\tenabled: true"),
      "mm.yaml:2:1: invalid YAML: Tabs are not allowed as indentation",
    );
  });
  await t.step("two documents", () => {
    assertEquals(
      fault("yolo: false\n---\nyolo: true"),
      "mm.yaml:2:1: invalid YAML: Source contains multiple documents; please use YAML.parseAllDocuments()",
    );
  });
  await t.step("an unclosed quote", () => {
    assertEquals(
      fault('model: "qwen\nyolo: false'),
      'mm.yaml:2:12: invalid YAML: Missing closing "quote',
    );
  });
  await t.step("a nested mapping on one line", () => {
    assertEquals(
      fault("model: a: b"),
      "mm.yaml:1:8: invalid YAML: Nested mappings are not allowed in compact mappings",
    );
  });
});
