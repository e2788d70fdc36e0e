import { defaultConfig } from "../../../lib/config/config.ts";
import { toolSchema } from "../../../lib/agent/schema.ts";
import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { type FakeContext, fakeContext, MemoryFiles } from "../../helpers/fake_context.ts";
import type { FileInfo } from "../../../lib/tool.ts";
import {
  ambiguousText,
  appliedText,
  DRY_RUN_DESCRIPTION,
  dryRunText,
  EDIT_FILE_SCHEMA,
  editedText,
  editFile,
  type EditFileInput,
  EDITS_DESCRIPTION,
  elisionAmbiguousText,
  elisionOrderText,
  elisionOutsideText,
  emptyOldText,
  isMakefile,
  nestedText,
  notFoundText,
  NOTHING_CLOSE,
  nothingWrittenText,
  overlapText,
  parseEditFileInput,
  PATH_DESCRIPTION,
  placeholderText,
  readSource,
  RELAXATION_WORDS,
  repeatText,
  sameText,
} from "../../../tools/edit_file/mod.ts";
import { BUILTIN_TOOLS } from "../../../tools/mod.ts";

const GO = "package main\n\nfunc main() {\n\tcount := 1\n\tprint(count)\n}\n";

/** Runs edit_file on a fake context holding `files`; returns the result and the context. */
async function edit(
  files: Record<string, string | Uint8Array>,
  input: Partial<EditFileInput> & { edits: EditFileInput["edits"] },
  config = {},
) {
  const ctx = fakeContext({ files, config });
  const result = await editFile.run({ path: "main.go", dry_run: false, ...input }, ctx);
  return { result, ctx };
}

/** The file's text after the call. */
function text(ctx: FakeContext, path = "main.go"): string | undefined {
  return ctx.fs.text(path);
}

Deno.test("edit_file: declaration", async (t) => {
  await t.step("declared when editTools: true, registered right after write_file", () => {
    assertEquals(editFile.declared(defaultConfig()), true);
    assertEquals(editFile.declared({ ...defaultConfig(), editTools: false }), false);
    const names = BUILTIN_TOOLS.map((tool) => tool.name);
    assertEquals(names.indexOf("edit_file"), names.indexOf("write_file") + 1);
  });

  await t.step(
    "emoji 📝, kind edit, asks (not for a dry run), a file op; summary is the path",
    () => {
      assertEquals(
        [editFile.name, editFile.emoji, editFile.kind, editFile.counter],
        ["edit_file", "📝", "edit", "fileOps"],
      );
      const asks = editFile.asks as (input: { dry_run: boolean }) => boolean;
      assertEquals([asks({ dry_run: false }), asks({ dry_run: true })], [true, false]);
      assertEquals(editFile.summary({ path: "a.go", edits: [], dry_run: false }), "a.go");
      assertEquals(editFile.summary({ path: "a.go", edits: [], dry_run: true }), "a.go (dry run)");
    },
  );

  await t.step("the schema: path, edits (array, items described in words), dry_run", () => {
    assertEquals(PATH_DESCRIPTION, "Path of an existing file.");
    assertEquals(DRY_RUN_DESCRIPTION, "Report what would change, write nothing.");
    assertStringIncludes(
      EDITS_DESCRIPTION,
      "Replacements, all resolved against the original file.",
    );
    const schema = toolSchema(editFile);
    assertEquals(schema.function.name, "edit_file");
    assertEquals(schema.function.parameters, EDIT_FILE_SCHEMA);
    assertEquals(EDIT_FILE_SCHEMA, {
      type: "object",
      properties: {
        path: { type: "string", description: PATH_DESCRIPTION },
        edits: { type: "array", description: EDITS_DESCRIPTION, items: { type: "object" } },
        dry_run: { type: "boolean", description: DRY_RUN_DESCRIPTION },
      },
      required: ["path", "edits"],
    });
  });
});

