/** Text-form tool calls: the recogniser on a corpus, the stream filter, the agent core, tool names. */

import { Agent } from "../lib/agent/agent.ts";
import { unknownToolText } from "../lib/agent/texts.ts";
import type { AgentEvent } from "../lib/agent/events.ts";
import { TextCallFilter } from "../lib/agent/text_calls/filter.ts";
import { type TextCallOptions, textToolCalls } from "../lib/agent/text_calls/mod.ts";
import { matchToolName } from "../lib/agent/tool_name.ts";
import { type Config, defaultConfig } from "../lib/config/config.ts";
import { runawayText } from "../lib/agent/loop_detector.ts";
import {
  type ChatClient,
  createChatClient,
  loadOpenAI,
  StreamAborted,
} from "../lib/provider/chat.ts";
import { dropped } from "../lib/provider/errors.ts";
import type { Tool } from "../lib/tool.ts";
import { BUILTIN_TOOLS } from "../tools/mod.ts";
import { ANSWERS, FILES, MATRIX, ZEROS } from "./fixtures/text_calls/answers.ts";
import { CALLS, CALLS_BY_SYNTAX } from "./fixtures/text_calls/calls.ts";
import { assertEquals } from "./helpers/assert.ts";
import { fakeContext } from "./helpers/fake_context.ts";
import { ScriptedServer } from "./helpers/server/mod.ts";

const TOOLS = BUILTIN_TOOLS;

/** The calls with their arguments decoded, for comparing objects rather than JSON text. */
function decoded(text: string) {
  const found = textToolCalls(text, TOOLS);
  return found && {
    calls: found.calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) })),
    text: found.text,
  };
}

/** What the filter shows of `text` streamed in pieces of `size` characters. */
function streamed(text: string, size: number, recognise = true): string {
  const filter = new TextCallFilter(TOOLS);
  let out = "";
  for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
  return out + filter.finish(recognise);
}

/** The same with filter options. */
function streamedWith(text: string, size: number, options: TextCallOptions): string {
  const filter = new TextCallFilter(TOOLS, options);
  let out = "";
  for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
  return out + filter.finish();
}

const blanks = (s: string) => s.replace(/\s+/g, " ").trim();

Deno.test("the corpus: messages holding text-form calls", async (t) => {
  await t.step("at least 40 messages, every syntax present", () => {
    assertEquals(CALLS.length >= 40, true, `${CALLS.length} messages`);
    for (const [syntax, cases] of Object.entries(CALLS_BY_SYNTAX)) {
      assertEquals(cases.length >= 8, true, `${syntax}: ${cases.length}`);
    }
    assertEquals(CALLS.some((c) => c.calls.length >= 3), true);
    assertEquals(CALLS.filter((c) => c.prose).length >= 5, true);
  });
  for (const c of CALLS) {
    await t.step(c.name, () => {
      assertEquals(decoded(c.text), { calls: c.calls, text: c.prose ?? "" }, c.text);
    });
  }
});

Deno.test("the corpus: ordinary answers are never taken for calls", async (t) => {
  await t.step("at least 40 answers", () => {
    assertEquals(ANSWERS.length >= 40, true, `${ANSWERS.length} answers`);
  });
  for (const a of ANSWERS) {
    await t.step(a.name, () => assertEquals(textToolCalls(a.text, TOOLS), undefined, a.text));
  }
});

