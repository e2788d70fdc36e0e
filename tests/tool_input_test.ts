import {
  coerceInput,
  cutText,
  ECHO_LIMIT,
  echoSent,
  faultValue,
  invalidCallText,
  parseToolArguments,
  pathFaults,
} from "../lib/tool_input.ts";
import { BUILTIN_TOOLS } from "../tools/mod.ts";
import type { Parameter } from "../lib/tool.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("parseToolArguments repairs what is unambiguous", async (t) => {
  const cases: [string, string, unknown][] = [
    ["valid JSON", '{"command": "ls"}', { command: "ls" }],
    ["empty arguments", "", {}],
    ["trailing commas", '{"command": "ls", "x": [1, 2,],}', { command: "ls", x: [1, 2] }],
    ["single quotes", "{'command': 'echo \"hi\"'}", { command: 'echo "hi"' }],
    ["single quotes with an escaped quote", "{'command': 'it\\'s'}", { command: "it's" }],
    ["a code fence", '```json\n{"command": "ls"}\n```', { command: "ls" }],
    ["a bare fence", '```\n{"path": "a.txt"}\n```', { path: "a.txt" }],
    ["a JSON string holding JSON", '"{\\"command\\": \\"ls\\"}"', { command: "ls" }],
    ["a comma inside a string is kept", '{"command": "echo a,}"}', { command: "echo a,}" }],
  ];
  for (const [name, raw, want] of cases) {
    await t.step(name, () => {
      const got = parseToolArguments(raw);
      assertEquals(got, { ok: true, value: want });
    });
  }
  await t.step("broken JSON is refused with the parser's reason", () => {
    const got = parseToolArguments('{"command": "ls"');
    assertEquals(got.ok, false);
    if (!got.ok) assertEquals(got.reason.startsWith("the arguments are not valid JSON ("), true);
  });
  await t.step("an array is refused", () => {
    assertEquals(parseToolArguments("[1]"), {
      ok: false,
      reason: "the arguments must be a JSON object of named fields",
    });
  });
});

const params: Record<string, Parameter> = {
  path: { type: "string", description: "File path.", aliases: ["file"] },
  start: { type: "integer", description: "First line.", optional: true },
  numbered: { type: "boolean", description: "Numbers.", optional: true },
  ratio: { type: "number", description: "A ratio.", optional: true },
};

Deno.test("coerceInput", async (t) => {
  await t.step("numeric strings and boolean strings are coerced", () => {
    assertEquals(coerceInput(params, { path: "a", start: "2", numbered: "TRUE", ratio: "0.5" }), {
      ok: true,
      input: { path: "a", start: 2, numbered: true, ratio: 0.5 },
    });
  });
  await t.step("a number is accepted for a string", () => {
    assertEquals(coerceInput(params, { path: 12 }), { ok: true, input: { path: "12" } });
  });
  await t.step("an alias is renamed", () => {
    assertEquals(coerceInput(params, { file: "a.txt" }), { ok: true, input: { path: "a.txt" } });
  });
  await t.step("the real name wins over an alias", () => {
    assertEquals(coerceInput(params, { file: "b", path: "a" }), { ok: true, input: { path: "a" } });
  });
  await t.step("every fault is listed", () => {
    assertEquals(coerceInput(params, { start: "two", numbered: "yes", ratio: 1.5 }), {
      ok: false,
      faults: [
        "path is missing",
        'start: "two" is not an integer',
        'numbered: "yes" is not a boolean',
      ],
      partial: { ratio: 1.5 },
    });
  });
  await t.step("a fraction is not an integer", () => {
    assertEquals(coerceInput(params, { path: "a", start: 1.5 }), {
      ok: false,
      faults: ["start: 1.5 is not an integer"],
      partial: { path: "a" },
    });
  });
  await t.step("unknown fields are ignored, or faults when strict", () => {
    assertEquals(coerceInput(params, { path: "a", colour: 1 }), { ok: true, input: { path: "a" } });
    assertEquals(coerceInput(params, { path: "a", colour: 1 }, true), {
      ok: false,
      faults: ['"colour" is not a parameter of this tool'],
      partial: { path: "a" },
    });
  });
});

Deno.test("invalidCallText has the declared-tools form", () => {
  assertEquals(
    invalidCallText("read_file", ["path is missing"], '{"pth": "a"}', {
      path: { type: "string", description: "File path." },
      start: { type: "integer", description: "First line.", optional: true },
    }),
    '[read_file: invalid call, nothing was run — path is missing. You sent: {"pth": "a"}. Expected: path (string): File path; start (integer, optional): First line. Call read_file again with each parameter as its own field.]',
  );
});

