import { assertEquals } from "../helpers/assert.ts";
import { applyEdits, FILE_OPERATIONS, gatherEdits } from "../../lib/lsp/edits.ts";

const range = (l1: number, c1: number, l2: number, c2: number) => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});

Deno.test("lsp workspace edits", async (t) => {
  await t.step("edits are applied at UTF-16 positions, after emoji and CJK text", () => {
    const text = 'const s = "😀😀 漢字"; greet(s);\ngreet(1)\n';
    const out = applyEdits(text, [
      { range: range(0, 21, 0, 26), newText: "hello" },
      { range: range(1, 0, 1, 5), newText: "hello" },
    ]);
    assertEquals(out, 'const s = "😀😀 漢字"; hello(s);\nhello(1)\n');
  });

  await t.step("edits in any order; inserts at one place keep their order", () => {
    assertEquals(
      applyEdits("abc", [
        { range: range(0, 3, 0, 3), newText: "!" },
        { range: range(0, 0, 0, 0), newText: "1" },
        { range: range(0, 0, 0, 0), newText: "2" },
      ]),
      "12abc!",
    );
  });

  await t.step("CRLF files keep their line breaks", () => {
    assertEquals(
      applyEdits("a x\r\nb x\r\n", [{ range: range(1, 2, 1, 3), newText: "y" }]),
      "a x\r\nb y\r\n",
    );
  });

  await t.step("overlapping edits are refused", () => {
    assertEquals(
      applyEdits("abcdef", [
        { range: range(0, 0, 0, 3), newText: "x" },
        { range: range(0, 2, 0, 4), newText: "y" },
      ]),
      undefined,
    );
  });

  await t.step("changes and documentChanges are both read; file operations refused", () => {
    const edit = { range: range(0, 0, 0, 1), newText: "x" };
    const a = gatherEdits({ changes: { "file:///a": [edit], "file:///b": [] } });
    assertEquals(a.ok && [...a.files.keys()], ["file:///a"]);
    const b = gatherEdits({
      documentChanges: [{ textDocument: { uri: "file:///b", version: 1 }, edits: [edit] }],
    });
    assertEquals(b.ok && b.files.get("file:///b"), [edit]);
    assertEquals(gatherEdits({ documentChanges: [{ kind: "create", uri: "file:///n" }] }), {
      ok: false,
      reason: FILE_OPERATIONS,
    });
    const none = gatherEdits(null);
    assertEquals(none.ok && none.files.size, 0);
  });
});
