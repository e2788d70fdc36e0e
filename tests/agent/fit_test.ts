/**
 * Fitting the window and compaction (lib/agent/fit.ts), through the agent core: its requests kept
 * inside the context window (docs/sessions.md), and `/compact` against the scripted server.
 */

import { Agent } from "../../lib/agent/agent.ts";
import { CompactError } from "../../lib/agent/fit.ts";
import { COMPACT_ACK, COMPACT_REQUEST, COMPACT_WRAPPER } from "../../lib/history.ts";
import {
  answerReserve,
  calibrated,
  compactFailedText,
  compactingNotice,
  isShortened,
  KEPT_HEAD,
  leastTokens,
  OVERFLOW_CUT_NOTICE,
  OVERFLOW_NOTICE,
  overflowAnsweredText,
  promptLimit,
  promptTokens,
  rawPromptTokens,
  READ_IN_PARTS,
  STEP_TOO_BIG,
  tooBigText,
} from "../../lib/agent/budget.ts";
import type { AgentEvent } from "../../lib/agent/events.ts";
import { toolSchema } from "../../lib/agent/schema.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import {
  type ChatClient,
  type ChatRequest,
  type ChatResult,
  createChatClient,
} from "../../lib/provider/chat.ts";
import type { Message } from "../../lib/history.ts";
import { overflow, ProviderError } from "../../lib/provider/errors.ts";
import type { Tool } from "../../lib/tool.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const target = { provider: "openai" as const, url: "http://fake/v1", model: "fake" };

/** `size` characters of output, in lines of 40. */
function text(size: number): string {
  let out = "";
  for (let i = 0; out.length < size; i++) out += `line ${i}`.padEnd(39, ".") + "\n";
  return out.slice(0, size);
}

/** A tool that prints `size` characters. */
const dump: Tool<{ size: number }> = {
  name: "dump",
  kind: "read",
  emoji: "📄",
  asks: false,
  declared: () => true,
  description: "Prints some text.",
  parameters: { size: { type: "integer", description: "How much." } },
  summary: (input) => `${input.size}`,
  run: (input) => Promise.resolve({ output: text(input.size) }),
};
const schemas = [toolSchema(dump)];

/** A model reply: calls of dump, or a text. */
function calls(...sizes: number[]): ChatResult {
  return {
    text: "",
    thought: "",
    toolCalls: sizes.map((size, i) => ({
      id: `c${i}_${size}`,
      name: "dump",
      arguments: JSON.stringify({ size }),
    })),
  };
}
function says(text: string): ChatResult {
  return { text, thought: "", toolCalls: [] };
}

/** What the fake server answers, in order: a reply, a reply with usage, or an error to throw. */
type Step = ChatResult | ProviderError;

/** A chat client that plays `steps` and keeps a copy of every request. */
function fakeChat(contextWindow: number | undefined, steps: Step[]) {
  const requests: ChatRequest[] = [];
  const chat: ChatClient = {
    target,
    contextWindow,
    stream(request) {
      requests.push({ ...request, messages: structuredClone(request.messages) });
      const step = steps.shift();
      if (!step) throw new Error("the fake server has no more replies");
      if (step instanceof ProviderError) return Promise.reject(step);
      return Promise.resolve(step);
    },
  };
  return { chat, requests };
}

function agentWith(chat: ChatClient, events: AgentEvent[] = [], saves = { n: 0 }) {
  return new Agent({
    config: { ...defaultConfig(), url: target.url, model: target.model, provider: "openai" },
    chat,
    tools: [dump],
    systemPrompt: "You are a test.",
    context: (signal) => fakeContext({ signal }),
    askPermission: () => Promise.resolve({ kind: "reject" }),
    emit: (e) => events.push(e),
    onStep: () => {
      saves.n++;
      return Promise.resolve();
    },
  });
}

const run = (agent: Agent, prompt = "task") => agent.runTurn(prompt, new AbortController().signal);
const overflowError = () => overflow(target, "the request exceeds the available context size");

/** The tool outputs of a request's messages, with whether each is shortened. */
function outputs(messages: Message[]): [string, boolean][] {
  return messages.filter((m) => m.role === "tool").map((m) => [
    (m as { tool_call_id: string }).tool_call_id,
    isShortened(m.content as string),
  ]);
}

