import { assertEquals } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { toolSchema } from "../../lib/agent/schema.ts";
import type { AskOutcome, AskUser, Question, ToolResult } from "../../lib/tool.ts";
import {
  ASK_USER_DESCRIPTION,
  ASK_USER_SCHEMA,
  askUser,
  CANCELLED_TEXT,
  cleanQuestions,
  DECLINED_TEXT,
  NO_QUESTION_TEXT,
  NOBODY_TEXT,
  QUESTIONS_DESCRIPTION,
  questionType,
  rawQuestions,
} from "../../tools/ask_user.ts";
import { BUILTIN_TOOLS, declaredTools } from "../../tools/mod.ts";

/** A scripted ctx.ask: records the questions it was given and returns `outcome`. */
function scriptedAsk(outcome: AskOutcome): AskUser & { asked: Question[][] } {
  const asked: Question[][] = [];
  const ask = (questions: Question[]) => {
    asked.push(questions);
    return Promise.resolve(outcome);
  };
  return Object.assign(ask, { asked });
}

/** Parses `args` as the core does, then runs ask_user with `ask` (none: nobody can be asked). */
async function call(args: Record<string, unknown>, ask?: AskUser): Promise<ToolResult> {
  const parsed = askUser.parse!(args);
  if (!parsed.ok) throw new Error(`parse refused: ${parsed.faults}`);
  return await askUser.run(parsed.input, { ...fakeContext(), ask });
}

/** The questions ask_user hands to ctx.ask for `args`. */
async function cleaned(args: Record<string, unknown>): Promise<Question[]> {
  const ask = scriptedAsk({ kind: "declined" });
  const result = await call(args, ask);
  assertEquals(ask.asked.length, 1, result.output);
  return ask.asked[0];
}

/** The output of a call refused before asking; asserts nothing was asked and it failed. */
async function refused(args: Record<string, unknown>): Promise<string> {
  const ask = scriptedAsk({ kind: "declined" });
  const result = await call(args, ask);
  assertEquals(ask.asked, []);
  assertEquals(result.failed, true);
  return result.output;
}

const q = (question: string, type: string, options?: unknown[], def?: unknown) => ({
  question,
  type,
  ...(options ? { options } : {}),
  ...(def !== undefined ? { default: def } : {}),
});

