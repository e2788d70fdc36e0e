/** Plan mode's classifier (lib/permissions/plan.ts): which calls only read, as a table. */

import { assertEquals } from "../helpers/assert.ts";
import { PLAN_MODE_REFUSED, planAllows, readOnlyLine } from "../../lib/permissions/plan.ts";

/** A bash line, and whether plan mode runs it. */
const BASH: [string, boolean][] = [
  ["ls", true],
  ["ls -la src", true],
  ["cat README.md", true],
  ["head -n 5 a.ts && tail -n 5 a.ts", true],
  ["wc -l *.ts", true],
  ["grep -rn 'foo > bar' lib", true],
  ['rg "a|b" --type ts', true],
  ["find . -name '*.ts' -type f", true],
  ["git status", true],
  ["git log --oneline -5", true],
  ["git diff HEAD~1 -- lib", true],
  ["git show HEAD:main.ts", true],
  ["git blame main.ts", true],
  ["tree -L 2", true],
  ["pwd", true],
  ["stat a.ts", true],
  ["file a.bin", true],
  ["cd src && ls", true],
  ["ls | grep x | head -3", true],
  ["ls 2>/dev/null", true],
  ["ls nothing 2>&1 | head", true],
  ["cat a >&2", true],
  ["cat <(ls) | wc -l", true],
  ["ls $(git diff --name-only)", false],
  ["echo '>'", true],
  ['echo "a > b"', true],
  // Redirection into a file.
  ["cat x > y", false],
  ["cat x >> y", false],
  ["ls &> out", false],
  ["ls >| out", false],
  ["ls>out", false],
  ["git diff > p", false],
  ["ls 2> err", false],
  ["cat <> x", false],
  ["ls >(cat)", false],
  // A write hidden in a substitution or another command of the line.
  ["echo $(rm -f z)", false],
  ['echo "$(rm -f z)"', false],
  ["ls `touch x`", false],
  ["ls; rm x", false],
  ["ls && rm -rf x", false],
  ["ls | tee out", false],
  ["(cd x && rm y)", false],
  ["if true; then rm x; fi", false],
  // Programs that write or run anything, and the options that make a reader write.
  ["sed -i s/a/b/ x", false],
  ["sed -n 1p x", false],
  ["awk '{ print > \"out\" }' x", false],
  ["tee out", false],
  ["rm x", false],
  ["touch x", false],
  ["python3 -c 'print(1)'", false],
  ["bash -c ls", false],
  ["xargs rm", false],
  ["find . -delete", false],
  ["find . -name x -exec rm {} \\;", false],
  ["find . -execdir rm {} +", false],
  ["find . -fprint out", false],
  ["find . -fls out", false],
  ["find . -ok rm {} \\;", false],
  ["git commit -m x", false],
  ["git checkout .", false],
  ["git -c core.pager=sh log", false],
  ["git diff --output=p", false],
  ["git log --output p", false],
  ["git", false],
  ["rg --pre ./x foo", false],
  ["tree -o out", false],
  ["tree -oout", false],
  ["tree -ao out", false],
  ["tree -R -H . -L 1", false],
  ["tree -aR", false],
  ["tree -a -L 2 -H .", true],
  ["file -bC -m magic", false],
  ["file -b a.bin", true],
  ["file -C -m magic", false],
  // A word bash rewrites before the program sees it (brace, `$'…'`, `$"…"`, `$…`, backquotes).
  ["find . -name x1 -{delete,print}", false],
  ["find . -name x2 $'-delete'", false],
  ["find . -name x3 ${U:--delete}", false],
  ["find . -name x4 $(echo -delete)", false],
  ["find . -name x5 `echo -delete`", false],
  ['find . -name x6 $"-delete"', false],
  ["git diff HEAD $'--output=gd1'", false],
  ["git diff HEAD --{output=gd2,stat}", false],
  ["git diff HEAD ${U:---output=gd3}", false],
  ["find . -name x -{1..3}", false],
  ["ls $HOME", false],
  ['cat "$F"', false],
  ["echo `ls`", false],
  // Plain words: quoted braces and dollars, escaped ones, braces that expand nothing.
  ["find . -name '{a,b}' -print", true],
  ["find . -name '$x'", true],
  ["echo \\$HOME", true],
  ["git log @{u}..HEAD", true],
  ["git show HEAD@{1}", true],
  // A glob where it could become an option.
  ["git diff *.ts", false],
  ["find . -name x -de*", false],
  ["ls -[l]", false],
  ["grep -n foo *.md", true],
  ["find . -name '*.md'", true],
  // What hides the program that runs.
  ["FOO=1 ls", false],
  ["PATH=/tmp ls", false],
  ["$X", false],
  ["\\rm x", false],
  ['"rm" x', false],
  ["LS x", false],
  // A line not read to its end, or empty.
  ["cat 'x", false],
  ["echo $(ls", false],
  ["", false],
  ["  ", false],
];

