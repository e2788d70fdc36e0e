/** Hooks (mm.md §6): commands run around the agent's steps, JSON in on stdin, JSON out on stdout. */

import type { HookConfig, HookEvent } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { startProblem } from "../exec/program.ts";
import { type Spawned, spawnProcess } from "../exec/spawn.ts";
import { HOOK_CONTEXT_MARKER } from "../history.ts";
import { redact } from "../secrets.ts";

/** What a hook is told, as JSON on its stdin. */
export interface HookPayload {
  event: HookEvent;
  tool?: string;
  input?: unknown;
  output?: string;
  agent?: string;
  prompt?: string;
  answer?: string;
  cwd: string;
  session?: string;
}

/** What a hook may answer, as JSON on its stdout (or nothing). */
export interface HookAnswer {
  deny?: boolean;
  reason?: string;
  context?: string;
  input?: Record<string, unknown>;
  replace?: string;
}

/** The combined verdict of every matching hook of an event. */
export interface HookVerdict {
  /** A hook denied: why (its `reason`, or its stderr when it exited 2). */
  denied?: string;
  /** Context to add, from every hook that gave some, in order. */
  context: string[];
  /** The last new input a hook gave. */
  input?: Record<string, unknown>;
  /** The last replacement of the output a hook gave. */
  replace?: string;
  /** Hooks that failed: each one line for `errors` (`where: hook`) and a warning. */
  failures: string[];
  /**
   * The turn was cancelled before or while the hooks ran: the running hook's process group was
   * killed and the hooks after it did not run. What the hooks guard must not run either.
   */
  cancelled?: boolean;
}

/**
 * Appends hook context after `text`, under its marker line; the context is redacted of mm's
 * secrets (lib/secrets.ts): the model never reads one.
 */
export function withHookContext(text: string, context: string[]): string {
  if (context.length === 0) return text;
  return `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${HOOK_CONTEXT_MARKER}\n${
    redact(context.join("\n"))
  }`;
}

/** Whether a hook's `matcher` selects `tool`: absent matches all, else a full match of a regexp. */
export function matches(matcher: string | undefined, tool: string | undefined): boolean {
  if (!matcher || tool === undefined) return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher === tool;
  }
}

/** What a preToolCall hook's new input becomes: the tool's input, or the failure it is. */
export type InputCheck = (
  input: Record<string, unknown>,
) => { ok: true; input: Record<string, unknown> } | { ok: false; failure: string };

/**
 * Runs the hooks of one event in order; a deny stops the ones after it. A new input is checked by
 * `check` as each hook gives it: one the tool cannot take is that hook's failure, and the hooks
 * after it see the input that will run. `signal` is the turn's cancellation: it kills the running
 * hook's process group (SIGTERM, then SIGKILL after `KILL_GRACE` ms: lib/exec/spawn.ts) and ends the
 * verdict `cancelled`. Never throws.
 */
export async function runHooks(
  hooks: HookConfig[] | undefined,
  payload: HookPayload,
  defaultTimeout: number,
  signal?: AbortSignal,
  check?: InputCheck,
): Promise<HookVerdict> {
  const verdict: HookVerdict = { context: [], failures: [] };
  for (const hook of hooks ?? []) {
    if (!matches(hook.matcher, payload.tool)) continue;
    const result = signal?.aborted
      ? { cancelled: true as const }
      : await runHook(hook, payload, hook.timeout ?? defaultTimeout, signal);
    if ("cancelled" in result) {
      verdict.cancelled = true;
      break;
    }
    if ("failure" in result) {
      verdict.failures.push(result.failure);
      continue;
    }
    const a = result.answer;
    if (a.context) verdict.context.push(a.context);
    if (a.input) {
      const checked = check ? check(a.input) : { ok: true as const, input: a.input };
      if (checked.ok) {
        verdict.input = checked.input;
        payload = { ...payload, input: checked.input };
      } else verdict.failures.push(checked.failure);
    }
    if (typeof a.replace === "string") verdict.replace = a.replace;
    if (a.deny) {
      verdict.denied = a.reason?.trim() || "no reason given";
      break;
    }
  }
  return verdict;
}

type HookResult = { answer: HookAnswer } | { failure: string } | { cancelled: true };

/**
 * Runs one hook: argv without a shell, the payload on stdin, a timeout, in a process group of its
 * own (lib/exec/spawn.ts, the one starter), which a timeout or `signal` kills whole.
 */
async function runHook(
  hook: HookConfig,
  payload: HookPayload,
  timeout: number,
  signal?: AbortSignal,
): Promise<HookResult> {
  const name = `${payload.event} hook ${JSON.stringify(hook.command.join(" "))}`;
  const problem = await startProblem(hook.command, payload.cwd);
  if (problem !== undefined) return { failure: `${name} cannot be started: ${problem}` };
  let child: Spawned;
  try {
    child = await spawnProcess({
      argv: hook.command,
      cwd: payload.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      timeout,
      signal,
    });
  } catch (e) {
    return { failure: `${name} cannot be started: ${(e as Error).message}` };
  }
  const pipes = Promise.all([
    new Response(child.child.stdout).arrayBuffer(),
    new Response(child.child.stderr).arrayBuffer(),
  ]);
  pipes.catch(() => {}); // not awaited when the hook is stopped
  (async () => {
    try {
      const writer = child.child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(JSON.stringify(payload)));
      await writer.close().catch(() => {});
    } catch {
      // The hook did not read its stdin: that is its right.
    }
  })();
  let status: Deno.CommandStatus;
  let read: [ArrayBuffer, ArrayBuffer] | undefined;
  try {
    status = await child.status;
    // A job the hook left holds its pipes: a stop ends the wait for them too.
    if (!child.stopped) {
      read = await Promise.race([pipes, child.halted.then(() => undefined)]);
    }
  } finally {
    child.end(); // what a stopped hook's group left behind is killed
  }
  if (child.stopped || read === undefined) {
    if (child.stopped === "cancel") return { cancelled: true };
    return { failure: `${name} timed out after ${formatDuration(timeout)}` };
  }
  const text = new TextDecoder().decode(read[0]).trim();
  const errText = new TextDecoder().decode(read[1]).trim();
  if (status.code === 2) {
    return { answer: { deny: true, reason: errText || "denied (exit code 2)" } };
  }
  if (!status.success) {
    return {
      failure: `${name} failed with exit code ${status.code}${
        errText ? `: ${firstLine(errText)}` : ""
      }`,
    };
  }
  if (text === "") return { answer: {} };
  try {
    const answer = JSON.parse(text);
    if (!answer || typeof answer !== "object" || Array.isArray(answer)) {
      throw new Error("not an object");
    }
    if (answer.input !== undefined && (typeof answer.input !== "object" || answer.input === null)) {
      return {
        failure: `${name} printed an "input" that is not an object of the tool's parameters: ${
          firstLine(text).slice(0, 120)
        }`,
      };
    }
    return { answer: answer as HookAnswer };
  } catch (e) {
    return {
      failure: `${name} printed something that is not a JSON object (${(e as Error).message}): ${
        firstLine(text).slice(0, 120)
      }`,
    };
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}
