/** Hooks (mm.md §6): commands run around the agent's steps, JSON in on stdin, JSON out on stdout. */

import type { HookConfig, HookEvent } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { childEnv } from "../child_env.ts";

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
}

/** The line before hook context in a prompt or an output; search_memory stops at it. */
export const HOOK_CONTEXT_MARKER = "[context added by a hook]";

/** Appends hook context after `text`, under its marker line. */
export function withHookContext(text: string, context: string[]): string {
  if (context.length === 0) return text;
  return `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${HOOK_CONTEXT_MARKER}\n${
    context.join("\n")
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

/** Runs the hooks of one event in order; a deny stops the ones after it. Never throws. */
export async function runHooks(
  hooks: HookConfig[] | undefined,
  payload: HookPayload,
  defaultTimeout: number,
): Promise<HookVerdict> {
  const verdict: HookVerdict = { context: [], failures: [] };
  for (const hook of hooks ?? []) {
    if (!matches(hook.matcher, payload.tool)) continue;
    const result = await runHook(hook, payload, hook.timeout ?? defaultTimeout);
    if ("failure" in result) {
      verdict.failures.push(result.failure);
      continue;
    }
    const a = result.answer;
    if (a.context) verdict.context.push(a.context);
    if (a.input) {
      verdict.input = a.input;
      payload = { ...payload, input: a.input };
    }
    if (typeof a.replace === "string") verdict.replace = a.replace;
    if (a.deny) {
      verdict.denied = a.reason?.trim() || "no reason given";
      break;
    }
  }
  return verdict;
}

type HookResult = { answer: HookAnswer } | { failure: string };

/** Runs one hook: argv without a shell, the payload on stdin, a timeout. */
async function runHook(
  hook: HookConfig,
  payload: HookPayload,
  timeout: number,
): Promise<HookResult> {
  const name = `${payload.event} hook ${JSON.stringify(hook.command.join(" "))}`;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(hook.command[0], {
      args: hook.command.slice(1),
      cwd: payload.cwd,
      ...childEnv(),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    return { failure: `${name} cannot be started: ${(e as Error).message}` };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }, timeout);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(payload)));
    await writer.close().catch(() => {});
  } catch {
    // The hook did not read its stdin: that is its right.
  }
  const out = await child.output();
  clearTimeout(timer);
  if (timedOut) return { failure: `${name} timed out after ${formatDuration(timeout)}` };
  const stdout = new TextDecoder().decode(out.stdout).trim();
  const stderr = new TextDecoder().decode(out.stderr).trim();
  if (out.code === 2) {
    return { answer: { deny: true, reason: stderr || "denied (exit code 2)" } };
  }
  if (!out.success) {
    return {
      failure: `${name} failed with exit code ${out.code}${stderr ? `: ${firstLine(stderr)}` : ""}`,
    };
  }
  if (stdout === "") return { answer: {} };
  try {
    const answer = JSON.parse(stdout);
    if (!answer || typeof answer !== "object" || Array.isArray(answer)) {
      throw new Error("not an object");
    }
    if (answer.input !== undefined && (typeof answer.input !== "object" || answer.input === null)) {
      throw new Error("input is not an object");
    }
    return { answer: answer as HookAnswer };
  } catch (e) {
    return {
      failure: `${name} printed something that is not a JSON object (${(e as Error).message}): ${
        firstLine(stdout).slice(0, 120)
      }`,
    };
  }
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}