Deno.test("echoSent: an invalid call's input is repeated, its long values and its whole cut", () => {
  assertEquals(echoSent('{"pth": "a"}'), '{"pth": "a"}');
  const long = "y".repeat(250);
  assertEquals(
    echoSent(JSON.stringify({ content: long, n: 2 })),
    `{"content":"${"y".repeat(200)}… [50 more characters]","n":2}`,
  );
  // A cut never leaves half of a surrogate pair.
  const emoji = "a".repeat(199) + "😀" + "b".repeat(10);
  assertEquals(
    echoSent(JSON.stringify({ c: emoji })),
    `{"c":"${"a".repeat(199)}… [12 more characters]"}`,
  );
  // Text that is not JSON, or JSON with many short values, is cut as a whole.
  const broken = '{"command": "' + "z".repeat(3000);
  assertEquals(
    echoSent(broken),
    `${broken.slice(0, ECHO_LIMIT)}… [${broken.length - ECHO_LIMIT} more characters]`,
  );
  const many = JSON.stringify(
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])),
  );
  assertEquals(echoSent(many).endsWith(` more characters]`), true);
  assertEquals(echoSent(many).length < ECHO_LIMIT + 30, true);
});

Deno.test("a value in a fault is cut to 80 characters, whatever its type", () => {
  const big = { x: "q".repeat(30_000) };
  const coerced = coerceInput(
    { command: { type: "string", description: "c" } },
    { command: big, ["k".repeat(300)]: 1 },
    true,
  );
  if (coerced.ok) throw new Error("coerced");
  assertEquals(coerced.faults, [
    `"${"k".repeat(78)}… is not a parameter of this tool`,
    `command: {"x":"${"q".repeat(73)}… is not a string`,
  ]);
  assertEquals(faultValue("short"), '"short"');
  assertEquals(cutText("a".repeat(78) + "😀z", 80), "a".repeat(78) + "…");
  // Nested strings in the echo are cut too.
  const nested = JSON.stringify({ command: { deep: [1, { y: "y".repeat(500) }] } });
  assertEquals(
    echoSent(nested),
    `{"command":{"deep":[1,{"y":"${"y".repeat(200)}… [300 more characters]"}]}}`,
  );
});

Deno.test("coerceInput: a name in another case or style is the parameter's", () => {
  const params: Record<string, Parameter> = {
    command: { type: "string", description: "c" },
    file_path: { type: "string", description: "f", optional: true, aliases: ["path"] },
  };
  assertEquals(coerceInput(params, { Command: "ls", filePath: "a" }, true), {
    ok: true,
    input: { command: "ls", file_path: "a" },
  });
  assertEquals(coerceInput(params, { COMMAND: "x", command: "ls", PATH: "p" }, true), {
    ok: true,
    input: { command: "ls", file_path: "p" },
  });
});

Deno.test("pathFaults: a path holding a control character or a line break is a fault", async (t) => {
  const params = {
    path: { type: "string" as const, description: "File.", path: true as const },
    content: { type: "string" as const, description: "Text." },
  };
  await t.step("a plain path, even with spaces and non-ASCII letters, is none", () => {
    assertEquals(pathFaults(params, { path: "notes/été a.txt", content: "a\nb" }), []);
  });
  for (
    const [name, char, code] of [
      ["a line feed", "\n", "000A"],
      ["a carriage return", "\r", "000D"],
      ["a tab", "\t", "0009"],
      ["an escape", "\x1b", "001B"],
      ["a C1 control", "\x85", "0085"],
      ["U+2028", "\u2028", "2028"],
      ["U+2029", "\u2029", "2029"],
      ["a right-to-left override", "\u202E", "202E"],
      ["an Arabic letter mark", "\u061C", "061C"],
      ["a soft hyphen", "\u00AD", "00AD"],
      ["a Mongolian vowel separator", "\u180E", "180E"],
      ["a zero-width space", "\u200B", "200B"],
      ["a byte order mark", "\uFEFF", "FEFF"],
    ]
  ) {
    await t.step(`${name} is one, named by its code point`, () => {
      assertEquals(pathFaults(params, { path: `notes.txt${char}@@ -0,0 +1 @@`, content: "" }), [
        `path holds a line break or a control character (U+${code}), which a file path may not hold`,
      ]);
    });
  }
  await t.step("a field that is no path may hold line breaks", () => {
    assertEquals(pathFaults(params, { path: "a.txt", content: "x\u2028y\n" }), []);
  });
});

Deno.test("every path parameter of every built-in tool is marked path", () => {
  const marked = BUILTIN_TOOLS.flatMap((tool) =>
    Object.entries(tool.parameters).filter(([, p]) => p.path).map(([n]) => `${tool.name}.${n}`)
  );
  assertEquals(marked.sort(), [
    "edit_file.path",
    "fetch_content.output",
    "lsp.path",
    "read_file.path",
    "save_answer.path",
    "write_file.path",
  ]);
});
