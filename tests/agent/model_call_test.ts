/**
 * One streamed model call (lib/agent/model_call.ts), through the agent core: text-form calls
 * taken from the answer and run, the held text on cancel and failure, a runaway held call.
 */

import { Agent } from "../../lib/agent/agent.ts";
import { unknownToolText } from "../../lib/agent/texts.ts";
import type { AgentEvent } from "../../lib/agent/events.ts";
import { type Config, defaultConfig } from "../../lib/config/config.ts";
import { runawayText } from "../../lib/agent/loop_detector.ts";
import { type ChatClient, createChatClient, StreamAborted } from "../../lib/provider/chat.ts";
import { dropped } from "../../lib/provider/errors.ts";
import type { Tool } from "../../lib/tool.ts";
import { MATRIX, ZEROS } from "../fixtures/text_calls/answers.ts";
import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

/**
 * A chat client that streams `pieces` as text deltas, then `end`: "answer" (the pieces are the
 * answer), "fail" (the connection drops), "cancel" (the turn is cancelled through `cancel`) or
 * "forever" (repeats the last piece until its request is stopped). `sent` counts the pieces.
 */
function streamingChat(
  pieces: string[],
  end: "answer" | "fail" | "cancel" | "forever",
  cancel?: AbortController,
) {
  const target = { provider: "openai" as const, url: "http://fake/v1", model: "fake" };
  const state = { sent: 0 };
  const chat: ChatClient = {
    target,
    async stream(request) {
      const send = (text: string) => {
        state.sent++;
        request.onDelta({ type: "text", text });
      };
      for (const piece of pieces) send(piece);
      if (end === "answer") return { text: pieces.join(""), thought: "", toolCalls: [] };
      if (end === "fail") throw dropped(target, "the connection was reset");
      if (end === "cancel") cancel!.abort();
      while (!request.signal.aborted && state.sent < 1_000_000) {
        send(pieces.at(-1)!);
        await Promise.resolve();
      }
      throw new StreamAborted();
    },
  };
  return { chat, state };
}

/** A tool that records its inputs and answers with a fixed text. */
function notesTool(seen: unknown[]): Tool<{ topic: string }> {
  return {
    name: "read_notes",
    kind: "read",
    emoji: "📒",
    asks: false,
    declared: () => true,
    description: "Reads the notes on a topic.",
    parameters: { topic: { type: "string", description: "The topic." } },
    summary: (input) => input.topic,
    run(input) {
      seen.push(input);
      return Promise.resolve({ output: `notes on ${input.topic}` });
    },
  };
}

