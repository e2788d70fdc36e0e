/**
 * An asked agent's `ask_user` forms (`elicitation/create`, lib/frontend/acp/elicitation.ts) put to
 * the asking agent's user (tools.md, `ask_user`, "Asked agent"): the form read back as ask_user's
 * questions, each prefixed `<agent> asks: `, and the user's outcome as the form's response.
 */

import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationContentValue,
} from "npm:@agentclientprotocol/sdk@2.4.0";
import type { AskOutcome, Question } from "../tool.ts";
import { nobodyMeta } from "../acp/mm_ext.ts";
import { yesNo } from "../text.ts";

type Field = Record<string, unknown>;

/** The fields of a form request, in order (its `required` list, then any other), with their names. */
function formFields(req: CreateElicitationRequest): [string, Field][] {
  const schema = (req as { requestedSchema?: { properties?: unknown; required?: unknown } })
    .requestedSchema;
  const properties = schema?.properties;
  if (!properties || typeof properties !== "object") return [];
  const all = Object.entries(properties as Record<string, Field>);
  const required = Array.isArray(schema.required) ? schema.required : [];
  return [
    ...all.filter(([name]) => required.includes(name)),
    ...all.filter(([name]) => !required.includes(name)),
  ];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** One field as a question: a string with `enum` a choice, an array a multi, a boolean a confirm. */
function fieldQuestion(field: Field, fallback: string, prefix: string): Question {
  const title = typeof field.title === "string" && field.title ? field.title : fallback;
  const question = `${prefix}${title}`;
  const items = field.items as Field | undefined;
  const options = strings(field.type === "array" ? items?.enum : field.enum);
  const def = field.default;
  if (field.type === "boolean") {
    return {
      question,
      type: "confirm",
      options: [],
      ...(typeof def === "boolean" ? { default: def ? "yes" : "no" } : {}),
    };
  }
  if (options.length >= 2) {
    return {
      question,
      type: field.type === "array" ? "multi" : "choice",
      options,
      ...(field.type !== "array" && typeof def === "string" && options.includes(def)
        ? { default: def }
        : {}),
    };
  }
  return {
    question,
    type: "text",
    options: [],
    ...(typeof def === "string" || typeof def === "number" ? { default: String(def) } : {}),
  };
}

/**
 * The questions of a form request, each `<prefix><its title>` (a form of one field without a title
 * takes the message); undefined for a request that is not a form mm can ask (a URL, no fields).
 */
export function formQuestions(
  req: CreateElicitationRequest,
  prefix: string,
): { names: string[]; questions: Question[] } | undefined {
  if ((req as { mode?: unknown }).mode !== "form") return undefined;
  const fields = formFields(req);
  if (fields.length === 0) return undefined;
  return {
    names: fields.map(([name]) => name),
    questions: fields.map(([, field]) => fieldQuestion(field, req.message, prefix)),
  };
}

/** One answer as the form's value: a confirm a boolean, a multi its options, anything else text. */
function fieldValue(q: Question, answer: string): ElicitationContentValue {
  if (q.type === "confirm") {
    const word = yesNo(answer);
    return word ? word === "yes" : answer;
  }
  if (q.type === "multi") {
    const parts = answer.split(", ");
    return parts.every((p) => q.options.includes(p)) ? parts : answer;
  }
  return answer;
}

/**
 * The response to a form from the user's outcome. Nobody to ask is a `decline` marked
 * `_meta.mm.nobody`, which the asked mm reads as "the user cannot be asked" (docs/acp.md).
 */
export function formResponse(
  names: string[],
  questions: Question[],
  outcome: AskOutcome,
): CreateElicitationResponse {
  switch (outcome.kind) {
    case "answered": {
      const content: Record<string, ElicitationContentValue> = {};
      names.forEach((name, i) => {
        content[name] = fieldValue(questions[i], outcome.answers[i] ?? "");
      });
      return { action: "accept", content };
    }
    case "declined":
      return { action: "decline" };
    case "cancelled":
      return { action: "cancel" };
    case "nobody":
      return { action: "decline", _meta: nobodyMeta() };
  }
}
