/**
 * Least privilege at run time (mm.md §8): once the agent file is read, mm revokes the Deno
 * permissions it does not need, so a tool that tries to go further fails with a clear message.
 *
 * What Deno allows: `Deno.permissions.revoke` takes back a whole permission (`run`, `write`, …).
 * It cannot narrow a permission granted wholesale (`--allow-net`, `--allow-write`) to some hosts
 * or paths: revoking `{name: "net", host: "x"}` under `--allow-net` leaves `net` granted. So `net`
 * (the model server, and any host `fetch_content` is given), `read` (the working tree, skills, agent
 * files), `env` (the agent file's `$MM_*` and `$HOME`, the PATH lookup, the `openai` package's own
 * variables) and `import` (lazy modules when mm runs from a URL) stay. docs/security.md has the
 * whole model.
 */

import type { Config } from "../config/config.ts";

/** The front end a run starts, as far as permissions go. */
export type FrontEnd =
  | "line"
  | "window"
  | "oneshot"
  | "acp"
  | "sessions"
  | "doctor"
  | "undo";

/** Why a run keeps `run` and `write`: the parts of the agent file (or front end) that need each. */
export interface PermissionNeeds {
  /** What starts processes; empty: `run` is revoked. */
  run: string[];
  /** What writes files; empty: `write` is revoked. */
  write: string[];
}

/** What `config` needs in `frontEnd`. */
export function permissionNeeds(config: Config, frontEnd: FrontEnd): PermissionNeeds {
  const run: string[] = [];
  const write: string[] = [];
  const stdioMcp = Object.values(config.mcpServers).some((s) => s.enabled && s.type === "stdio");
  // mm doctor reads, asks the server, looks programs up on the PATH and starts the MCP servers.
  // It also runs a command in the sandbox (bwrap), when the agent file turns it on.
  if (frontEnd === "doctor") {
    if (stdioMcp) run.push("MCP servers");
    if (config.sandbox !== "off") run.push("the sandbox check");
    return { run, write };
  }
  // mm sessions lists session files: it only reads.
  if (frontEnd === "sessions") return { run, write };
  // mm undo writes the files a turn changed back, and the session file; it runs `git cat-file` to
  // read back the files kept by their blob id in git's index (docs/undo.md).
  if (frontEnd === "undo") return { run: ["mm undo (git cat-file)"], write: ["mm undo"] };
  const hasHooks = Object.values(config.hooks).some((list) => (list?.length ?? 0) > 0);
  const lsp = config.lsp.servers.length > 0;
  const agents = Object.keys(config.mmConfigs).length > 0;
  if (config.bashTool) run.push("bash");
  if (config.tools.length) run.push("declared tools");
  if (hasHooks) run.push("hooks");
  if (lsp) run.push("LSP servers");
  if (agents) run.push("mmConfigs");
  if (stdioMcp) run.push("MCP servers");
  // An editor may pass MCP servers of its own in session/new, stdio ones among them.
  else if (frontEnd === "acp") run.push("the editor's MCP servers");
  // Commands write their output into a temporary file (lib/exec/run.ts).
  if (config.bashTool) write.push("bash");
  if (config.tools.length) write.push("declared tools");
  if (config.editTools) write.push("write_file and edit_file");
  if (config.saveAnswerTool) write.push("save_answer");
  if (config.fetchContentTool) write.push("fetch_content");
  if (lsp) write.push("lsp renames");
  if (config.sessions.enabled) write.push("session files");
  if (agents) write.push("mmConfigs");
  if (frontEnd === "line" || frontEnd === "window") write.push("the prompt history");
  // Each session of the editor runs with the agent files of its own folder, read when it starts:
  // `read` stays (it always does), and so do `run` (above) and `write`, which they may need.
  if (frontEnd === "acp") write.push("the agent files of other folders");
  // Ctrl-Z stops the process with a signal to itself (Deno.kill needs `run`).
  if (frontEnd === "window") run.push("suspending with Ctrl-Z");
  return { run, write };
}

/** The permissions mm never uses, whatever the agent file says. */
const NEVER: Deno.PermissionName[] = ["ffi"];

/**
 * Revokes what `config` does not need in `frontEnd`, and returns the names revoked. A permission
 * that was not granted in the first place is revoked all the same (harmless).
 */
export async function dropPermissions(config: Config, frontEnd: FrontEnd): Promise<string[]> {
  const needs = permissionNeeds(config, frontEnd);
  const drop: Deno.PermissionName[] = [...NEVER];
  if (needs.run.length === 0) drop.push("run");
  if (needs.write.length === 0) drop.push("write");
  for (const name of drop) await Deno.permissions.revoke({ name });
  return drop;
}
