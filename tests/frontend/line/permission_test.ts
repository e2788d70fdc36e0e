/** Line mode's `🔐` answer and its "always" choice (lib/frontend/line/permission.ts). */

import { alwaysChoice, permissionAnswer } from "../../../lib/frontend/line/permission.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("alwaysChoice: for the tool, or for the narrower session rule", () => {
  assertEquals(alwaysChoice("bash"), "[a]lways for this tool");
  assertEquals(alwaysChoice("bash", "bash"), "[a]lways for this tool");
  assertEquals(
    alwaysChoice("fetch_content", "fetch_content(example.com)"),
    "[a]lways for fetch_content(example.com)",
  );
});

Deno.test("permissionAnswer: yes, always, no, a reason", () => {
  assertEquals(permissionAnswer("y"), { kind: "allow" });
  assertEquals(permissionAnswer("a"), { kind: "allowAlways" });
  assertEquals(permissionAnswer("always"), { kind: "allowAlways" });
  assertEquals(permissionAnswer(""), { kind: "reject" });
  assertEquals(permissionAnswer("n"), { kind: "reject" });
  assertEquals(permissionAnswer("not now "), { kind: "reject", reason: "not now" });
});