Deno.test("the recogniser's rules", async (t) => {
  await t.step("tools given by name only: values of <parameter=…> stay text", () => {
    const text = "<function=read_file>\n<parameter=start>\n10\n</parameter>\n</function>";
    assertEquals(textToolCalls(text, ["read_file"]), {
      calls: [{ name: "read_file", arguments: '{"start":"10"}' }],
      text: "",
    });
  });

  await t.step("only declared tools count", () => {
    assertEquals(
      textToolCalls('<tool_call>\n{"name": "bash", "arguments": {}}\n</tool_call>', ["read_file"]),
      undefined,
    );
  });

  await t.step("a name that reads like two declared tools is no call", () => {
    const text = '<tool_call>\n{"name": "Read-File", "arguments": {}}\n</tool_call>';
    assertEquals(textToolCalls(text, ["read_file", "readfile"]), undefined);
  });

  await t.step("broken JSON inside the tags is prose", () => {
    const text = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>';
    assertEquals(textToolCalls(text, TOOLS), undefined);
  });

  await t.step("arguments that are not JSON pass on as sent, for the refusal to quote", () => {
    const text = '<tool_call>\n{"name": "bash", "arguments": "ls -la"}\n</tool_call>';
    assertEquals(textToolCalls(text, TOOLS)?.calls, [{ name: "bash", arguments: "ls -la" }]);
  });

  await t.step("an example in a fence is skipped, a real call after it is taken", () => {
    const text = [
      "Calls look like:",
      "```",
      '<tool_call>{"name": "bash", "arguments": {"command": "rm -rf /"}}</tool_call>',
      "```",
      "Now the real one:",
      '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
    ].join("\n");
    const found = textToolCalls(text, TOOLS);
    assertEquals(found?.calls, [{ name: "bash", arguments: '{"command":"ls"}' }]);
    assertEquals(found?.text, text.split("\n").slice(0, 5).join("\n"));
  });
});

