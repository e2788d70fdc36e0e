/** The context window's budget: estimates, calibration, the room for the answer, the plans. */

import {
  answerReserve,
  applyCuts,
  believable,
  type Budget,
  calibrate,
  calibrated,
  cutMarker,
  isShortened,
  KEPT_HEAD,
  LEFT_OUT_NOTE,
  LOW_WATER,
  MESSAGE_OVERHEAD,
  messageTokens,
  planCuts,
  planUnreadCuts,
  PROMPT_OVERHEAD,
  promptLimit,
  promptTokens,
  rawLimit,
  rawPromptTokens,
  READ_IN_PARTS,
  shortenOutput,
  shortenTo,
  summaryRequest,
  textTokens,
  tooBigText,
  TOOL_OVERHEAD,
  toolsTokens,
  unreadFrom,
} from "../../lib/agent/budget.ts";
import { TOO_LARGE_MARKER } from "../../lib/history.ts";
import type { ToolSchema } from "../../lib/provider/chat.ts";
import type { Message } from "../../lib/history.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";

function assert(condition: boolean, msg?: string): void {
  assertEquals(condition, true, msg);
}

const system: Message = { role: "system", content: "You are a test." };
const user = (content: string): Message => ({ role: "user", content });
const answer = (content: string): Message => ({ role: "assistant", content });
const call = (id: string): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
});
const output = (id: string, content: string): Message => ({
  role: "tool",
  tool_call_id: id,
  content,
});
/** `n` lines of 39 characters and a newline. */
const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => `line ${i}`.padEnd(39, ".")).join("\n") + "\n";

Deno.test("estimates", async (t) => {
  await t.step("a third of the ASCII characters, one token per other character", () => {
    assertEquals(textTokens(""), 0);
    assertEquals(textTokens("abc"), 1);
    assertEquals(textTokens("abcd"), 2);
    assertEquals(textTokens("日本語"), 3);
    assertEquals(textTokens("😀"), 1, "a surrogate pair is one character");
    assertEquals(textTokens("ab日"), 2);
  });
  await t.step("a message: its text, its tool calls, the framing of each", () => {
    assertEquals(messageTokens(user("abcdef")), MESSAGE_OVERHEAD + 2);
    assertEquals(messageTokens(answer("")), MESSAGE_OVERHEAD);
    // "bash" is 2 tokens, '{"command":"ls"}' (16 characters) 6.
    assertEquals(messageTokens(call("c1")), 2 * MESSAGE_OVERHEAD + 2 + 6);
  });
  await t.step("a prompt: the messages, the tools and the opening of the answer", () => {
    const tool: ToolSchema = {
      type: "function",
      function: { name: "t", description: "d", parameters: {} },
    };
    const json = JSON.stringify(tool.function).length;
    assertEquals(toolsTokens([tool]), TOOL_OVERHEAD + Math.ceil(json / 3));
    assertEquals(
      rawPromptTokens([system, user("abc")], [tool]),
      PROMPT_OVERHEAD + toolsTokens([tool]) + messageTokens(system) + messageTokens(user("abc")),
    );
    assertEquals(promptTokens([system], []), rawPromptTokens([system], []));
  });
});

Deno.test("calibration", async (t) => {
  await t.step(
    "a server's count above four times the estimate, or twice the window, is not believed",
    () => {
      assertEquals(believable(3000, 1_000_000, 8000), false);
      assertEquals(believable(3000, 1_000_000), false);
      assertEquals(believable(3000, 12_000), true);
      assertEquals(believable(3000, 12_001), false);
      assertEquals(believable(3000, 12_000, 5000), false);
      assertEquals(believable(3000, 10_000, 5000), true);
      assertEquals(believable(3000, 11, 8000), true);
    },
  );
  await t.step("a report under half the estimate, or none, is not used", () => {
    assertEquals(calibrate(1000, undefined), undefined);
    assertEquals(calibrate(1000, 0), undefined);
    assertEquals(calibrate(1000, 499), undefined);
    assertEquals(calibrate(1000, 500), { raw: 1000, real: 500 });
    assertEquals(calibrate(1000, 1400), { raw: 1000, real: 1400 });
  });
  await t.step("no report: the raw estimate", () => {
    assertEquals(calibrated(700), 700);
  });
  await t.step("the server counted more: the estimate scaled up", () => {
    assertEquals(calibrated(2000, { raw: 1000, real: 1500 }), 3000);
  });
  await t.step("the server counted less: its count plus what was added since, unscaled", () => {
    assertEquals(calibrated(1400, { raw: 1000, real: 800 }), 1200);
  });
  await t.step("after a compaction: the smaller estimate scaled, never below it", () => {
    assertEquals(calibrated(400, { raw: 4000, real: 3000 }), 300);
  });
});

