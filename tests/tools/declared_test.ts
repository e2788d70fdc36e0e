import { assertEquals } from "../helpers/assert.ts";
import { fault, parse } from "../helpers/config.ts";
import { dashFault, declaredTool, optionSlots } from "../../tools/declared.ts";

Deno.test("declared tools: a value that starts with - is not an option", async (t) => {
  const params = { file: { type: "string" as const }, n: { type: "integer" as const } };

  await t.step("a placeholder alone, or at the start of an argument, before any --", () => {
    assertEquals([...optionSlots(["sort", "{{file}}"], params)], ["file"]);
    assertEquals([...optionSlots(["cat", "{{file}}.txt"], params)], ["file"]);
    assertEquals([...optionSlots(["grep", "--", "{{file}}"], params)], []);
    assertEquals([...optionSlots(["x", "--n={{n}}", "a{{file}}"], params)], []);
    const allowed = { ...params, file: { type: "string" as const, allowDash: true } };
    assertEquals([...optionSlots(["sort", "{{file}}", "{{n}}"], allowed)], ["n"]);
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
