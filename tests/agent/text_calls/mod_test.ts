/** The recogniser of text-form calls (textToolCalls): a corpus of calls and answers, its rules. */

import { textToolCalls } from "../../../lib/agent/text_calls/mod.ts";
import { BUILTIN_TOOLS } from "../../../tools/mod.ts";
import { ANSWERS } from "../../fixtures/text_calls/answers.ts";
import { CALLS, CALLS_BY_SYNTAX } from "../../fixtures/text_calls/calls.ts";
import { DIALECT_ANSWERS, DIALECT_CALLS } from "../../fixtures/text_calls/dialects.ts";
import { assertEquals } from "../../helpers/assert.ts";

const TOOLS = BUILTIN_TOOLS;

/** The calls with their arguments decoded, for comparing objects rather than JSON text. */
function decoded(text: string) {
  const found = textToolCalls(text, TOOLS);
  return found && {
    calls: found.calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) })),
    text: found.text,
  };
}

Deno.test("the corpus: messages holding text-form calls", async (t) => {
  await t.step("at least 40 messages, every syntax present", () => {
    assertEquals(CALLS.length >= 40, true, `${CALLS.length} messages`);
    for (const [syntax, cases] of Object.entries(CALLS_BY_SYNTAX)) {
      assertEquals(cases.length >= 8, true, `${syntax}: ${cases.length}`);
    }
    assertEquals(CALLS.some((c) => c.calls.length >= 3), true);
    assertEquals(CALLS.filter((c) => c.prose).length >= 5, true);
  });
  for (const c of CALLS) {
    await t.step(c.name, () => {
      assertEquals(decoded(c.text), { calls: c.calls, text: c.prose ?? "" }, c.text);
    });
  }
});

Deno.test("the corpus: every dialect small models write", async (t) => {
  await t.step("each has samples, several calls in one, and Markdown explaining them", () => {
    assertEquals(Object.keys(DIALECT_CALLS).length >= 12, true);
    for (const [dialect, cases] of Object.entries(DIALECT_CALLS)) {
      assertEquals(cases.length >= 2, true, `${dialect}: ${cases.length}`);
      assertEquals(cases.some((c) => c.calls.length >= 2), true, `${dialect}: several calls`);
    }
    assertEquals(DIALECT_ANSWERS.length >= 20, true);
  });
  for (const [dialect, cases] of Object.entries(DIALECT_CALLS)) {
    for (const c of cases) {
      await t.step(`${dialect}: ${c.name}`, () => {
        assertEquals(decoded(c.text), { calls: c.calls, text: c.prose ?? "" }, c.text);
      });
    }
  }
  for (const a of DIALECT_ANSWERS) {
    await t.step(`left alone: ${a.name}`, () => {
      assertEquals(textToolCalls(a.text, TOOLS), undefined, a.text);
    });
  }
});

Deno.test("the corpus: ordinary answers are never taken for calls", async (t) => {
  await t.step("at least 40 answers", () => {
    assertEquals(ANSWERS.length >= 40, true, `${ANSWERS.length} answers`);
  });
  for (const a of ANSWERS) {
    await t.step(a.name, () => assertEquals(textToolCalls(a.text, TOOLS), undefined, a.text));
  }
});

Deno.test("the recogniser's rules", async (t) => {
  await t.step("tools given by name only: values of <parameter=…> stay text", () => {
    const text = "<function=read_file>\n<parameter=start>\n10\n</parameter>\n</function>";
    assertEquals(textToolCalls(text, ["read_file"]), {
      calls: [{ name: "read_file", arguments: '{"start":"10"}' }],
      text: "",
    });
  });

  await t.step("only declared tools count", () => {
    assertEquals(
      textToolCalls('<tool_call>\n{"name": "bash", "arguments": {}}\n</tool_call>', ["read_file"]),
      undefined,
    );
  });

  await t.step("a name that reads like two declared tools is no call", () => {
    const text = '<tool_call>\n{"name": "Read-File", "arguments": {}}\n</tool_call>';
    assertEquals(textToolCalls(text, ["read_file", "readfile"]), undefined);
  });

  await t.step("broken JSON inside the tags is prose", () => {
    const text = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>';
    assertEquals(textToolCalls(text, TOOLS), undefined);
  });

  await t.step("arguments that are not JSON pass on as sent, for the refusal to quote", () => {
    const text = '<tool_call>\n{"name": "bash", "arguments": "ls -la"}\n</tool_call>';
    assertEquals(textToolCalls(text, TOOLS)?.calls, [{ name: "bash", arguments: "ls -la" }]);
  });

  await t.step("Python arguments take the declared types; undeclared ones stay as written", () => {
    const tools = [{
      name: "f",
      parameters: {
        s: { type: "string" },
        n: { type: "integer" },
        b: { type: "boolean" },
        a: { type: "array" },
      },
    }];
    const found = textToolCalls('[f(s=12, n="7", b="True", a=\'[1, 2]\', x=None)]', tools);
    assertEquals(found?.calls, [{
      name: "f",
      arguments: '{"s":"12","n":7,"b":true,"a":[1,2],"x":null}',
    }]);
  });

  await t.step("Python calls: positional arguments or an undeclared name are no call", () => {
    assertEquals(textToolCalls('[bash("ls")]', TOOLS), undefined);
    assertEquals(textToolCalls('[bash(command="ls"), rm(path="/")]', TOOLS), undefined);
  });

  await t.step("a special token mid-line counts only when its calls end the message", () => {
    const call = '<|tool_call|>[{"name": "bash", "arguments": {"command": "ls"}}]';
    assertEquals(textToolCalls(`Running it.${call}`, TOOLS)?.text, "Running it.");
    assertEquals(textToolCalls(`Models write ${call} and stop.`, TOOLS), undefined);
  });

  await t.step("an example in a fence is skipped, a real call after it is taken", () => {
    const text = [
      "Calls look like:",
      "```",
      '<tool_call>{"name": "bash", "arguments": {"command": "rm -rf /"}}</tool_call>',
      "```",
      "Now the real one:",
      '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
    ].join("\n");
    const found = textToolCalls(text, TOOLS);
    assertEquals(found?.calls, [{ name: "bash", arguments: '{"command":"ls"}' }]);
    assertEquals(found?.text, text.split("\n").slice(0, 5).join("\n"));
  });
});
