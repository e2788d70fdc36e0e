/** One-shot mode (`mm -p`): one turn, the answer alone on stdout, progress on stderr or `--json`. */

import type { AgentEvent } from "../agent/events.ts";
import type { Config } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { eventLines } from "../mcp/status.ts";
import { contextReport } from "../provider/client.ts";
import { CLOSED_EXIT, interruptedText, RunStop, stopExitCode } from "./exit.ts";
import { start } from "./start.ts";
import { Output } from "./terminal/output.ts";
import { plain } from "./terminal/plain.ts";

/** What a one-shot run needs. */
export interface OneShotOptions {
  config: Config;
  prompt: string;
  cwd: string;
  json: boolean;
  /** `--continue`. */
  continueLatest?: boolean;
  /** `--session ID`. */
  sessionId?: string;
}

/** The error of a one-shot turn that ran longer than `turnTimeout`. */
export function turnTimeoutText(ms: number): string {
  return `[error: the turn ran longer than turnTimeout (${
    formatDuration(ms)
  }) — stopped; raise turnTimeout in the agent file, or ask for a smaller step]`;
}

/**
 * Runs one turn and returns the exit code of mm.md §1: 0 answered, 1 failed, 130 interrupted
 * (128 + the signal's number for SIGTERM and SIGHUP; 141 when stdout was closed, quietly).
 */
export async function runOneShot(opts: OneShotOptions): Promise<number> {
  const stop = new RunStop();
  try {
    return await oneTurn(opts, stop);
  } finally {
    stop.dispose();
  }
}

/**
 * An event as `--json` writes it (docs/json-events.md): `turn_start` with what the start-up found
 * (`started`), `error` without its `kind`, which only says how a front end shows its message.
 */
function jsonEvent(e: AgentEvent, started: Record<string, unknown>): Record<string, unknown> {
  if (e.type === "turn_start") return { ...e, ...started };
  if (e.type === "error") {
    const { kind: _, ...written } = e;
    return written;
  }
  return e;
}

/** The turn of {@linkcode runOneShot}, stopped by `stop`. */
async function oneTurn(opts: OneShotOptions, stop: RunStop): Promise<number> {
  const out = new Output(() => stop.stop("stdout closed"));
  // `--json` adds the context window and the chat API to `turn_start` (docs/json-events.md).
  let started: Record<string, unknown> = {};
  const emit = opts.json
    ? (e: AgentEvent) => {
      if (e.type === "progress") return;
      out.stdout(JSON.stringify(jsonEvent(e, started)) + "\n");
    }
    : plain(out, opts.config);
  const begun = await stop.startingUp(
    start({
      ...opts,
      runWarning: (message) => out.stderr(`${message}\n`),
      sessionWarning: (message) => emit({ type: "warning", message }),
      mcpEvent: (event) => {
        for (const l of eventLines(event)) {
          emit({ type: l.warning ? "warning" : "notice", message: l.text });
        }
      },
    }),
    (reason) => {
      if (reason === "stdout closed") return;
      emit({
        type: "error",
        message: interruptedText(reason),
        kind: "bracketed",
        where: "generation",
      });
    },
  );
  if (!begun.ok) {
    emit({ type: "error", message: begun.error, kind: "sentence", where: "generation" });
    return 1;
  }
  // The turn stops on a signal or a closed stdout (`stop`), or when it runs too long.
  const controller = new AbortController();
  const onStop = () => controller.abort();
  stop.signal.addEventListener("abort", onStop, { once: true });
  if (stop.signal.aborted) onStop();
  // A model that never stops (or a command that never ends) must not hang a CI job for ever.
  let overtime = false;
  const bound = setTimeout(() => {
    overtime = true;
    controller.abort();
  }, opts.config.turnTimeout);
  try {
    started = contextReport(begun.chat.plan);
    const agent = begun.agent({
      // Nobody can be asked in one-shot mode: a call that would ask is rejected.
      askPermission: () => Promise.resolve({ kind: "reject", unasked: true }),
      emit,
      warn: (message) => emit({ type: "warning", message }),
    });
    const outcome = await agent.runTurn(opts.prompt, controller.signal);
    if (outcome.status === "cancelled" && overtime && !stop.reason) {
      emit({
        type: "error",
        message: turnTimeoutText(opts.config.turnTimeout),
        kind: "bracketed",
        where: "generation",
      });
      return 1;
    }
    if (outcome.status === "cancelled") {
      const reason = stop.reason ?? "SIGINT";
      if (reason === "stdout closed") return CLOSED_EXIT;
      emit({
        type: "error",
        message: interruptedText(reason),
        kind: "bracketed",
        where: "generation",
      });
      return stopExitCode(reason);
    }
    // The answer written into a pipe its reader had closed (`mm -p hi | true`) is lost: say so.
    if (out.closed) return CLOSED_EXIT;
    return outcome.status === "answered" ? 0 : 1;
  } finally {
    clearTimeout(bound);
    stop.signal.removeEventListener("abort", onStop);
    // Language servers start on first use, live for the process, and are stopped before mm exits.
    await begun.close();
  }
}
