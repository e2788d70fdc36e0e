/** One-shot mode (`mm -p`): one turn, the answer alone on stdout, progress on stderr or `--json`. */

import {
  type AgentEvent,
  type AnswerChecker,
  attachMentions,
  compileAnswerSchema,
  schemaErrorText,
  schemaRetryPrompt,
  schemaRetryWarning,
  type TurnOutcome,
} from "../agent/mod.ts";
import { UsageError } from "../cli/flags.ts";
import type { Config } from "../config/config.ts";
import { formatDuration } from "../config/duration.ts";
import { UserError } from "../presentation.ts";
import { eventLines } from "../mcp/status.ts";
import { contextReport } from "../provider/client.ts";
import { CLOSED_EXIT, interruptedText, RunStop, stopExitCode, type StopReason } from "./exit.ts";
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
  /** `--model` was given: it wins over a resumed session's model. */
  modelFlag?: boolean;
  /** The answer's schema (`--output-schema`, `outputSchema`), compiled by {@linkcode answerSchema}. */
  schema?: AnswerChecker;
  /** `--timeout`: the longest the whole run may take, in milliseconds (then exit 124). */
  timeoutMs?: number;
  /** `--plan`: plan mode, only reading runs (lib/permissions/plan.ts). */
  plan?: boolean;
}

/** The error of a run stopped by `--timeout`. */
export function runTimeoutText(ms: number): string {
  return `[error: the run took longer than --timeout ${formatDuration(ms)} — stopped]`;
}

/**
 * The answer's schema of a one-shot run: the file of `--output-schema` (over the agent file's
 * `outputSchema`), read and compiled before any request. A file that cannot be read, is not JSON
 * or is not a JSON Schema is a UsageError (exit 2); so is an agent file's schema that ajv refuses.
 * Returns the configuration with the schema in it (the server is asked for that format) and the
 * checker, or the configuration as it was when no schema is given.
 */
export async function answerSchema(
  config: Config,
  file?: string,
): Promise<{ config: Config; schema?: AnswerChecker }> {
  let schema: unknown = config.outputSchema ?? config.structuredOutput;
  let source = `outputSchema of ${config.file ?? "the agent file"}`;
  if (file !== undefined) {
    source = `--output-schema ${file}`;
    let text: string;
    try {
      text = await Deno.readTextFile(file);
    } catch (e) {
      throw new UsageError(`${source}: the file cannot be read (${errorText(e)})`);
    }
    try {
      schema = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${source}: the file is not JSON (${errorText(e)})`);
    }
  }
  if (schema === undefined) return { config };
  let checker: AnswerChecker;
  try {
    checker = await compileAnswerSchema(schema);
  } catch (e) {
    const message = `${source}: not a JSON Schema (${errorText(e)})`;
    if (file !== undefined) throw new UsageError(message);
    throw new UserError(message, 2);
  }
  const object = schema as Record<string, unknown>;
  return {
    config: { ...config, structuredOutput: object, outputSchema: object },
    schema: checker,
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
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
  // `--timeout`: the whole run, start-up included, as `timeout(1)` would, but with the last event.
  const bound = opts.timeoutMs === undefined
    ? undefined
    : setTimeout(() => stop.stop("timeout"), opts.timeoutMs);
  try {
    return await oneTurn(opts, stop);
  } finally {
    clearTimeout(bound);
    stop.dispose();
  }
}

/**
 * An event as `--json` writes it (docs/json-events.md): `turn_start` with what the start-up found
 * (`started`), `error` without its `kind`, which only says how a front end shows its message.
 */
function jsonEvent(
  e: AgentEvent | FinalAnswer,
  started: Record<string, unknown>,
): Record<string, unknown> {
  if (e.type === "turn_start") return { ...e, ...started };
  if (e.type === "error") {
    const { kind: _, ...written } = e;
    return written;
  }
  return e;
}

/** The answer event of a run with a schema: its JSON, compact, and (`--json`) the value. */
type FinalAnswer = { type: "answer"; text: string; json: unknown };

/** The turn of {@linkcode runOneShot}, stopped by `stop`. */
async function oneTurn(opts: OneShotOptions, stop: RunStop): Promise<number> {
  const out = new Output(() => stop.stop("stdout closed"));
  // `--json` adds the context window and the chat API to `turn_start` (docs/json-events.md).
  let started: Record<string, unknown> = {};
  const render: (e: AgentEvent | FinalAnswer) => void = opts.json
    ? (e) => {
      if (e.type === "progress") return;
      out.stdout(JSON.stringify(jsonEvent(e, started)) + "\n");
    }
    : plain(out, opts.config);
  // With a schema, the model's answer waits for its check: the answer written is the JSON.
  const emit = (e: AgentEvent) => {
    if (opts.schema && e.type === "answer") return;
    render(e);
  };
  const stopText = (reason: Exclude<StopReason, "stdout closed">) =>
    reason === "timeout" && opts.timeoutMs !== undefined
      ? runTimeoutText(opts.timeoutMs)
      : interruptedText(reason);
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
        message: stopText(reason),
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
    if (opts.plan) agent.plan = true;
    // `@path` mentions go along as in line mode; a missing or refused one sends nothing (exit 1).
    const attached = await attachMentions(agent, opts.prompt, controller.signal, {
      cwd: begun.cwd,
      maxOutput: opts.config.maxOutput,
    });
    if (!attached.ok) {
      emit({ type: "error", message: attached.text, kind: "sentence", where: "generation" });
      return 1;
    }
    for (const line of attached.lines) emit({ type: "notice", message: line });
    let outcome: TurnOutcome = await agent.runTurn(attached.prompt, controller.signal);
    let checked = outcome.status === "answered" && opts.schema
      ? opts.schema(outcome.answer)
      : undefined;
    // An answer off its schema is sent back once, with what is wrong with it.
    if (checked && !checked.ok && !controller.signal.aborted) {
      emit({ type: "warning", message: schemaRetryWarning(checked.errors) });
      outcome = await agent.runTurn(schemaRetryPrompt(checked.errors), controller.signal);
      checked = outcome.status === "answered" ? opts.schema!(outcome.answer) : undefined;
    }
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
        message: stopText(reason),
        kind: "bracketed",
        where: "generation",
      });
      return stopExitCode(reason);
    }
    if (checked && !checked.ok) {
      emit({
        type: "error",
        message: schemaErrorText(checked.errors),
        kind: "bracketed",
        where: "generation",
      });
      return 1;
    }
    if (checked?.ok) render({ type: "answer", text: checked.json, json: checked.value });
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