Deno.test("the agent core runs text-form calls", async (t) => {
  const server = ScriptedServer.start();
  const turn = async (model: string, prompt = "go", more: Partial<Config> = {}) => {
    const seen: unknown[] = [];
    const events: AgentEvent[] = [];
    const config = { ...defaultConfig(), url: server.url, model, ...more };
    const agent = new Agent({
      config,
      chat: createChatClient(config, model),
      tools: [notesTool(seen)],
      systemPrompt: "test",
      context: (signal) => fakeContext({ signal }),
      askPermission: () => Promise.resolve({ kind: "reject" }),
      emit: (e) => events.push(e),
    });
    const outcome = await agent.runTurn(prompt, new AbortController().signal);
    const text = events.filter((e) => e.type === "text").map((e) => e.text).join("");
    return { agent, outcome, events, seen, text };
  };

  await t.step("a <tool_call> in the text runs; only the prose is shown and kept", async () => {
    server.script("hermes", [
      {
        text:
          'Let me look.\n<tool_call>\n{"name": "read_notes", "arguments": {"topic": "tests"}}\n</tool_call>',
        chunkSize: 2,
      },
      { text: "The notes say: test more." },
    ]);
    const { outcome, seen, text, events } = await turn("hermes");
    assertEquals(outcome.status, "answered");
    assertEquals(outcome.status === "answered" && outcome.answer, "The notes say: test more.");
    assertEquals(seen, [{ topic: "tests" }]);
    assertEquals(text, "Let me look.\nThe notes say: test more.");
    const call = events.find((e) => e.type === "tool_call");
    assertEquals(call?.type === "tool_call" && call.name, "read_notes");
    assertEquals(events.filter((e) => e.type === "answer"), [
      { type: "answer", text: "The notes say: test more." },
    ]);
    const messages = server.chats("hermes")[1].body.messages;
    const assistant = messages[2];
    assertEquals(assistant.content, "Let me look.");
    assertEquals(assistant.tool_calls.length, 1);
    assertEquals(/^[A-Za-z0-9]{9}$/.test(assistant.tool_calls[0].id), true);
    assertEquals(assistant.tool_calls[0].function, {
      name: "read_notes",
      arguments: '{"topic":"tests"}',
    });
    assertEquals(messages[3], {
      role: "tool",
      tool_call_id: assistant.tool_calls[0].id,
      content: "notes on tests",
    });
  });

  await t.step("a message that is only call JSON has null content", async () => {
    server.script("bare", [
      { text: '{"name": "read_notes", "arguments": {"topic": "a"}}', chunkSize: 4 },
      { text: "ok" },
    ]);
    const { seen, text } = await turn("bare");
    assertEquals(seen, [{ topic: "a" }]);
    assertEquals(text, "ok");
    assertEquals(server.chats("bare")[1].body.messages[2].content, null);
  });

  await t.step("structured calls win: text calls beside them are shown, not run", async () => {
    const shown = '<tool_call>{"name": "read_notes", "arguments": {"topic": "text"}}</tool_call>';
    server.script("both", [
      {
        text: shown,
        toolCalls: [{ name: "read_notes", arguments: { topic: "structured" } }],
        chunkSize: 7,
      },
      { text: "ok" },
    ]);
    const { seen, text } = await turn("both");
    assertEquals(seen, [{ topic: "structured" }]);
    assertEquals(text, shown + "ok");
  });

  await t.step("names differing by case or separators run the tool", async () => {
    const names = [
      "Read_Notes",
      "read-notes",
      "read notes",
      "readNotes",
      "ReadNotes",
      "read.notes",
    ];
    server.script("names", [
      {
        toolCalls: names.map((name, i) => ({ name, arguments: { topic: String(i) } })),
      },
      { text: "ok" },
    ]);
    const { seen } = await turn("names");
    assertEquals(seen, names.map((_, i) => ({ topic: String(i) })));
  });

  await t.step("tags inside a value or a JSON string stay in the value the tool gets", async () => {
    const qwen = [
      "<tool_call>",
      "<function=read_notes>",
      "<parameter=topic>",
      "a </function> b <tool_call> c",
      "</parameter>",
      "</function>",
      "</tool_call>",
    ].join("\n");
    const hermes =
      '<tool_call>\n{"name": "read_notes", "arguments": {"topic": "say </tool_call> here"}}\n</tool_call>';
    server.script("tags", [
      { text: qwen, chunkSize: 3 },
      { text: hermes, chunkSize: 3 },
      { text: "done" },
    ]);
    const { outcome, seen, text } = await turn("tags");
    assertEquals(outcome.status, "answered");
    assertEquals(seen, [{ topic: "a </function> b <tool_call> c" }, {
      topic: "say </tool_call> here",
    }]);
    assertEquals(text, "done");
  });

  await t.step("a JSON answer repeating itself is the answer, not a runaway", async () => {
    for (const answer of [ZEROS, MATRIX]) {
      server.script("zeros", [{ text: answer, chunkSize: 4 }]);
      const { outcome, text } = await turn("zeros");
      assertEquals(outcome.status === "answered" && outcome.answer, answer);
      assertEquals(text, answer);
    }
  });

  await t.step("structuredOutput: bare JSON, even call-shaped, is the answer", async () => {
    const grid = `{"grid":[${Array(300).fill(0).join(",")}]}`;
    const call = '{"name": "read_notes", "arguments": {"topic": "x"}}';
    for (const answer of [grid, call]) {
      server.script("structured", [{ text: answer, chunkSize: 4 }]);
      const { outcome, text, seen } = await turn("structured", "go", {
        structuredOutput: { type: "object" },
      });
      assertEquals(outcome.status === "answered" && outcome.answer, answer);
      assertEquals([text, seen], [answer, []]);
    }
  });

  await t.step("another unknown name gets the list of tools", async () => {
    server.script("unknown", [
      { toolCalls: [{ name: "read_notez", arguments: { topic: "x" } }] },
      { text: "ok" },
    ]);
    const { seen } = await turn("unknown");
    assertEquals(seen, []);
    // deno-lint-ignore no-explicit-any
    const tool = server.chats("unknown")[1].body.messages.find((m: any) => m.role === "tool");
    assertEquals(tool.content, unknownToolText("read_notez", ["read_notes"]));
  });

  await server.close();
});

