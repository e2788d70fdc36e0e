/**
 * Tests mirror the source tree: `lib/<path>.ts` is tested in `tests/<path>_test.ts`, `tools/…` in
 * `tests/tools/…`, `scripts/…` in `tests/scripts/…`; one module's tests may be cut by aspect
 * (`tests/tools/lsp/mod_pyright_test.ts`). End-to-end tests (`tests/e2e/`) and support code
 * (`tests/helpers/`) mirror nothing, and neither does this check of the layout itself.
 */

import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { assertEquals } from "../helpers/assert.ts";
import { tempDir } from "../helpers/mm.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The folders of tests/ whose files mirror no module. */
const OUTSIDE = ["tests/e2e/", "tests/helpers/"];

/** This file: it checks the layout of tests/, which has no module of its own. */
const SELF = "tests/scripts/mirror_test.ts";

/**
 * The modules a test file may mirror, the whole name first, then without each `_<aspect>` from
 * the end: `tests/tools/lsp/mod_pyright_test.ts` is `tools/lsp/mod_pyright.ts` or
 * `tools/lsp/mod.ts`. Empty for a file that is not a test.
 */
function mirrorsOf(test: string): string[] {
  const m = test.match(/^tests\/(.+)_test\.ts$/);
  if (!m) return [];
  const path = /^(tools|scripts)\//.test(m[1]) ? m[1] : `lib/${m[1]}`;
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  const words = path.slice(folder.length).split("_");
  return words.map((_, i) => `${folder}${words.slice(0, words.length - i).join("_")}.ts`);
}

/** The `*_test.ts` files under `dir`, as paths from `root` with `/`. */
async function testsUnder(root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(join(root, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await testsUnder(root, path));
    else if (entry.name.endsWith("_test.ts")) found.push(path);
  }
  return found;
}

/** Whether `path` (from `root`) is a file. */
async function isFile(root: string, path: string): Promise<boolean> {
  try {
    return (await Deno.stat(join(root, path))).isFile;
  } catch {
    return false;
  }
}

/** One line per test under `root`'s tests/ that mirrors no module, sorted. */
async function mirrorFaults(root: string): Promise<string[]> {
  const faults: string[] = [];
  for (const test of await testsUnder(root, "tests")) {
    if (test === SELF || OUTSIDE.some((dir) => test.startsWith(dir))) continue;
    const modules = mirrorsOf(test);
    let mirrored = false;
    for (const module of modules) mirrored ||= await isFile(root, module);
    if (!mirrored) faults.push(`${test}: no module at ${modules.join(" or ")}`);
  }
  return faults.sort();
}

Deno.test("tests mirror the source tree", async (t) => {
  await t.step("the mirror path: lib/ dropped, tools/ and scripts/ kept, an aspect allowed", () => {
    assertEquals(mirrorsOf("tests/agent/budget_test.ts"), ["lib/agent/budget.ts"]);
    assertEquals(mirrorsOf("tests/text_test.ts"), ["lib/text.ts"]);
    assertEquals(mirrorsOf("tests/tool_input_test.ts"), ["lib/tool_input.ts", "lib/tool.ts"]);
    assertEquals(mirrorsOf("tests/tools/lsp/mod_pyright_test.ts"), [
      "tools/lsp/mod_pyright.ts",
      "tools/lsp/mod.ts",
    ]);
    assertEquals(mirrorsOf("tests/scripts/compile_test.ts"), ["scripts/compile.ts"]);
    assertEquals(mirrorsOf("tests/helpers/lsp/fixtures.ts"), []);
  });

  await t.step("every test outside tests/e2e/ and tests/helpers/ has its module", async () => {
    assertEquals(relative(ROOT, fileURLToPath(import.meta.url)), SELF);
    assertEquals(await mirrorFaults(ROOT), []);
  });

  await t.step("a test without its module is named, with the paths it may mirror", async () => {
    const root = await tempDir("mm-mirror-");
    const files = [
      "lib/agent/fit.ts",
      "tools/bash.ts",
      "tests/agent/fit_test.ts",
      "tests/agent/fit_compact_test.ts",
      "tests/tools/bash_test.ts",
      "tests/fit_test.ts",
      "tests/tools/lsp_test.ts",
      "tests/e2e/line_test.ts",
      "tests/helpers/server_test.ts",
    ];
    for (const file of files) {
      await Deno.mkdir(join(root, file, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, file), "");
    }
    assertEquals(await mirrorFaults(root), [
      "tests/fit_test.ts: no module at lib/fit.ts",
      "tests/tools/lsp_test.ts: no module at tools/lsp.ts",
    ]);
  });
});