Deno.test("the context window", async (t) => {
  await t.step(
    "the oldest read outputs are shortened, in the request and the history",
    async () => {
      // 2,288 for the prompt: two outputs of 800 tokens fit, three do not; the two read ones cut,
      // the prompt is under the low-water mark (60%): the cuts make room for more steps.
      const window = 2800;
      const { chat, requests } = fakeChat(window, [
        calls(2400),
        calls(2401),
        calls(2402),
        says("done"),
      ]);
      const events: AgentEvent[] = [];
      const agent = agentWith(chat, events);
      const outcome = await run(agent);
      assertEquals(outcome.status, "answered");
      assertEquals(requests.length, 4);
      assertEquals(outputs(requests[2].messages), [["c0_2400", false], ["c0_2401", false]]);
      // Down to the low-water mark: both read outputs at once, so the next steps fit uncut.
      assertEquals(outputs(requests[3].messages), [
        ["c0_2400", true],
        ["c0_2401", true],
        ["c0_2402", false],
      ]);
      assertEquals(outputs(agent.history.slice(0, -1)), outputs(requests[3].messages));
      for (const r of requests) {
        const estimate = promptTokens(r.messages, r.tools);
        assertEquals(r.promptTokens, estimate, "every request carries its estimate");
        assertEquals(estimate <= window - answerReserve(window), true);
      }
      assertEquals(events.some((e) => e.type === "notice"), false, "shortening is silent");
    },
  );

  await t.step("not enough: compacted, the prompt put back, the turn goes on", async () => {
    const window = 2600;
    // Each step's three outputs fit the window by themselves, the two steps together do not.
    const { chat, requests } = fakeChat(window, [
      calls(1800, 1800, 1800),
      calls(1801, 1801, 1801),
      says("Asked for text four times."),
      says("done"),
    ]);
    const events: AgentEvent[] = [];
    const agent = agentWith(chat, events);
    const outcome = await run(agent, "print things");
    assertEquals(outcome.status, "answered");
    assertEquals(requests.length, 4);
    const summary = requests[2];
    // The tools stay declared, none to be called: the prompt starts as the server cached it.
    assertEquals([summary.tools, summary.toolChoice], [schemas, "none"]);
    assertEquals(summary.messages.at(-1), { role: "user", content: COMPACT_REQUEST });
    assertEquals(summary.messages[1], { role: "user", content: "print things" });
    assertEquals(
      rawPromptTokens(summary.messages, schemas) <= window - answerReserve(window),
      true,
      "the summary request fits too",
    );
    // Only what the model has read is summarised: the first step, not the second.
    assertEquals(outputs(summary.messages).map(([id]) => id), ["c0_1800", "c1_1800", "c2_1800"]);
    const expected: Message[] = [
      { role: "system", content: "You are a test." },
      { role: "user", content: `${COMPACT_WRAPPER}\nAsked for text four times.` },
      { role: "assistant", content: COMPACT_ACK },
      { role: "user", content: "print things" },
    ];
    assertEquals(requests[3].messages.slice(0, 4), expected);
    // The step the model has not read stays after the summary, so it does not run those calls again.
    assertEquals(requests[3].messages[4].role, "assistant");
    assertEquals(outputs(requests[3].messages).map(([id]) => id), [
      "c0_1801",
      "c1_1801",
      "c2_1801",
    ]);
    assertEquals(
      rawPromptTokens(requests[3].messages, schemas) <= window - answerReserve(window),
      true,
      "the request after the summary fits",
    );
    assertEquals(requests[3].tools, schemas);
    assertEquals(agent.history.length, 9);
    assertEquals(agent.history.at(-1), { role: "assistant", content: "done" });
    assertEquals(agent.turns, [0, 1, 1, 1, 1, 1, 1, 1, 1]);
    const notices = events.filter((e) => e.type === "notice");
    assertEquals(notices, [{ type: "notice", message: compactingNotice(window) }]);
  });

  await t.step("a prompt too big for the window fails at once, nothing sent", async () => {
    const { chat, requests } = fakeChat(1024, [says("never")]);
    const agent = agentWith(chat);
    const prompt = "x".repeat(6000);
    const outcome = await run(agent, prompt);
    // Refused by what the server could take (the window less a small share for the answer),
    // counting the least the prompt could take: mm's estimate is high on purpose.
    const raw = rawPromptTokens([agent.history[0], { role: "user", content: prompt }], schemas);
    const error = tooBigText(leastTokens(raw), {
      window: 1024,
      reserve: 512,
      floor: 64,
      toldWindow: false,
    });
    assertEquals(outcome.status === "failed" && outcome.error, error);
    assertEquals(requests.length, 0);
    assertEquals(agent.errors.map((e) => e.message), [error]);
  });

  await t.step(
    "a prompt the server can still answer is sent, though it leaves little room",
    async () => {
      // About 3,700 tokens by mm's estimate: more than the 3,584 it keeps to, less than 4,096
      // less a 32nd (and a real tokenizer counts fewer).
      const prompt = "x ".repeat(5_550);
      const { chat, requests } = fakeChat(4096, [says("read it")]);
      assertEquals((await run(agentWith(chat), prompt)).status, "answered");
      assertEquals(requests.length, 1);
      // With maxTokens, that much is kept for the answer: the same prompt is refused, unsent.
      const capped = fakeChat(4096, [says("never")]);
      const agent = new Agent({
        config: { ...defaultConfig(), url: target.url, model: "fake", maxTokens: 2048 },
        chat: capped.chat,
        tools: [dump],
        systemPrompt: "You are a test.",
        context: (signal) => fakeContext({ signal }),
        askPermission: () => Promise.resolve({ kind: "reject" }),
        emit: () => {},
      });
      const outcome = await run(agent, prompt);
      assertEquals(outcome.status === "failed" && outcome.reason, "window");
      assertEquals(capped.requests.length, 0);
    },
  );

  await t.step("the server's own counts calibrate the estimate", async () => {
    const window = 4096;
    const first = rawPromptTokens(
      [{ role: "system", content: "You are a test." }, { role: "user", content: "task" }],
      schemas,
    );
    const { chat, requests } = fakeChat(window, [
      { ...calls(2400), usage: { promptTokens: 3 * first, completionTokens: 10 } },
      calls(2401),
      says("Printed 2,400 characters."),
      says("done"),
    ]);
    const agent = agentWith(chat);
    assertEquals((await run(agent)).status, "answered");
    // Raw, the third request (about 1,700 tokens) fits 3,584; three times that does not, and a cut
    // of the one read output would not leave room for more steps: the conversation is compacted.
    const summary = requests[2];
    assertEquals(summary.messages.at(-1), { role: "user", content: COMPACT_REQUEST });
    assertEquals(rawPromptTokens(summary.messages, schemas) < window - answerReserve(window), true);
    const raw = rawPromptTokens(summary.messages, schemas);
    assertEquals(summary.promptTokens, calibrated(raw, { raw: first, real: 3 * first }));
    assertEquals(outputs(requests[3].messages), [["c0_2401", false]]);
  });

  await t.step("no known window: nothing is shortened", async () => {
    const { chat, requests } = fakeChat(undefined, [calls(9000), calls(9000), says("done")]);
    const agent = agentWith(chat);
    assertEquals((await run(agent)).status, "answered");
    assertEquals(outputs(requests[2].messages).map(([, cut]) => cut), [false, false]);
    assertEquals(typeof requests[2].promptTokens, "number");
  });

  await t.step("an overflow the server reports is answered once by compacting", async () => {
    const { chat, requests } = fakeChat(undefined, [
      calls(2400),
      calls(2401),
      overflowError(),
      says("Printed 2,400 characters twice."),
      says("done"),
    ]);
    const events: AgentEvent[] = [];
    const agent = agentWith(chat, events);
    const outcome = await run(agent);
    assertEquals(outcome.status, "answered");
    assertEquals(requests.length, 5);
    assertEquals(requests[3].messages.at(-1), { role: "user", content: COMPACT_REQUEST });
    assertEquals(
      outputs(requests[3].messages),
      [["c0_2400", true], ["c0_2401", true]],
      "outputs shortened",
    );
    assertEquals(requests[4].messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
    assertEquals(events.filter((e) => e.type === "notice"), [
      { type: "notice", message: OVERFLOW_NOTICE },
    ]);
    assertEquals(agent.errors.map((e) => e.message), [
      overflowAnsweredText("the request exceeds the available context size", true),
    ]);
  });

  await t.step(
    "an overflow with only the prompt before the step: its outputs cut to their heads",
    async () => {
      const { chat, requests } = fakeChat(undefined, [
        calls(2400, 3000),
        overflowError(),
        says("done"),
      ]);
      const events: AgentEvent[] = [];
      const agent = agentWith(chat, events);
      const outcome = await run(agent);
      assertEquals(outcome.status === "answered" && outcome.answer, "done");
      assertEquals(requests.length, 3, "no summary asked");
      assertEquals(requests[2].messages.map((m) => m.role), [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
      ]);
      for (const m of requests[2].messages.slice(3)) {
        assertEquals((m.content as string).endsWith(`${READ_IN_PARTS}]`), true);
        assertEquals((m.content as string).startsWith(text(KEPT_HEAD)), true);
      }
      assertEquals(events.filter((e) => e.type === "notice"), [
        { type: "notice", message: OVERFLOW_CUT_NOTICE },
      ]);
      assertEquals(agent.errors.map((e) => e.message), [
        overflowAnsweredText("the request exceeds the available context size", false),
      ]);
    },
  );

  await t.step(
    "an overflow under a known window the server does not really have: compacted too",
    async () => {
      // contextSize says 16384, the server runs less: its refusal must not make the prompt
      // alone look too big.
      const { chat, requests } = fakeChat(16384, [
        calls(2400),
        calls(2401),
        overflowError(),
        says("Printed 2,400 characters twice."),
        says("done"),
      ]);
      const events: AgentEvent[] = [];
      const outcome = await run(agentWith(chat, events));
      assertEquals(outcome.status === "answered" && outcome.answer, "done");
      assertEquals(requests.length, 5);
      assertEquals(requests[3].messages.at(-1), { role: "user", content: COMPACT_REQUEST });
      assertEquals(events.filter((e) => e.type === "notice").length, 1);
    },
  );

  await t.step("a second overflow ends the turn with the server's sentence", async () => {
    const { chat, requests } = fakeChat(4096, [
      calls(2400),
      calls(2401),
      overflowError(),
      says("Printed 2,400 characters twice."),
      overflowError(),
    ]);
    const agent = agentWith(chat);
    const outcome = await run(agent);
    assertEquals(outcome.status === "failed" && outcome.error, overflowError().message);
    assertEquals(requests.length, 5);
    assertEquals(agent.history[1].content, `${COMPACT_WRAPPER}\nPrinted 2,400 characters twice.`);
    assertEquals(agent.errors.map((e) => e.message), [
      overflowAnsweredText("the request exceeds the available context size", true),
      overflowError().message,
    ]);
  });

  await t.step(
    "a summary request that overflows is tried once more, every output cut",
    async () => {
      const window = 2600;
      const { chat, requests } = fakeChat(window, [
        calls(1800, 1800, 1800),
        calls(1801, 1801, 1801),
        overflowError(),
        says("Asked for text four times."),
        says("done"),
      ]);
      const events: AgentEvent[] = [];
      const agent = agentWith(chat, events);
      assertEquals((await run(agent)).status, "answered");
      assertEquals(requests.length, 5);
      // The first summary request holds what the model has read: the first step.
      assertEquals(outputs(requests[2].messages).map(([id]) => id), [
        "c0_1800",
        "c1_1800",
        "c2_1800",
      ]);
      assertEquals(outputs(requests[3].messages).map(([, cut]) => cut), [
        true,
        true,
        true,
        true,
        true,
        true,
      ]);
      assertEquals(requests[3].messages.at(-1), { role: "user", content: COMPACT_REQUEST });
      // The refusal is not taken for a measure of the window: the estimate stays as it was.
      assertEquals(requests[3].promptTokens, rawPromptTokens(requests[3].messages, schemas));
      assertEquals(events.filter((e) => e.type === "notice"), [
        { type: "notice", message: compactingNotice(window) },
        { type: "notice", message: OVERFLOW_NOTICE },
      ]);
      assertEquals(requests[4].messages.map((m) => m.role), [
        "system",
        "user",
        "assistant",
        "user",
      ]);
    },
  );

  await t.step("an overflow with nothing to compact: the server's sentence", async () => {
    const { chat, requests } = fakeChat(undefined, [overflowError()]);
    const agent = agentWith(chat);
    const outcome = await run(agent);
    assertEquals(outcome.status === "failed" && outcome.error, overflowError().message);
    assertEquals(requests.length, 1);
  });

  await t.step(
    "a tool output bigger than the window is cut to what fits, never compacted",
    async () => {
      const window = 2600;
      const { chat, requests } = fakeChat(window, [calls(16000), says("done")]);
      const events: AgentEvent[] = [];
      const agent = agentWith(chat, events);
      const outcome = await run(agent);
      assertEquals(outcome.status === "answered" && outcome.answer, "done");
      assertEquals(requests.length, 2, "no summary asked");
      const output = requests[1].messages[3].content as string;
      assertEquals(output.endsWith(`${READ_IN_PARTS}]`), true);
      const kept = output.indexOf("[mm: ");
      assertEquals(output.slice(0, kept), text(16000).slice(0, kept));
      assertEquals(kept > 4000, true, `${kept} characters kept: as many as fit, not 400`);
      const limit = promptLimit({ window, reserve: answerReserve(window) });
      const tokens = promptTokens(requests[1].messages, schemas);
      assertEquals(tokens <= limit && tokens > limit - 60, true, `${tokens} of ${limit}`);
      assertEquals(agent.history[3].content, output, "the history holds what was sent");
      assertEquals(events.some((e) => e.type === "notice"), false);
    },
  );

  await t.step(
    "after a compaction, a step too big for the rest is cut to fit beside the summary",
    async () => {
      const window = 2600;
      const notes = `Asked for text twice. ${"Notes. ".repeat(100)}`;
      const { chat, requests } = fakeChat(window, [
        calls(1800, 1800, 1800),
        calls(1801, 1801, 1801),
        says(notes),
        calls(5600),
        says(notes),
        says("done"),
      ]);
      const events: AgentEvent[] = [];
      const agent = agentWith(chat, events);
      assertEquals((await run(agent)).status, "answered");
      assertEquals(requests.length, 6);
      assertEquals(requests[5].messages.map((m) => m.role), [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "tool",
      ]);
      assertEquals(outputs(requests[5].messages), [["c0_5600", true]]);
      const [system, , , prompt, call] = requests[5].messages;
      const limit = promptLimit({ window, reserve: answerReserve(window) });
      const step: Message = { role: "tool", tool_call_id: "c0_5600", content: text(5600) };
      assertEquals(
        promptTokens([system, prompt, call, step], schemas) <= limit,
        true,
        "the step fits without the summary: compacting again would seem to help",
      );
      // The second step was kept after the first summary, read, then summarised by the second.
      assertEquals(events.filter((e) => e.type === "notice").length, 2, "two compactions");
    },
  );

  await t.step("a step whose calls alone do not fit ends the turn, nothing compacted", async () => {
    const window = 1200;
    const { chat, requests } = fakeChat(window, [
      calls(...Array.from({ length: 40 }, (_, i) => 1000 + i)),
      says("never"),
    ]);
    const agent = agentWith(chat);
    const outcome = await run(agent);
    assertEquals(
      outcome.status === "failed" && outcome.error,
      compactFailedText(window, STEP_TOO_BIG, false),
    );
    assertEquals(requests.length, 1);
  });

  await t.step("/compact fits its request to the window", async () => {
    const window = 2600;
    const { chat, requests } = fakeChat(window, [
      calls(2400, 2400),
      says("done"),
      says("notes"),
    ]);
    const agent = agentWith(chat);
    await run(agent);
    chat.contextWindow = 2000; // read at every request: a window found smaller since
    await agent.compact(new AbortController().signal);
    assertEquals(outputs(requests[2].messages).map(([, cut]) => cut), [true, false]);
    assertEquals(agent.history.slice(1), [
      { role: "user", content: `${COMPACT_WRAPPER}\nnotes` },
      { role: "assistant", content: COMPACT_ACK },
    ]);
  });
});

const server = ScriptedServer.start();

function agentFor(model: string, events: AgentEvent[] = [], steps = { n: 0 }) {
  const config = { ...defaultConfig(), url: server.url, model };
  return new Agent({
    config,
    chat: createChatClient(config, model),
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
