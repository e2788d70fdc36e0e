import { refusesResponseFormat } from "../../lib/provider/chat.ts";
import { httpError, modelMissing, type Target } from "../../lib/provider/errors.ts";
import { assertEquals } from "../helpers/assert.ts";

const TARGET: Target = { provider: "llamacpp", url: "http://localhost:8080", model: "m" };

Deno.test("refusesResponseFormat: a server's refusal of the answer's format", async (t) => {
  const rows: [string, unknown, boolean][] = [
    [
      "llama-server: a grammar beside tools (HTTP 500)",
      httpError(TARGET, 500, "Cannot use custom grammar constraints with tools."),
      true,
    ],
    [
      "a server that knows no json_schema type (HTTP 500)",
      httpError(TARGET, 500, 'response_format type must be one of "text" or "json_object"'),
      true,
    ],
    ["a 400 naming response_format", httpError(TARGET, 400, "unsupported response_format"), true],
    ["an unrelated HTTP 500", httpError(TARGET, 500, "tools param requires --jinja flag"), false],
    ["a missing model", modelMissing(TARGET, "model not found"), false],
    ["a 401 that names a schema", httpError(TARGET, 401, "schema of the key"), false],
    ["not a provider's error", new Error("response_format"), false],
  ];
  for (const [name, error, expected] of rows) {
    await t.step(name, () => assertEquals(refusesResponseFormat(error), expected));
  }
});
