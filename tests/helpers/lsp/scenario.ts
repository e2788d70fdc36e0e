/**
 * One session of the lsp tool against a real language server, on a small project: every action,
 * positions on a line with emoji and CJK text, a file edited on disk, the server killed and started
 * again, renames across files, and no process left once the pool is closed.
 */

import type { LspServerConfig } from "../../../lib/config/config.ts";
import type { ToolResult } from "../../../lib/tool.ts";
import type { LspInput } from "../../../tools/lsp/call.ts";
import { assertEquals, assertStringIncludes } from "../assert.ts";
import {
  groupGone,
  lspContext,
  project,
  removeProjects,
  TS_EMOJI_LINE,
  TS_FILES,
} from "./fixtures.ts";

/** What a language's project and its server answer. */
export interface Scenario {
  server: LspServerConfig;
  files: Record<string, string>;
  /** The file holding `greet`, `message` and the call of `shout`. */
  main: string;
  /** The file declaring `shout`. */
  util: string;
  /** The file with one type error. */
  broken: string;
  /** Its content once fixed. */
  fixed: string;
  /** `definition` of greet: the declaration's line. */
  greetDefinition: string;
  /** The emoji line's number and the column of `greet` on it, in characters. */
  emojiLine: number;
  greetColumn: number;
  /** `references` of greet. */
  greetReferences: string;
  /** Text the hover of greet includes. */
  greetHover: string;
  /** A line `symbols` of main gives. */
  greetSymbol: string;
  /** `definition` of shout from its call (line given); the answers the server may give. */
  shoutCallLine: number;
  shoutDefinition: string[];
  /** `diagnostics` of broken, without the headline. */
  brokenDiagnostic: string;
  /** `rename` of message to msg: the answer and the two lines after. */
  renamedMessage: { output: string; lines: Record<number, string> };
  /** `rename` of shout to yell from util (via "shout 2 17 yell"): the answer, and the new util. */
  renamedShout: { symbolLine: number; output: string; util: string; mainIncludes: string };
  /** `definition` of yell from main after the rename. */
  yellDefinition: string;
}

/** What any TypeScript server answers on {@linkcode TS_FILES} (deno lsp, typescript-language-server). */
export const TS_SCENARIO = {
  files: TS_FILES,
  main: "main.ts",
  util: "util.ts",
  broken: "broken.ts",
  fixed: "const count: number = 3;\nexport { count };\n",
  greetDefinition: "main.ts:4:17  export function greet(name: string): string {",
  emojiLine: 8,
  greetColumn: 40,
  greetReferences: [
    "3 reference(s):",
    "main.ts:4:17  export function greet(name: string): string {",
    `main.ts:8:40  ${TS_EMOJI_LINE}`,
    'main.ts:9:13  console.log(greet("x"), shout(message));',
  ].join("\n"),
  greetHover: "function greet(name: string): string",
  greetSymbol: "function greet  line 4",
  shoutCallLine: 9,
  renamedMessage: {
    output: "renamed to msg: 2 edit(s) in 1 file(s)\nmain.ts: 2 edit(s)",
    lines: {
      8: 'const emoji = "😀😀 漢字"; const msg = greet(emoji);',
      9: 'console.log(greet("x"), shout(msg));',
    },
  },
  renamedShout: {
    symbolLine: 2,
    output: "renamed to yell: 3 edit(s) in 2 file(s)\nmain.ts: 2 edit(s)\nutil.ts: 1 edit(s)",
    util: TS_FILES["util.ts"].replace("shout(", "yell("),
    mainIncludes: 'import { yell } from "./util.ts";',
  },
  yellDefinition: "util.ts:2:17  export function yell(text: string): string {",
} satisfies Partial<Scenario>;

/** Calls until a diagnostics answer is not "no diagnostics received" (a slow machine). */
async function diagnostics(
  call: (input: LspInput) => Promise<ToolResult>,
  path: string,
): Promise<string> {
  for (let i = 0;; i++) {
    const { output } = await call({ action: "diagnostics", path });
    if (!output.startsWith("no diagnostics received") || i === 4) return output;
  }
}

