/** Asking an agent of mmConfigs (lib/subagent/ask.ts): how deep agents may ask one another. */

import { defaultConfig } from "../../lib/config/config.ts";
import { depthRefusal, MAX_ASK_DEPTH, Subagents } from "../../lib/subagent/ask.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";

Deno.test("depth: levels 0 and 1 may ask, 2 may not", () => {
  assertEquals(depthRefusal(0), undefined);
  assertEquals(depthRefusal(1), undefined);
  assertEquals(typeof depthRefusal(2), "string");
});

Deno.test("Subagents: too deep an agent asks nobody and says why", async () => {
  const config = {
    ...defaultConfig(),
    mmConfigs: { helper: { file: "/nonexistent/helper.yaml" } },
  };
  const answer = await new Subagents(config, MAX_ASK_DEPTH).ask(
    { agent: "helper", prompt: "x", message: "x", maxOutput: 100 },
    { ...fakeContext(), config },
  );
  assertEquals(answer, {
    result: { output: `[ask_agent: helper failed: ${depthRefusal(MAX_ASK_DEPTH)}]`, failed: true },
  });
});
