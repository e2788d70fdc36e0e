/** An asked agent's forms read back as questions and answered: the round trip through both ends. */

import { formQuestions, formResponse } from "../../lib/subagent/forms.ts";
import { formOutcome, questionsForm } from "../../lib/frontend/acp/elicitation.ts";
import type { Question } from "../../lib/tool.ts";
import { assertEquals } from "../helpers/assert.ts";

const questions: Question[] = [
  { question: "Which colour?", type: "choice", options: ["red", "blue"], default: "blue" },
  { question: "Which days?", type: "multi", options: ["mon", "tue", "wed"] },
  { question: "Your name?", type: "text", options: [], default: "Ann" },
  { question: "Go on?", type: "confirm", options: [], default: "no" },
];

/** The request the asked mm sends for `qs` (lib/frontend/acp/elicitation.ts). */
function request(qs: Question[]) {
  return {
    mode: "form" as const,
    sessionId: "s",
    message: "Please answer these questions.",
    requestedSchema: questionsForm(qs),
  };
}

Deno.test("a form comes back as the same questions, prefixed `<agent> asks: `", () => {
  const form = formQuestions(request(questions), "helper asks: ");
  assertEquals(form?.names, ["q1", "q2", "q3", "q4"]);
  assertEquals(
    form?.questions,
    questions.map((q) => ({ ...q, question: `helper asks: ${q.question}` })),
  );
});

Deno.test("the user's outcome is the asked mm's outcome, nobody included", () => {
  const form = formQuestions(request(questions), "helper asks: ")!;
  const answers = ["red", "mon, wed", "Bob", "yes"];
  const answered = formResponse(form.names, form.questions, { kind: "answered", answers });
  assertEquals(answered, {
    action: "accept",
    content: { q1: "red", q2: ["mon", "wed"], q3: "Bob", q4: true },
  });
  assertEquals(formOutcome(questions, answered), { kind: "answered", answers });
  for (const kind of ["declined", "cancelled", "nobody"] as const) {
    const response = formResponse(form.names, form.questions, { kind });
    assertEquals(formOutcome(questions, response), { kind });
  }
});

Deno.test("a request that is not a form of fields asks nothing", () => {
  assertEquals(formQuestions({ ...request([]), requestedSchema: {} }, "a: "), undefined);
  assertEquals(
    formQuestions({ mode: "url", sessionId: "s", message: "m", elicitationId: "e", url: "u" }, ""),
    undefined,
  );
});
