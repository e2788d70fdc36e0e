import { assertEquals } from "../../helpers/assert.ts";
import {
  ANSWER_PROMPT,
  hintLine,
  type LineAnswer,
  lineAsker,
  type LineAskerIO,
  parseAnswer,
  questionLines,
} from "../../../lib/frontend/line/answers.ts";
import { yesNo } from "../../../lib/text.ts";
import type { Question } from "../../../lib/tool.ts";

const colour: Question = { question: "Colour?", type: "choice", options: ["Red", "Green", "Blue"] };
const colourDefault: Question = { ...colour, default: "Green" };
const langs: Question = {
  question: "Languages?",
  type: "multi",
  options: ["Go", "Rust", "TypeScript", "Python"],
};
const sure: Question = { question: "Sure?", type: "confirm", options: [] };
const branch: Question = { question: "Branch?", type: "text", options: [] };

const answer = (value: string): LineAnswer => ({ kind: "answer", value });
const again: LineAnswer = { kind: "again" };

/** A scripted terminal: lines to read (null = end of input), everything written and prompted. */
function terminal(lines: (string | null)[], command?: LineAskerIO["command"]) {
  const out: string[] = [];
  const io: LineAskerIO = {
    readLine(prompt) {
      out.push(prompt);
      return Promise.resolve(lines.length ? lines.shift()! : null);
    },
    write(text) {
      out.push(text);
    },
    command,
  };
  return { io, out };
}

const signal = () => new AbortController().signal;

Deno.test("line answers", async (t) => {
  await t.step("lines: ❓ <question>, numbered options, (default) after the default, hint", () => {
    assertEquals(questionLines(colourDefault, 0, 1), [
      "❓ Colour?",
      "  1. Red",
      "  2. Green (default)",
      "  3. Blue",
      "  (a number or the option's text; empty for the default)",
    ]);
    assertEquals(ANSWER_PROMPT, "  ? ");
  });

  await t.step("lines: no (i/N), whatever the question's place", () => {
    assertEquals(questionLines(sure, 1, 3), ["❓ Sure?", "  (y or n)"]);
  });

  await t.step("hints, per type, with and without a default", () => {
    assertEquals(hintLine(colour), "  (a number or the option's text)");
    assertEquals(
      hintLine(colourDefault),
      "  (a number or the option's text; empty for the default)",
    );
    assertEquals(hintLine(langs), "  (numbers separated by commas or spaces, e.g. 1,3)");
    assertEquals(hintLine(sure), "  (y or n)");
    assertEquals(hintLine({ ...sure, default: "no" }), "  (y or n; empty for no)");
    assertEquals(hintLine(branch), "  (your answer)");
    assertEquals(hintLine({ ...branch, default: "main" }), '  (your answer; empty for "main")');
    assertEquals(questionLines(langs), [
      "❓ Languages?",
      "  1. Go",
      "  2. Rust",
      "  3. TypeScript",
      "  4. Python",
      "  (numbers separated by commas or spaces, e.g. 1,3)",
    ]);
  });

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

  await t.step("asker: each question in turn, then the answers", async () => {
    const { io, out } = terminal(["2", "1 3", "o", "main"]);
    const outcome = await lineAsker(io)([colour, langs, sure, branch], signal());
    assertEquals(outcome, {
      kind: "answered",
      answers: ["Green", "Go, TypeScript", "yes", "main"],
    });
    assertEquals(out, [
      "❓ Colour?\n  1. Red\n  2. Green\n  3. Blue\n  (a number or the option's text)\n",
      "  ? ",
      "❓ Languages?\n  1. Go\n  2. Rust\n  3. TypeScript\n  4. Python\n" +
      "  (numbers separated by commas or spaces, e.g. 1,3)\n",
      "  ? ",
      "❓ Sure?\n  (y or n)\n",
      "  ? ",
      "❓ Branch?\n  (your answer)\n",
      "  ? ",
    ]);
  });

  await t.step("asker: a line that does not answer prints the hint again", async () => {
    const { io, out } = terminal(["", "maybe", "n"]);
    assertEquals(await lineAsker(io)([sure], signal()), { kind: "answered", answers: ["no"] });
    assertEquals(out, [
      "❓ Sure?\n  (y or n)\n",
      "  ? ",
      "  (y or n)\n",
      "  ? ",
      "  (y or n)\n",
      "  ? ",
    ]);
  });

  await t.step("asker: /skip declines the whole set", async () => {
    const { io } = terminal(["1", "/skip", "y"]);
    assertEquals(await lineAsker(io)([colour, sure, branch], signal()), { kind: "declined" });
  });

  await t.step("asker: the end of the input cancels", async () => {
    const { io } = terminal(["1", null]);
    assertEquals(await lineAsker(io)([colour, sure], signal()), { kind: "cancelled" });
  });

  await t.step("asker: a slash command cancels, unless the front end says again", async () => {
    const seen: string[] = [];
    const cancelling = terminal(["/abort"], (name, line) => {
      seen.push(`${name}|${line}`);
      return "cancel";
    });
    assertEquals(await lineAsker(cancelling.io)([sure], signal()), { kind: "cancelled" });
    assertEquals(seen, ["/abort|/abort"]);
    const bare = terminal(["/quit", "y"]);
    assertEquals(await lineAsker(bare.io)([sure], signal()), { kind: "cancelled" });
    const helping = terminal(["/help", "y"], () => Promise.resolve("again"));
    assertEquals(await lineAsker(helping.io)([sure], signal()), {
      kind: "answered",
      answers: ["yes"],
    });
    assertEquals(helping.out, ["❓ Sure?\n  (y or n)\n", "  ? ", "  (y or n)\n", "  ? "]);
  });

  await t.step("asker: a stopped turn cancels, even while a line is awaited", async () => {
    const controller = new AbortController();
    const io: LineAskerIO = {
      readLine: () => {
        setTimeout(() => controller.abort(), 1);
        return new Promise(() => {});
      },
      write: () => {},
    };
    assertEquals(await lineAsker(io)([sure], controller.signal), { kind: "cancelled" });
    const { io: never } = terminal(["y"]);
    assertEquals(await lineAsker(never)([sure], AbortSignal.abort()), { kind: "cancelled" });
  });
});
