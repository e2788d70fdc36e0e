import { assertEquals } from "../helpers/assert.ts";
import { fakeContext, type FakeContextOptions } from "../helpers/fake_context.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { toolLine } from "../../lib/frontend/terminal/display.ts";
import { rejectedText } from "../../lib/permissions/prompt.ts";
import type { Conversation } from "../../lib/tool.ts";
import {
  existsText,
  firstTextLine,
  NO_ANSWER_TEXT,
  NO_PATH_TEXT,
  PATH_DESCRIPTION,
  saveAnswer,
  savedText,
  saveErrorText,
} from "../../tools/save_answer.ts";

/** A fake context whose conversation has `callerText` and `previousAnswer`. */
function ctxWith(
  conversation: Partial<Conversation> | undefined,
  options: FakeContextOptions = {},
) {
  const ctx = fakeContext(options);
  if (conversation) ctx.conversation = { history: [], callerText: "", ...conversation };
  return ctx;
}

Deno.test("save_answer", async (t) => {
  await t.step("declared when saveAnswerTool: true (default false)", () => {
    assertEquals(saveAnswer.declared(defaultConfig()), false);
    assertEquals(saveAnswer.declared({ ...defaultConfig(), saveAnswerTool: true }), true);
  });

  await t.step("one field, path, with the spec's description; kind edit; asks; 💾", () => {
    assertEquals(saveAnswer.name, "save_answer");
    assertEquals(Object.keys(saveAnswer.parameters), ["path"]);
    assertEquals(
      PATH_DESCRIPTION,
      "The file to create, relative to the working directory. It must not exist yet.",
    );
    assertEquals(saveAnswer.parameters.path.type, "string");
    assertEquals(saveAnswer.parameters.path.optional, undefined);
    assertEquals([saveAnswer.kind, saveAnswer.emoji], ["edit", "💾"]);
    const asks = saveAnswer.asks as (i: { path: string }, c?: Conversation) => boolean;
    assertEquals(asks({ path: "a.md" }, { history: [], callerText: "an answer" }), true);
    assertEquals(
      asks({ path: "a.md" }, { history: [], callerText: "", previousAnswer: "before" }),
      true,
    );
    assertEquals(asks({ path: "a.md" }, { history: [], callerText: "" }), false, "nothing to save");
    assertEquals(saveAnswer.counter, undefined);
  });

  await t.step("display: 💾 save_answer: <path> (this answer|the previous answer)", () => {
    assertEquals(saveAnswer.summary({ path: "notes/answer.md" }), "notes/answer.md");
    assertEquals(
      saveAnswer.summary({ path: "a.md" }, { history: [], callerText: "text" }),
      "a.md (this answer)",
    );
    assertEquals(
      saveAnswer.summary({ path: "a.md" }, { history: [], callerText: "", previousAnswer: "p" }),
      "a.md (the previous answer)",
    );
    assertEquals(
      toolLine(saveAnswer.emoji, saveAnswer.name, saveAnswer.summary({ path: "a.md" })),
      "💾 save_answer: a.md",
    );
  });

  await t.step("the calling message's text: this answer, with a trailing newline", async () => {
    const ctx = ctxWith({ callerText: "# Plan\n\n1. Build\n2. Ship", previousAnswer: "old" });
    const result = await saveAnswer.run({ path: "plan.md" }, ctx);
    assertEquals(result, {
      output: "saved this answer to plan.md (25 bytes), starting with: # Plan",
      locations: ["/work/project/plan.md"],
    });
    assertEquals(ctx.fs.text("plan.md"), "# Plan\n\n1. Build\n2. Ship\n");
  });

  await t.step("no text in the calling message: the previous answer", async () => {
    const ctx = ctxWith({ callerText: "  \n ", previousAnswer: "Paris is the capital.\n" });
    const result = await saveAnswer.run({ path: "capital.txt" }, ctx);
    assertEquals(
      result.output,
      "saved the previous answer to capital.txt (22 bytes), starting with: Paris is the capital.",
    );
    assertEquals(ctx.fs.text("capital.txt"), "Paris is the capital.\n", "one newline, not two");
  });

  await t.step("written as it is: bytes counted in UTF-8, nothing trimmed", async () => {
    const ctx = ctxWith({ callerText: "\n\n  Été — café  \n\nend" });
    const result = await saveAnswer.run({ path: "fr.txt" }, ctx);
    assertEquals(ctx.fs.text("fr.txt"), "\n\n  Été — café  \n\nend\n");
    assertEquals(
      result.output,
      savedText(
        "this answer",
        "fr.txt",
        new TextEncoder().encode(ctx.fs.text("fr.txt")!).length,
        "Été — café",
      ),
    );
    assertEquals(result.output.includes("(27 bytes)"), true);
  });

  await t.step("the first line quoted: the first one with text, cut at 120 characters", () => {
    assertEquals(firstTextLine("\n \n  Title  \nbody"), "Title");
    assertEquals(firstTextLine("x".repeat(200)), "x".repeat(119) + "…");
    assertEquals(firstTextLine("x".repeat(120)), "x".repeat(120));
  });

  await t.step("missing parent directories are created", async () => {
    const ctx = ctxWith({ callerText: "hello" });
    const result = await saveAnswer.run({ path: "out/deep/er/a.md" }, ctx);
    assertEquals(result.locations, ["/work/project/out/deep/er/a.md"]);
    assertEquals(ctx.fs.text("out/deep/er/a.md"), "hello\n");
  });

  await t.step("an existing file is never overwritten", async () => {
    const ctx = ctxWith({ callerText: "new" }, { files: { "a.md": "old\n" } });
    const result = await saveAnswer.run({ path: "a.md" }, ctx);
    assertEquals(result, {
      output:
        "[save_answer: a.md already exists — nothing was written. Pick another name, or ask the user]",
      failed: true,
      locations: ["/work/project/a.md"],
    });
    assertEquals(existsText("a.md"), result.output);
    assertEquals(ctx.fs.text("a.md"), "old\n");
    assertEquals(ctx.fs.writes, []);
  });

  await t.step("an existing directory is not overwritten either", async () => {
    const ctx = ctxWith({ callerText: "new" }, { files: { "docs/x.md": "x" } });
    const result = await saveAnswer.run({ path: "docs" }, ctx);
    assertEquals(result.output, existsText("docs"));
    assertEquals(ctx.fs.writes, []);
  });

  await t.step("no answer yet: nothing is written", async () => {
    assertEquals(
      NO_ANSWER_TEXT,
      "[save_answer: there is no answer to save yet — write the answer in your reply first, then call save_answer with the file name]",
    );
    for (
      const conversation of [undefined, { callerText: "" }, {
        callerText: " ",
        previousAnswer: "\n",
      }]
    ) {
      const ctx = ctxWith(conversation);
      const result = await saveAnswer.run({ path: "a.md" }, ctx);
      assertEquals(result, {
        output: NO_ANSWER_TEXT,
        failed: true,
        locations: ["/work/project/a.md"],
      });
      assertEquals(ctx.fs.writes, []);
    }
  });

  await t.step("a file where a directory should be: cannot write", async () => {
    const ctx = ctxWith({ callerText: "x" }, { files: { "a.txt": "file" } });
    const result = await saveAnswer.run({ path: "a.txt/b.md" }, ctx);
    assertEquals(result.output, saveErrorText("a.txt/b.md", "not a directory"));
    assertEquals(
      result.output,
      "[save_answer: cannot write a.txt/b.md: not a directory — nothing was written]",
    );
    assertEquals(result.failed, true);
  });

  await t.step("no file name", async () => {
    const result = await saveAnswer.run({ path: " " }, ctxWith({ callerText: "x" }));
    assertEquals(result, { output: NO_PATH_TEXT, failed: true });
  });

  await t.step("a refusal (yolo: false) is the core's text", () => {
    assertEquals(rejectedText("save_answer"), "[save_answer rejected by the user]");
  });
});