Deno.test("the agent core: held text on cancel and failure, a runaway held call", async (t) => {
  const run = async (chat: ChatClient, cancel = new AbortController()) => {
    const events: AgentEvent[] = [];
    const agent = new Agent({
      config: { ...defaultConfig(), url: "http://fake/v1", model: "fake", provider: "openai" },
      chat,
      tools: [notesTool([])],
      systemPrompt: "test",
      context: (signal) => fakeContext({ signal }),
      askPermission: () => Promise.resolve({ kind: "reject" }),
      emit: (e) => events.push(e),
    });
    const outcome = await agent.runTurn("go", cancel.signal);
    const text = events.filter((e) => e.type === "text").map((e) => e.text).join("");
    return { outcome, text, events };
  };
  const partial = 'Let me look.\n<tool_call>\n{"name": "read_notes", "arguments": {"topic": "te';

  await t.step("cancelled mid-call: the held text is shown, not lost", async () => {
    const cancel = new AbortController();
    const { chat } = streamingChat(partial.match(/.{1,5}/gs)!, "cancel", cancel);
    const { outcome, text } = await run(chat, cancel);
    assertEquals(outcome.status, "cancelled");
    assertEquals(text, partial);
  });

  await t.step("a dropped stream: the held text is shown before the error", async () => {
    const { chat } = streamingChat(["Here:\n", "```json\n", '{"a": 1'], "fail");
    const { outcome, text, events } = await run(chat);
    assertEquals(outcome.status, "failed");
    assertEquals(text, 'Here:\n```json\n{"a": 1');
    const last = events.findLastIndex((e) => e.type === "text");
    assertEquals(last < events.findIndex((e) => e.type === "error"), true);
  });

  await t.step("cancelled after a complete call: the call's text stays hidden", async () => {
    const cancel = new AbortController();
    const whole =
      'Let me look.\n<tool_call>\n{"name": "read_notes", "arguments": {"topic": "x"}}\n' +
      "</tool_call>\nAnd th";
    const { chat } = streamingChat([whole], "cancel", cancel);
    const { outcome, text } = await run(chat, cancel);
    assertEquals(outcome.status, "cancelled");
    assertEquals(text, "Let me look.\n\nAnd th");
  });

  await t.step("a text-form call repeating itself is stopped as a runaway", async () => {
    const opening = 'I will write it.\n<tool_call>{"name": "read_notes", "arguments": {"topic": "';
    const { chat, state } = streamingChat([opening, "aaaa"], "forever");
    const { outcome, text, events } = await run(chat);
    assertEquals(outcome.status, "failed");
    const error = outcome.status === "failed" ? outcome.error : "";
    const held = opening.slice("I will write it.\n".length) + "aaaa".repeat(state.sent - 1);
    assertEquals(error, runawayText(held));
    assertEquals(error.includes("its arguments repeat the same pattern"), true, error);
    assertEquals(state.sent < 1700, true, `${state.sent} pieces sent`);
    // The prose before the call shows; the runaway text does not.
    assertEquals(text, "I will write it.\n");
    assertEquals(events.filter((e) => e.type === "tool_call"), []);
  });
});
