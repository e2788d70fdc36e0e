/** `/compact` in the agent core, against the scripted server. */

import { Agent } from "../../lib/agent/agent.ts";
import { CompactError } from "../../lib/agent/fit.ts";
import { COMPACT_ACK, COMPACT_REQUEST, COMPACT_WRAPPER } from "../../lib/history.ts";
import type { AgentEvent } from "../../lib/agent/events.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { createChatClient, loadOpenAI } from "../../lib/provider/chat.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();
const openai = await loadOpenAI();

function agentFor(model: string, events: AgentEvent[] = [], steps = { n: 0 }) {
  const config = { ...defaultConfig(), url: server.url, model };
  return new Agent({
    config,
    chat: createChatClient(openai, config, model),
    tools: [],
    systemPrompt: "You are a test.",
    context: (signal) => fakeContext({ signal }),
    askPermission: () => Promise.resolve({ kind: "reject" }),
    emit: (e) => events.push(e),
    onStep: () => {
      steps.n++;
      return Promise.resolve();
    },
  });
}

Deno.test("compact", async (t) => {
  await t.step("the history becomes the summary and an acknowledgement", async () => {
    server.script("compact", [
      { text: "Paris." },
      { text: "The user asked for the capital of France: Paris." },
      { text: "Still Paris." },
    ]);
    const events: AgentEvent[] = [];
    const steps = { n: 0 };
    const agent = agentFor("compact", events, steps);
    await agent.runTurn("capital of France?", new AbortController().signal);
    const loop = agent.loop;
    const before = steps.n;
    const notes = await agent.compact(new AbortController().signal);
    assertEquals(notes, "The user asked for the capital of France: Paris.");
    assertEquals(steps.n, before + 1, "the session file is saved after compacting");
    const request = server.chats("compact")[1].body;
    assertEquals(request.tools, undefined, "no tools while summarising");
    assertEquals(request.messages.at(-1), { role: "user", content: COMPACT_REQUEST });
    assertEquals(agent.history.slice(1), [
      {
        role: "user",
        content: `${COMPACT_WRAPPER}\nThe user asked for the capital of France: Paris.`,
      },
      { role: "assistant", content: COMPACT_ACK },
    ]);
    assertEquals(agent.turns, [0, 1, 1]);
    assertEquals(agent.loop, loop, "the loop detector is kept");
    assertEquals(
      events.filter((e) => e.type === "text").length,
      1,
      "the summary is not shown as text",
    );
    await agent.runTurn("and again?", new AbortController().signal);
    const next = server.chats("compact")[2].body.messages;
    assertEquals(next.map((m: { role: string }) => m.role), [
      "system",
      "user",
      "assistant",
      "user",
    ]);
    assertEquals(agent.turns.at(-1), 2);
  });
  await t.step(
    "nothing to compact, an empty summary, a failing server: history untouched",
    async () => {
      const empty = agentFor("compact-empty");
      await assertRejects(
        () => empty.compact(new AbortController().signal),
        CompactError,
        "there is nothing to compact yet",
      );
      server.script("compact-empty", [{ text: "hi" }, { text: "  " }, {
        status: 500,
        body: { error: { message: "down" } },
      }]);
      await empty.runTurn("hello", new AbortController().signal);
      const history = structuredClone(empty.history);
      await assertRejects(
        () => empty.compact(new AbortController().signal),
        CompactError,
        "the model gave an empty summary — nothing was changed",
      );
      await assertRejects(() => empty.compact(new AbortController().signal), Error, "HTTP 500");
      assertEquals(empty.history, history);
    },
  );
  await server.close();
});