Deno.test("edit_file: the input, read leniently", async (t) => {
  const edits = [{ old: "a", new: "b" }];
  await t.step("a list of {old, new}", () => {
    assertEquals(parseEditFileInput({ path: "x", edits }), {
      ok: true,
      input: { path: "x", edits, dry_run: false },
    });
  });
  await t.step("a single edit as top-level old and new", () => {
    assertEquals(parseEditFileInput({ path: "x", old: "a", new: "b", dry_run: "true" }), {
      ok: true,
      input: { path: "x", edits, dry_run: true },
    });
  });
  await t.step("names in another case or style: Path, DryRun, Edits, Old/OldText", () => {
    // A DryRun ignored once made a dry run a real edit.
    assertEquals(
      parseEditFileInput({ Path: "x", DryRun: true, Edits: [{ Old: "a", NewText: "b" }] }),
      { ok: true, input: { path: "x", edits, dry_run: true } },
    );
    assertEquals(parseEditFileInput({ PATH: "x", OldText: "a", NEW: "b" }), {
      ok: true,
      input: { path: "x", edits, dry_run: false },
    });
  });
  await t.step("edits sent as a JSON string", () => {
    assertEquals(parseEditFileInput({ path: "x", edits: JSON.stringify(edits) }), {
      ok: true,
      input: { path: "x", edits, dry_run: false },
    });
  });
  await t.step("one edit object without the list; common aliases of the fields", () => {
    assertEquals(
      parseEditFileInput({ file_path: "x", edits: { old_string: "a", new_string: "b" } }),
      { ok: true, input: { path: "x", edits, dry_run: false } },
    );
    assertEquals(
      parseEditFileInput({ file: "x", edits: [{ oldText: "a", newText: "b" }] }),
      { ok: true, input: { path: "x", edits, dry_run: false } },
    );
  });
  await t.step("a number is taken as its text", () => {
    assertEquals(parseEditFileInput({ path: "x", edits: [{ old: 1, new: 2 }] }), {
      ok: true,
      input: { path: "x", edits: [{ old: "1", new: "2" }], dry_run: false },
    });
  });
  await t.step("everything else is a fault saying what was expected", () => {
    const faults = (args: Record<string, unknown>) => {
      const r = parseEditFileInput(args);
      return r.ok ? [] : r.faults;
    };
    assertEquals(faults({}), [
      "path is missing",
      'edits is missing — send edits: [{"old": "<exact text now in the file>", "new": "<its replacement>"}]',
    ]);
    assertEquals(faults({ path: "x", edits: [] }), [
      'edits is empty — send at least one {"old": …, "new": …}',
    ]);
    assertEquals(faults({ path: "x", edits: "replace a by b" }), [
      'edits: "replace a by b" is not a list of {"old": …, "new": …} objects',
    ]);
    assertEquals(faults({ path: "x", edits: 3 }), [
      'edits: 3 is not a list of {"old": …, "new": …} objects',
    ]);
    assertEquals(
      faults({ path: "x", edits: ["a", { old: "a" }, { new: "b" }, { old: [1], new: "" }] }),
      [
        'edit #1 is not an {"old": …, "new": …} object: "a"',
        'edit #2: new is missing — give "" to delete the old text',
        "edit #3: old is missing",
        "edit #4: old: [1] is not a string",
      ],
    );
    assertEquals(faults({ path: "x", edits, old: "a", new: "b" }), [
      "send either edits or one old and new, not both — put every change in edits",
    ]);
    assertEquals(faults({ path: ["x"], edits, dry_run: "maybe" }), [
      'path: ["x"] is not a string',
      'dry_run: "maybe" is not a boolean',
    ]);
  });
  await t.step("a long value is cut in the fault", () => {
    const r = parseEditFileInput({ path: "x", edits: "y".repeat(200) });
    assertEquals(r.ok, false);
    if (!r.ok) {
      assertEquals(
        r.faults[0],
        `edits: "${"y".repeat(78)}… is not a list of {"old": …, "new": …} objects`,
      );
    }
  });
});

Deno.test("edit_file: the passes", async (t) => {
  await t.step("1. exact: replaced byte for byte; no whitespace note", async () => {
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "\tcount := 1\n", new: "\tcount := 2\n" }],
    });
    assertEquals(result, {
      output: "edited main.go: 1 edit applied, 1 line added, 1 deleted, first change at line 4\n" +
        "  1 │ package main\n  2 │\n  3 │ func main() {\n- 4 │ \tcount := 1\n+ 4 │ \tcount := 2\n" +
        "  5 │ \tprint(count)\n  6 │ }",
      diff: {
        path: "/work/project/main.go",
        oldText: GO,
        newText: GO.replace("count := 1", "count := 2"),
      },
      locations: ["/work/project/main.go"],
    });
    assertEquals(text(ctx), GO.replace("count := 1", "count := 2"));
  });

  await t.step(
    "the first pass that finds anything wins: verbatim text is never matched loosely",
    async () => {
      // "count := 1" is there verbatim; the indent pass would also have found the whole line.
      const { result, ctx } = await edit({ "main.go": GO }, {
        edits: [{ old: "count := 1", new: "count := 3" }],
      });
      assertEquals(
        result.output.split("\n")[0],
        "edited main.go: 1 edit applied, 1 line added, 1 deleted, first change at line 4",
      );
      assertEquals(text(ctx), GO.replace("count := 1", "count := 3"));
    },
  );

  await t.step(
    "2. edges: an indent kept on a single line; the same padding comes off new",
    async () => {
      const { result, ctx } = await edit({ "main.go": GO }, {
        edits: [{ old: "    count := 1", new: "    count := 2" }],
      });
      assertEquals(
        result.output.split("\n")[0],
        "edited main.go: 1 edit applied, 1 line added, 1 deleted, first change at line 4 · 1 matched ignoring whitespace",
      );
      assertEquals(text(ctx), GO.replace("count := 1", "count := 2"));
    },
  );

  await t.step("2. edges: a leading and a trailing newline", async () => {
    const { ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "\n\npackage main\n\n\n", new: "\n\npackage app\n\n\n" }],
    });
    assertEquals(text(ctx), GO.replace("package main", "package app"));
  });

  await t.step("2. edges: a new that deliberately adds a blank line still adds it", async () => {
    const { ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "    print(count)\n", new: "    print(count)\n\n    print(count + 1)\n" }],
    });
    assertEquals(
      text(ctx),
      GO.replace("\tprint(count)\n", "\tprint(count)\n\n\tprint(count + 1)\n"),
    );
  });

  await t.step("3. indent: tabs versus spaces, new re-indented with the file's tabs", async () => {
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{
        old: "func main() {\n    count := 1\n    print(count)\n}",
        new: "func main() {\n    count := 1\n    if count > 0 {\n        print(count)\n    }\n}",
      }],
    });
    assertEquals(
      text(ctx),
      "package main\n\nfunc main() {\n\tcount := 1\n\tif count > 0 {\n\t\tprint(count)\n\t}\n}\n",
    );
    assertEquals(
      result.output,
      "edited main.go: 1 edit applied, 3 lines added, 1 deleted, first change at line 5 · 1 matched ignoring whitespace\n" +
        "  2 │\n  3 │ func main() {\n  4 │ \tcount := 1\n- 5 │ \tprint(count)\n" +
        "+ 5 │ \tif count > 0 {\n+ 6 │ \t\tprint(count)\n+ 7 │ \t}\n  8 │ }",
    );
  });

  await t.step(
    "3. indent needs two lines or more; spaces inside one line are the interior pass's",
    async () => {
      const { result, ctx } = await edit({ "main.go": GO }, {
        edits: [{ old: "  count  :=  1", new: "count := 2" }],
      });
      assertEquals(
        result.output.split("\n")[0],
        "edited main.go: 1 edit applied, 1 line added, 1 deleted, first change at line 4 · 1 matched ignoring whitespace · 1 matched ignoring spaces inside lines",
      );
      assertEquals(text(ctx), GO.replace("count := 1", "count := 2"));
    },
  );

  await t.step(
    "a prefix copied from read_file's numbered lines is taken off old and new",
    async () => {
      const { result, ctx } = await edit({ "main.go": GO }, {
        edits: [{
          old: "4 │ \tcount := 1\n5 │ \tprint(count)",
          new: "4 │ \tcount := 5\n5 │ \tprint(count)",
        }],
      });
      assertEquals(result.failed, undefined);
      assertEquals(text(ctx), GO.replace("count := 1", "count := 5"));
    },
  );
});

