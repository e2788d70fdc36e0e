/** The stream filter of text-form calls (TextCallFilter): what shows, what is held, runaways. */

import { TextCallFilter } from "../../../lib/agent/text_calls/filter.ts";
import { type TextCallOptions, textToolCalls } from "../../../lib/agent/text_calls/mod.ts";
import { BUILTIN_TOOLS } from "../../../tools/mod.ts";
import { ANSWERS, FILES, MATRIX, ZEROS } from "../../fixtures/text_calls/answers.ts";
import { CALLS } from "../../fixtures/text_calls/calls.ts";
import { assertEquals } from "../../helpers/assert.ts";

const TOOLS = BUILTIN_TOOLS;

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

  await t.step(
    "the other dialects: a token is held wherever it stands, a word only where it may",
    () => {
      const f = new TextCallFilter(TOOLS);
      assertEquals(f.push("Listing.<|python"), "Listing.");
      assertEquals(f.push('_tag|>{"name": "bash", "parameters": {"command": "ls"}}'), "");
      assertEquals(f.finish(), "");
      const g = new TextCallFilter(TOOLS);
      assertEquals(g.push("Done.\nAction:"), "Done.\n");
      assertEquals(g.push(" n"), "Action: n");
      assertEquals(g.push("one needed."), "one needed.");
      const h = new TextCallFilter(TOOLS);
      assertEquals(h.push("see `x` t"), "see `x` t");
      assertEquals(h.push("o=functions.bash"), "o=functions.bash");
    },
  );

  await t.step("a message opening with a Python call of a declared tool is held", () => {
    const f = new TextCallFilter(TOOLS);
    assertEquals(f.push("[1"), "[1");
    assertEquals(f.push("] Smith (2020)."), "] Smith (2020).");
    const g = new TextCallFilter(TOOLS);
    assertEquals(g.push("[bash"), "");
    assertEquals(g.push('(command="ls")]'), "");
    assertEquals(g.finish(), "");
    const h = new TextCallFilter(TOOLS);
    assertEquals(h.push("bash is"), "bash is");
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
    for (let i = 0; i < 3200; i++) f.push("ab");
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
    for (let i = 0; i < 1600; i++) bare.push("yes ");
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
      for (let i = 0; i < 2800 && f.heldRunaway() === undefined; i++) f.push("0, ");
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
