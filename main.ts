/** mm: flags → configuration → front end. Heavy modules load only on the path that needs them. */

import { type Flags, helpText, parseFlags, SUBCOMMAND_HELP, UsageError } from "./lib/cli/flags.ts";
import { writeAll } from "./lib/frontend/terminal/output.ts";
import { CLOSED_EXIT } from "./lib/frontend/exit.ts";
import { parseDuration } from "./lib/config/duration.ts";
import type { FrontEnd } from "./lib/permissions/sandbox.ts";
import { versionLine } from "./lib/version.ts";
import { UserError } from "./lib/presentation.ts";

/** Runs mm with `args` and returns the exit code. */
export async function main(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (e) {
    // A flag, the agent file, a session or the server: one sentence, and its exit code (2 for a
    // request that cannot be used, 1 for one that cannot be done now).
    if (e instanceof UserError) return fail(e.message, e.exitCode);
    // `mm doctor | head -2`: the reader has what it wanted; end quietly, as SIGPIPE would.
    if (e instanceof Deno.errors.BrokenPipe) return CLOSED_EXIT;
    throw e;
  }
}

function fail(message: string, code: number): number {
  writeAll(Deno.stderr, `mm: ${message}\n`);
  return code;
}

async function run(args: string[]): Promise<number> {
  const flags = parseFlags(args);
  if (flags.command === "trust") return await trustCommand(flags);
  if (flags.command === "undo") return await undoCommand(flags);
  if (flags.list || flags.revoke || flags.yes) {
    throw new UsageError(
      `${flags.list ? "--list" : flags.revoke ? "--revoke" : "--yes"} goes with mm trust`,
    );
  }
  if (flags.help) {
    const command = flags.command;
    writeAll(Deno.stdout, command ? SUBCOMMAND_HELP[command] : helpText());
    return 0;
  }
  if (flags.version) {
    writeAll(Deno.stdout, `${versionLine()}\n`);
    return 0;
  }
  if (flags.command === "init" || flags.command === "doctor") return await subcommand(flags);
  resumeAlone(flags);
  if (flags.tui) return await windowMode(flags);
  if (flags.acp) {
    if (flags.prompt !== undefined || flags.args.length || flags.json) {
      throw new UsageError("-acp takes no prompt: the editor sends them over the protocol");
    }
    onlyWithPrompt(flags);
    if (flags.continue || flags.session !== undefined) {
      throw new UsageError("-acp resumes sessions from the editor (session/load), not by flag");
    }
    const started = Deno.cwd();
    const { config, refusal } = await loaded(flags, started, "acp");
    const { runAcpMode } = await import("./lib/frontend/acp/agent.ts");
    // Each session's folder is judged on its own: its project file, its trust (docs/security.md).
    const load = async (cwd: string) => {
      const { config, refusal } = await layered(flags, cwd, "acp", started);
      return { config, refusal };
    };
    return await runAcpMode({ config, refusal, load });
  }
  if (flags.ask !== undefined) return await askOnce(flags);
  if (flags.command === "sessions") {
    const { listSessionsCommand } = await import("./lib/commands/sessions.ts");
    return await listSessionsCommand(await configFor(flags, Deno.cwd(), "sessions"), Deno.cwd());
  }
  const oneShot = flags.prompt !== undefined || !Deno.stdin.isTerminal();
  if (!oneShot) {
    if (flags.json) throw new UsageError("--json goes with -p");
    onlyWithPrompt(flags);
    if (flags.args.length) {
      throw new UsageError(
        `unexpected argument "${flags.args[0]}" (to run a prompt once: mm -p "…")`,
      );
    }
    const cwd = Deno.cwd();
    const config = await configFor(flags, cwd, "line");
    const { runLineMode } = await import("./lib/frontend/line/line.ts");
    return await runLineMode({
      config,
      cwd,
      resume: flags.resume,
      continueLatest: flags.continue,
      sessionId: flags.session,
      modelFlag: flags.model !== undefined,
    });
  }
  if (flags.args.length) {
    throw new UsageError(
      `unexpected argument "${flags.args[0]}" (quote the whole prompt: mm -p "…")`,
    );
  }
  if (flags.resume) throw new UsageError(RESUME_WITH_PROMPT);
  let prompt = flags.prompt ?? "";
  if (prompt === "" || prompt === "-") {
    if (Deno.stdin.isTerminal()) throw new UsageError("-p needs a prompt, or one piped on stdin");
    prompt = await new Response(Deno.stdin.readable).text();
  }
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");

  const cwd = Deno.cwd();
  const timeoutMs = flags.timeout === undefined ? undefined : parseDuration(flags.timeout);
  if (timeoutMs === 0 || (flags.timeout !== undefined && timeoutMs === undefined)) {
    throw new UsageError(`--timeout takes a duration like 90s, 10m or 1h, not "${flags.timeout}"`);
  }
  const { answerSchema, runOneShot } = await import("./lib/frontend/oneshot.ts");
  // The schema is read and checked before any request: a bad one is exit 2.
  const { config, schema } = await answerSchema(await configFor(flags, cwd), flags.outputSchema);
  return await runOneShot({
    config,
    prompt: prompt.trim(),
    cwd,
    json: flags.json,
    continueLatest: flags.continue,
    sessionId: flags.session,
    modelFlag: flags.model !== undefined,
    schema,
    timeoutMs,
    plan: flags.plan,
  });
}