Deno.test("edit_file: uniqueness is never relaxed", async (t) => {
  const twice = "a := 1\nb := 2\n\nfunc f() {\n\tx := 1\n}\n\nfunc g() {\n\tx := 1\n}\n";
  await t.step("exact: the count and the line numbers", async () => {
    const { result, ctx } = await edit({ "main.go": twice }, {
      edits: [{ old: "x := 1", new: "x := 2" }],
    });
    assertEquals(result, {
      output:
        "main.go: edit #1: old text appears 2 times (lines 5, 9) — to change ONE of them, include its surrounding lines in old until the text is unique; to change several, send one edit per place, each with enough surrounding lines to be unique",
      failed: true,
      locations: ["/work/project/main.go"],
    });
    assertEquals(text(ctx), twice);
    assertEquals(ctx.fs.writes, []);
  });
  await t.step(
    "edges and indent: refused with the same message and the same line numbers",
    async () => {
      const edges = await edit({ "main.go": twice }, {
        edits: [{ old: "   x := 1  ", new: "x := 2" }],
      });
      const indent = await edit({ "main.go": twice }, {
        edits: [{ old: "  x := 1\n}", new: "  x := 2\n}" }],
      });
      const want = ambiguousText("main.go", 1, 2, [5, 9]);
      assertEquals(edges.result.output, want);
      assertEquals(indent.result.output, want);
    },
  );
  await t.step("the ambiguous text; one line, and long lists cut", () => {
    assertEquals(
      ambiguousText("a.py", 2, 3, [11, 20, 31]),
      "a.py: edit #2: old text appears 3 times (lines 11, 20, 31) — to change ONE of them, include its surrounding lines in old until the text is unique; to change several, send one edit per place, each with enough surrounding lines to be unique",
    );
    assertStringIncludes(ambiguousText("a", 1, 2, [7]), "appears 2 times (line 7) —");
    const many = Array.from({ length: 25 }, (_, i) => i + 1);
    assertStringIncludes(
      ambiguousText("a", 1, 25, many),
      `(lines ${many.slice(0, 20).join(", ")}, …)`,
    );
  });
});

