/**
 * The stream watch (lib/agent/stream_watch.ts), without a server: deltas and the clock in, what to
 * show or why to stop out.
 */

import { PROGRESS_MS, StreamWatch, type WatchVerdict } from "../../lib/agent/stream_watch.ts";
import { runawayText } from "../../lib/agent/loop_detector.ts";
import { repetitionText } from "../../lib/agent/repetition.ts";
import { watchdogText } from "../../lib/agent/texts.ts";
import type { Delta } from "../../lib/provider/chat.ts";
import { assertEquals } from "../helpers/assert.ts";

const SILENCE = 1000;
const T0 = 50_000;
const tools = [{ name: "read_notes", parameters: { topic: { type: "string" } } }];
const shown = (tools_ = tools) => new StreamWatch({ silence: SILENCE, tools: tools_ }, T0);
const text = (t: string): Delta => ({ type: "text", text: t });
const thought = (t: string): Delta => ({ type: "thought", text: t });
const call = (index: number, args: string): Delta => ({
  type: "toolCall",
  index,
  name: "read_notes",
  arguments: args,
});
/** The event types of a verdict, and its stop's reason. */
const kinds = (v: WatchVerdict) => [v.show.map((e) => e.type), v.stop?.reason];
/** The sentence a stream of `loop` fed in pieces stops with, if it does. */
function feed(w: StreamWatch, loop: string, make: (t: string) => Delta, at = T0): string {
  for (let i = 0; i < loop.length; i += 10) {
    const v = w.push(make(loop.slice(i, i + 10)), at);
    if (v.stop) return v.stop.message;
  }
  return "";
}

Deno.test("the watchdog", async (t) => {
  await t.step("silence until the deadline stops the stream, once", () => {
    const w = shown();
    assertEquals(w.deadline, T0 + SILENCE);
    assertEquals(w.tick(T0 + SILENCE - 1), undefined);
    const stop = { reason: "watchdog", message: watchdogText(SILENCE) };
    assertEquals(w.tick(T0 + SILENCE), stop);
    assertEquals(w.stopped, stop);
    assertEquals(w.tick(T0 + 5 * SILENCE), undefined, "a stop is said once");
  });
  await t.step("every delta feeds it, shown or not (a summary's too)", () => {
    for (const w of [shown(), new StreamWatch({ silence: SILENCE }, T0)]) {
      w.push(text("hi"), T0 + 900);
      assertEquals([w.deadline, w.tick(T0 + SILENCE)], [T0 + 900 + SILENCE, undefined]);
      w.push(call(0, "{"), T0 + 1800);
      assertEquals(w.tick(T0 + 2700), undefined);
      assertEquals(w.tick(T0 + 2800)?.reason, "watchdog");
    }
  });
  await t.step("a wait the server asks for (HTTP 429) is not the model's silence", () => {
    const w = shown();
    w.wait(5000, T0 + 100);
    assertEquals(w.tick(T0 + 5000), undefined);
    assertEquals(w.tick(T0 + 6100)?.reason, "watchdog");
  });
  await t.step("once stopped, deltas show nothing", () => {
    const w = shown();
    w.tick(T0 + SILENCE);
    assertEquals(w.push(text("late"), T0 + SILENCE + 1), { show: [] });
  });
});

