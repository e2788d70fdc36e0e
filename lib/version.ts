/** mm's version, and the line that says it. */

import { COMMIT } from "./build_info.ts";

/** The version of mm, printed by `mm --version` and sent as `User-Agent: mm/<version>`. */
export const VERSION = "0.1.0";

/** What `mm --version` and `/version` say: `mm 0.1.0 (<commit>, <target>)`. */
export function versionLine(): string {
  return `mm ${VERSION} (${COMMIT}, ${Deno.build.target})`;
}
