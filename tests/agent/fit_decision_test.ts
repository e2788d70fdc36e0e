/**
 * The fit decision (lib/agent/fit_decision.ts): one row per way a history meets its window, the
 * decision asserted whole — its kind, the outputs it cuts, its texts.
 */

import {
  decideAfterSummary,
  decideFit,
  type FitDecision,
  type FitState,
  SUMMARY_TOO_LONG,
} from "../../lib/agent/fit_decision.ts";
import {
  type Budget,
  compactFailedText,
  compactingNotice,
  isShortened,
  KEPT_HEAD,
  leastTokens,
  OVERFLOW_NOTICE,
  rawPromptTokens,
  READ_IN_PARTS,
  shortenOutput,
  shortenTo,
  STEP_TOO_BIG,
  tooBigText,
} from "../../lib/agent/budget.ts";
import { COMPACT_ACK, COMPACT_WRAPPER, type Message } from "../../lib/history.ts";
import { assertEquals } from "../helpers/assert.ts";

/** `size` characters of output, in lines of 40. */
function text(size: number): string {
  let out = "";
  for (let i = 0; out.length < size; i++) out += `line ${i}`.padEnd(39, ".") + "\n";
  return out.slice(0, size);
}

const system: Message = { role: "system", content: "You are a test." };
const user = (content: string): Message => ({ role: "user", content });
const says = (content: string): Message => ({ role: "assistant", content });
/** An assistant message calling `n` tools (ids c0, c1, …), with arguments of `args` characters. */
const calling = (n = 1, args = 10): Message => ({
  role: "assistant",
  content: null,
  tool_calls: Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    type: "function" as const,
    function: { name: "dump", arguments: JSON.stringify({ size: "x".repeat(args) }) },
  })),
});
const output = (size: number, id = "c0"): Message => ({
  role: "tool",
  tool_call_id: id,
  content: text(size),
});
const budget = (window: number, reserve = 200, floor = 64): Budget => ({
  window,
  reserve,
  floor,
  toldWindow: true,
});

/** A history and its window; `promptAt` is the last user message. */
function state(history: Message[], b: Budget | undefined, overflow = false): FitState {
  const promptAt = history.findLastIndex((m) => m.role === "user");
  return { history, promptAt, tools: [], budget: b, overflow };
}

/** A decision as the table writes it: the indices of its cuts instead of their contents. */
function shape(d: FitDecision): Record<string, unknown> {
  if (d.kind === "nothing") return { kind: "nothing" };
  const { cuts, ...rest } = d;
  return { ...rest, cut: cuts.map((c) => c.index) };
}

// Histories of the table.
const readOne = [system, user("first"), calling(), output(3000), says("done"), user("next")];
const bigQuestion = [system, user(text(3000)), calling(), output(3000), says("done"), user("next")];
const hugePrompt = [system, user(text(30_000))];
const stepOverBefore = [system, user(text(3000)), says("ok"), user("go"), calling(), output(1500)];
const stepTooBig = [system, user(text(300)), says("ok"), user("go"), calling(), output(9000)];
const onlyStep = [system, user("go"), calling(), output(3000)];
const onlyStepShort = [system, user("go"), calling(), output(100)];
const onlyStepHugeCall = [system, user("go"), calling(1, 9000), output(100)];
const aloneLong = [system, user(text(1500))];