Deno.test("what a delta shows", async (t) => {
  await t.step("text is shown; a possible call is held, a progress beat instead", () => {
    const w = shown();
    assertEquals(w.push(text("Let me look.\n"), T0), {
      show: [{ type: "text", text: "Let me look.\n" }],
    });
    assertEquals(kinds(w.push(text("<tool_call>\n"), T0)), [["progress"], undefined]);
    assertEquals(kinds(w.push(text('{"name": '), T0 + PROGRESS_MS - 1)), [[], undefined]);
    assertEquals(kinds(w.push(text('"read_notes"'), T0 + PROGRESS_MS)), [["progress"], undefined]);
  });
  await t.step("thinking is shown", () => {
    assertEquals(shown().push(thought("hmm"), T0), { show: [{ type: "thought", text: "hmm" }] });
  });
  await t.step("a structured call: composing once, then progress beats", () => {
    const w = shown();
    assertEquals(w.push(call(0, "{"), T0), { show: [{ type: "composing", tool: "read_notes" }] });
    assertEquals(kinds(w.push(call(0, '{"to'), T0 + 1)), [["progress"], undefined]);
    assertEquals(kinds(w.push(call(0, '{"top'), T0 + 2)), [[], undefined]);
    assertEquals(kinds(w.push(call(1, "{"), T0 + 3)), [["composing"], undefined]);
  });
  await t.step("a summary's stream shows nothing and stops only for silence", () => {
    const w = new StreamWatch({ silence: SILENCE }, T0);
    assertEquals(w.push(text("notes"), T0), { show: [] });
    assertEquals(w.push(call(0, "la ".repeat(200)), T0), { show: [] });
    assertEquals([w.finish(false), w.abandon()], ["", ""]);
  });
});

Deno.test("why a stream stops", async (t) => {
  await t.step("call arguments repeating a pattern: a runaway", () => {
    const args = '{"topic": "' + "la ".repeat(2100);
    const v = shown().push(call(0, args), T0);
    assertEquals(v.stop, { reason: "runaway", message: runawayText(args) });
  });
  await t.step("a held text-form call repeating itself: a runaway, its text never shown", () => {
    const w = shown();
    const opening = 'I will write it.\n<tool_call>{"name": "read_notes", "arguments": {"topic": "';
    const message = feed(w, opening + "aaaa".repeat(1600), text);
    assertEquals(message.startsWith("[error: the model's tool call ran away"), true, message);
    assertEquals(w.stopped?.reason, "runaway");
    assertEquals(w.abandon(), "");
  });
  await t.step("an answer or thinking said over and over: a repetition", () => {
    const phrase = "I will now check the file again. ";
    const answer = shown();
    const said = feed(answer, phrase.repeat(250), text);
    const unit = "now check the file again. I will ";
    assertEquals(said, repetitionText(unit, "answer"));
    assertEquals(answer.stopped, { reason: "repetition", message: said });
    assertEquals(answer.abandon(), "", "what it held is not shown after a runaway of text");
    const thinking = shown();
    const thought_ = feed(thinking, phrase.repeat(250), thought);
    assertEquals(thinking.stopped, { reason: "repetition", message: thought_ });
    assertEquals(
      thought_.startsWith("[error: the model kept repeating itself in its thinking"),
      true,
    );
  });
});

Deno.test("the held text at the end", async (t) => {
  const whole = '<tool_call>\n{"name": "read_notes", "arguments": {"topic": "x"}}\n</tool_call>';
  await t.step("complete, no structured calls: the text-form call is left out", () => {
    const w = shown();
    w.push(text("Look.\n" + whole), T0);
    assertEquals(w.finish(false), "");
  });
  await t.step("complete with structured calls: the held text is shown as it is", () => {
    const w = shown();
    w.push(text(whole), T0);
    assertEquals(w.finish(true), whole);
  });
  await t.step("abandoned mid-call: the held text is shown", () => {
    const w = shown();
    w.push(text('Let me look.\n<tool_call>\n{"name": "read_no'), T0);
    assertEquals(w.abandon(), '<tool_call>\n{"name": "read_no');
  });
  await t.step(
    "abandoned after a complete call: the call stays hidden, unless one was composed",
    () => {
      const w = shown();
      w.push(text(whole + "\nAnd th"), T0);
      assertEquals(w.abandon(), "And th");
      const composed = shown();
      composed.push(text(whole), T0);
      composed.push(call(0, "{"), T0);
      assertEquals(composed.abandon(), whole);
    },
  );
});
