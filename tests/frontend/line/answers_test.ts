import { assertEquals } from "../../helpers/assert.ts";
import {
  ANSWER_PROMPT,
  hintLine,
  lineAsker,
  type LineAskerIO,
  questionLines,
} from "../../../lib/frontend/line/answers.ts";
import { branch, colour, colourDefault, langs, sure } from "../../helpers/questions.ts";

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
