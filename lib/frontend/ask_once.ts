/** `mm --ask NAME "prompt"` (mm.md §1): runs agent NAME of `mmConfigs` once and prints its answer. */

import type { Config } from "../config/config.ts";
import { UsageError } from "../cli/flags.ts";
import { ConfigError } from "../config/errors.ts";
import { agentName } from "../../tools/mod.ts";
import { askDepth, readAgentFile, Subagents } from "../subagent/ask.ts";
import { CLOSED_EXIT, interruptedText, RunStop, stopExitCode } from "./exit.ts";
import { Output } from "./terminal/output.ts";
import { visible } from "./terminal/visible.ts";
import { plain } from "./terminal/plain.ts";
import { warningText } from "../presentation.ts";

/** What `mm --ask` needs. */
export interface AskOnceOptions {
  config: Config;
  name: string;
  prompt: string;
  cwd: string;
}

/**
 * Agent `name` as `mmConfigs` spells it, its case and `-`/`_` forgiven as ask_agent forgives them;
 * undefined when there is none.
 */
export function askName(name: string, config: Config): string | undefined {
  return agentName(name, Object.keys(config.mmConfigs));
}

/** The usage error for a name `mmConfigs` does not have. */
export function unknownAskName(name: string, config: Config): UsageError {
  const names = Object.keys(config.mmConfigs).sort();
  return new UsageError(
    names.length
      ? `--ask: unknown agent "${name}" — agents: ${names.join(", ")}`
      : `--ask: unknown agent "${name}" — the agent file has no mmConfigs`,
  );
}

/**
 * Asks the agent once: its answer on stdout, errors on stderr. Nobody can be asked: its permission
 * requests are refused unless its entry's `yolo` (else this agent's) lets its calls run. Exit codes
 * as `-p`: 0 answered, 1 failed, 130 interrupted (128 + the signal's number; 141 when stdout closed);
 * an agent whose file cannot start it is a {@linkcode ConfigError} (2).
 */
export async function runAskOnce(opts: AskOnceOptions): Promise<number> {
  opts = { ...opts, name: askName(opts.name, opts.config) ?? opts.name };
  const ref = opts.config.mmConfigs[opts.name];
  if (!ref) throw unknownAskName(opts.name, opts.config);
  // A file that cannot start the agent is a configuration error (exit 2), said before it starts.
  const read = readAgentFile(ref, opts.config, Deno.env.toObject(), opts.cwd);
  if (!read.ok) {
    const key = `mmConfigs.${opts.name}.file`;
    throw new ConfigError(opts.config.file ?? "mm", 0, 0, key, `${key}: ${read.fault}`);
  }
  const stop = new RunStop();
  const out = new Output(() => stop.stop("stdout closed"));
  const fail = (text: string, code = 1) => {
    out.stderr(`${visible(text)}\n`);
    return code;
  };
  const agents = new Subagents(
    opts.config,
    askDepth({ MM_ASK_DEPTH: Deno.env.get("MM_ASK_DEPTH") }),
  );
  try {
    // The agent's work shows on stderr as `-p` shows an asked agent's; its last text, the answer,
    // is left for stdout (the renderer writes an agent's text only before its next call).
    const render = plain(out, opts.config);
    const { result, answer } = await agents.ask({
      agent: opts.name,
      prompt: opts.prompt,
      message: opts.prompt,
      maxOutput: Number.MAX_SAFE_INTEGER,
    }, {
      cwd: opts.cwd,
      config: opts.config,
      signal: stop.signal,
      emit: (event) => render({ type: "nested", call: "ask", event }),
      hookFailure: (f) => out.stderr(`${warningText(visible(f))}\n`),
    });
    if (stop.reason === "stdout closed") return CLOSED_EXIT;
    if (stop.reason) return fail(interruptedText(stop.reason), stopExitCode(stop.reason));
    if (result.failed || answer === undefined) return fail(result.output);
    // A hook's context is for a model: stdout is the answer alone (docs/tools.md).
    out.answer(answer.endsWith("\n") ? answer : `${answer}\n`);
    return out.closed ? CLOSED_EXIT : 0; // the answer lost in a closed pipe
  } finally {
    stop.dispose();
    await agents.close();
  }
}
