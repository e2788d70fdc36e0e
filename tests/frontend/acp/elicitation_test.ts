/** ask_user in the editor: forms, permission dialogs, and who can be asked. */

import {
  dialogAnswer,
  dialogOptions,
  dialogsCanAsk,
  editorAsk,
  type EditorAsker,
  formAnswers,
  formOutcome,
  questionsForm,
} from "../../../lib/frontend/acp/elicitation.ts";
import type { Question } from "../../../lib/tool.ts";
import { assertEquals } from "../../helpers/assert.ts";

const choice: Question = { question: "Branch?", type: "choice", options: ["main", "dev"] };
const confirm: Question = { question: "Sure?", type: "confirm", options: [], default: "yes" };
const multi: Question = { question: "Checks?", type: "multi", options: ["a", "b"] };
const text: Question = { question: "Name?", type: "text", options: [], default: "Ann" };

/** An editor that records what it is asked and answers from the queues. */
function peer(
  forms: boolean,
  answers: { elicit?: unknown[]; permission?: unknown[] } = {},
): EditorAsker & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    sessionId: "s",
    toolCallId: () => "call_0",
    forms,
    elicit: (params) => {
      asked.push(params);
      // deno-lint-ignore no-explicit-any
      return Promise.resolve(answers.elicit!.shift() as any);
    },
    requestPermission: (params) => {
      asked.push(params);
      // deno-lint-ignore no-explicit-any
      return Promise.resolve(answers.permission!.shift() as any);
    },
    onError: () => {},
  };
}

Deno.test("questionsForm", async (t) => {
  await t.step("one required field per question, typed by the question's type", () => {
    assertEquals(questionsForm([choice, confirm, multi, text]), {
      type: "object",
      properties: {
        q1: { type: "string", title: "Branch?", enum: ["main", "dev"] },
        q2: { type: "boolean", title: "Sure?", default: true },
        q3: {
          type: "array",
          title: "Checks?",
          items: { type: "string", enum: ["a", "b"] },
          minItems: 1,
        },
        q4: { type: "string", title: "Name?", default: "Ann" },
      },
      required: ["q1", "q2", "q3", "q4"],
    });
  });
});

Deno.test("formAnswers", async (t) => {
  await t.step("booleans as yes/no, several options joined, an option matched without case", () => {
    assertEquals(
      formAnswers([choice, confirm, multi, text], {
        q1: "DEV",
        q2: false,
        q3: ["a", "b"],
        q4: "Bo",
      }),
      ["dev", "no", "a, b", "Bo"],
    );
  });
  await t.step("a missing value takes the default (no for a confirm without one)", () => {
    assertEquals(
      formAnswers([text, { ...confirm, default: undefined }, confirm], {}),
      ["Ann", "no", "yes"],
    );
  });
});

Deno.test("formOutcome", async (t) => {
  await t.step("accept, decline, cancel", () => {
    assertEquals(formOutcome([choice], { action: "accept", content: { q1: "main" } }), {
      kind: "answered",
      answers: ["main"],
    });
    assertEquals(formOutcome([choice], { action: "decline" }), { kind: "declined" });
    assertEquals(formOutcome([choice], { action: "cancel" }), { kind: "cancelled" });
  });
});

Deno.test("dialogs", async (t) => {
  await t.step("only choice and confirm questions can be asked with dialogs", () => {
    assertEquals(dialogsCanAsk([choice, confirm]), true);
    assertEquals(dialogsCanAsk([choice, multi]), false);
    assertEquals(dialogsCanAsk([text]), false);
  });
  await t.step("the options, then Decline; Yes and No for a confirm", () => {
    assertEquals(dialogOptions(choice).map((o) => [o.optionId, o.name, o.kind]), [
      ["option_1", "main", "allow_once"],
      ["option_2", "dev", "allow_once"],
      ["decline", "Decline", "reject_once"],
    ]);
    assertEquals(dialogOptions(confirm).map((o) => o.name), ["Yes", "No", "Decline"]);
  });
  await t.step("a button's answer; Decline or an unknown id is none", () => {
    assertEquals(dialogAnswer(choice, "option_2"), "dev");
    assertEquals(dialogAnswer(confirm, "no"), "no");
    assertEquals(dialogAnswer(choice, "decline"), undefined);
    assertEquals(dialogAnswer(choice, "option_9"), undefined);
  });
});

Deno.test("editorAsk", async (t) => {
  const never = new AbortController().signal;
  await t.step("with forms: one request for all the questions", async () => {
    const p = peer(true, { elicit: [{ action: "accept", content: { q1: "dev", q2: true } }] });
    assertEquals(await editorAsk(p)([choice, confirm], never), {
      kind: "answered",
      answers: ["dev", "yes"],
    });
    assertEquals(p.asked.length, 1);
  });
  await t.step("without forms: one dialog per question", async () => {
    const p = peer(false, {
      permission: [
        { outcome: { outcome: "selected", optionId: "option_1" } },
        { outcome: { outcome: "selected", optionId: "yes" } },
      ],
    });
    assertEquals(await editorAsk(p)([choice, confirm], never), {
      kind: "answered",
      answers: ["main", "yes"],
    });
    assertEquals(p.asked.length, 2);
  });
  await t.step("Decline stops at once; a cancelled dialog is a cancelled question", async () => {
    const declined = peer(false, {
      permission: [{ outcome: { outcome: "selected", optionId: "decline" } }],
    });
    assertEquals(await editorAsk(declined)([choice, confirm], never), { kind: "declined" });
    assertEquals(declined.asked.length, 1);
    const cancelled = peer(false, { permission: [{ outcome: { outcome: "cancelled" } }] });
    assertEquals(await editorAsk(cancelled)([choice], never), { kind: "cancelled" });
  });
  await t.step("without forms, a text or multi question: nobody can be asked", async () => {
    const p = peer(false);
    assertEquals(await editorAsk(p)([choice, text], never), { kind: "nobody" });
    assertEquals(p.asked.length, 0);
  });
  await t.step("a stopped turn cancels the question", async () => {
    const controller = new AbortController();
    const p: EditorAsker = {
      ...peer(true),
      elicit: () => {
        controller.abort();
        return new Promise(() => {});
      },
    };
    assertEquals(await editorAsk(p)([choice], controller.signal), { kind: "cancelled" });
  });
});
