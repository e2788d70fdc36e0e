/** The child agents of ask_agent (lib/subagent/child.ts): how deep agents may ask one another. */

import { depthRefusal } from "../../lib/subagent/child.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("depth: levels 0 and 1 may ask, 2 may not", () => {
  assertEquals(depthRefusal(0), undefined);
  assertEquals(depthRefusal(1), undefined);
  assertEquals(typeof depthRefusal(2), "string");
});
