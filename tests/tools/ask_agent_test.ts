/** ask_agent's pure parts: the context lines, the description, the display, the depth. */

import {
  ASK_AGENT_PARAGRAPH,
  askAgentDescription,
  askAgentTool,
  askSummary,
  contextText,
  normalInput,
} from "../../tools/ask_agent.ts";
import type { AgentQuestion, Agents } from "../../lib/tool.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("with_context: up to the turn's question, one line per call, no outputs, whole lines", () => {
  const call = (id: string, name: string, args: string) => ({
    id,
    type: "function" as const,
    function: { name, arguments: args },
  });
  const history = [
    { role: "system" as const, content: "sys" },
    { role: "user" as const, content: "first question" },
    {
      role: "assistant" as const,
      content: "looking",
      tool_calls: [call("1", "bash", '{\n "command": "ls"}')],
    },
    { role: "tool" as const, tool_call_id: "1", content: "SECRET OUTPUT" },
    { role: "assistant" as const, content: "an answer" },
    { role: "user" as const, content: "second question" },
    // The current turn, after its question: never sent (nor this very ask_agent call).
    {
      role: "assistant" as const,
      content: "Let me ask.",
      tool_calls: [call("2", "ask_agent", '{"agent": "helper", "prompt": "x"}')],
    },
  ];
  const all = 'User: first question\nAssistant: looking\nTool call: bash { "command": "ls"}\n' +
    "Assistant: an answer\nUser: second question";
  assertEquals(contextText(history, 1000), all);
  // Whole lines, the newest kept: 42 characters hold the last two lines and their newline.
  assertEquals(contextText(history, 41), "User: second question");
  assertEquals(contextText(history, 42), "Assistant: an answer\nUser: second question");
  // A newest line longer than the cap keeps its end, after `…`.
  assertEquals(contextText(history, 10), "… question");
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
  // No prompt, no empty tail: the call's error says what is missing.
  assertEquals(
    askSummary({ name: "a", ref, purpose: "", provider: "ollama", model: "m" }, "a", " "),
    "a (ollama/m)",
  );
});

Deno.test("the agent's name is taken without the spaces around it, its case forgiven", () => {
  const names = ["helper", "code_reviewer"];
  const agent = (a: string) => normalInput({ agent: a, prompt: "x" }, names).agent;
  assertEquals(normalInput({ agent: " helper ", prompt: "x" }, names), {
    agent: "helper",
    prompt: "x",
  });
  assertEquals([agent("Helper"), agent("CODE-REVIEWER"), agent("ghost")], [
    "helper",
    "code_reviewer",
    "ghost",
  ]);
});

Deno.test("ask_agent reaches the agents through its context's port", async (t) => {
  const infos = [{ name: "helper", ref: { file: "helper.yaml" }, purpose: "helps" }];
  const tool = askAgentTool(infos);
  const asked: AgentQuestion[] = [];
  const agents: Agents = {
    ask: (question) => {
      asked.push(question);
      return Promise.resolve({
        result: { output: "42", display: "helper answered (2 characters)" },
      });
    },
  };
  await t.step("the question, the answer as the result", async () => {
    const ctx = { ...fakeContext({ config: { maxOutput: 500 } }), agents };
    const result = await tool.run({ agent: " helper ", prompt: "six times seven?" }, ctx);
    assertEquals(result, { output: "42", display: "helper answered (2 characters)" });
    assertEquals(asked.at(-1), {
      agent: "helper",
      prompt: "six times seven?",
      message: "six times seven?",
      maxOutput: 500,
    });
  });
  await t.step(
    "with_context: the conversation before the prompt, the hooks see the prompt",
    async () => {
      const history = [
        { role: "system" as const, content: "sys" },
        { role: "user" as const, content: "the question" },
      ];
      const ctx = {
        ...fakeContext(),
        agents,
        conversation: { history, callerText: "" },
      };
      await tool.run({ agent: "helper", prompt: "do it", with_context: true }, ctx);
      assertEquals(asked.at(-1)?.prompt, "do it");
      assertEquals(
        asked.at(-1)?.message,
        "The conversation so far, for context:\nUser: the question\n\nYour task:\ndo it",
      );
    },
  );
  await t.step("no port: a failure that says so, nothing asked", async () => {
    const n = asked.length;
    const result = await tool.run({ agent: "helper", prompt: "x" }, fakeContext());
    assertEquals(result, {
      output: "[ask_agent: helper failed: agents cannot be asked in this mode]",
      failed: true,
    });
    assertEquals(asked.length, n);
  });
  await t.step("an unknown agent is refused before the port is asked", async () => {
    const n = asked.length;
    const result = await tool.run({ agent: "nobody", prompt: "x" }, { ...fakeContext(), agents });
    assertEquals(result.failed, true);
    assertEquals(asked.length, n);
  });
});
