/** A stored history replayed as the events of its live turns (lib/agent/replay.ts), as a table. */

import { ASK_COMMAND_ID } from "../../lib/agent/commands.ts";
import {
  COMPACTED_NOTE,
  failedOutput,
  replay,
  type ReplayEvent,
  splitPrompt,
} from "../../lib/agent/replay.ts";
import {
  COMPACT_ACK,
  COMPACT_WRAPPER,
  HOOK_CONTEXT_MARKER,
  type Message,
  NOT_RUN,
} from "../../lib/history.ts";
import type { AnyTool, Tool } from "../../lib/tool.ts";
import { BUILTIN_TOOLS } from "../../tools/mod.ts";
import { assertEquals } from "../helpers/assert.ts";

/** An assistant message calling `name` with `args`, as call `id`. */
function calls(id: string, name: string, args: Record<string, unknown>): Message {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
  };
}

/** The bash call of id `id` as its live `tool_call` event. */
function bashCall(id: string, command: string): ReplayEvent {
  return {
    type: "tool_call",
    id,
    name: "bash",
    kind: "execute",
    emoji: "🛠️",
    summary: command,
    input: { command },
  };
}

/** A stand-in for ask_agent (declared only with mmConfigs): its name, emoji and summary. */
const askAgent: Tool<{ agent: string; prompt: string }> = {
  name: "ask_agent",
  kind: "other",
  emoji: "🗣",
  asks: false,
  declared: () => true,
  description: "Asks an agent.",
  parameters: {
    agent: { type: "string", description: "Who." },
    prompt: { type: "string", description: "What." },
  },
  summary: (input) => `${input.agent} — ${input.prompt}`,
  run: () => Promise.resolve({ output: "" }),
};
const tools: AnyTool[] = [...BUILTIN_TOOLS, askAgent as AnyTool];

const cases: [string, Message[], ReplayEvent[]][] = [
  [
    "a question, a call and the answer; the system prompt left out",
    [
      { role: "system", content: "sys" },
      { role: "user", content: "hi" },
      calls("call_0", "bash", { command: "ls" }),
      { role: "tool", tool_call_id: "call_0", content: "a\n" },
      { role: "assistant", content: "done" },
    ],
    [
      { type: "prompt", text: "hi", context: "" },
      bashCall("call_0", "ls"),
      { type: "tool_result", id: "call_0", name: "bash", output: "a\n", failed: false },
      { type: "text", text: "done" },
    ],
  ],
  [
    "the prompt without the hook's context, which comes apart",
    [{ role: "user", content: `fix it\n${HOOK_CONTEXT_MARKER}\nbranch: main` }],
    [{ type: "prompt", text: "fix it", context: "branch: main" }],
  ],
  [
    "a compacted past is one notice: neither the wrapper nor the acknowledgement is replayed",
    [
      { role: "user", content: `${COMPACT_WRAPPER}\nthe notes` },
      { role: "assistant", content: COMPACT_ACK },
      { role: "user", content: "go on" },
    ],
    [
      { type: "notice", message: COMPACTED_NOTE },
      { type: "prompt", text: "go on", context: "" },
    ],
  ],
  [
    "a cancelled call and a call not run replay as failed",
    [
      { role: "user", content: "run" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "bash", arguments: '{"command":"x"}' } },
          { id: "b", type: "function", function: { name: "bash", arguments: '{"command":"y"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "[error: cancelled]" },
      { role: "tool", tool_call_id: "b", content: NOT_RUN },
    ],
    [
      { type: "prompt", text: "run", context: "" },
      bashCall("a", "x"),
      bashCall("b", "y"),
      { type: "tool_result", id: "a", name: "bash", output: "[error: cancelled]", failed: true },
      { type: "tool_result", id: "b", name: "bash", output: NOT_RUN, failed: true },
    ],
  ],
  [
    "a refused call replays as failed",
    [
      calls("c", "bash", { command: "rm x" }),
      { role: "tool", tool_call_id: "c", content: "[command rejected by the user]" },
    ],
    [
      bashCall("c", "rm x"),
      {
        type: "tool_result",
        id: "c",
        name: "bash",
        output: "[command rejected by the user]",
        failed: true,
      },
    ],
  ],
  [
    "a call the model named loosely replays as the tool it ran",
    [
      calls("c", "readFile", { path: "a.ts" }),
      { role: "tool", tool_call_id: "c", content: "1 │ x\n" },
    ],
    [
      {
        type: "tool_call",
        id: "c",
        name: "read_file",
        kind: "read",
        emoji: "📝",
        summary: "a.ts",
        input: { path: "a.ts" },
      },
      { type: "tool_result", id: "c", name: "read_file", output: "1 │ x\n", failed: false },
    ],
  ],
  [
    "an asked agent's answer: its text under the call, the call says how long it was",
    [
      calls("c", "ask_agent", { agent: "helper", prompt: "count" }),
      { role: "tool", tool_call_id: "c", content: "42 files" },
    ],
    [
      {
        type: "tool_call",
        id: "c",
        name: "ask_agent",
        kind: "other",
        emoji: "🗣",
        summary: "helper — count",
        input: { agent: "helper", prompt: "count" },
      },
      { type: "nested", call: "c", event: { agent: "helper", type: "text", text: "42 files" } },
      {
        type: "tool_result",
        id: "c",
        name: "ask_agent",
        output: "42 files",
        failed: false,
        display: "helper answered (8 characters)",
      },
    ],
  ],
  [
    "an answered /ask replays as its call",
    [
      { role: "user", content: "/ask helper count" },
      { role: "assistant", content: "helper answered:\n42 files" },
    ],
    [
      { type: "prompt", text: "/ask helper count", context: "" },
      {
        type: "tool_call",
        id: ASK_COMMAND_ID,
        name: "ask",
        kind: "other",
        emoji: "🗣",
        summary: "helper — count",
        input: { agent: "helper", prompt: "count" },
      },
      {
        type: "nested",
        call: ASK_COMMAND_ID,
        event: { agent: "helper", type: "text", text: "42 files" },
      },
      {
        type: "tool_result",
        id: ASK_COMMAND_ID,
        name: "ask",
        output: "42 files",
        failed: false,
        display: "helper answered (8 characters)",
      },
    ],
  ],
];

Deno.test("replay: a stored history as its live events", async (t) => {
  for (const [name, history, events] of cases) {
    await t.step(name, () => assertEquals(replay(history, tools), events));
  }
});

Deno.test("splitPrompt and failedOutput", () => {
  assertEquals(splitPrompt("fix it"), { text: "fix it", context: "" });
  assertEquals(splitPrompt(`${HOOK_CONTEXT_MARKER}\nonly`), { text: "", context: "only" });
  assertEquals(failedOutput("[error: cancelled]"), true);
  assertEquals(failedOutput("[ask_agent: helper failed: no file]"), true);
  assertEquals(failedOutput("[the question was cancelled before the user answered]"), true);
  assertEquals(failedOutput("a\n"), false);
  assertEquals(failedOutput("[1, 2, 3]"), false);
});
