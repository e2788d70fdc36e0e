/** The texts a turn ends with, as the model and the user read them. */

import { emptyAnswerText, maxTurnsText } from "../../lib/agent/texts.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("maxTurnsText counts model calls in good English", () => {
  assertEquals(
    maxTurnsText(1),
    "[error: the turn reached maxTurns (1 model call) without a final answer — stopped; ask for a smaller step, or raise maxTurns in the agent file]",
  );
  assertEquals(maxTurnsText(50).includes("(50 model calls)"), true);
});

Deno.test("an answer cut before anything: the limit that cut it is the one to raise", () => {
  assertEquals(
    emptyAnswerText(50, true),
    "[error: the model's answer was cut at maxTokens (50) before it wrote anything — raise maxTokens in the agent file]",
  );
  assertEquals(
    emptyAnswerText(undefined, true),
    "[error: the model's answer was cut at the server's length limit before it wrote anything — raise the server's own limit on answers (llama-server's `-n`), or set maxTokens in the agent file]",
  );
  assertEquals(
    emptyAnswerText(undefined, false),
    "[error: the model gave an empty answer (no text, no tool call) — try again, or rephrase the request]",
  );
});
