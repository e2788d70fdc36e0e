import { assertEquals } from "./helpers/assert.ts";
import {
  alternating,
  answerUnanswered,
  HOOK_CONTEXT_MARKER,
  type Message,
  NOT_RUN,
  resumable,
  TOO_LARGE_MARKER,
} from "../lib/history.ts";

const call = (...ids: string[]): Message => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => ({
    id,
    type: "function",
    function: { name: "bash", arguments: "{}" },
  })),
});
const tool = (id: string, content = "out"): Message => ({
  role: "tool",
  tool_call_id: id,
  content,
});

Deno.test("answerUnanswered: every call gets its answer, right after its step's", () => {
  const wrap = (m: Message) => ({ message: m, turn: 1 });
  const answer = (id: string) => wrap(tool(id, NOT_RUN));
  const history = [
    { role: "user", content: "q" } as Message,
    call("a", "b"),
    tool("a"),
    { role: "user", content: "again" } as Message,
    call("c"),
  ].map(wrap);
  assertEquals(answerUnanswered(history, answer).map((m) => m.message), [
    { role: "user", content: "q" },
    call("a", "b"),
    tool("a"),
    tool("b", NOT_RUN),
    { role: "user", content: "again" },
    call("c"),
    tool("c", NOT_RUN),
  ]);
  const whole = [call("x"), tool("x")].map(wrap);
  assertEquals(answerUnanswered(whole, answer), whole);
  assertEquals(NOT_RUN, "[error: not run: the turn was stopped]");
  // An answer without its call (its assistant message deleted by hand) is left out.
  const orphan = [{ role: "user", content: "q" } as Message, tool("z"), call("y"), tool("w")]
    .map(wrap);
  assertEquals(answerUnanswered(orphan, answer).map((m) => m.message), [
    { role: "user", content: "q" },
    call("y"),
    tool("y", NOT_RUN),
  ]);
});

Deno.test("alternating: an unanswered question and the next go out as one user message", () => {
  const asked: Message[] = [
    { role: "system", content: "s" },
    { role: "user", content: "a" },
    { role: "assistant", content: "b" },
  ];
  assertEquals(alternating(asked), asked);
  const failedTwice: Message[] = [
    ...asked,
    { role: "user", content: "c" },
    { role: "user", content: "d" },
    { role: "user", content: "e" },
  ];
  assertEquals(alternating(failedTwice), [...asked, { role: "user", content: "c\n\nd\n\ne" }]);
  assertEquals(failedTwice.length, 6, "the history itself is left as it is");
  const afterTools: Message[] = [
    { role: "user", content: "a" },
    { role: "assistant", content: null, tool_calls: [] },
    { role: "tool", tool_call_id: "1", content: "out" },
    { role: "user", content: "b" },
  ];
  assertEquals(alternating(afterTools), afterTools);
});

Deno.test("the markers a stored history holds, byte for byte", () => {
  assertEquals(HOOK_CONTEXT_MARKER, "[context added by a hook]");
  assertEquals(TOO_LARGE_MARKER, "\n[... output too large to read back in full ...]\n");
  assertEquals(NOT_RUN, "[error: not run: the turn was stopped]");
});

Deno.test("resumable: a call left without its answer is answered as not run, in its turn", () => {
  const earlier = [
    { message: { role: "user", content: "go" } as Message, turn: 1 },
    { message: call("a", "b"), turn: 1 },
    { message: tool("a"), turn: 1 },
    { message: { role: "user", content: "again" } as Message, turn: 2 },
  ];
  assertEquals(resumable(earlier), [
    earlier[0],
    earlier[1],
    earlier[2],
    { message: tool("b", NOT_RUN), turn: 1 },
    earlier[3],
  ]);
  assertEquals(resumable(earlier.slice(0, 1)), earlier.slice(0, 1));
});

Deno.test("sentReasoning: auto keeps the turn in progress, always all, never none", async (t) => {
  const { sentReasoning } = await import("../lib/history.ts");
  const call = (r: string) => ({
    role: "assistant" as const,
    content: null,
    reasoning_content: r,
    tool_calls: [{ id: r, type: "function" as const, function: { name: "bash", arguments: "{}" } }],
  });
  const history = [
    { role: "user" as const, content: "one" },
    call("old"),
    { role: "tool" as const, tool_call_id: "old", content: "x" },
    { role: "user" as const, content: "two" },
    call("new"),
    { role: "tool" as const, tool_call_id: "new", content: "y" },
  ];
  const reasons = (mode: "auto" | "always" | "never") =>
    sentReasoning(history, mode).map((m) => m.role === "assistant" ? m.reasoning_content : "-");
  await t.step("auto", () => assertEquals(reasons("auto"), ["-", undefined, "-", "-", "new", "-"]));
  await t.step("always", () => assertEquals(reasons("always"), ["-", "old", "-", "-", "new", "-"]));
  await t.step(
    "never",
    () => assertEquals(reasons("never"), ["-", undefined, "-", "-", undefined, "-"]),
  );
  await t.step(
    "the history is left as it was",
    () => assertEquals((history[1] as { reasoning_content?: string }).reasoning_content, "old"),
  );
});