Deno.test("bash lines, one row each", async (t) => {
  for (const [line, allowed] of BASH) {
    await t.step(`${JSON.stringify(line)} → ${allowed ? "runs" : "refused"}`, () => {
      assertEquals(readOnlyLine(line), allowed);
      assertEquals(
        planAllows({ tool: "bash", kind: "execute", input: { command: line } }),
        allowed,
      );
    });
  }
});

/** A call (its tool, kind, MCP tool, input), and whether plan mode runs it. */
const CALLS: [string, Parameters<typeof planAllows>[0], boolean][] = [
  ["read_file", { tool: "read_file", kind: "read", input: { path: "a" } }, true],
  ["search_memory", { tool: "search_memory", kind: "search", input: { query: "a" } }, true],
  ["read_skill", { tool: "read_skill", kind: "read", input: { name: "a" } }, true],
  ["ask_user", { tool: "ask_user", kind: "other", input: {} }, true],
  ["mcp_tools (the catalog's list)", { tool: "mcp_tools", kind: "other", input: {} }, true],
  [
    "mcp_call of a tool without readOnlyHint",
    { tool: "mcp_call", kind: "other", mcp: "docs_write", mcpReadOnly: false, input: {} },
    false,
  ],
  ["mcp_call of no known tool", { tool: "mcp_call", kind: "other", input: {} }, false],
  ["lsp definition", { tool: "lsp", kind: "read", input: { action: "definition" } }, true],
  ["lsp rename", { tool: "lsp", kind: "edit", input: { action: "rename" } }, false],
  ["fetch_content", { tool: "fetch_content", kind: "fetch", input: { url: "u" } }, true],
  [
    "fetch_content with an empty output",
    { tool: "fetch_content", kind: "fetch", input: { url: "u", output: " " } },
    true,
  ],
  [
    "fetch_content with output",
    { tool: "fetch_content", kind: "fetch", input: { url: "u", output: "page.md" } },
    false,
  ],
  ["write_file", { tool: "write_file", kind: "edit", input: { path: "a", content: "" } }, false],
  ["edit_file", { tool: "edit_file", kind: "edit", input: { path: "a" } }, false],
  ["ask_agent", { tool: "ask_agent", kind: "other", input: { agent: "a" } }, false],
  ["save_answer", { tool: "save_answer", kind: "edit", input: {} }, false],
  ["unload_model", { tool: "unload_model", kind: "other", input: {} }, false],
  ["a declared tool", { tool: "deploy", kind: "execute", input: {} }, false],
  [
    "an MCP tool with readOnlyHint",
    { tool: "docs_search", kind: "read", mcp: "docs_search", mcpReadOnly: true, input: {} },
    true,
  ],
  [
    "an MCP tool without it",
    { tool: "docs_write", kind: "other", mcp: "docs_write", mcpReadOnly: false, input: {} },
    false,
  ],
  [
    "an MCP tool named like a reading built-in",
    { tool: "read_file", kind: "other", mcp: "read_file", mcpReadOnly: false, input: {} },
    false,
  ],
  ["bash without a command", { tool: "bash", kind: "execute", input: {} }, false],
];

Deno.test("calls, one row each", async (t) => {
  for (const [name, call, allowed] of CALLS) {
    await t.step(`${name} → ${allowed ? "runs" : "refused"}`, () => {
      assertEquals(planAllows(call), allowed);
    });
  }
});

Deno.test("the refusal, byte for byte", () => {
  assertEquals(
    PLAN_MODE_REFUSED,
    "[not run: plan mode allows only reading (read_file, lsp, search_memory, read_skill, fetch_content without output, ask_user, read-only commands such as ls, cat, grep, git diff) — change nothing; write the plan as your answer]",
  );
});