/** Why `-r` cannot go with `-p` (nor a piped prompt): nobody is there to choose. */
export const RESUME_WITH_PROMPT =
  "-r (--resume) asks which session to resume, so it needs line or window mode; with -p use --continue or --session ID";

/** `-r` picks the session: not with the flags that pick one too, nor with an editor or `--ask`. */
function resumeAlone(flags: Flags): void {
  if (!flags.resume) return;
  if (flags.continue || flags.session !== undefined) {
    throw new UsageError(
      "-r (--resume) asks which session to resume: not with --continue or --session",
    );
  }
  if (flags.acp) {
    throw new UsageError("-acp resumes sessions from the editor (session/load), not by flag");
  }
  if (flags.ask !== undefined) throw new UsageError("--ask runs a fresh session: no -r");
  if (flags.command) throw new UsageError(`mm ${flags.command} takes no -r`);
}

/** `--output-schema`, `--timeout` and `--plan` go with -p only. */
function onlyWithPrompt(flags: Flags): void {
  if (flags.plan) {
    throw new UsageError("--plan goes with -p (in a conversation: /plan or Shift+Tab)");
  }
  if (flags.outputSchema !== undefined) throw new UsageError("--output-schema goes with -p");
  if (flags.timeout !== undefined) throw new UsageError("--timeout goes with -p");
}

/** `mm -tui`: the full-screen conversation, in a terminal only. */
async function windowMode(flags: Flags): Promise<number> {
  if (flags.acp) throw new UsageError("-tui and -acp are two front ends: choose one");
  if (flags.prompt !== undefined || flags.args.length || flags.json || flags.ask !== undefined) {
    throw new UsageError('-tui takes no prompt: type it in the window (to run one: mm -p "…")');
  }
  onlyWithPrompt(flags);
  if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal() || Deno.env.get("TERM") === "dumb") {
    throw new UsageError(NO_TERMINAL);
  }
  const cwd = Deno.cwd();
  const config = await configFor(flags, cwd, "window");
  const { runWindowMode } = await import("./lib/frontend/window/window.ts");
  return await runWindowMode({
    config,
    cwd,
    resume: flags.resume,
    continueLatest: flags.continue,
    sessionId: flags.session,
    modelFlag: flags.model !== undefined,
    mouse: config.window.mouse && !flags.noMouse,
  });
}

/** Why `-tui` cannot start: it draws on a terminal and reads keys from it. */
export const NO_TERMINAL =
  "-tui needs a terminal: stdin and stdout must be a terminal, and TERM not dumb (mm -p runs a prompt without one)";

/** `mm --ask NAME "prompt"`: the agent's answer on stdout. */
async function askOnce(flags: Flags): Promise<number> {
  if (flags.json) throw new UsageError("--json goes with -p");
  onlyWithPrompt(flags);
  if (flags.continue || flags.session !== undefined) {
    throw new UsageError("--ask runs a fresh session: no --continue or --session");
  }
  let prompt = [flags.prompt ?? "", ...flags.args].filter((p) => p !== "").join(" ");
  if (prompt === "" || prompt === "-") {
    if (Deno.stdin.isTerminal()) throw new UsageError(`--ask ${flags.ask} needs a prompt`);
    prompt = await new Response(Deno.stdin.readable).text();
  }
  const cwd = Deno.cwd();
  const config = await configFor(flags, cwd);
  const { askName, runAskOnce, unknownAskName } = await import("./lib/frontend/ask_once.ts");
  const name = askName(flags.ask!, config);
  if (name === undefined) throw unknownAskName(flags.ask!, config);
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  return await runAskOnce({ config, name, prompt: prompt.trim(), cwd });
}

