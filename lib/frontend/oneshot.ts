/** One-shot mode (`mm -p`): one turn, the answer alone on stdout, progress on stderr or `--json`. */

import type { AgentEvent } from "../agent/events.ts";
import type { Config } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { contextReport } from "../provider/client.ts";
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

/** Runs one turn and returns the exit code of mm.md §1: 0 answered, 1 failed, 130 interrupted. */
export async function runOneShot(opts: OneShotOptions): Promise<number> {
  const out = new Output();
  // `--json` adds the context window and the chat API to `turn_start` (docs/json-events.md).
  let started: Record<string, unknown> = {};
  const emit = opts.json
    ? (e: AgentEvent) => {
      if (e.type === "progress") return;
      out.stdout(JSON.stringify(e.type === "turn_start" ? { ...e, ...started } : e) + "\n");
    }
    : plain(out, opts.config);
  const begun = await start({
    ...opts,
    runWarning: (message) => out.stderr(`${message}\n`),
    sessionWarning: (message) => emit({ type: "warning", message }),
  });
  if (!begun.ok) {
    emit({ type: "error", message: begun.error, where: "generation" });
    return 1;
  }
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  Deno.addSignalListener("SIGINT", onInterrupt);
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
      askPermission: () => Promise.resolve({ kind: "reject" }),
      emit,
      warn: (message) => emit({ type: "warning", message }),
    });
    const outcome = await agent.runTurn(opts.prompt, controller.signal);
    if (outcome.status === "cancelled" && overtime) {
      emit({
        type: "error",
        message: turnTimeoutText(opts.config.turnTimeout),
        where: "generation",
      });
      return 1;
    }
    if (outcome.status === "cancelled") {
      emit({ type: "error", message: "[error: interrupted]", where: "generation" });
      return 130;
    }
    return outcome.status === "answered" ? 0 : 1;
  } finally {
    clearTimeout(bound);
    // Language servers start on first use, live for the process, and are stopped before mm exits.
    await begun.close();
    Deno.removeSignalListener("SIGINT", onInterrupt);
  }
}
