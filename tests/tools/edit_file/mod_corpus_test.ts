/**
 * edit_file's near-miss corpus (`corpus/`) through the tool on a fake context: every APPLY case
 * leaves exactly its intended file, every REFUSE case leaves the file untouched — zero wrong
 * edits — and the output says what the case expects.
 */

import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { fakeContext } from "../../helpers/fake_context.ts";
import { editFile } from "../../../tools/edit_file/mod.ts";
import { type Category, CORPUS, type CorpusCase } from "./corpus/mod.ts";

/** The file's text after the call, its byte order mark kept. */
function fileText(ctx: ReturnType<typeof fakeContext>, path: string): string | undefined {
  const data = ctx.fs.files.get(ctx.fs.resolve(path));
  return data && new TextDecoder("utf-8", { ignoreBOM: true }).decode(data);
}

/** Runs one case; returns whether the file was edited other than the case wants. */
async function run(c: CorpusCase): Promise<{ wrong: boolean; check: () => void }> {
  const ctx = fakeContext({ files: { [c.path]: c.file } });
  const result = await editFile.run({ path: c.path, edits: c.edits, dry_run: false }, ctx);
  const after = fileText(ctx, c.path);
  const wrong = c.want === undefined ? after !== c.file : !result.failed && after !== c.want;
  return {
    wrong,
    check: () => {
      if (c.want === undefined) {
        assertEquals(result.failed, true, result.output);
        assertEquals(ctx.fs.writes, []);
      } else {
        assertEquals(result.failed, undefined, result.output);
        assertEquals(after, c.want, result.output);
      }
      if (c.says) assertStringIncludes(result.output, c.says);
    },
  };
}

Deno.test("edit_file corpus: near misses of real models", async (t) => {
  await t.step("at least 150 cases, each category with APPLY and REFUSE cases", () => {
    assertEquals(CORPUS.length >= 150, true, `${CORPUS.length} cases`);
    const names = new Set<string>();
    for (const c of CORPUS) {
      assertEquals(names.has(c.name), false, `two cases named ${c.name}`);
      names.add(c.name);
    }
    const kinds = new Map<Category, Set<string>>();
    for (const c of CORPUS) {
      const k = kinds.get(c.category) ?? new Set();
      k.add(c.want === undefined ? "refuse" : "apply");
      kinds.set(c.category, k);
    }
    for (const [category, k] of kinds) {
      if (category === "refusals") continue;
      assertEquals(k.size, 2, `${category} has only ${[...k]} cases`);
    }
  });

  let wrong = 0;
  for (const c of CORPUS) {
    await t.step(`${c.category}: ${c.name}`, async () => {
      const r = await run(c);
      if (r.wrong) wrong++;
      r.check();
    });
  }

  await t.step("zero wrong edits", () => assertEquals(wrong, 0));
});
