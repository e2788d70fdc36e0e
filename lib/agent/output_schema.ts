/**
 * The answer's schema (`--output-schema FILE`, `outputSchema` of the agent file): a JSON Schema
 * (draft 2020-12) compiled once by ajv, loaded only when a schema is given; the answer checked
 * against it; the texts of a failed check (the model's correction, the run's error).
 */

/** At most this many of a check's errors are named (to the model and in the error). */
export const MAX_NAMED_ERRORS = 8;

/** At most this many characters of one named error (a long path or value is cut). */
const MAX_ERROR_CHARS = 200;

/** The answer checked: its JSON (the value and its text), or the faults found, one line each. */
export type AnswerCheck =
  | { ok: true; value: unknown; json: string }
  | { ok: false; errors: string[] };

/** A compiled schema: checks an answer's text. */
export type AnswerChecker = (answer: string) => AnswerCheck;

/** One error of ajv's, as much of it as is read here. */
interface AjvError {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** ajv's validate function. */
interface Validate {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

/**
 * Compiles `schema`; throws an Error saying why when it is not a JSON Schema (draft 2020-12).
 * ajv is imported here, on first use: a run without a schema never loads it.
 */
export async function compileAnswerSchema(schema: unknown): Promise<AnswerChecker> {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    throw new Error("a JSON Schema is an object");
  }
  const mod = await import("npm:ajv@8.20.0/dist/2020.js");
  // deno-lint-ignore no-explicit-any
  const Ajv2020 = (mod.default ?? mod) as any;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  let validate: Validate;
  try {
    validate = ajv.compile(schema) as Validate;
  } catch (e) {
    throw new Error(
      (e instanceof Error ? e.message : String(e)).replace(/^schema is invalid: /, ""),
    );
  }
  return (answer) => {
    const parsed = answerJson(answer);
    if (!parsed.ok) return parsed;
    if (validate(parsed.value)) {
      return { ok: true, value: parsed.value, json: JSON.stringify(parsed.value) };
    }
    return { ok: false, errors: (validate.errors ?? []).map(errorText) };
  };
}

/** The JSON of an answer: bare, or the whole of one code fence (```json … ```). */
export function answerJson(answer: string): { ok: true; value: unknown } | {
  ok: false;
  errors: string[];
} {
  let text = answer.trim();
  const fence = /^```[A-Za-z0-9_-]*[ \t]*\n([\s\S]*?)\n?```$/.exec(text);
  if (fence) text = fence[1].trim();
  if (text === "") return { ok: false, errors: ["the answer is empty, not JSON"] };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, errors: [cut(`the answer is not JSON (${why})`)] };
  }
}

/** One error of ajv's as a line: where in the answer, and what is wrong there. */
function errorText(e: AjvError): string {
  const where = e.instancePath === "" ? "the answer" : e.instancePath;
  const extra = e.params?.additionalProperty !== undefined
    ? ` (${JSON.stringify(e.params.additionalProperty)})`
    : e.params?.allowedValues !== undefined
    ? ` (${JSON.stringify(e.params.allowedValues)})`
    : "";
  return cut(`${where}: ${e.message ?? "is not valid"}${extra}`);
}

function cut(line: string): string {
  return line.length <= MAX_ERROR_CHARS ? line : `${line.slice(0, MAX_ERROR_CHARS - 1)}…`;
}

/** The errors named, at most {@linkcode MAX_NAMED_ERRORS}, joined by "; " (and how many more). */
export function namedErrors(errors: readonly string[]): string {
  const shown = errors.slice(0, MAX_NAMED_ERRORS).join("; ");
  const more = errors.length - MAX_NAMED_ERRORS;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

/** The user message that sends an invalid answer back to the model, once. */
export function schemaRetryPrompt(errors: readonly string[]): string {
  return `Your answer does not follow the required JSON Schema: ${namedErrors(errors)}. ` +
    "Answer again with only the corrected JSON, nothing else.";
}

/** The warning of an answer sent back to the model. */
export function schemaRetryWarning(errors: readonly string[]): string {
  return `the answer does not follow the output schema (${
    namedErrors(errors)
  }) — asking the model once more`;
}

/** The error of an answer still invalid after the one retry (exit code 1). */
export function schemaErrorText(errors: readonly string[]): string {
  return `[error: the answer does not follow the output schema: ${namedErrors(errors)}]`;
}
