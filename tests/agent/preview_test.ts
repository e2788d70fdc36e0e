/** The change a file-changing call would make, for its permission dialog (lib/agent/preview.ts). */

import { changedSince, previewChange } from "../../lib/agent/preview.ts";
import { bash } from "../../tools/bash.ts";
import { editFile } from "../../tools/edit_file/mod.ts";
import { writeFile } from "../../tools/write_file.ts";
import { unchangedText } from "../../tools/_files.ts";
import { assertEquals } from "../helpers/assert.ts";
import { FAKE_CWD, fakeContext } from "../helpers/fake_context.ts";

Deno.test("previewChange: what a call would change, nothing written", async (t) => {
  const text = (ctx: ReturnType<typeof fakeContext>, path: string) =>
    new TextDecoder().decode(ctx.fs.files.get(`${FAKE_CWD}/${path}`));

  await t.step("write_file: a new file, and a file replaced", async () => {
    const ctx = fakeContext({ files: { "old.txt": "a\n" } });
    assertEquals(await previewChange(writeFile, { path: "new.txt", content: "n\n" }, ctx), {
      kind: "change",
      diff: { path: `${FAKE_CWD}/new.txt`, newText: "n\n" },
      seen: new Map([[`stat:${FAKE_CWD}/new.txt`, "missing"]]),
    });
    assertEquals(ctx.fs.files.has(`${FAKE_CWD}/new.txt`), false);
    assertEquals(await previewChange(writeFile, { path: "old.txt", content: "b\n" }, ctx), {
      kind: "change",
      diff: { path: `${FAKE_CWD}/old.txt`, oldText: "a\n", newText: "b\n" },
      seen: new Map<string, string | Uint8Array | undefined>([
        [`stat:${FAKE_CWD}/old.txt`, "file:2"],
        [`${FAKE_CWD}/old.txt`, new TextEncoder().encode("a\n")],
      ]),
    });
    assertEquals(text(ctx, "old.txt"), "a\n");
    // The same content changes nothing: its answer, and nothing to ask.
    const same = await previewChange(writeFile, { path: "old.txt", content: "a\n" }, ctx);
    assertEquals(same.kind === "nothing" && same.result.output, unchangedText("old.txt"));
  });

  await t.step(
    "edit_file: the edited text; an edit that would fail is its own answer",
    async () => {
      const ctx = fakeContext({ files: { "b.txt": "one\ntwo\n" } });
      const edit = (old_text: string) => {
        const parsed = editFile.parse!({ path: "b.txt", edits: [{ old_text, new_text: "TWO" }] });
        if (!parsed.ok) throw new Error(parsed.faults.join("; "));
        return { ...parsed.input };
      };
      const preview = await previewChange(editFile, edit("two"), ctx);
      assertEquals(preview.kind === "change" && preview.diff, {
        path: `${FAKE_CWD}/b.txt`,
        oldText: "one\ntwo\n",
        newText: "one\nTWO\n",
      });
      // What the preview read is compared again before the call runs: a change since is found.
      const seen = preview.kind === "change" ? preview.seen : new Map();
      assertEquals(await changedSince(ctx.fs, seen), undefined);
      ctx.fs.files.set(`${FAKE_CWD}/b.txt`, new TextEncoder().encode("one\ntwo\nmine\n"));
      assertEquals(await changedSince(ctx.fs, seen), `${FAKE_CWD}/b.txt`);
      ctx.fs.files.set(`${FAKE_CWD}/b.txt`, new TextEncoder().encode("one\ntwo\n"));
      assertEquals(text(ctx, "b.txt"), "one\ntwo\n");
      // An edit that would fail is answered by its failure: nothing is written, nothing asked.
      const failing = await previewChange(editFile, edit("three"), ctx);
      assertEquals(failing.kind === "nothing" && failing.result.failed, true);
    },
  );

  await t.step("a tool that changes no file the same way is not run", async () => {
    const ctx = fakeContext();
    assertEquals(await previewChange(bash, { command: "rm -rf x" }, ctx), { kind: "none" });
    assertEquals(ctx.exec.requests.length, 0);
  });
});

Deno.test("previewChange: a write a file stands in the way of fails as the real one would", async () => {
  const ctx = fakeContext({ files: { "a.txt": "x\n" } });
  const preview = await previewChange(writeFile, { path: "a.txt/x", content: "q\n" }, ctx);
  assertEquals(preview.kind, "nothing");
  assertEquals(
    preview.kind === "nothing" && preview.result.output,
    "cannot write a.txt/x: not a directory — nothing was written",
  );
});
