/** The lsp tool against typescript-language-server (npm; installed by .ci/run). */

import { skipWithout, TS_FILES, TSCONFIG, TSLS_SERVER } from "../../helpers/lsp/fixtures.ts";
import { runScenario, TS_SCENARIO } from "../../helpers/lsp/scenario.ts";

Deno.test({
  name: "lsp with typescript-language-server",
  ignore: skipWithout(TSLS_SERVER.command),
  fn: async (t) => {
    await runScenario(t, {
      ...TS_SCENARIO,
      server: TSLS_SERVER,
      files: { ...TS_FILES, "tsconfig.json": TSCONFIG },
      shoutDefinition: [
        "util.ts:2:17  export function shout(text: string): string {",
        // While tsserver still loads the project, its partial-semantic mode stops at the import.
        'main.ts:2:10  import { shout } from "./util.ts";',
      ],
      brokenDiagnostic:
        "error broken.ts:1:7 Type 'string' is not assignable to type 'number'. [typescript]",
    });
  },
});
