/** The question `mm sessions` lists for a session, compacted or not. */

import { COMPACT_ACK, COMPACT_WRAPPER } from "../../lib/history.ts";
import {
  firstQuestion,
  parseSession,
  type SessionFile,
  SessionFileError,
} from "../../lib/session/store.ts";
import { assertEquals, assertThrows } from "../helpers/assert.ts";

function session(messages: SessionFile["messages"]): SessionFile {
  return {
    id: "s1",
    created: "2025-01-01T00:00:00.000Z",
    updated: "2025-01-01T00:00:00.000Z",
    cwd: "/",
    provider: "openai",
    model: "m",
    messages,
    errors: [],
  };
}

const summary = {
  role: "user" as const,
  content: `${COMPACT_WRAPPER}\nRead  the\nfiles.`,
  turn: 1,
};
const ack = { role: "assistant" as const, content: COMPACT_ACK, turn: 1 };

Deno.test("the first question of a session", async (t) => {
  await t.step("the first user message, on one line", () => {
    const s = session([{ role: "user", content: "fix\n  the bug", turn: 1 }]);
    assertEquals(firstQuestion(s), "fix the bug");
  });
  await t.step("compacted: the question after the summary", () => {
    const s = session([summary, ack, { role: "user", content: "read the files", turn: 1 }]);
    assertEquals(firstQuestion(s), "read the files");
  });
  await t.step(
    "only a summary (/compact, nothing asked since): (compacted), not the summary",
    () => {
      assertEquals(firstQuestion(session([summary, ack])), "(compacted)");
    },
  );
  await t.step("no question at all: nothing", () => {
    assertEquals(firstQuestion(session([])), "");
  });
});

/** A tool call as the history keeps it. */
const call = { id: "c1", type: "function", function: { name: "bash", arguments: "{}" } };

Deno.test("parseSession: each message is checked; a missing turn is the one its place says", async (t) => {
  const text = (messages: unknown[]) =>
    JSON.stringify({ id: "s", created: "c", updated: "u", messages });
  await t.step("no turn numbers: each question starts the next turn", () => {
    const parsed = parseSession(
      "s.json",
      text([
        { role: "user", content: "a" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "out" },
        { role: "assistant", content: "done" },
        { role: "user", content: "b" },
        { role: "assistant", content: "ok", turn: 7 },
      ]),
    );
    assertEquals(parsed.messages.map((m) => m.turn), [1, 1, 1, 1, 2, 7]);
  });
  const rows: [string, unknown, string][] = [
    [
      "an unknown role",
      { role: "wizard", content: "x" },
      'has role "wizard", not one of user, assistant, tool',
    ],
    ["the system prompt", { role: "system", content: "x" }, 'has role "system"'],
    ["no content", { role: "user" }, "has no text content"],
    ["a tool message without its call", { role: "tool", content: "x" }, "has no tool_call_id"],
    [
      "calls that are not calls",
      { role: "assistant", content: "", tool_calls: [{ id: 1 }] },
      "has tool_calls",
    ],
    ["not an object", "hello", "is not an object"],
  ];
  await t.step(
    "an id that is not the file's name (a copy): refused, never written elsewhere",
    () => {
      const e = assertThrows(
        () => parseSession("/d/b.json", text([{ role: "user", content: "q" }])),
        SessionFileError,
      );
      assertEquals(e.message.includes('(its id "s" is not its file name, b)'), true, e.message);
    },
  );
  for (const [name, message, reason] of rows) {
    await t.step(name, () => {
      const e = assertThrows(
        () => parseSession("s.json", text([{ role: "user", content: "q" }, message])),
        SessionFileError,
      );
      assertEquals(e.message.includes(`(message 2 ${reason}`), true, e.message);
    });
  }
});