Deno.test("ask_user", async (t) => {
  await t.step("declared unless askUserTool: false, never beside a structuredOutput", () => {
    assertEquals(askUser.declared(defaultConfig()), true);
    assertEquals(askUser.declared({ ...defaultConfig(), askUserTool: false }), false);
    assertEquals(
      askUser.declared({ ...defaultConfig(), structuredOutput: { type: "object" } }),
      false,
    );
    assertEquals(BUILTIN_TOOLS.includes(askUser), true);
    assertEquals(declaredTools(defaultConfig()).includes(askUser), true);
  });

  await t.step("display: ❓, kind other, not gated by yolo, summary N question(s)", () => {
    assertEquals([askUser.name, askUser.emoji, askUser.kind, askUser.asks], [
      "ask_user",
      "❓",
      "other",
      false,
    ]);
    assertEquals(askUser.summary({ questions: [{}] }), "1 question(s)");
    assertEquals(askUser.summary({ questions: [{}, {}, {}] }), "3 question(s)");
  });

  await t.step("schema: the question's fields in words, no properties in the items", () => {
    assertEquals(
      QUESTIONS_DESCRIPTION,
      "1 to 4 objects, each with: question; type (choice, multi, text or confirm); " +
        "options (for choice and multi); default.",
    );
    assertEquals(
      ASK_USER_DESCRIPTION,
      "Ask the user 1 to 4 questions and wait for the answers. " +
        "Use it only when you cannot go on without them.",
    );
    const declared = toolSchema(askUser).function;
    assertEquals(declared.description, ASK_USER_DESCRIPTION);
    assertEquals(declared.name, "ask_user");
    assertEquals(declared.parameters, ASK_USER_SCHEMA);
    assertEquals(ASK_USER_SCHEMA, {
      type: "object",
      properties: {
        questions: { type: "array", description: QUESTIONS_DESCRIPTION, items: { type: "object" } },
      },
      required: ["questions"],
    });
  });

  await t.step("input: the list, one question at the top level, or the list as JSON", async () => {
    const one = { question: "Which?", type: "choice", options: ["a", "b"], default: undefined };
    const expected: Question[] = [{ question: "Which?", type: "choice", options: ["a", "b"] }];
    assertEquals(await cleaned({ questions: [q("Which?", "choice", ["a", "b"])] }), expected);
    assertEquals(
      await cleaned({ question: "Which?", type: "choice", options: ["a", "b"] }),
      expected,
    );
    assertEquals(await cleaned({ questions: JSON.stringify([one]) }), expected);
    assertEquals(await cleaned({ questions: JSON.stringify(one) }), expected);
    assertEquals(await cleaned({ questions: one }), expected);
    assertEquals(askUser.parse!({ question: "x?" }), {
      ok: true,
      input: { questions: [{ question: "x?" }] },
    });
  });

  await t.step("input: a question sent as a bare string is a text question", async () => {
    assertEquals(await cleaned({ questions: ["Your name?"] }), [
      { question: "Your name?", type: "text", options: [] },
    ]);
    assertEquals(await cleaned({ questions: "Your name?" }), [
      { question: "Your name?", type: "text", options: [] },
    ]);
  });

  await t.step("type: choice when options are given, text otherwise", async () => {
    assertEquals(await cleaned({ questions: [{ question: "Q", options: ["a", "b"] }] }), [
      { question: "Q", type: "choice", options: ["a", "b"] },
    ]);
    assertEquals(await cleaned({ questions: [{ question: "Q" }] }), [
      { question: "Q", type: "text", options: [] },
    ]);
    assertEquals(await cleaned({ questions: [{ question: "Q", type: "", options: [] }] }), [
      { question: "Q", type: "text", options: [] },
    ]);
  });

  await t.step("type: every synonym, any case", () => {
    const synonyms: Record<string, Question["type"]> = {
      choice: "choice",
      single: "choice",
      select: "choice",
      radio: "choice",
      enum: "choice",
      one: "choice",
      multi: "multi",
      multiple: "multi",
      multiselect: "multi",
      checkbox: "multi",
      checkboxes: "multi",
      many: "multi",
      text: "text",
      input: "text",
      string: "text",
      free: "text",
      freetext: "text",
      confirm: "confirm",
      yesno: "confirm",
      yes_no: "confirm",
      boolean: "confirm",
      bool: "confirm",
      confirmation: "confirm",
    };
    for (const [name, type] of Object.entries(synonyms)) {
      assertEquals(questionType(name), type, name);
      assertEquals(questionType(name.toUpperCase()), type, name.toUpperCase());
    }
    assertEquals(questionType("Yes-No"), "confirm");
    assertEquals(questionType("multi select"), "multi");
    assertEquals(questionType("free_text"), "text");
    assertEquals(questionType("dropdown"), undefined);
    assertEquals(questionType("toString"), undefined);
  });

  await t.step("type: a synonym is cleaned to its type", async () => {
    assertEquals(await cleaned({ questions: [q("Q", "CheckBoxes", ["a", "b"])] }), [
      { question: "Q", type: "multi", options: ["a", "b"] },
    ]);
    assertEquals(await cleaned({ questions: [q("Q", "yes_no")] }), [
      { question: "Q", type: "confirm", options: [] },
    ]);
  });

  await t.step("options: trimmed, empty ones and duplicates ignoring case dropped", async () => {
    assertEquals(
      await cleaned({ questions: [q("Q", "choice", [" Red ", "", "  ", "red", "Blue", "BLUE"])] }),
      [{ question: "Q", type: "choice", options: ["Red", "Blue"] }],
    );
    assertEquals(await cleaned({ questions: [q("Q", "multi", [1, 2, true])] }), [
      { question: "Q", type: "multi", options: ["1", "2", "true"] },
    ]);
    assertEquals(await cleaned({ questions: [q("Q", "choice", '["a","b"]' as never)] }), [
      { question: "Q", type: "choice", options: ["a", "b"] },
    ]);
    assertEquals(await cleaned({ questions: [{ question: "Q", choices: ["a", "b"] }] }), [
      { question: "Q", type: "choice", options: ["a", "b"] },
    ]);
  });

  await t.step("options: ignored for text and confirm", async () => {
    assertEquals(await cleaned({ questions: [q("Q", "text", ["a", "b"])] }), [
      { question: "Q", type: "text", options: [] },
    ]);
    assertEquals(await cleaned({ questions: [q("Q", "confirm", ["a", "b"])] }), [
      { question: "Q", type: "confirm", options: [] },
    ]);
  });

  await t.step("default (choice): one of the options, in the option's spelling", async () => {
    assertEquals(await cleaned({ questions: [q("Q", "choice", ["Red", "Blue"], "blue")] }), [
      { question: "Q", type: "choice", options: ["Red", "Blue"], default: "Blue" },
    ]);
    assertEquals(await cleaned({ questions: [q("Q", "choice", ["Red", "Blue"], "Green")] }), [
      { question: "Q", type: "choice", options: ["Red", "Blue"] },
    ]);
  });

  await t.step("default (confirm): a yes or a no in English or French, as yes/no", async () => {
    for (const word of ["yes", "Y", "oui", "O", "true", "1", true, 1]) {
      assertEquals(await cleaned({ questions: [q("Q", "confirm", undefined, word)] }), [
        { question: "Q", type: "confirm", options: [], default: "yes" },
      ], String(word));
    }
    for (const word of ["no", "N", "NON", "n", "false", "0", false, 0]) {
      assertEquals(await cleaned({ questions: [q("Q", "confirm", undefined, word)] }), [
        { question: "Q", type: "confirm", options: [], default: "no" },
      ], String(word));
    }
    assertEquals(await cleaned({ questions: [q("Q", "confirm", undefined, "maybe")] }), [
      { question: "Q", type: "confirm", options: [] },
    ]);
  });

  await t.step("default (text): any text; (multi): none", async () => {
    assertEquals(await cleaned({ questions: [q("Q", "text", undefined, " main ")] }), [
      { question: "Q", type: "text", options: [], default: "main" },
    ]);
    assertEquals(await cleaned({ questions: [q("Q", "text", undefined, "")] }), [
      { question: "Q", type: "text", options: [] },
    ]);
    assertEquals(await cleaned({ questions: [q("Q", "multi", ["a", "b"], "a")] }), [
      { question: "Q", type: "multi", options: ["a", "b"] },
    ]);
  });

  await t.step("the question is trimmed; 1 to 4 questions asked together", async () => {
    const four = [q(" A? ", "text"), q("B?", "text"), q("C?", "text"), q("D?", "text")];
    const asked = await cleaned({ questions: four });
    assertEquals(asked.map((x) => x.question), ["A?", "B?", "C?", "D?"]);
  });

  await t.step("error: no question", async () => {
    assertEquals(
      NO_QUESTION_TEXT,
      "[ask_user: no question — send questions: [{question, type, options}]]",
    );
    assertEquals(await refused({}), NO_QUESTION_TEXT);
    assertEquals(await refused({ questions: [] }), NO_QUESTION_TEXT);
    assertEquals(await refused({ questions: "[]" }), NO_QUESTION_TEXT);
    assertEquals(await refused({ questions: null }), NO_QUESTION_TEXT);
  });

  await t.step("error: more than 4 questions", async () => {
    const five = Array.from({ length: 5 }, (_, i) => q(`Q${i}`, "text"));
    assertEquals(
      await refused({ questions: five }),
      "[ask_user: 5 questions — ask at most 4 at a time]",
    );
  });

  await t.step("error: a question without text", async () => {
    assertEquals(
      await refused({ questions: [q("A?", "text"), { type: "text" }] }),
      "[ask_user: question 2 has no text]",
    );
    assertEquals(
      await refused({ questions: [q("  ", "text")] }),
      "[ask_user: question 1 has no text]",
    );
    assertEquals(await refused({ questions: [42] }), "[ask_user: question 1 has no text]");
  });

  await t.step("error: a choice or multi question with fewer than two options", async () => {
    assertEquals(
      await refused({ questions: [q("Q", "choice", ["only"])] }),
      "[ask_user: question 1 is a choice question — give it at least two options]",
    );
    assertEquals(
      await refused({ questions: [q("A?", "text"), q("Q", "multi", ["a", "A", " "])] }),
      "[ask_user: question 2 is a multi question — give it at least two options]",
    );
    assertEquals(
      await refused({ questions: [q("Q", "select")] }),
      "[ask_user: question 1 is a choice question — give it at least two options]",
    );
  });

  await t.step("error: an unknown type", async () => {
    assertEquals(
      await refused({ questions: [q("Q", "dropdown", ["a", "b"])] }),
      '[ask_user: question 1 has type "dropdown" — use choice, multi, text or confirm]',
    );
  });

  await t.step("the first fault is reported", () => {
    assertEquals(cleanQuestions([{ type: "x" }, { question: "Q", type: "y" }]), {
      ok: false,
      error: "[ask_user: question 1 has no text]",
    });
  });

  await t.step("result: answered, one line per question, options joined by , ", async () => {
    const ask = scriptedAsk({ kind: "answered", answers: ["Blue", "a, c", "yes", "main"] });
    const result = await call({
      questions: [
        q("Colour?", "choice", ["Red", "Blue"]),
        q("Which ones?", "multi", ["a", "b", "c"]),
        q("Sure?", "confirm"),
        q("Branch?", "text"),
      ],
    }, ask);
    assertEquals(result, {
      output: "The user answered:\n- Colour? → Blue\n- Which ones? → a, c\n- Sure? → yes\n" +
        "- Branch? → main",
    });
  });

  await t.step("result: declined, failed", async () => {
    assertEquals(
      DECLINED_TEXT,
      "[the user declined to answer: do not ask the same thing again; go on without it or stop]",
    );
    assertEquals(await call({ question: "Q?" }, scriptedAsk({ kind: "declined" })), {
      output: DECLINED_TEXT,
      failed: true,
    });
  });

  await t.step("result: cancelled, failed", async () => {
    assertEquals(CANCELLED_TEXT, "[the question was cancelled before the user answered]");
    assertEquals(await call({ question: "Q?" }, scriptedAsk({ kind: "cancelled" })), {
      output: CANCELLED_TEXT,
      failed: true,
    });
  });

  await t.step("result: nobody to ask, failed; also when ctx.ask is absent", async () => {
    assertEquals(
      NOBODY_TEXT,
      "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]",
    );
    assertEquals(await call({ question: "Q?" }, scriptedAsk({ kind: "nobody" })), {
      output: NOBODY_TEXT,
      failed: true,
    });
    assertEquals(await call({ question: "Q?" }), { output: NOBODY_TEXT, failed: true });
  });

  await t.step("the turn's signal reaches ctx.ask; an aborted turn asks nothing", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const ask: AskUser = (_questions, signal) => {
      seen = signal;
      return Promise.resolve({ kind: "answered", answers: ["x"] });
    };
    const ctx = { ...fakeContext({ signal: controller.signal }), ask };
    await askUser.run({ questions: [{ question: "Q?" }] }, ctx);
    assertEquals(seen, controller.signal);
    controller.abort();
    const scripted = scriptedAsk({ kind: "answered", answers: ["x"] });
    const result = await askUser.run({ questions: [{ question: "Q?" }] }, {
      ...fakeContext({ signal: controller.signal }),
      ask: scripted,
    });
    assertEquals(result, { output: CANCELLED_TEXT, failed: true });
    assertEquals(scripted.asked, []);
  });
});

Deno.test("ask_user: field names in another case are the same fields", () => {
  assertEquals(
    cleanQuestions(
      rawQuestions({ Questions: [{ Question: "Name?", Type: "text", Default: "Ann" }] }),
    ),
    { ok: true, questions: [{ question: "Name?", type: "text", options: [], default: "Ann" }] },
  );
  assertEquals(
    cleanQuestions(rawQuestions({ Question: "Colour?", Options: ["red", "blue"] })),
    { ok: true, questions: [{ question: "Colour?", type: "choice", options: ["red", "blue"] }] },
  );
});