Deno.test("room for the answer", async (t) => {
  await t.step("an eighth of the window, at least 512", () => {
    assertEquals(answerReserve(4096), 512);
    assertEquals(answerReserve(32768), 4096);
    assertEquals(answerReserve(2048), 512);
  });
  await t.step("maxTokens when set", () => {
    assertEquals(answerReserve(4096, 1000), 1000);
  });
  await t.step("never more than half the window", () => {
    assertEquals(answerReserve(4096, 3000), 2048);
    assertEquals(answerReserve(600), 300);
  });
});

Deno.test("shortening a tool output", async (t) => {
  await t.step("its head, cut at a line end, then the marker with what was cut", () => {
    const text = lines(50);
    const short = shortenOutput(text)!;
    const head = lines(10);
    assertEquals(short, `${head}${cutMarker(text.length - head.length)}`);
    assertEquals(
      cutMarker(1600),
      "[mm: 1600 more characters of this output were cut to fit the context window]",
    );
    assert(isShortened(short));
    assert(!isShortened(text));
  });
  await t.step("one long line: exactly the kept head", () => {
    const text = "x".repeat(2000);
    assertEquals(shortenOutput(text), `${"x".repeat(KEPT_HEAD)}\n${cutMarker(2000 - KEPT_HEAD)}`);
  });
  await t.step("never halfway through a character", () => {
    const text = "x".repeat(KEPT_HEAD - 1) + "😀".repeat(300);
    assertEquals(shortenOutput(text)!.split("\n")[0], "x".repeat(KEPT_HEAD - 1));
  });
  await t.step("short outputs and shortened ones are left as they are", () => {
    assertEquals(shortenOutput("x".repeat(KEPT_HEAD + 100)), undefined);
    assertEquals(shortenOutput(shortenOutput(lines(50))!), undefined);
  });
  await t.step("an output the model has not read says how to read the rest", () => {
    assertEquals(
      cutMarker(1600, true),
      "[mm: 1600 more characters of this output were cut to fit the context window — read it in parts (read_file with start and end, or head, tail or grep in bash)]",
    );
    const text = lines(50);
    const short = shortenTo(text, 800, true)!;
    assertEquals(short, `${lines(20)}${cutMarker(text.length - 800, true)}`);
    assert(isShortened(short));
    assert(short.endsWith(`${READ_IN_PARTS}]`));
  });
  await t.step("shortened again: the counts add up, the advice stays", () => {
    const text = lines(50);
    const again = shortenTo(shortenTo(text, 800, true)!, 400)!;
    assertEquals(again, `${lines(10)}${cutMarker(text.length - 400, true)}`);
    assertEquals(shortenTo(again, 400), undefined, "nothing more to cut");
    assertEquals(shortenTo(text, 0), cutMarker(text.length), "no head at all");
  });
});

Deno.test("an output cut to fit, once read, is shortened like the others", () => {
  const text = lines(50);
  const unread = shortenTo(text, 800, true)!;
  assertEquals(shortenOutput(unread), `${lines(10)}${cutMarker(text.length - 400, true)}`);
});

Deno.test("a tool's own truncation notes count in what is unread", () => {
  const note = "\n[... 5000 characters cut: output truncated to maxOutput ...]\n";
  const text = lines(30) + note + lines(30);
  const unread = text.length - note.length + 5000 - lines(10).length;
  assertEquals(shortenOutput(text), `${lines(10)}${cutMarker(unread)}`);
  const tooLarge = lines(30) + TOO_LARGE_MARKER + lines(30);
  assertEquals(
    shortenOutput(tooLarge),
    `${lines(10)}${
      cutMarker(tooLarge.length - TOO_LARGE_MARKER.length - lines(10).length, false, true)
    }`,
  );
  assertEquals(
    cutMarker(7, true, true).slice(0, 20),
    "[mm: over 7 more cha",
  );
});

