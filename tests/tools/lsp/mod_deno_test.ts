/** The lsp tool against `deno lsp` (always there: mm's own runtime). */

import { DENO_SERVER } from "../../helpers/lsp/fixtures.ts";
import { runScenario, TS_SCENARIO } from "../../helpers/lsp/scenario.ts";

Deno.test("lsp with deno lsp", async (t) => {
  await runScenario(t, {
    ...TS_SCENARIO,
    server: DENO_SERVER,
    shoutDefinition: ["util.ts:2:17  export function shout(text: string): string {"],
    brokenDiagnostic:
      "error broken.ts:1:7 Type 'string' is not assignable to type 'number'. [deno-ts]",
  });
});
