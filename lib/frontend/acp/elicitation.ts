/**
 * ask_user in the editor (tools.md, `ask_user`, "Editor (ACP)"): one `elicitation/create` form per
 * call when the client advertised `clientCapabilities.elicitation.form`; otherwise, when every
 * question is a `choice` or a `confirm`, one `session/request_permission` dialog per question whose
 * buttons are its options (`Yes`/`No` for a confirm) and `Decline`; otherwise nobody can be asked.
 */

import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationContentValue,
  ElicitationPropertySchema,
  ElicitationSchema,
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import { isNobody } from "../../acp/mm_ext.ts";
import { yesNo } from "../../text.ts";
import type { AskOutcome, AskUser, Question } from "../../tool.ts";
import { untilAborted } from "./permission.ts";

/** The form field of question `i` (0-based): `q1` … `q4`. */
export function fieldName(i: number): string {
  return `q${i + 1}`;
}

/** The form's message: the question itself when there is one, else how many there are. */
export function formMessage(questions: Question[]): string {
  return questions.length === 1
    ? questions[0].question
    : `Please answer these ${questions.length} questions.`;
}

/**
 * The form of a set of questions, every field required: `choice` a string with `enum`, `multi` an
 * array of them (at least one), `text` a string, `confirm` a boolean; each titled by its question,
 * with its default when it has one.
 */
export function questionsForm(questions: Question[]): ElicitationSchema {
  const properties: Record<string, ElicitationPropertySchema> = {};
  questions.forEach((q, i) => {
    properties[fieldName(i)] = questionField(q);
  });
  return { type: "object", properties, required: questions.map((_, i) => fieldName(i)) };
}

function questionField(q: Question): ElicitationPropertySchema {
  const title = q.question;
  switch (q.type) {
    case "choice":
      return {
        type: "string",
        title,
        enum: q.options,
        ...(q.default !== undefined ? { default: q.default } : {}),
      };
    case "multi":
      return { type: "array", title, items: { type: "string", enum: q.options }, minItems: 1 };
    case "text":
      return { type: "string", title, ...(q.default !== undefined ? { default: q.default } : {}) };
    case "confirm":
      return {
        type: "boolean",
        title,
        ...(q.default !== undefined ? { default: q.default === "yes" } : {}),
      };
  }
}

/** The answers a form came back with, one text per question, as ask_user reports them. */
export function formAnswers(
  questions: Question[],
  content: Record<string, ElicitationContentValue> | null | undefined,
): string[] {
  return questions.map((q, i) => fieldAnswer(q, content?.[fieldName(i)]));
}

function fieldAnswer(q: Question, value: ElicitationContentValue | undefined): string {
  if (value === undefined || value === null) {
    return q.default ?? (q.type === "confirm" ? "no" : "");
  }
  switch (q.type) {
    case "confirm":
      if (typeof value === "boolean") return value ? "yes" : "no";
      return yesNo(String(value)) ?? String(value);
    case "multi":
      return Array.isArray(value) ? value.join(", ") : String(value);
    case "choice": {
      const text = String(value);
      return q.options.find((o) => o.toLowerCase() === text.trim().toLowerCase()) ?? text;
    }
    case "text":
      return Array.isArray(value) ? value.join(", ") : String(value);
  }
}

/**
 * How a form ended, as ask_user reports it. A refusal marked `_meta.mm.nobody` is an asking mm
 * that found nobody to ask (docs/acp.md, "Agents that ask agents").
 */
export function formOutcome(
  questions: Question[],
  response: CreateElicitationResponse,
): AskOutcome {
  if (isNobody(response)) return { kind: "nobody" };
  if (response.action === "accept") {
    const content = (response as { content?: Record<string, ElicitationContentValue> | null })
      .content;
    return { kind: "answered", answers: formAnswers(questions, content) };
  }
  if (response.action === "cancel") return { kind: "cancelled" };
  return { kind: "declined" };
}

/** The option id of the `Decline` button of a question dialog. */
export const DECLINE = "decline";

/** Whether the questions can be asked with permission dialogs: each is a `choice` or a `confirm`. */
export function dialogsCanAsk(questions: Question[]): boolean {
  return questions.every((q) => q.type === "choice" || q.type === "confirm");
}

/**
 * The buttons of a question's dialog: its options (`Yes` and `No` for a confirm), then `Decline`.
 * Answers are `allow_once` buttons, so that the editor never shows an answer as a refused call;
 * `Decline` is `reject_once`.
 */
export function dialogOptions(q: Question): PermissionOption[] {
  const answers: PermissionOption[] = q.type === "confirm"
    ? [
      { optionId: "yes", name: "Yes", kind: "allow_once" },
      { optionId: "no", name: "No", kind: "allow_once" },
    ]
    : q.options.map((o, i) => ({ optionId: `option_${i + 1}`, name: o, kind: "allow_once" }));
  return [...answers, { optionId: DECLINE, name: "Decline", kind: "reject_once" }];
}

/** The answer a dialog's button stands for, or undefined for `Decline` (or an unknown id). */
export function dialogAnswer(q: Question, optionId: string): string | undefined {
  if (q.type === "confirm") return optionId === "yes" || optionId === "no" ? optionId : undefined;
  const m = optionId.match(/^option_(\d+)$/);
  return m ? q.options[Number(m[1]) - 1] : undefined;
}

/** The dialog title of question `i` of `n`: the question, with `(i/n)` when there are several. */
export function dialogTitle(q: Question, i: number, n: number): string {
  return n > 1 ? `${q.question} (${i + 1}/${n})` : q.question;
}

/** What asking through the editor needs from the ACP session. */
export interface EditorAsker {
  sessionId: string;
  /** The tool call the questions belong to (the running ask_user call). */
  toolCallId(): string | undefined;
  /** The client advertised `elicitation.form`. */
  forms: boolean;
  elicit(params: CreateElicitationRequest): Promise<CreateElicitationResponse>;
  requestPermission(params: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  /** A request the editor failed to answer. */
  onError(e: unknown): void;
}

/** ask_user's `ctx.ask` for an ACP session. */
export function editorAsk(peer: EditorAsker): AskUser {
  return async (questions, signal) => {
    const toolCallId = peer.toolCallId();
    if (peer.forms) {
      const response = await untilAborted(
        peer.elicit({
          mode: "form",
          sessionId: peer.sessionId,
          ...(toolCallId ? { toolCallId } : {}),
          message: formMessage(questions),
          requestedSchema: questionsForm(questions),
        }),
        signal,
        peer.onError,
      );
      if (signal.aborted) return { kind: "cancelled" };
      return response ? formOutcome(questions, response) : { kind: "nobody" };
    }
    if (!toolCallId || !dialogsCanAsk(questions)) return { kind: "nobody" };
    const answers: string[] = [];
    for (const [i, q] of questions.entries()) {
      const response = await untilAborted(
        peer.requestPermission({
          sessionId: peer.sessionId,
          toolCall: { toolCallId, title: dialogTitle(q, i, questions.length) },
          options: dialogOptions(q),
        }),
        signal,
        peer.onError,
      );
      if (signal.aborted) return { kind: "cancelled" };
      if (!response) return { kind: "nobody" };
      if (response.outcome.outcome !== "selected") return { kind: "cancelled" };
      const answer = dialogAnswer(q, response.outcome.optionId);
      if (answer === undefined) return { kind: "declined" };
      answers.push(answer);
    }
    return { kind: "answered", answers };
  };
}