Deno.test("edit_file: several edits", async (t) => {
  const file = "one\ntwo\nthree\nfour\nfive\n";
  await t.step("all resolved against the original text, never in cascade", async () => {
    const { result, ctx } = await edit({ "main.go": file }, {
      edits: [{ old: "one", new: "two" }, { old: "two", new: "TWO" }],
    });
    // Edit #2 changed the original "two", not the one edit #1 wrote.
    assertEquals(text(ctx), "two\nTWO\nthree\nfour\nfive\n");
    assertEquals(
      result.output.split("\n")[0],
      "edited main.go: 2 edits applied, 1 line added, 1 deleted, first change at line 1",
    );
  });
  await t.step("edits in any order, counted in the headline", async () => {
    const { ctx } = await edit({ "main.go": file }, {
      edits: [{ old: "five", new: "5" }, { old: "one\n", new: "" }, { old: "three", new: "3" }],
    });
    assertEquals(text(ctx), "two\n3\nfour\n5\n");
  });
  await t.step("overlapping edits are refused; nothing is written", async () => {
    const { result, ctx } = await edit({ "main.go": file }, {
      edits: [{ old: "two\nthree", new: "x" }, { old: "three\nfour", new: "y" }],
    });
    assertEquals(
      result.output,
      "main.go: edits #1 and #2 overlap (lines 2-3 and lines 3-4) — edits are all resolved against the original file, not one after another: merge them into one edit\n" +
        "nothing was written: 1 of 2 edits was refused — send all 2 again, with the refused one corrected",
    );
    assertEquals(result.failed, true);
    assertEquals(text(ctx), file);
  });
  await t.step("nested edits are refused", async () => {
    const { result } = await edit({ "main.go": file }, {
      edits: [{ old: "three", new: "3" }, { old: "two\nthree\nfour", new: "x" }],
    });
    assertEquals(
      result.output.split("\n")[0],
      "main.go: edit #1 lies inside edit #2 (lines 2-4) — edits are all resolved against the original file, not one after another: merge them into one edit",
    );
  });
  await t.step("repeated edits are refused", async () => {
    const { result } = await edit({ "main.go": file }, {
      edits: [{ old: "four", new: "4" }, { old: "four", new: "IV" }],
    });
    assertEquals(
      result.output.split("\n")[0],
      "main.go: edit #2 repeats edit #1: both change line 4 — send one edit per place",
    );
  });
  await t.step("any refused edit: nothing is written, every refusal listed in order", async () => {
    const { result, ctx } = await edit({ "main.go": file }, {
      edits: [{ old: "one", new: "1" }, { old: "", new: "x" }, { old: "six", new: "6" }, {
        old: "two",
        new: "two",
      }],
    });
    assertEquals(
      result.output,
      [
        emptyOldText("main.go", 2),
        notFoundText("main.go", 3, "six"),
        sameText("main.go", 4),
        nothingWrittenText(3, 4),
      ].join("\n"),
    );
    assertEquals(text(ctx), file);
    assertEquals(ctx.fs.writes, []);
  });
  await t.step("the conflict texts", () => {
    assertEquals(
      repeatText("a", 1, 3, 4, 4),
      "a: edit #3 repeats edit #1: both change line 4 — send one edit per place",
    );
    assertEquals(
      nestedText("a", 2, 1, 3, 9),
      "a: edit #2 lies inside edit #1 (lines 3-9) — edits are all resolved against the original file, not one after another: merge them into one edit",
    );
    assertEquals(
      overlapText("a", 1, 2, [3, 3], [3, 5]),
      "a: edits #1 and #2 overlap (line 3 and lines 3-5) — edits are all resolved against the original file, not one after another: merge them into one edit",
    );
    assertEquals(
      nothingWrittenText(2, 3),
      "nothing was written: 2 of 3 edits were refused — send all 3 again, with the refused ones corrected",
    );
  });
});

Deno.test("edit_file: not found", async (t) => {
  await t.step("the spec's example, byte for byte", async () => {
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "func main() {\n    count := 2\n    print(count)\n}", new: "x" }],
    });
    assertEquals(result, {
      output:
        "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
        "  │ func main() {\n" +
        "  │     count := 2\n" +
        "  │     print(count)\n" +
        "  │ }\n" +
        "the closest the file comes to it — copy these lines:\n" +
        "  │ 3 │ func main() {\n" +
        "  │ 4 │ \tcount := 1\n" +
        "  │ 5 │ \tprint(count)\n" +
        "  │ 6 │ }",
      failed: true,
      locations: ["/work/project/main.go"],
    });
    assertEquals(text(ctx), GO);
  });

  await t.step(
    "real line numbers, right-aligned; an empty line has no trailing space",
    async () => {
      const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
      lines[9] = "";
      const { result } = await edit({ "main.go": lines.join("\n") + "\n" }, {
        edits: [{ old: "line 9\n\nline 11\nline 12 and more", new: "x" }],
      });
      assertEquals(
        result.output,
        "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
          "  │ line 9\n  │\n  │ line 11\n  │ line 12 and more\n" +
          "the closest the file comes to it — copy these lines:\n" +
          "  │  9 │ line 9\n  │ 10 │\n  │ 11 │ line 11\n  │ 12 │ line 12",
      );
    },
  );

  await t.step("a single line with a typo: its closest line", async () => {
    const { result } = await edit({ "main.go": GO }, {
      edits: [{ old: "\tprint(cont)", new: "x" }],
    });
    assertStringIncludes(
      result.output,
      "the closest the file comes to it — copy these lines:\n  │ 5 │ \tprint(count)",
    );
  });

  await t.step("fewer than half the lines line up: no excerpt", async () => {
    const { result } = await edit({ "main.go": GO }, {
      edits: [{ old: "func main() {\n\tx := 1\n\ty := 2\n\treturn\n}", new: "x" }],
    });
    assertEquals(
      result.output,
      "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
        "  │ func main() {\n  │ \tx := 1\n  │ \ty := 2\n  │ \treturn\n  │ }\n" + NOTHING_CLOSE,
    );
    assertEquals(
      NOTHING_CLOSE,
      "nothing in the file comes close to it — read the file again with read_file and copy the lines to change exactly as they are",
    );
  });

  await t.step("lines that line up only by their braces point nowhere", async () => {
    const { result } = await edit({ "main.go": GO }, { edits: [{ old: "}\n\nfoo()", new: "x" }] });
    assertStringIncludes(result.output, NOTHING_CLOSE);
  });

  await t.step("a final newline of old is not shown as an empty line", () => {
    assertEquals(
      notFoundText("a", 1, "x\n"),
      "a: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n  │ x\n" +
        NOTHING_CLOSE,
    );
  });
});