/** `mm init` and `mm doctor`: no prompt, no argument. */
async function subcommand(flags: Flags): Promise<number> {
  const what = `mm ${flags.command}`;
  if (flags.prompt !== undefined || flags.args.length) {
    throw new UsageError(`${what} takes no prompt and no argument`);
  }
  const cwd = Deno.cwd();
  if (flags.command === "init") {
    const { runInit } = await import("./lib/commands/init.ts");
    return await runInit({
      cwd,
      probeSetting: Deno.env.get("MM_INIT_PROBE"),
      ...(await initChoices(flags)),
    });
  }
  const { runDoctor } = await import("./lib/commands/doctor.ts");
  return await runDoctor({ cwd, load: () => loaded(flags, cwd, "doctor") });
}

/**
 * What `mm init` is told: `--provider`, `--url` and `--model`, checked. Any other flag is a usage
 * error: init reads no agent file and starts no turn, so it would be ignored.
 */
async function initChoices(flags: Flags) {
  const ignored: [boolean, string][] = [
    [flags.config !== undefined, "-c"],
    [flags.yolo !== undefined, "--yolo"],
    [flags.continue, "--continue"],
    [flags.session !== undefined, "--session"],
    [flags.json, "--json"],
    [flags.tui, "-tui"],
    [flags.acp, "-acp"],
    [flags.ask !== undefined, "--ask"],
  ];
  const extra = ignored.find(([given]) => given)?.[1];
  if (extra) throw new UsageError(`mm init takes --provider, --url and --model only, not ${extra}`);
  const { PROVIDERS } = await import("./lib/config/config.ts");
  const provider = flags.provider as (typeof PROVIDERS)[number] | undefined;
  if (provider !== undefined && !PROVIDERS.includes(provider)) {
    throw new UsageError(`--provider: "${provider}" is not one of ${PROVIDERS.join(", ")}`);
  }
  const url = flags.url?.replace(/\/+$/, "");
  if (url !== undefined && !/^https?:\/\/[^\s/]+/.test(url)) {
    throw new UsageError(`--url: "${flags.url}" is not an http:// or https:// URL`);
  }
  return { provider, url, model: flags.model };
}

/** `mm undo [--session ID]`, `mm undo --help`: the last turn of a session taken back. */
async function undoCommand(flags: Flags): Promise<number> {
  const { runUndo, UNDO_HELP } = await import("./lib/commands/undo.ts");
  if (flags.help) {
    writeAll(Deno.stdout, UNDO_HELP);
    return 0;
  }
  if (flags.prompt !== undefined || flags.args.length) {
    throw new UsageError("mm undo takes no prompt; --session ID names a session", "mm undo");
  }
  const cwd = Deno.cwd();
  return await runUndo({ config: await configFor(flags, cwd, "undo"), cwd, id: flags.session });
}

/** `mm trust`, `mm trust --list`, `mm trust --revoke [DIR]`, `mm trust --help`. */
async function trustCommand(flags: Flags): Promise<number> {
  const { runTrust, TRUST_HELP } = await import("./lib/commands/trust.ts");
  if (flags.help) {
    writeAll(Deno.stdout, TRUST_HELP);
    return 0;
  }
  if (flags.prompt !== undefined || (flags.args.length && !flags.revoke) || flags.args.length > 1) {
    throw new UsageError("mm trust takes no prompt; only --revoke takes a folder", "mm trust");
  }
  const { loadLayers } = await import("./lib/config/layers.ts");
  const { trustStorePath } = await import("./lib/config/trust_store.ts");
  const env = Deno.env.toObject();
  const cwd = Deno.cwd();
  return await runTrust({
    cwd,
    store: trustStorePath(env),
    list: flags.list,
    revoke: flags.revoke,
    dir: flags.args[0],
    layers: () => loadLayers({ flag: flags.config, env, cwd, home: env.HOME }),
    out: (text) => writeAll(Deno.stdout, text),
    confirm: flags.yes ? undefined : async () => {
      if (!Deno.stdin.isTerminal()) return undefined;
      const { confirmTrust } = await import("./lib/frontend/terminal/trust_question.ts");
      return await confirmTrust();
    },
  });
}

/**
 * The agent files found for this run, with the flags over them; the Deno permissions it does not
 * need in `frontEnd` are revoked before it is returned (lib/permissions/sandbox.ts).
 */
async function configFor(flags: Flags, cwd: string, frontEnd: FrontEnd = "oneshot") {
  return (await loaded(flags, cwd, frontEnd)).config;
}

