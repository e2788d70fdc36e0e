/** A `<think>` block at the start of the content split out as thinking (lib/provider/think_split.ts). */

import { ThinkSplit } from "../../lib/provider/think_split.ts";
import { assertEquals } from "../helpers/assert.ts";

/** The thinking and the text of `pieces` streamed one after another. */
function split(pieces: string[]): { thought: string; text: string } {
  const s = new ThinkSplit();
  const out = { thought: "", text: "" };
  for (const p of [...pieces.flatMap((x) => s.push(x)), ...s.finish()]) {
    if (p.type === "thought") out.thought += p.text;
    else out.text += p.text;
  }
  return out;
}

Deno.test("ThinkSplit", async (t) => {
  const rows: [string, string[], { thought: string; text: string }][] = [
    ["whole", ["<think>\nplan\n</think>\n\nanswer"], { thought: "plan", text: "answer" }],
    ["tags cut anywhere", ["<th", "ink>pl", "an</th", "ink>ans", "wer"], {
      thought: "plan",
      text: "answer",
    }],
    ["no block: all text", ["hello <think>x</think>"], {
      thought: "",
      text: "hello <think>x</think>",
    }],
    ["white space first", ["  \n", "<think>a</think>b"], { thought: "a", text: "b" }],
    ["never closed: all thinking", ["<think>still thinking"], {
      thought: "still thinking",
      text: "",
    }],
    ["a text that starts like the tag", ["<thi", "s is html"], {
      thought: "",
      text: "<this is html",
    }],
  ];
  for (const [name, pieces, want] of rows) {
    await t.step(name, () => assertEquals(split(pieces), want));
  }
});