/** Runs the scenario as steps of `t`. */
export async function runScenario(t: Deno.TestContext, s: Scenario): Promise<void> {
  const dir = await project(s.files);
  const { pool, call } = lspContext(dir, [s.server]);
  const out = async (input: LspInput) => (await call(input)).output;
  try {
    await t.step("definition: the symbol's first code occurrence", async () => {
      assertEquals(
        await out({ action: "definition", path: s.main, symbol: "greet" }),
        s.greetDefinition,
      );
    });

    await t.step("definition: symbol on a line with emoji and CJK text", async () => {
      assertEquals(
        await out({ action: "definition", path: s.main, symbol: "'greet',", line: s.emojiLine }),
        s.greetDefinition,
      );
    });

    await t.step("definition: line and column in characters after emoji and CJK text", async () => {
      assertEquals(
        await out({
          action: "definition",
          path: s.main,
          line: s.emojiLine,
          column: s.greetColumn + 2,
        }),
        s.greetDefinition,
      );
    });

    await t.step("definition: into another file", async () => {
      const answer = await out({
        action: "definition",
        path: s.main,
        symbol: "shout",
        line: s.shoutCallLine,
      });
      assertEquals(s.shoutDefinition.includes(answer), true, answer);
    });

    await t.step(
      "references: sorted, the declaration included, columns in characters",
      async () => {
        assertEquals(
          await out({ action: "references", path: s.main, symbol: "greet" }),
          s.greetReferences,
        );
      },
    );

    await t.step("hover", async () => {
      assertStringIncludes(
        await out({ action: "hover", path: s.main, symbol: "greet" }),
        s.greetHover,
      );
      assertStringIncludes(
        await out({ action: "hover", path: s.main, line: s.emojiLine, column: s.greetColumn }),
        s.greetHover,
      );
    });

    await t.step("symbols", async () => {
      assertStringIncludes(await out({ action: "symbols", path: s.main }), s.greetSymbol);
    });

    await t.step("diagnostics: published, then as last published", async () => {
      const headline = `1 diagnostic(s) in ${s.broken}`;
      const first = await diagnostics(call, s.broken);
      assertEquals(
        [
          `${headline}:\n${s.brokenDiagnostic}`,
          `${headline} (as last published):\n${s.brokenDiagnostic}`,
        ]
          .includes(first),
        true,
        first,
      );
      assertEquals(
        await out({ action: "diagnostics", path: s.broken }),
        `${headline} (as last published):\n${s.brokenDiagnostic}`,
      );
    });

    await t.step("file sync: an edit on disk is seen by the next call", async () => {
      await Deno.writeTextFile(`${dir}/${s.broken}`, s.fixed);
      const clean = await diagnostics(call, s.broken);
      assertEquals(
        [
          `no diagnostics: ${s.broken} is clean`,
          `no diagnostics: ${s.broken} is clean (as last published)`,
        ]
          .includes(clean),
        true,
        clean,
      );
    });

    await t.step("a server killed mid-session is started again on the next call", async () => {
      const [before] = await pool.running();
      Deno.kill(before.pid, "SIGKILL");
      assertStringIncludes(
        await out({ action: "hover", path: s.main, symbol: "greet" }),
        s.greetHover,
      );
      const [after] = await pool.running();
      assertEquals(after.pid !== before.pid, true);
      assertEquals(await groupGone(before.pid), [], "the killed server is reaped");
    });

    await t.step("rename on the emoji line, applied to the file", async () => {
      const result = await call({
        action: "rename",
        path: s.main,
        symbol: "message",
        new_name: "msg",
      });
      assertEquals(result.output, s.renamedMessage.output);
      const lines = (await Deno.readTextFile(`${dir}/${s.main}`)).split("\n");
      for (const [n, text] of Object.entries(s.renamedMessage.lines)) {
        assertEquals(lines[Number(n) - 1], text);
      }
    });

    await t.step("rename across files, symbol line column and new name in one string", async () => {
      const output = await out({
        action: "rename",
        path: s.util,
        symbol: `shout ${s.renamedShout.symbolLine} 17 yell`,
      });
      assertEquals(output, s.renamedShout.output);
      assertEquals(await Deno.readTextFile(`${dir}/${s.util}`), s.renamedShout.util);
      assertStringIncludes(
        await Deno.readTextFile(`${dir}/${s.main}`),
        s.renamedShout.mainIncludes,
      );
    });

    await t.step("the server was told the renamed contents", async () => {
      assertEquals(
        await out({ action: "definition", path: s.main, symbol: "yell", line: s.shoutCallLine }),
        s.yellDefinition,
      );
    });
  } finally {
    const running = await pool.running();
    await pool.close();
    await t.step("closed: no server process left, not even a zombie", async () => {
      for (const c of running) assertEquals(await groupGone(c.pid), []);
    });
    await removeProjects();
  }
}