Deno.test("edit_file: other refusals", async (t) => {
  await t.step("a missing file: create it with write_file", async () => {
    const { result } = await edit({}, { path: "new.go", edits: [{ old: "a", new: "b" }] });
    assertEquals(result, {
      output: "new.go does not exist. Create it with write_file",
      failed: true,
      locations: ["/work/project/new.go"],
    });
  });
  await t.step("a directory", async () => {
    const { result } = await edit({ "src/a.go": "x" }, {
      path: "src",
      edits: [{ old: "a", new: "b" }],
    });
    assertEquals(
      result.output,
      "src is a directory, not a file. To see what it holds, run ls with bash.",
    );
  });
  await t.step("an empty old: say what to do", async () => {
    const { result } = await edit({ "main.go": GO }, { edits: [{ old: "", new: "x" }] });
    assertEquals(
      result.output,
      "main.go: edit #1: old is empty — copy into old the exact lines to change; to add lines, put in old the line they go next to, and in new that line with the added ones; to create a file or replace all of it, use write_file",
    );
    assertEquals(result.failed, true);
  });
  await t.step("old equal to new", async () => {
    const { result } = await edit({ "main.go": GO }, {
      edits: [{ old: "package main", new: "package main" }],
    });
    assertEquals(
      result.output,
      "main.go: edit #1: old and new are the same text — nothing would change; put in new the text as it must become",
    );
  });
  await t.step("a binary file", async () => {
    const { result } = await edit({ "main.go": new Uint8Array([97, 0, 98]) }, {
      edits: [{ old: "a", new: "b" }],
    });
    assertEquals(
      result.output,
      "main.go is a binary file (3 bytes); edit_file edits text files only.",
    );
  });
  await t.step("a Windows-1252 file: edited in Windows-1252, every other byte kept", async () => {
    // Every byte but NUL and LF on lines of their own, then the line to change.
    const high = Uint8Array.from({ length: 255 - 10 }, (_, i) => i + 11);
    const head = Uint8Array.of(...[1, 2, 3, 4, 5, 6, 7, 8, 9, 0x0a], ...high, 0x0d, 0x0a);
    const line = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
    const before = Uint8Array.of(...head, ...line("caf\xe9 = 1\r\n"));
    const { result, ctx } = await edit({ "main.go": before }, {
      edits: [{ old: "café = 1", new: "café = “2” €" }],
    });
    assertEquals(result.failed, undefined, result.output);
    assertEquals(
      ctx.fs.files.get("/work/project/main.go"),
      Uint8Array.of(...head, ...line("caf\xe9 = \x932\x94 \x80\r\n")),
    );
  });
  await t.step("a character Windows-1252 lacks: refused, nothing written", async () => {
    const before = Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0x0a);
    const { result, ctx } = await edit({ "main.go": before }, {
      edits: [{ old: "caf", new: "→" }],
    });
    assertEquals(result.failed, true);
    assertEquals(
      result.output,
      'cannot write main.go: it is Windows-1252 (Latin-1) text, which has no "→" (U+2192) — ' +
        "nothing was written. Write that character another way (in ASCII, or as the file's format escapes it).",
    );
    assertEquals(ctx.fs.files.get("/work/project/main.go"), before);
    assertEquals(ctx.fs.writes, []);
  });
  await t.step(
    "UTF-16 LE and BE with a BOM: edited in UTF-16, the rest byte for byte",
    async () => {
      for (const little of [true, false]) {
        const utf16 = (s: string) =>
          Uint8Array.from(
            [...s].flatMap((c) => {
              const u = c.charCodeAt(0);
              return little ? [u & 0xff, u >> 8] : [u >> 8, u & 0xff];
            }),
          );
        const { result, ctx } = await edit({ "main.go": utf16("\uFEFFa = 1\r\nb = ü\r\n") }, {
          edits: [{ old: "b = ü", new: "b = →" }],
        });
        assertEquals(result.failed, undefined, result.output);
        assertEquals(
          ctx.fs.files.get("/work/project/main.go"),
          utf16("\uFEFFa = 1\r\nb = →\r\n"),
        );
      }
    },
  );
  await t.step("UTF-16 that does not decode: refused, no rewrite suggested", async () => {
    const { result, ctx } = await edit(
      { "main.go": Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0x62) },
      { edits: [{ old: "a", new: "x" }] },
    );
    assertEquals(
      result.output,
      "main.go starts with a UTF-16 LE byte order mark but is not valid UTF-16 LE text (5 bytes): " +
        "the file tools cannot read or change it without damaging it.",
    );
    assertEquals(result.output.includes("write_file"), false);
    assertEquals(ctx.fs.writes, []);
  });
  await t.step("a read-only file: refused with its mode; a dry run still answers", async () => {
    class ReadOnly extends MemoryFiles {
      override async stat(path: string): Promise<FileInfo | undefined> {
        const info = await super.stat(path);
        return info?.isFile ? { ...info, mode: 0o444, readOnly: true } : info;
      }
    }
    const fs = new ReadOnly("/work/project", { "main.go": GO });
    const input = { path: "main.go", edits: [{ old: "count := 1", new: "count := 2" }] };
    const r = await editFile.run({ ...input, dry_run: false }, fakeContext({ fs }));
    assertEquals(r, {
      output: "cannot write main.go: it is read-only (mode 0444) — nothing was written",
      failed: true,
      locations: ["/work/project/main.go"],
    });
    assertEquals(fs.writes, []);
    const dry = await editFile.run({ ...input, dry_run: true }, fakeContext({ fs }));
    assertEquals(dry.failed, undefined);
  });
  await t.step("unreadable and unwritable files", async () => {
    const ctx = fakeContext({ files: { "main.go": GO } });
    ctx.fs.failures.set("/work/project/main.go", new Deno.errors.PermissionDenied("nope"));
    const r = await editFile.run({
      path: "main.go",
      edits: [{ old: "a", new: "b" }],
      dry_run: false,
    }, ctx);
    assertEquals(r.output, "cannot read main.go: permission denied");
  });
  await t.step("when the edits change nothing after all, nothing is written", async () => {
    // The spaces are re-indented to the tab the file already has.
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "\tcount := 1\n", new: "    count := 1\n" }],
    });
    assertEquals(result.output, "main.go already has this content — nothing was written");
    assertEquals(ctx.fs.writes, []);
  });
});

