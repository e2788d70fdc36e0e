/** The question `mm sessions` lists for a session, compacted or not. */

import { COMPACT_ACK, COMPACT_WRAPPER } from "../../lib/history.ts";
import { firstQuestion, type SessionFile } from "../../lib/session/store.ts";
import { assertEquals } from "../helpers/assert.ts";

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
  await t.step("only a summary (/compact, nothing asked since): the summary", () => {
    assertEquals(firstQuestion(session([summary, ack])), "Read the files.");
  });
  await t.step("no question at all: nothing", () => {
    assertEquals(firstQuestion(session([])), "");
  });
});
