import { addUsage, emptyUsage, roundedSpeed } from "../../lib/agent/recap.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("a turn's speed is rounded to two decimals, its seconds kept", () => {
  const one = addUsage(emptyUsage(), {
    promptTokens: 10,
    completionTokens: 10,
    tokensPerSecond: 3000,
    estimated: false,
  });
  const two = addUsage(one, {
    promptTokens: 20,
    completionTokens: 30,
    tokensPerSecond: 3500,
    estimated: false,
  });
  // 40 tokens over 10/3000 + 30/3500 s.
  assertEquals(two.tokensPerSecond, roundedSpeed(40 / (10 / 3000 + 30 / 3500)));
  const third = addUsage(emptyUsage(), {
    promptTokens: 1,
    completionTokens: 10,
    tokensPerSecond: 10 / 0.003,
    estimated: false,
  });
  assertEquals(third.tokensPerSecond, 3333.33);
  assertEquals(third.generationSeconds, 0.003);
});