Deno.test("edit_file: headline, diff, dry run", async (t) => {
  await t.step("the headline texts", () => {
    const c = { edits: 2, added: 3, deleted: 1, first: 12, relaxed: 1 };
    assertEquals(
      editedText("main.go", c),
      "edited main.go: 2 edits applied, 3 lines added, 1 deleted, first change at line 12 · 1 matched ignoring whitespace",
    );
    assertEquals(
      editedText("a", { edits: 1, added: 1, deleted: 0, first: 1, relaxed: 0 }),
      "edited a: 1 edit applied, 1 line added, 0 deleted, first change at line 1",
    );
    assertEquals(
      dryRunText("main.go", c),
      "dry run of main.go, nothing was written: 2 edits would apply, 3 lines added, 1 deleted, first change at line 12 · 1 matched ignoring whitespace",
    );
  });

  await t.step("dry_run: the same report, nothing written, no diff for the editor", async () => {
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "count := 1", new: "count := 2" }],
      dry_run: true,
    });
    assertEquals(result, {
      output:
        "dry run of main.go, nothing was written: 1 edit would apply, 1 line added, 1 deleted, first change at line 4\n" +
        "  1 │ package main\n  2 │\n  3 │ func main() {\n- 4 │ \tcount := 1\n+ 4 │ \tcount := 2\n" +
        "  5 │ \tprint(count)\n  6 │ }",
      locations: ["/work/project/main.go"],
    });
    assertEquals(text(ctx), GO);
    assertEquals(ctx.fs.writes, []);
  });

  await t.step("hunks far apart are separated by …; numbers are the new file's", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    const { result } = await edit({ "main.go": lines.join("\n") + "\n" }, {
      edits: [{ old: "l2\n", new: "" }, { old: "l18", new: "L18" }],
    });
    assertEquals(
      result.output,
      "edited main.go: 2 edits applied, 1 line added, 2 deleted, first change at line 2\n" +
        "   1 │ l1\n-  2 │ l2\n   2 │ l3\n   3 │ l4\n   4 │ l5\n…\n" +
        "  14 │ l15\n  15 │ l16\n  16 │ l17\n- 18 │ l18\n+ 17 │ L18\n  18 │ l19\n  19 │ l20",
    );
  });

  await t.step("the output is cut to maxOutput", async () => {
    const big = Array.from({ length: 400 }, (_, i) => `line ${i}`).join("\n");
    const { result } = await edit({ "main.go": big }, {
      edits: [{ old: big, new: big.toUpperCase() }],
    }, { maxOutput: 500 });
    assertEquals(result.output.length <= 500, true);
    assertStringIncludes(result.output, "characters cut: output truncated to maxOutput");
  });
});

Deno.test("edit_file: line endings and byte order mark", async (t) => {
  await t.step("CRLF: matched on LF text, written back with CRLF", async () => {
    const crlf = "one\r\ntwo\r\nthree\r\n";
    const { result, ctx } = await edit({ "main.go": crlf }, {
      edits: [{ old: "two\nthree\n", new: "2\n3\n4\n" }],
    });
    assertEquals(text(ctx), "one\r\n2\r\n3\r\n4\r\n");
    assertEquals(
      result.output,
      "edited main.go: 1 edit applied, 3 lines added, 2 deleted, first change at line 2\n" +
        "  1 │ one\n- 2 │ two\n- 3 │ three\n+ 2 │ 2\n+ 3 │ 3\n+ 4 │ 4",
    );
    assertEquals(result.diff?.oldText, crlf);
    assertEquals(result.diff?.newText, "one\r\n2\r\n3\r\n4\r\n");
  });
  await t.step("CRLF in old and new is read as LF", async () => {
    const { ctx } = await edit({ "main.go": "a\r\nb\r\n" }, {
      edits: [{ old: "a\r\nb", new: "b\r\na" }],
    });
    assertEquals(text(ctx), "b\r\na\r\n");
  });
  await t.step("a mixed file keeps the endings of the lines not touched", async () => {
    const { ctx } = await edit({ "main.go": "a\r\nb\nc\r\nd\r\n" }, {
      edits: [{ old: "c\n", new: "C\nC2\n" }],
    });
    assertEquals(text(ctx), "a\r\nb\nC\r\nC2\r\nd\r\n");
  });
  await t.step("the source: offsets of the CRs, the dominant ending", () => {
    assertEquals(readSource("a\r\nb\nc\r\n"), {
      raw: "a\r\nb\nc\r\n",
      bom: "",
      text: "a\nb\nc\n",
      crlf: true,
      crs: [1, 5],
    });
    assertEquals(readSource("\uFEFFa\nb\r\n").crlf, false);
  });
  await t.step("a byte order mark is kept, and not in the way of a match", async () => {
    const { ctx } = await edit({ "main.go": "\uFEFFpackage main\n" }, {
      edits: [{ old: "\npackage main", new: "package app" }],
    });
    assertEquals(
      new TextDecoder("utf-8", { ignoreBOM: true }).decode(
        ctx.fs.files.get("/work/project/main.go"),
      ),
      "\uFEFFpackage app\n",
    );
  });
});