Deno.test("the stream filter", async (t) => {
  await t.step("calls: in pieces of 1, 2, 3, 7 and 64 characters, only the prose shows", () => {
    for (const c of CALLS) {
      for (const size of [1, 2, 3, 7, 64]) {
        assertEquals(blanks(streamed(c.text, size)), blanks(c.prose ?? ""), `${c.name} / ${size}`);
      }
    }
  });

  await t.step("answers: every character shows, in order, whatever the pieces", () => {
    for (const a of ANSWERS) {
      for (const size of [1, 2, 3, 7, 64]) {
        assertEquals(streamed(a.text, size), a.text, `${a.name} / ${size}`);
      }
    }
  });

  await t.step("plain text goes out at once; only a marker's possible start waits", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("Hello, wor"), "Hello, wor");
    assertEquals(f.push("ld.\n<"), "ld.\n");
    assertEquals(f.push("tool"), "");
    assertEquals(f.push("box> is a tag"), "<toolbox> is a tag");
    assertEquals(f.finish(), "");
  });

  await t.step("a marker split over three pieces is held, then dropped", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("Checking.\n<tool_"), "Checking.\n");
    assertEquals(f.push("ca"), "");
    assertEquals(f.push('ll>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>'), "");
    assertEquals(f.finish(), "");
  });

  await t.step("[TOOL_CALLS] split over pieces at the start of the message", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("[TOOL"), "");
    assertEquals(f.push("_CALLS]bash[AR"), "");
    assertEquals(f.push('GS]{"command": "ls"}'), "");
    assertEquals(f.finish(), "");
  });

  await t.step("JSON opening a message shows once its first key is no call's", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push('{"answ'), "");
    assertEquals(f.push('er": 4'), '{"answer": 4');
    assertEquals(f.push("2}\nThat is"), "2}\nThat is");
    assertEquals(f.finish(), "");
  });

  await t.step("JSON of call keys shows once a value or a later key rules a call out", () => {
    const cases: [string, string][] = [
      ['{"name": "get_weather"', ", "], // no declared tool
      ['{"name": "bash", "type": "object"', "}"], // a type other than function
      ['{"name": "bash", "arguments": 1', "}"], // arguments that are no object
      ['{"name": "bash", "arguments": {"command": "ls"}, "items"', ": [0]}"],
      ['[{"name": "bash", "arguments": {}}, 7', "]"], // an element that is no object
      ['{"name": "bash"}', "\nThat is the name."], // whole, and no arguments
      ['{"name": "bash", "arguments": {}}\nT', "hat is a call."], // text after the JSON
    ];
    for (const [decisive, rest] of cases) {
      const f = new TextCallFilter(TOOLS);
      assertEquals(f.push(decisive.slice(0, -1)), "", decisive);
      assertEquals(f.push(decisive.slice(-1)), decisive, decisive);
      assertEquals(f.push(rest) + f.finish(), rest, decisive);
    }
  });

  await t.step("a long JSON answer is shown from its first key, not at its end", () => {
    const f = new TextCallFilter(TOOLS);
    const head = FILES.slice(0, FILES.indexOf('"files"') + 7);
    assertEquals(f.push(head), head);
    assertEquals(f.push(FILES.slice(head.length)), FILES.slice(head.length));
    assertEquals(f.finish(), "");
  });

  await t.step("an array of numbers, fenced or not, shows from its first element", () => {
    for (const text of [ZEROS, "```json\n" + ZEROS + "\n```"]) {
      const f = new TextCallFilter(TOOLS);
      const cut = text.indexOf("0") + 1;
      assertEquals(f.push(text.slice(0, cut)), text.slice(0, cut));
      assertEquals(f.push(text.slice(cut)) + f.finish(), text.slice(cut));
    }
  });

  await t.step("a marker followed by what cannot be a call shows at once", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("<tool_call> t"), "<tool_call> t");
    assertEquals(f.push("ags wrap calls."), "ags wrap calls.");
    const g = new TextCallFilter(TOOLS);
    assertEquals(f.finish() + g.push("<function=get_weath"), "");
    assertEquals(g.push("er>\n<para"), "<function=get_weather>\n<para");
    assertEquals(g.push("meter=city>"), "meter=city>");
    // Still possibly a call: held.
    const h = new TextCallFilter(TOOLS);
    assertEquals(h.push("<tool_call>\n<func"), "");
    assertEquals(h.push("tion=bash>\n"), "");
  });

  await t.step("a fenced answer shows once its first character is no call", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("```pyth"), "");
    assertEquals(f.push("on\nimport os\n"), "```python\nimport os\n");
  });

  await t.step("<function= mid-line is prose and is not held", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("Use <function=name> tags."), "Use <function=name> tags.");
  });

  await t.step("finish(false): structured calls came too, the held text shows as it is", () => {
    const text = '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>';
    assertEquals(streamed(text, 5, false), text);
  });

  await t.step("heldRunaway: a held call repeating itself, not shown text or a short hold", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("Running it.\n"), "Running it.\n");
    assertEquals(f.push('<tool_call>{"name": "bash", "arguments": {"command": "'), "");
    for (let i = 0; i < 40; i++) assertEquals(f.push("ab"), "");
    assertEquals(f.heldRunaway(), undefined, "80 characters are not yet a runaway");
    for (let i = 0; i < 100; i++) f.push("ab");
    const held = f.heldRunaway();
    assertEquals(held?.startsWith('<tool_call>{"name": "bash"'), true, held);
    assertEquals(held?.endsWith("abab"), true);
    // The same repetition shown as prose is the model's answer, not a held call.
    const prose = new TextCallFilter(TOOLS);
    prose.push("Lines: ");
    for (let i = 0; i < 300; i++) prose.push("= ");
    assertEquals(prose.heldRunaway(), undefined);
    // A held opening JSON value that never ends.
    const bare = new TextCallFilter(TOOLS);
    bare.push('{"name": "bash", "arguments": {"command": "echo ');
    for (let i = 0; i < 100; i++) bare.push("yes ");
    assertEquals(bare.heldRunaway()?.startsWith('{"name"'), true);
    assertEquals(bare.finish().endsWith("yes "), true, "an unfinished call is shown as text");
    assertEquals(bare.heldRunaway(), undefined, "nothing is held once finished");
  });

  await t.step("heldRunaway: JSON data repeating itself is no runaway; call arguments are", () => {
    const grid = `{"grid": [${Array(300).fill(0).join(",")}]}`;
    for (const text of [ZEROS, "```json\n" + ZEROS + "\n```", MATRIX, grid]) {
      const f = new TextCallFilter(TOOLS);
      for (let i = 0; i < text.length; i += 4) {
        f.push(text.slice(i, i + 4));
        assertEquals(f.heldRunaway(), undefined, text.slice(0, i + 4));
      }
      assertEquals(f.finish(), "");
    }
    // The same zeros as the arguments of a bare call, and as a fenced call's, run away.
    for (
      const open of [
        '{"name": "bash", "arguments": {"command": "',
        '```\n[{"name": "bash", "arguments": "',
      ]
    ) {
      const f = new TextCallFilter(TOOLS);
      f.push(open);
      for (let i = 0; i < 200 && f.heldRunaway() === undefined; i++) f.push("0, ");
      assertEquals(f.heldRunaway()?.startsWith(open), true, open);
    }
  });

  await t.step(
    "jsonAnswer (structuredOutput): bare JSON is the answer, markers still count",
    () => {
      const call = '{"name": "bash", "arguments": {"command": "ls"}}';
      assertEquals(textToolCalls(call, TOOLS, { jsonAnswer: true }), undefined);
      assertEquals(
        textToolCalls("```json\n" + call + "\n```", TOOLS, { jsonAnswer: true }),
        undefined,
      );
      const f = new TextCallFilter(TOOLS, { jsonAnswer: true });
      assertEquals(f.push(call.slice(0, 3)), call.slice(0, 3));
      assertEquals(f.push(call.slice(3)) + f.finish(), call.slice(3));
      const grid = `{"grid":[${Array(300).fill(0).join(",")}]}`;
      const g = new TextCallFilter(TOOLS, { jsonAnswer: true });
      let shown = "";
      for (let i = 0; i < grid.length; i += 3) {
        shown += g.push(grid.slice(i, i + 3));
        assertEquals(g.heldRunaway(), undefined);
      }
      assertEquals(shown + g.finish(), grid);
      const tagged = `<tool_call>${call}</tool_call>`;
      assertEquals(textToolCalls(tagged, TOOLS, { jsonAnswer: true })?.calls.length, 1);
      assertEquals(streamedWith(tagged, 5, { jsonAnswer: true }), "");
    },
  );

  await t.step("prose after a call is set apart by a blank line", () => {
    const text =
      'Let me look.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\nThen I report.';
    assertEquals(streamed(text, 4), "Let me look.\n\nThen I report.");
  });
});