Deno.test("the fit decision", async (t) => {
  const rows: [string, FitState, Record<string, unknown>][] = [
    ["no known window and no overflow: nothing", state(readOne, undefined), { kind: "nothing" }],
    ["a history that fits: nothing", state(readOne, budget(10_000)), { kind: "nothing" }],
    [
      "too big, the read outputs cut down to the low-water mark: cut",
      state(readOne, budget(1200)),
      { kind: "cut", cut: [3] },
    ],
    [
      "cuts that would leave little room: compacted instead, nothing cut",
      state(bigQuestion, budget(2200)),
      { kind: "compact", cut: [], summarised: 5, notice: compactingNotice(2200) },
    ],
    [
      "a prompt too big even alone: refused",
      state(hugePrompt, budget(2000)),
      {
        kind: "refuse",
        cut: [],
        text: tooBigText(leastTokens(rawPromptTokens(hugePrompt, [])), budget(2000)),
      },
    ],
    [
      "an unread step that fits alone, the rest does not: compacted, the step kept",
      state(stepOverBefore, budget(1500)),
      { kind: "compact", cut: [], summarised: 4, keptFrom: 4, notice: compactingNotice(1500) },
    ],
    [
      "an unread step too big by itself: its outputs cut to fit, never compacted",
      state(stepTooBig, budget(2000)),
      { kind: "cut", cut: [5] },
    ],
    [
      "an unread step whose calls alone do not fit, nothing to compact: refused",
      state(onlyStepHugeCall, budget(2000)),
      { kind: "refuse", cut: [], text: compactFailedText(2000, STEP_TOO_BIG, true) },
    ],
    [
      "nothing but a long prompt, which the server can still take: nothing",
      state(aloneLong, budget(700, 350)),
      { kind: "nothing" },
    ],
    [
      "an overflow: every read output cut, the conversation compacted",
      state(readOne, undefined, true),
      { kind: "compact", cut: [3], summarised: 5, notice: OVERFLOW_NOTICE },
    ],
    [
      "an overflow with nothing to compact: the step's outputs cut to their heads",
      state(onlyStep, undefined, true),
      { kind: "cut", cut: [3], headsOnly: true },
    ],
    [
      "an overflow with nothing to compact nor cut: the server's error stands",
      state(onlyStepShort, undefined, true),
      { kind: "refuse", cut: [] },
    ],
    [
      "an overflow with only the prompt: the server's error stands",
      state([system, user("hi")], undefined, true),
      { kind: "refuse", cut: [] },
    ],
  ];
  for (const [name, s, expected] of rows) {
    await t.step(name, () => assertEquals(shape(decideFit(s)), expected));
  }

  await t.step("read outputs keep their head; an unread step's say how to read the rest", () => {
    const read = decideFit(state(readOne, budget(1200)));
    assertEquals(read.kind === "cut" && read.cuts[0].content, shortenOutput(text(3000)));
    const unread = decideFit(state(stepTooBig, budget(2000)));
    const content = unread.kind === "cut" ? unread.cuts[0].content : "";
    assertEquals([isShortened(content), content.includes(READ_IN_PARTS)], [true, true]);
    const heads = decideFit(state(onlyStep, undefined, true));
    assertEquals(
      heads.kind === "cut" && heads.cuts[0].content,
      shortenTo(text(3000), KEPT_HEAD, true),
    );
  });
});

Deno.test("the decision after a summary", async (t) => {
  const summary = [user(`${COMPACT_WRAPPER}\nnotes`), says(COMPACT_ACK)];
  const kept = [system, ...summary, user("go"), calling(), output(9000)];
  const rows: [string, Message[], Budget, boolean, Record<string, unknown>][] = [
    ["it fits: nothing", [system, ...summary, user("go")], budget(2000), false, {
      kind: "nothing",
    }],
    ["the kept step too big: its outputs cut to fit", kept, budget(2000), true, {
      kind: "cut",
      cut: [5],
    }],
    [
      "the summary itself too long: refused",
      [system, user(text(9000)), says("ok"), user("go")],
      budget(2000),
      false,
      {
        kind: "refuse",
        cut: [],
        text: compactFailedText(2000, SUMMARY_TOO_LONG, true),
      },
    ],
  ];
  for (const [name, history, b, keptStep, expected] of rows) {
    await t.step(name, () => {
      const s = {
        history,
        promptAt: history.findLastIndex((m) => m.role === "user"),
        tools: [],
        budget: b,
      };
      assertEquals(shape(decideAfterSummary(s, keptStep)), expected);
    });
  }
});
