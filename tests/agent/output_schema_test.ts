import {
  answerJson,
  compileAnswerSchema,
  MAX_NAMED_ERRORS,
  namedErrors,
  schemaErrorText,
  schemaRetryPrompt,
  schemaRetryWarning,
} from "../../lib/agent/output_schema.ts";
import { assertEquals, assertRejects } from "../helpers/assert.ts";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    verdict: { enum: ["pass", "fail"] },
    count: { type: "integer" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["verdict", "count"],
  additionalProperties: false,
};

Deno.test("compileAnswerSchema", async (t) => {
  const check = await compileAnswerSchema(SCHEMA);
  await t.step("a valid answer: its value and its compact JSON", () => {
    assertEquals(check('{ "verdict": "pass",\n  "count": 3 }\n'), {
      ok: true,
      value: { verdict: "pass", count: 3 },
      json: '{"verdict":"pass","count":3}',
    });
  });
  await t.step("the JSON of one fence is the answer", () => {
    const fenced = check('```json\n{"verdict": "fail", "count": 0}\n```');
    assertEquals(fenced.ok && fenced.json, '{"verdict":"fail","count":0}');
  });
  await t.step("every fault, one line each, where and what", () => {
    assertEquals(check('{"verdict": "maybe", "count": 1.5, "tags": [1], "extra": true}'), {
      ok: false,
      errors: [
        'the answer: must NOT have additional properties ("extra")',
        '/verdict: must be equal to one of the allowed values (["pass","fail"])',
        "/count: must be integer",
        "/tags/0: must be string",
      ],
    });
    assertEquals(check("{}"), {
      ok: false,
      errors: [
        "the answer: must have required property 'verdict'",
        "the answer: must have required property 'count'",
      ],
    });
  });
  await t.step("an answer that is not JSON", () => {
    const r = check("The verdict is pass.");
    assertEquals(r.ok, false);
    assertEquals(!r.ok && r.errors[0].startsWith("the answer is not JSON ("), true);
    assertEquals(check("  "), { ok: false, errors: ["the answer is empty, not JSON"] });
  });
  await t.step("a schema that is not one: the reason", async () => {
    await assertRejects(() => compileAnswerSchema({ type: "objekt" }), Error, "data/type must be");
    await assertRejects(() => compileAnswerSchema([1]), Error, "a JSON Schema is an object");
    await assertRejects(() => compileAnswerSchema("x"), Error, "a JSON Schema is an object");
  });
});

Deno.test("answerJson leaves text around a fence alone: not JSON", () => {
  assertEquals(answerJson('Here: ```json\n{"a": 1}\n```').ok, false);
  assertEquals(answerJson('```\n{"a": 1}\n```'), { ok: true, value: { a: 1 } });
});

Deno.test("the texts of a failed check", async (t) => {
  const errors = ["/a: must be number", "the answer: must have required property 'b'"];
  await t.step("the model's correction", () => {
    assertEquals(
      schemaRetryPrompt(errors),
      "Your answer does not follow the required JSON Schema: /a: must be number; the answer: " +
        "must have required property 'b'. Answer again with only the corrected JSON, nothing else.",
    );
  });
  await t.step("the warning and the error", () => {
    assertEquals(
      schemaRetryWarning(errors),
      "the answer does not follow the output schema (/a: must be number; the answer: must have " +
        "required property 'b') — asking the model once more",
    );
    assertEquals(
      schemaErrorText(errors),
      "[error: the answer does not follow the output schema: /a: must be number; the answer: " +
        "must have required property 'b']",
    );
  });
  await t.step("bounded: the first errors, and how many more", () => {
    const many = Array.from({ length: MAX_NAMED_ERRORS + 3 }, (_, i) => `/${i}: bad`);
    const named = namedErrors(many);
    assertEquals(named.split("; ").length, MAX_NAMED_ERRORS + 1);
    assertEquals(named.endsWith("; and 3 more"), true);
  });
});