Deno.test("tool names small models get wrong", async (t) => {
  const declared = ["read_file", "bash", "edit_file"];
  for (
    const name of [
      "read_file",
      "Read_File",
      "read-file",
      "read file",
      "readFile",
      "ReadFile",
      "read.file",
      " READ-FILE ",
    ]
  ) {
    await t.step(`${JSON.stringify(name)} is read_file`, () => {
      assertEquals(matchToolName(name.trim(), declared), "read_file");
    });
  }
  await t.step("another name is none", () => {
    assertEquals(matchToolName("read_files", declared), undefined);
    assertEquals(matchToolName("", declared), undefined);
    assertEquals(matchToolName("___", declared), undefined);
  });
  await t.step("two declared tools that read alike: only the exact name runs", () => {
    assertEquals(matchToolName("read_file", ["read_file", "readfile"]), "read_file");
    assertEquals(matchToolName("Read-File", ["read_file", "readfile"]), undefined);
  });
});

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
  const openai = await loadOpenAI();
  const turn = async (model: string, prompt = "go", more: Partial<Config> = {}) => {
    const seen: unknown[] = [];
    const events: AgentEvent[] = [];
    const config = { ...defaultConfig(), url: server.url, model, ...more };
    const agent = new Agent({
      config,
      chat: createChatClient(openai, config, model),
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
    assertEquals(state.sent < 100, true, `${state.sent} pieces sent`);
    // The prose before the call shows; the runaway text does not.
    assertEquals(text, "I will write it.\n");
    assertEquals(events.filter((e) => e.type === "tool_call"), []);
  });
});
