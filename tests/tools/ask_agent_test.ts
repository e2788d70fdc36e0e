/** ask_agent's pure parts: the context lines, the description, the display, the depth. */

import {
  ASK_AGENT_PARAGRAPH,
  askAgentDescription,
  askSummary,
  contextText,
} from "../../tools/ask_agent.ts";
import { depthRefusal } from "../../lib/ask/child.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("with_context: questions, answers, one line per call, no outputs, newest kept", () => {
  const history = [
    { role: "system" as const, content: "sys" },
    { role: "user" as const, content: "first question" },
    {
      role: "assistant" as const,
      content: "looking",
      tool_calls: [{
        id: "1",
        type: "function" as const,
        function: { name: "bash", arguments: '{\n "command": "ls"}' },
      }],
    },
    { role: "tool" as const, tool_call_id: "1", content: "SECRET OUTPUT" },
    { role: "assistant" as const, content: "an answer" },
  ];
  assertEquals(
    contextText(history, 1000),
    'User: first question\nAssistant: looking\nTool call: bash { "command": "ls"}\nAssistant: an answer',
  );
  assertEquals(contextText(history, 20), "Assistant: an answer");
});

Deno.test("the description and the display line", () => {
  const ref = { file: "a.yaml" };
  assertEquals(
    askAgentDescription([
      { name: "a", ref, purpose: "does a" },
      { name: "b", ref, purpose: "(no description)" },
    ]),
    `${ASK_AGENT_PARAGRAPH}\n\nAgents:\n  a — does a\n  b — (no description)`,
  );
  assertEquals(
    askSummary({ name: "a", ref, purpose: "", provider: "ollama", model: "m" }, "a", "do\nmore"),
    "a (ollama/m) — do",
  );
  assertEquals(askSummary(undefined, "a", "do"), "a — do");
});

Deno.test("depth: levels 0 and 1 may ask, 2 may not", () => {
  assertEquals(depthRefusal(0), undefined);
  assertEquals(depthRefusal(1), undefined);
  assertEquals(typeof depthRefusal(2), "string");
});
