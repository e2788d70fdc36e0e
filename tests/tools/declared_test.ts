import { assertEquals } from "../helpers/assert.ts";
import { fault, parse } from "../helpers/config.ts";
import {
  asSentence,
  dashFault,
  declaredTool,
  emptyDashFault,
  optionFaults,
  parameterDescription,
} from "../../tools/declared.ts";

Deno.test("declared tools: a value that starts with - is not an option", async (t) => {
  const params = { file: { type: "string" as const }, n: { type: "integer" as const } };

  await t.step("an argument that a value makes start with -, before any --", () => {
    const faults = (command: string[], input: Record<string, unknown>, p = params) =>
      optionFaults(command, p, input);
    const file = dashFault("file", "-o/x", "string");
    assertEquals(faults(["sort", "{{file}}"], { file: "-o/x" }), [file]);
    assertEquals(faults(["cat", "{{file}}.txt"], { file: "-o/x" }), [file]);
    assertEquals(faults(["grep", "--", "{{file}}"], { file: "-o/x" }), []);
    assertEquals(faults(["x", "--n={{n}}", "a{{file}}"], { n: -5, file: "-o/x" }), []);
    assertEquals(faults(["sort", "{{file}}"], { file: "o/x" }), []);
    const allowed = { ...params, file: { type: "string" as const, allowDash: true } };
    assertEquals(faults(["sort", "{{file}}", "{{n}}"], { file: "-r", n: -5 }, allowed), [
      dashFault("n", "-5", "integer"),
    ]);
  });

  await t.step("a value that begins the argument after an empty one is at fault", () => {
    const two = {
      a: { type: "string" as const, optional: true },
      b: { type: "string" as const },
    };
    assertEquals(optionFaults(["sort", "{{a}}{{b}}"], two, { b: "-o/elsewhere" }), [
      dashFault("b", "-o/elsewhere", "string"),
    ]);
    assertEquals(optionFaults(["sort", "{{a}}{{b}}"], two, { a: "", b: "-o/x" }), [
      dashFault("b", "-o/x", "string"),
    ]);
    assertEquals(optionFaults(["sort", "{{a}}{{b}}"], two, { a: "in", b: "-o/x" }), []);
    // A placeholder left empty before the entry's own `-`.
    assertEquals(optionFaults(["x", "{{a}}-o/x"], two, {}), [emptyDashFault("a", "-o/x")]);
    assertEquals(
      emptyDashFault("a", "-o/x"),
      'a: left empty, it makes the argument "-o/x" start with "-", which the program would take as an option — give a value to a',
    );
    // The agent file's own: a default, the entry's own leading `-`.
    const byDefault = { a: { type: "string" as const, optional: true, default: "-v" } };
    assertEquals(optionFaults(["x", "{{a}}"], byDefault, {}), []);
    assertEquals(optionFaults(["x", "-{{a}}"], two, { a: "o/x" }), []);
  });

  await t.step("the fault, for a string and for a number", () => {
    assertEquals(
      dashFault("file", "-o/x", "string"),
      'file: "-o/x" starts with "-", which the program would take as an option — give a value that does not start with "-" (for a file: ./-o/x)',
    );
    assertEquals(
      dashFault("n", "-5", "integer"),
      'n: "-5" starts with "-", which the program would take as an option — give a value that does not start with "-"',
    );
  });

  await t.step("parse refuses such a value; an enum value of the agent file is the user's", () => {
    const tool = declaredTool({
      name: "t",
      command: ["prog", "{{file}}", "{{mode}}"],
      parameters: { file: { type: "string" }, mode: { type: "string", enum: ["-v", "-q"] } },
    });
    assertEquals(tool.parse!({ file: "-rf", mode: "-v" }), {
      ok: false,
      faults: [dashFault("file", "-rf", "string")],
    });
    assertEquals(tool.parse!({ file: "a.txt", mode: "-q" }), {
      ok: true,
      input: { file: "a.txt", mode: "-q" },
    });
  });

  await t.step("an enum fault is named beside the other faults of the call", () => {
    const tool = declaredTool({
      name: "t",
      command: ["prog", "{{times}}", "{{mode}}"],
      parameters: { times: { type: "integer" }, mode: { type: "string", enum: ["loud", "soft"] } },
    });
    const parsed = tool.parse!({ times: "x", mode: "shout" });
    assertEquals(parsed.ok, false);
    assertEquals(!parsed.ok && parsed.faults.length, 2);
    assertEquals(!parsed.ok && parsed.faults[1], "mode: shout is not one of loud, soft");
  });

  await t.step("allowDash is a boolean key of a parameter in the agent file", () => {
    const config = parse(
      "tools:\n  - name: t\n    command: [x, '{{a}}']\n    parameters:\n      a: {type: string, allowDash: true}\n",
    );
    assertEquals(config.tools[0].parameters.a, { type: "string", allowDash: true });
    assertEquals(
      fault(
        "tools:\n  - name: t\n    command: [x, '{{a}}']\n    parameters:\n      a: {allowDash: yes please}\n",
      ).includes("allowDash"),
      true,
    );
  });
});

Deno.test("declared tools: descriptions end as sentences before what mm adds", () => {
  assertEquals(asSentence("A flag"), "A flag.");
  assertEquals(asSentence("Done!"), "Done!");
  assertEquals(asSentence("  "), "");
  assertEquals(
    parameterDescription({ type: "string", description: "The mode", enum: ["a"], optional: true }),
    "The mode. One of: a. Optional.",
  );
  const tool = declaredTool({
    name: "greet",
    description: "Greet someone",
    command: ["echo", "{{who}}"],
    parameters: { who: { type: "string" } },
  });
  assertEquals(
    tool.description,
    "Greet someone. Required parameters: who. Give each parameter as its own field.",
  );
});
