/** A model repeating itself in its answer or thinking (lib/agent/repetition.ts). */

import {
  PERIOD,
  repetitionText,
  RepetitionWatch,
  SUSTAINED,
  timesOver,
} from "../../lib/agent/repetition.ts";
import { assertEquals } from "../helpers/assert.ts";
import { ANSWERS } from "../fixtures/text_calls/answers.ts";

/** Feeds `text` in pieces of `size`; the repeated unit and where it was seen, or undefined. */
function watch(text: string, size = 7): { unit: string; at: number } | undefined {
  const w = new RepetitionWatch();
  for (let i = 0; i < text.length; i += size) {
    const unit = w.push(text.slice(i, i + size));
    if (unit !== undefined) return { unit, at: i + size };
  }
  return undefined;
}

/**
 * Legitimate repetitive content, a few KiB at most: each passes (several were stopped by the
 * earlier rule: ten comings of a 50-character chunk, about 500 characters).
 */
const ORDINARY: [string, string][] = [
  ["a JSON array of 151 zeros", `[${Array(151).fill(0).join(", ")}]`],
  ["a 300-character = rule", `Results\n${"=".repeat(300)}\n`],
  [
    "12 identical table rows",
    "| a | b |\n|---|---|\n" + "| same row of the table here | ok |\n".repeat(12),
  ],
  ["a base64 run", `The key is ${"QUJD".repeat(900)}.`],
  ["thinking that repeats a phrase", "Let me check the file again. ".repeat(60)],
  ["repeated lines inside a code block", "```\n" + "    assert(x == 1)\n".repeat(60) + "```\n"],
  [
    "a quoted log line 12 times",
    "> warning: the option --legacy-peer-deps is deprecated\n".repeat(12),
  ],
  ["a list said over and over", "- install the same dependency again and again\n".repeat(12)],
  [
    "a long paragraph said twice",
    Array.from({ length: 30 }, (_, i) => `item ${i} `).join("").repeat(2),
  ],
  ["varied prose", Array.from({ length: 400 }, (_, i) => `Line ${i} says ${i * 7}. `).join("")],
  ["an array of 500 zeros", `[${Array(500).fill(0).join(", ")}]`],
  ["a = rule of 10 KiB (no words)", "=".repeat(10_240)],
];

/** Real runaways: stopped within 8 KiB of repetition. */
const RUNAWAYS: [string, string][] = [
  ["a sentence", "I will now check the file again. "],
  [
    "a long sentence",
    "I am going to open the configuration file and read every line of it carefully. ",
  ],
  [
    "a paragraph",
    "Hmm, but the user asked for the list of files. So I should call bash with ls. But wait, " +
    "maybe they want hidden files too. Let me think about it once more before I answer. ",
  ],
  ["a loop around a code block", "Run this:\n```bash\nls -la\n```\n"],
  ["a base64 run without end", "QUJD"],
  ["a table row", "| same row of the table here | ok |\n"],
];

Deno.test("RepetitionWatch", async (t) => {
  for (const [name, text] of ORDINARY) {
    await t.step(`ordinary: ${name}`, () => assertEquals(watch(text), undefined));
  }
  for (const a of ANSWERS) {
    await t.step(`ordinary: the answer ${a.name}`, () => assertEquals(watch(a.text, 9), undefined));
  }
  for (const [name, unit] of RUNAWAYS) {
    await t.step(`a runaway: ${name}, stopped within 8 KiB`, () => {
      const found = watch(unit.repeat(Math.ceil(20_000 / unit.length)), 5);
      assertEquals(found !== undefined && found.at <= 8 * 1024 + unit.length, true, `${found?.at}`);
      assertEquals(found!.unit.length, unit.length);
      assertEquals((found!.unit + found!.unit).includes(unit), true);
    });
  }
  await t.step("a unit longer than PERIOD is not one", () => {
    const unit = Array.from({ length: 40 }, (_, i) => `w${i} `).join("").padEnd(PERIOD + 20, ".");
    assertEquals(watch(unit.repeat(40)), undefined);
  });
  await t.step("after ordinary repetition, a loop still counts", () => {
    const found = watch("=".repeat(300) + "\n" + "again and again and again ".repeat(400));
    assertEquals(found?.unit.length, "again and again and again ".length);
  });
  await t.step("the error names the unit, how many times, and where", () => {
    assertEquals(
      repetitionText("ab ab\nab", "thinking"),
      `[error: the model kept repeating itself in its thinking ("ab ab ab" ${
        timesOver("ab ab\nab")
      } times over) — generation stopped; rephrase the request, or try another model]`,
    );
    assertEquals(timesOver("abcd"), Math.floor((SUSTAINED + 4) / 4));
  });
});