Deno.test("the raw limit is the calibrated limit's inverse", () => {
  for (const calibration of [undefined, { raw: 100, real: 300 }, { raw: 1000, real: 700 }]) {
    for (const window of [1000, 4096, 7777]) {
      const b: Budget = { window, reserve: 512, calibration };
      const raw = rawLimit(b);
      assert(calibrated(raw, calibration) <= promptLimit(b), `${window} ${raw}`);
      assert(calibrated(raw + 1, calibration) > promptLimit(b), `${window} ${raw + 1}`);
    }
  }
});

Deno.test("fitting a history", async (t) => {
  const big = lines(60); // 2,400 characters: 800 tokens
  const history: Message[] = [
    system,
    user("first"),
    call("a"),
    output("a", big),
    answer("done"),
    user("second"),
    call("b"),
    output("b", big),
    call("c"),
    output("c", big),
  ];
  const full = rawPromptTokens(history, []);
  const budget = (limit: number): Budget => ({ window: limit + 512, reserve: 512 });
  const saved = textTokens(big) - textTokens(shortenOutput(big)!);

  await t.step("what the model has not read starts after its last message of the turn", () => {
    assertEquals(unreadFrom(history, 5), 8);
    assertEquals(unreadFrom([...history, user("third")], 10), 10, "a new prompt: nothing unread");
  });
  await t.step("it fits: nothing to do", () => {
    assertEquals(planCuts(history, [], budget(full), 8), { cuts: [], tokens: full, fits: true });
    assertEquals(planCuts(history, [], undefined, 8).cuts, []);
  });
  await t.step("the oldest output first, then more, down to the low-water mark", () => {
    // One cut would do for this request, but the next step would need another: a cut changes
    // what the server has cached, so it is made once for many steps.
    const plan = planCuts(history, [], budget(full - 10), 8);
    assertEquals(plan.cuts.map((c) => c.index), [3, 7]);
    assertEquals(plan.tokens, full - 2 * saved);
    assert(plan.fits);
    assert(isShortened(applyCuts(history, plan.cuts)[3].content as string));
    assert(plan.tokens <= (full - 10) * LOW_WATER, "at or under the low-water mark");
  });
  await t.step("never the outputs the model has not read", () => {
    const plan = planCuts(history, [], budget(full - saved - 10), 8);
    assertEquals(plan.cuts.map((c) => c.index), [3, 7]);
    assertEquals(plan.tokens, full - 2 * saved);
    assert(plan.fits);
    const tight = planCuts(history, [], budget(full - 2 * saved - 10), 8);
    assertEquals(tight.cuts.map((c) => c.index), [3, 7]);
    assert(!tight.fits, "the unread output at 9 stays whole: the history must be compacted");
  });
  await t.step("after an overflow, every read output, whatever the estimate", () => {
    const plan = planCuts(history, [], undefined, 8, true);
    assertEquals(plan.cuts.map((c) => c.index), [3, 7]);
  });
  await t.step("the calibration counts", () => {
    const plan = planCuts(history, [], {
      ...budget(full),
      calibration: { raw: 100, real: 300 },
    }, 8);
    assertEquals(plan.cuts.map((c) => c.index), [3, 7]);
    assert(!plan.fits);
  });
  await t.step("the cuts are copies: the history given is not changed", () => {
    const cuts = planCuts(history, [], budget(0), 8).cuts;
    const cut = applyCuts(history, cuts);
    assertEquals(history[3].content, big);
    assert(cut[2] === history[2]);
  });
});

Deno.test("fitting the outputs of the last step", async (t) => {
  const huge = lines(400); // 16,000 characters: 5,334 tokens
  const step: Message[] = [system, user("read it"), call("a"), output("a", huge)];
  const base = rawPromptTokens(step.slice(0, 3), []);
  const budget = (free: number): Budget => ({
    window: base + 6 + free + 512,
    reserve: 512,
  });

  await t.step("cut to the longest head that fits, with the advice to read in parts", () => {
    const plan = planUnreadCuts(step, [], budget(1000), 3);
    assert(plan.fits);
    assertEquals(plan.cuts.map((c) => c.index), [3]);
    const content = plan.cuts[0].content;
    assert(content.endsWith(`${READ_IN_PARTS}]`));
    assert(content.startsWith(huge.slice(0, 2000)), "about 2,800 characters kept, not 400");
    assert(plan.tokens <= promptLimit(budget(1000)));
    assert(plan.kept > 2500, `${plan.kept}`);
    assert(
      planUnreadCuts(step, [], budget(1020), 3).kept > plan.kept,
      "the head is the longest that fits",
    );
  });
  await t.step("the largest first: a small output is left whole", () => {
    const small = lines(20);
    const two = [...step.slice(0, 2), call("a"), output("a", huge), output("b", small)];
    const plan = planUnreadCuts(two, [], budget(1000 + textTokens(small) + 6), 3);
    assertEquals(plan.cuts.map((c) => c.index), [3]);
    assert(plan.fits);
  });
  await t.step("it fits: nothing to cut", () => {
    const plan = planUnreadCuts(step, [], budget(6000), 3);
    assertEquals(plan.cuts, []);
    assert(plan.fits);
  });
  await t.step("even the markers do not fit: says so", () => {
    const plan = planUnreadCuts(step, [], budget(5), 3);
    assert(!plan.fits);
  });
  await t.step("the calibration counts", () => {
    const plain = planUnreadCuts(step, [], budget(1000), 3);
    const scaled = planUnreadCuts(
      step,
      [],
      { ...budget(1000), calibration: { raw: 10, real: 11 } },
      3,
    );
    assert(scaled.kept < plain.kept);
    assert(scaled.tokens <= promptLimit(budget(1000)));
  });
});

