/** The lsp tool against `deno lsp` (always there: mm's own runtime). */

import { DENO_SERVER, TS_EMOJI_LINE, TS_FILES } from "../../helpers/lsp/fixtures.ts";
import { runScenario } from "../../helpers/lsp/scenario.ts";

Deno.test("lsp with deno lsp", async (t) => {
  await runScenario(t, {
    server: DENO_SERVER,
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
    shoutDefinition: ["util.ts:2:17  export function shout(text: string): string {"],
    brokenDiagnostic:
      "error broken.ts:1:7 Type 'string' is not assignable to type 'number'. [deno-ts]",
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
  });
});