/**
 * Near misses taken from real small-model failures: what the model sent, what the file held, and
 * what the file must hold afterwards.
 */
const NEAR_MISSES: {
  name: string;
  path?: string;
  file: string;
  old: string;
  new: string;
  want: string;
  relaxed: boolean;
}[] = [
  {
    name: "Go: four spaces retyped where the file has a tab",
    file: "func add(a, b int) int {\n\tsum := a + b\n\treturn sum\n}\n",
    old: "    sum := a + b\n    return sum",
    new: "    sum := a + b\n    log.Println(sum)\n    return sum",
    want: "func add(a, b int) int {\n\tsum := a + b\n\tlog.Println(sum)\n\treturn sum\n}\n",
    relaxed: true,
  },
  {
    name: "Go: a new block nested one level deeper, with spaces",
    file: "func f() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(i)\n\t}\n}\n",
    old: "for i := 0; i < 3; i++ {\n    fmt.Println(i)\n}",
    new: "for i := 0; i < 3; i++ {\n    if i > 0 {\n        fmt.Println(i)\n    }\n}",
    want:
      "func f() {\n\tfor i := 0; i < 3; i++ {\n\t\tif i > 0 {\n\t\t\tfmt.Println(i)\n\t\t}\n\t}\n}\n",
    relaxed: true,
  },
  {
    name: "Go: old exact, new typed with spaces in a tab file",
    file: "func f() {\n\tx := 1\n}\n",
    old: "\tx := 1\n",
    new: "\tx := 1\n    y := 2\n",
    want: "func f() {\n\tx := 1\n\ty := 2\n}\n",
    relaxed: false,
  },
  {
    name: "Python: a method copied without its class indentation",
    path: "a.py",
    file: "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n",
    old: "def f(self):\n    return 1",
    new: "def f(self):\n    x = 1\n    return x",
    want:
      "class A:\n    def f(self):\n        x = 1\n        return x\n\n    def g(self):\n        return 2\n",
    relaxed: true,
  },
  {
    name: "Python: two-space indentation where the file has four",
    path: "a.py",
    file: "def f(x):\n    if x:\n        return 1\n    return 0\n",
    old: "def f(x):\n  if x:\n    return 1",
    new: "def f(x):\n  if x:\n    print(x)\n    return 1",
    want: "def f(x):\n    if x:\n        print(x)\n        return 1\n    return 0\n",
    relaxed: true,
  },
  {
    name: "Python: old exact, new indented with tabs in a space file",
    path: "a.py",
    file: "def f(x):\n    return x\n",
    old: "    return x\n",
    new: "    if x:\n\t\treturn x\n    return 0\n",
    want: "def f(x):\n    if x:\n        return x\n    return 0\n",
    relaxed: false,
  },
  {
    name: "CRLF file, old and new with LF",
    path: "a.txt",
    file: "[core]\r\n\tname = a\r\n\tmode = b\r\n",
    old: "\tname = a\n\tmode = b\n",
    new: "\tname = c\n\tmode = b\n",
    want: "[core]\r\n\tname = c\r\n\tmode = b\r\n",
    relaxed: false,
  },
  {
    name: "trailing newline missing in the file, present in old and new",
    path: "a.txt",
    file: "x = 1\ny = 2",
    old: "y = 2\n",
    new: "y = 3\n",
    want: "x = 1\ny = 3",
    relaxed: true,
  },
  {
    name: "old with a leading blank line the file does not have there",
    file: "package main\nfunc a() {}\nfunc b() {}\n",
    old: "\n\nfunc b() {}",
    new: "\n\nfunc b() { a() }",
    want: "package main\nfunc a() {}\nfunc b() { a() }\n",
    relaxed: true,
  },
  {
    name: "new adding a blank line after a relaxed match",
    file: "func f() {\n\ta()\n\tb()\n}\n",
    old: "    a()\n    b()\n",
    new: "    a()\n\n    b()\n",
    want: "func f() {\n\ta()\n\n\tb()\n}\n",
    relaxed: true,
  },
  {
    name: "trailing spaces after the lines of old",
    file: "func f() {\n\ta()\n\tb()\n}\n",
    old: "a()  \n\tb()   ",
    new: "a()  \n\tc()   ",
    want: "func f() {\n\ta()\n\tc()\n}\n",
    relaxed: true,
  },
  {
    name: "blank lines of a re-indented new stay empty",
    file: "class A:\n    def f(self):\n        a = 1\n        b = 2\n",
    path: "a.py",
    old: "a = 1\nb = 2",
    new: "a = 1\n    \nb = 3",
    want: "class A:\n    def f(self):\n        a = 1\n\n        b = 3\n",
    relaxed: true,
  },
  {
    name: "Makefile: recipe lines keep tabs whatever the model typed",
    path: "Makefile",
    file: "VARS = a \\\n    b \\\n    c\nbuild:\n\tgo build\n",
    old: "build:\n",
    new: "build:\n    go vet\n",
    want: "VARS = a \\\n    b \\\n    c\nbuild:\n\tgo vet\n\tgo build\n",
    relaxed: false,
  },
  {
    name: "numbered lines copied from read_file",
    file: "a\nb\nc\n",
    old: "  2 │ b\n  3 │ c",
    new: "  2 │ B\n  3 │ c",
    want: "a\nB\nc\n",
    relaxed: false,
  },
  {
    name: "lines copied from the closest region of a refusal",
    file: "func main() {\n\tcount := 1\n}\n",
    old: "  │ 2 │ \tcount := 1",
    new: "\tcount := 2",
    want: "func main() {\n\tcount := 2\n}\n",
    relaxed: false,
  },
];