Deno.test("a summary request", async (t) => {
  const big = lines(60);
  const history: Message[] = [
    system,
    user("first"),
    call("a"),
    output("a", big),
    answer("done"),
    user("second"),
    call("b"),
    output("b", big),
  ];
  const ask = user("Summarise.");
  const limitFor = (messages: Message[]): Budget => ({
    window: rawPromptTokens(messages, []) + 512,
    reserve: 512,
  });

  await t.step("no window: the history and the request", () => {
    assertEquals(summaryRequest(history, "Summarise."), [...history, ask]);
  });
  await t.step("no window after an overflow: every output shortened", () => {
    const request = summaryRequest(history, "Summarise.", undefined, true)!;
    assert(isShortened(request[3].content as string));
    assert(isShortened(request[7].content as string));
  });
  await t.step("outputs are shortened, the oldest first, the unread ones too", () => {
    const oneCut = applyCuts(history, [{ index: 3, content: shortenOutput(big)! }]);
    const request = summaryRequest(history, "Summarise.", limitFor([...oneCut, ask]))!;
    assertEquals(request, [...oneCut, ask]);
    const bothCut = applyCuts(oneCut, [{ index: 7, content: shortenOutput(big)! }]);
    const both = summaryRequest(history, "Summarise.", limitFor([...bothCut, ask]))!;
    assertEquals(both, [...bothCut, ask]);
  });
  await t.step("then the oldest exchanges are left out, a note in the question kept", () => {
    const kept = [system, user(`${LEFT_OUT_NOTE}\n\nsecond`), call("b")];
    const cutB = output("b", shortenOutput(big)!);
    const request = summaryRequest(history, "Summarise.", limitFor([...kept, cutB, ask]))!;
    assertEquals(request, [...kept, cutB, ask]);
  });
  await t.step("a kept start that is not a question gets a note of its own", () => {
    const cutB = output("b", shortenOutput(big)!);
    const expected = [system, user(LEFT_OUT_NOTE), call("b"), cutB, ask];
    const request = summaryRequest(history, "Summarise.", limitFor(expected))!;
    assertEquals(request, expected);
  });
  await t.step("the last output shortened keeps as much as fits, not just its head", () => {
    const huge = lines(400);
    const one = [system, user("read it"), call("a"), output("a", huge)];
    const free = 1000;
    const budget: Budget = {
      window: rawPromptTokens([...one.slice(0, 3), ask], []) + 6 + free + 512,
      reserve: 512,
    };
    const request = summaryRequest(one, "Summarise.", budget)!;
    const kept = request[3].content as string;
    assert(isShortened(kept));
    assert(kept.length > 2500, `${kept.length} characters kept`);
    assert(rawPromptTokens(request, []) <= promptLimit(budget));
  });
  await t.step("nothing fits: undefined", () => {
    assertEquals(summaryRequest(history, "Summarise.", limitFor([system])), undefined);
  });
});

Deno.test("the error of a prompt too big for the window says what to do", () => {
  assertEquals(
    tooBigText(5000, { window: 4096, reserve: 512 }),
    "[error: the system prompt, the tools and this prompt take about 5000 tokens, more than the 3584 the context window of 4096 tokens leaves once 512 are kept for the answer — raise contextSize, declare fewer tools, or shorten the prompt]",
  );
  assertStringIncludes(tooBigText(1, { window: 2, reserve: 1 }), "raise contextSize");
});
