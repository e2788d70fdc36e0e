/** The texts a turn ends with, as the model and the user read them. */

import { maxTurnsText } from "../../lib/agent/texts.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("maxTurnsText counts model calls in good English", () => {
  assertEquals(
    maxTurnsText(1),
    "[error: the turn reached maxTurns (1 model call) without a final answer — stopped; ask for a smaller step, or raise maxTurns in the agent file]",
  );
  assertEquals(maxTurnsText(50).includes("(50 model calls)"), true);
});
