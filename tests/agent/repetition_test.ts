/** A model repeating itself in its answer or thinking (lib/agent/repetition.ts). */

import { CHUNK, repetitionText, RepetitionWatch, TIMES } from "../../lib/agent/repetition.ts";
import { assertEquals } from "../helpers/assert.ts";
import { ANSWERS } from "../fixtures/text_calls/answers.ts";

/** Feeds `text` in pieces of `size`; the repeated chunk, or undefined. */
function watch(text: string, size = 7): string | undefined {
  const w = new RepetitionWatch();
  for (let i = 0; i < text.length; i += size) {
    const r = w.push(text.slice(i, i + size));
    if (r !== undefined) return r;
  }
  return undefined;
}

Deno.test("RepetitionWatch", async (t) => {
  await t.step("a sentence said over and over is a loop, soon", () => {
    const phrase = "I will now check the file again. ";
    const w = new RepetitionWatch();
    let at = -1;
    const text = phrase.repeat(40);
    for (let i = 0; i < text.length; i += 5) {
      if (w.push(text.slice(i, i + 5)) !== undefined) {
        at = i;
        break;
      }
    }
    assertEquals(at > 0 && at < phrase.length * 14, true, `stopped at ${at}`);
  });
  await t.step("a long paragraph said twice, or varied text, is not", () => {
    const para = Array.from({ length: 30 }, (_, i) => `item ${i} `).join("");
    assertEquals(watch(para + para), undefined);
    const prose = Array.from({ length: 200 }, (_, i) => `Line ${i} says ${i * 7}. `).join("");
    assertEquals(watch(prose), undefined);
  });
  await t.step("a chunk repeated but far apart is not", () => {
    const block = "The same fifty characters of text, said once more. ";
    const filler = (i: number) => Array.from({ length: 12 }, (_, j) => `${i}-${j} `).join("");
    const text = Array.from({ length: 15 }, (_, i) => block + filler(i)).join("");
    assertEquals(watch(text), undefined);
  });
  await t.step("repeated lines inside a code block are not", () => {
    const code = "```\n" + "    assert(x == 1)\n".repeat(60) + "```\n";
    assertEquals(watch(code), undefined);
    assertEquals(watch(code, 1), undefined);
  });
  await t.step("after the code block, a loop counts again", () => {
    const code = "```ts\n" + "a();\n".repeat(50) + "```\n";
    const loop = "again and again and again ".repeat(30);
    assertEquals(typeof watch(code + loop), "string");
  });
  await t.step("the chunk is what repeats", () => {
    const r = watch("abc ".repeat(400));
    assertEquals(r?.length, CHUNK);
    assertEquals(r, "abc ".repeat(13).slice(0, CHUNK));
  });
  await t.step("numbers and punctuation repeating are an ordinary answer", () => {
    for (const a of ANSWERS) assertEquals(watch(a.text, 9), undefined, a.name);
    assertEquals(watch(`[${Array(500).fill(0).join(", ")}]`), undefined);
  });
  await t.step("a long sentence, a paragraph, a loop around a code block: loops too", () => {
    const sentence =
      "I am going to open the configuration file and read every line of it carefully. ";
    assertEquals(typeof watch(sentence.repeat(20)), "string");
    const paragraph =
      "Hmm, but the user asked for the list of files. So I should call bash with ls. But wait, " +
      "maybe they want hidden files too. Let me think about it once more before I answer. ";
    assertEquals(typeof watch(paragraph.repeat(20)), "string");
    assertEquals(typeof watch("Run this:\n```bash\nls -la\n```\n".repeat(40)), "string");
  });
  await t.step("a quoted log line, a table row, a list said over and over: ordinary", () => {
    const quote = "The build log shows the same warning for every package:\n\n" +
      "> warning: the option --legacy-peer-deps is deprecated\n".repeat(12);
    assertEquals(watch(quote), undefined);
    const table = "| package | note |\n| --- | --- |\n" +
      "| pkg | deprecated: uses the legacy peer dependency resolver |\n".repeat(12);
    assertEquals(watch(table), undefined);
    assertEquals(watch("- install the same dependency again and again\n".repeat(12)), undefined);
  });
  await t.step("the error names the chunk and where", () => {
    assertEquals(
      repetitionText("ab ab\nab", "thinking"),
      `[error: the model kept repeating itself in its thinking ("ab ab ab" ${TIMES} times over) — generation stopped; rephrase the request, or try another model]`,
    );
  });
});