Deno.test("edit_file: near misses from real small models", async (t) => {
  for (const c of NEAR_MISSES) {
    await t.step(c.name, async () => {
      const path = c.path ?? "main.go";
      const { result, ctx } = await edit({ [path]: c.file }, {
        path,
        edits: [{ old: c.old, new: c.new }],
      });
      assertEquals(result.failed, undefined, result.output);
      assertEquals(text(ctx, path), c.want);
      assertEquals(
        result.output.split("\n")[0].endsWith(" · 1 matched ignoring whitespace"),
        c.relaxed,
      );
    });
  }
  await t.step("isMakefile", () => {
    assertEquals(
      ["Makefile", "a/makefile", "GNUmakefile", "rules.mk", "Makefile.py"].map(isMakefile),
      [
        true,
        true,
        true,
        true,
        false,
      ],
    );
  });
});

Deno.test("edit_file: the texts of the relaxations and their refusals", async (t) => {
  await t.step("each relaxation's words in the headline, after whitespace's, in this order", () => {
    assertEquals(RELAXATION_WORDS, {
      lineNumbers: "matched without line numbers",
      fences: "matched without code fences",
      escapes: "matched without JSON escapes",
      typography: "matched ignoring typography",
      interior: "matched ignoring spaces inside lines",
      elision: "matched piece by piece",
    });
    assertEquals(
      editedText("a.go", {
        edits: 3,
        added: 2,
        deleted: 2,
        first: 7,
        relaxed: 2,
        relaxations: { elision: 1, lineNumbers: 2, typography: 0 },
      }),
      "edited a.go: 3 edits applied, 2 lines added, 2 deleted, first change at line 7 · 2 matched ignoring whitespace · 2 matched without line numbers · 1 matched piece by piece",
    );
  });

  await t.step("a placeholder in new", () => {
    assertEquals(
      placeholderText("a.ts", 2, "// ... existing code ..."),
      'a.ts: edit #2: new holds the placeholder "// ... existing code ...", which old does not have — edit_file would write it into the file in place of the code it stands for; send the real lines instead: put in old only the lines that change, and in new those lines as they must become',
    );
  });

  await t.step("already applied", () => {
    assertEquals(
      appliedText("a.go", 1, 4, 6),
      "a.go: edit #1: old text not found, but new is already in the file at lines 4-6 — this edit looks already applied; leave it out, and read the file again with read_file before changing more",
    );
    assertStringIncludes(appliedText("a.go", 1, 4, 4), "already in the file at line 4 —");
  });

  await t.step("an elided old refused", () => {
    assertEquals(
      elisionAmbiguousText("a.py", 1, "# ...", 2, 3, [4, 9, 12]),
      'a.py: edit #1: old leaves out lines with "# ...", and its piece 2 appears 3 times (lines 4, 9, 12) — include more of that piece\'s lines until it is unique, or send old in full',
    );
    assertEquals(
      elisionOrderText("a.py", 1, "# ..."),
      'a.py: edit #1: old leaves out lines with "# ...", but its pieces are not in the file in that order — send old in full, as the file has it',
    );
    assertEquals(
      elisionOutsideText("a.py", 1, "# ...", 1, 2, 4),
      'a.py: edit #1: old leaves out lines with "# ...", but the lines left out (lines 2-4) do not stay inside the block line 1 opens — send one edit per piece, or old in full',
    );
  });

  await t.step("through the tool: a placeholder refused, nothing written", async () => {
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "\tprint(count)", new: "\t// ... existing code ...\n\tprint(count)" }],
    });
    assertEquals(result, {
      output: placeholderText("main.go", 1, "// ... existing code ..."),
      failed: true,
      locations: ["/work/project/main.go"],
    });
    assertEquals(ctx.fs.writes, []);
  });

  await t.step("through the tool: already applied, nothing written", async () => {
    const { result, ctx } = await edit({ "main.go": GO }, {
      edits: [{ old: "\tcount := 0\n", new: "\tcount := 1\n" }],
    });
    assertEquals(result.output, appliedText("main.go", 1, 4, 4));
    assertEquals(ctx.fs.writes, []);
  });

  await t.step("through the tool: several relaxations counted per edit", async () => {
    const { result } = await edit({ "main.go": GO }, {
      edits: [
        { old: "```go\n\tcount := 1\n```", new: "```go\n\tcount := 2\n```" },
        { old: "\tprint( count )", new: "\tprint( count + 1 )" },
      ],
    });
    assertEquals(
      result.output.split("\n")[0],
      "edited main.go: 2 edits applied, 2 lines added, 2 deleted, first change at line 4 · 1 matched without code fences · 1 matched ignoring spaces inside lines",
    );
  });
});
