/** How typed text answers a question (lib/frontend/terminal/answers.ts), line and window mode alike. */

import type { Question } from "../../../lib/tool.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { type LineAnswer, parseAnswer } from "../../../lib/frontend/terminal/answers.ts";
import { yesNo } from "../../../lib/text.ts";
import { branch, colour, colourDefault, langs, sure } from "../../helpers/questions.ts";

const answer = (value: string): LineAnswer => ({ kind: "answer", value });
const again: LineAnswer = { kind: "again" };

Deno.test("parseAnswer", async (t) => {
  await t.step("choice: a number in range", () => {
    assertEquals(parseAnswer(colour, "2"), answer("Green"));
    assertEquals(parseAnswer(colour, " 3. "), answer("Blue"));
    assertEquals(parseAnswer(colour, "0"), again);
    assertEquals(parseAnswer(colour, "4"), again);
  });

  await t.step("choice: an option's text, ignoring case, in the option's spelling", () => {
    assertEquals(parseAnswer(colour, "blue"), answer("Blue"));
    const years: Question = { question: "Year?", type: "choice", options: ["2023", "2024"] };
    assertEquals(parseAnswer(years, "2024"), answer("2024"));
    assertEquals(parseAnswer(years, "1"), answer("2023"));
  });

  await t.step("choice: the start of exactly one option", () => {
    assertEquals(parseAnswer(colour, "gr"), answer("Green"));
    const py: Question = { question: "Q", type: "choice", options: ["Python", "PyPy", "Go"] };
    assertEquals(parseAnswer(py, "pyt"), answer("Python"));
    assertEquals(parseAnswer(py, "Py"), answer("Py"));
  });

  await t.step("choice: any other text, taken as the answer as typed", () => {
    assertEquals(parseAnswer(colour, " Dark purple "), answer("Dark purple"));
  });

  await t.step("multi: numbers separated by commas, spaces or semicolons, in option order", () => {
    assertEquals(parseAnswer(langs, "1,3"), answer("Go, TypeScript"));
    assertEquals(parseAnswer(langs, "4 2"), answer("Rust, Python"));
    assertEquals(parseAnswer(langs, "3; 1 ,2"), answer("Go, Rust, TypeScript"));
    assertEquals(parseAnswer(langs, "2,2"), answer("Rust"));
    assertEquals(parseAnswer(langs, "1."), answer("Go"));
  });

  await t.step("multi: anything else asks again", () => {
    for (const line of ["5", "0", "1,5", "go", "1-3", "1, rust", ",", ""]) {
      assertEquals(parseAnswer(langs, line), again, line);
    }
  });

  await t.step("confirm: y/yes/o/oui/true/1 and n/no/non/false/0, any case", () => {
    for (const line of ["y", "yes", "o", "oui", "true", "1", "YES", "Oui", " Y "]) {
      assertEquals(parseAnswer(sure, line), answer("yes"), line);
    }
    for (const line of ["n", "no", "non", "false", "0", "NO", "Non"]) {
      assertEquals(parseAnswer(sure, line), answer("no"), line);
    }
    assertEquals(parseAnswer(sure, "maybe"), again);
    assertEquals(yesNo("True"), "yes");
    assertEquals(yesNo("nope"), undefined);
  });

  await t.step("text: the text, trimmed", () => {
    assertEquals(parseAnswer(branch, "  feature/x  "), answer("feature/x"));
    assertEquals(parseAnswer(branch, "/usr/local/bin"), answer("/usr/local/bin"));
  });

  await t.step("an empty line takes the default, else asks again", () => {
    assertEquals(parseAnswer(colourDefault, ""), answer("Green"));
    assertEquals(parseAnswer(colour, "   "), again);
    assertEquals(parseAnswer({ ...sure, default: "no" }, ""), answer("no"));
    assertEquals(parseAnswer(sure, ""), again);
    assertEquals(parseAnswer({ ...branch, default: "main" }, ""), answer("main"));
    assertEquals(parseAnswer(branch, ""), again);
  });

  await t.step("/skip declines; other slash commands go to the front end", () => {
    for (const q of [colour, langs, sure, branch]) {
      assertEquals(parseAnswer(q, "/skip"), { kind: "skip" });
      assertEquals(parseAnswer(q, " /SKIP "), { kind: "skip" });
      assertEquals(parseAnswer(q, "/abort"), { kind: "command", name: "/abort" });
      assertEquals(parseAnswer(q, "/quit"), { kind: "command", name: "/quit" });
      assertEquals(parseAnswer(q, "/exit now"), { kind: "command", name: "/exit" });
    }
  });
});