/**
 * The agent files of this run layered and checked, with the project file's keys that need trust
 * settled (docs/security.md): applied when its folder is trusted (`mm trust`, `--trust`,
 * `MM_TRUST=1`); else asked about at the start of line and window mode, refused by `-p` and
 * `--ask` (exit 2), and left out by the editor and doctor, which say so (`refusal`). The Deno
 * permissions the run does not need in `frontEnd` are then revoked (lib/permissions/sandbox.ts).
 */
async function loaded(flags: Flags, cwd: string, frontEnd: FrontEnd) {
  const found = await layered(flags, cwd, frontEnd);
  const { dropPermissions } = await import("./lib/permissions/sandbox.ts");
  await dropPermissions(found.config, frontEnd);
  return found;
}

/**
 * {@linkcode loaded} without the permissions dropped: what editor mode loads again for each
 * session's folder. A relative `-c` or `$MM_CONFIG` starts at `base` (the folder mm started in).
 */
async function layered(flags: Flags, cwd: string, frontEnd: FrontEnd, base = cwd) {
  const { loadLayers } = await import("./lib/config/layers.ts");
  const { applyFlags } = await import("./lib/config/overrides.ts");
  const env = Deno.env.toObject();
  const layers = loadLayers({ flag: flags.config, env, cwd, base, home: env.HOME });
  const settled = await settleTrust(layers, flags, env, frontEnd);
  const config = applyFlags(settled.config, flags);
  // A sandbox this machine cannot give is the agent file's fault; mm doctor reports it as a check.
  if (frontEnd !== "doctor") await (await import("./lib/exec/sandbox.ts")).checkSandbox(config);
  // The key never reaches a child process, nor any output or record (lib/secrets.ts).
  const { addSecret, addUrlSecrets } = await import("./lib/secrets.ts");
  for (const secret of [config.apiKey, env.MM_API_KEY]) addSecret(secret);
  for (const url of [config.url, ...Object.values(config.mcpServers).map((s) => s.url)]) {
    addUrlSecrets(url);
  }
  const { addServerSecrets } = await import("./lib/mcp/env.ts");
  for (const server of Object.values(config.mcpServers)) addServerSecrets(server);
  // The MCP client is loaded lazily; fetched now, Deno's `Download` lines stay out of mm's output.
  if (Object.values(config.mcpServers).some((s) => s.enabled)) {
    const { prefetchSdk } = await import("./lib/mcp/sdk.ts");
    await prefetchSdk((line) => writeAll(Deno.stderr, `${line}\n`));
  }
  return { config, files: layers.files, refusal: settled.refusal };
}

/** Whether `MM_TRUST` trusts the project's agent file for this run. */
function trustedByEnv(value: string | undefined): boolean {
  return value === "1" || value?.toLowerCase() === "true";
}

/** The configuration the project's trust allows, and why the rest was left out. */
async function settleTrust(
  layers: import("./lib/config/layers.ts").Layers,
  flags: Flags,
  env: Record<string, string>,
  frontEnd: FrontEnd,
): Promise<{ config: import("./lib/config/config.ts").Config; refusal?: string }> {
  const p = layers.project;
  if (!p) return { config: layers.config };
  // Asked agents (child mm processes) inherit a trust given for this run.
  const trustRun = async () => {
    (await import("./lib/subagent/child.ts")).handTrustToAgents();
    return { config: layers.config };
  };
  if (flags.trust || trustedByEnv(env.MM_TRUST)) return await trustRun();
  const store = await import("./lib/config/trust_store.ts");
  const path = store.trustStorePath(env);
  const { TrustError, untrustedText } = await import("./lib/config/trust.ts");
  let refusal = untrustedText(p.file, p.items);
  try {
    if (store.isTrusted(path, p.folder, p.file, p.hash)) return { config: layers.config };
  } catch (e) {
    if (!(e instanceof store.TrustStoreError) || frontEnd === "oneshot") throw e;
    refusal = e.message;
  }
  if (frontEnd === "line" || frontEnd === "window") {
    const { askTrust } = await import("./lib/frontend/terminal/trust_question.ts");
    const answer = await askTrust(p.file, p.items);
    if (answer === "ignore") return { config: layers.withoutProject };
    if (answer === "trust") {
      const trustedAt = new Date().toISOString();
      await store.trustFolder(path, { folder: p.folder, file: p.file, hash: p.hash, trustedAt });
    }
    return await trustRun();
  }
  if (frontEnd === "oneshot") throw new TrustError(refusal);
  return { config: layers.withoutProject, refusal };
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
