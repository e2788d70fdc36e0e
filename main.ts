/** mm: flags → configuration → front end. Heavy modules load only on the path that needs them. */

import { helpText, parseFlags, UsageError } from "./lib/cli/flags.ts";
import { writeAll } from "./lib/frontend/output.ts";
import { VERSION } from "./lib/version.ts";

/** Runs mm with `args` and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (e) {
    if (e instanceof UsageError) return fail(e.message, 2);
    if (e instanceof Error && e.name === "ConfigError") return fail(e.message, 2);
    throw e;
  }
}

function fail(message: string, code: number): number {
  writeAll(Deno.stderr, `mm: ${message}\n`);
  return code;
}

/** The sentence for a front end this version does not have yet. */
export function notYet(what: string): string {
  return `${what} is not available yet in mm ${VERSION} — use mm -p "…" for now`;
}

async function run(args: string[]): Promise<number> {
  const flags = parseFlags(args);
  if (flags.help) {
    writeAll(Deno.stdout, helpText());
    return 0;
  }
  if (flags.version) {
    writeAll(Deno.stdout, `mm ${VERSION} (${Deno.build.target})\n`);
    return 0;
  }
  if (flags.command) return fail(notYet(`mm ${flags.command}`), 2);
  if (flags.tui) return fail(notYet("window mode (-tui)"), 2);
  if (flags.acp) return fail(notYet("editor mode (-acp)"), 2);
  if (flags.ask !== undefined) return fail(notYet("mm --ask"), 2);
  if (flags.continue || flags.session !== undefined) {
    return fail(notYet("resuming a session (--continue, --session)"), 2);
  }
  const oneShot = flags.prompt !== undefined || !Deno.stdin.isTerminal();
  if (!oneShot) {
    if (flags.json) throw new UsageError("--json goes with -p");
    return fail(notYet("line mode (mm in a terminal)"), 2);
  }
  if (flags.args.length) {
    throw new UsageError(
      `unexpected argument "${flags.args[0]}" (quote the whole prompt: mm -p "…")`,
    );
  }
  let prompt = flags.prompt ?? "";
  if (prompt === "" || prompt === "-") {
    if (Deno.stdin.isTerminal()) throw new UsageError("-p needs a prompt, or one piped on stdin");
    prompt = await new Response(Deno.stdin.readable).text();
  }
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");

  const { loadConfig } = await import("./lib/config/load.ts");
  const { applyFlags } = await import("./lib/config/flags.ts");
  const cwd = Deno.cwd();
  const config = applyFlags(
    loadConfig({ flag: flags.config, env: Deno.env.toObject(), cwd, home: Deno.env.get("HOME") }),
    flags,
  );
  const { runOneShot } = await import("./lib/frontend/oneshot.ts");
  return await runOneShot({ config, prompt: prompt.trim(), cwd, json: flags.json });
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
