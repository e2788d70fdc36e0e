/**
 * The commit mm was built from, printed by `mm --version`. Tracked as `"dev"`: `deno task compile`
 * (scripts/compile.ts) writes the real short commit here before it compiles and puts `"dev"` back
 * afterwards, so nothing is read from disk at run time and the working tree stays clean.
 */
export const COMMIT = "dev";
