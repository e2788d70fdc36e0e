/** mm doctor's thinking line, and what llama.cpp's /props says of a template's thinking. */

import { assertEquals } from "../helpers/assert.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { checkLine, thinkingCheck } from "../../lib/commands/doctor.ts";
import { templateThinks } from "../../lib/provider/context_window.ts";

function config(changes: Partial<Config> = {}): Config {
  return { ...defaultConfig(), provider: "llamacpp", ...changes };
}

Deno.test("doctor: the thinking line", () => {
  assertEquals(checkLine(thinkingCheck(config(), {}, false)), "✔ thinking: no");
  assertEquals(
    checkLine(thinkingCheck(config(), {}, true)),
    "✔ thinking: the model thinks (reasoning sent back: auto)",
  );
  assertEquals(
    checkLine(thinkingCheck(config({ sendReasoning: "never" }), { templateThinks: true }, false)),
    "✔ thinking: the model thinks (reasoning sent back: never)",
  );
  assertEquals(
    checkLine(thinkingCheck(config({ thinking: "off" }), { templateThinks: true }, false)),
    "✔ thinking: the model can think; turned off (thinking: off)",
  );
});

Deno.test("llama.cpp /props: whether the template thinks", async () => {
  // The captured /props of a template without thinking (Qwen2.5's).
  const http = await Deno.readTextFile(
    new URL("../fixtures/llama-server/single-props.http", import.meta.url),
  );
  const props = JSON.parse(http.slice(http.indexOf("{")));
  assertEquals(templateThinks(props), false);
  assertEquals(templateThinks({ chat_template: "{{ '<think>\\n' }}" }), true);
  assertEquals(templateThinks({ chat_template: "{% if enable_thinking %}{% endif %}" }), true);
  assertEquals(
    templateThinks({ chat_template_caps: { supports_reasoning_effort: true } }),
    true,
  );
  assertEquals(templateThinks({}), undefined);
  assertEquals(templateThinks(undefined), undefined);
});
