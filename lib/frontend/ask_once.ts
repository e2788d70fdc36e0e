/** `mm --ask NAME "prompt"` (mm.md §1): runs agent NAME of `mmConfigs` once and prints its answer. */

import type { Config } from "../config/config.ts";
import { UsageError } from "../cli/flags.ts";
import { Output, writeAll } from "./terminal/output.ts";
import { plain } from "./terminal/plain.ts";
import { runHooks, withHookContext } from "../hooks/run.ts";
import { childAgent, closeChildren, depthRefusal } from "../subagent/child.ts";
import { nestedEvent } from "../subagent/updates.ts";
import { failedText, resultText } from "../../tools/ask_agent.ts";

/** What `mm --ask` needs. */
export interface AskOnceOptions {
  config: Config;
  name: string;
  prompt: string;
  cwd: string;
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
 * as `-p`: 0 answered, 1 failed, 130 interrupted.
 */
export async function runAskOnce(opts: AskOnceOptions): Promise<number> {
  const ref = opts.config.mmConfigs[opts.name];
  if (!ref) throw unknownAskName(opts.name, opts.config);
  const fail = (text: string, code = 1) => {
    writeAll(Deno.stderr, `${text}\n`);
    return code;
  };
  const depth = depthRefusal();
  if (depth) return fail(failedText(opts.name, depth));
  const { hooks, bashTimeout } = opts.config;
  const pre = await runHooks(hooks.preAsk, {
    event: "preAsk",
    agent: opts.name,
    prompt: opts.prompt,
    cwd: opts.cwd,
  }, bashTimeout);
  for (const f of pre.failures) writeAll(Deno.stderr, `[warning: ${f}]\n`);
  if (pre.denied !== undefined) return fail(`[ask denied by a hook: ${pre.denied}]`);
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  Deno.addSignalListener("SIGINT", onInterrupt);
  try {
    const child = childAgent(opts.name, ref, opts.config);
    // The agent's work shows on stderr as `-p` shows an asked agent's; its last text, the answer,
    // is left for stdout (the renderer writes an agent's text only before its next call).
    const render = plain(new Output(), opts.config);
    const result = await child.ask(withHookContext(opts.prompt, pre.context), {
      cwd: opts.cwd,
      signal: controller.signal,
      decide: () => Promise.resolve(child.yolo),
      onUpdate: (update) => {
        const event = nestedEvent(opts.name, update);
        if (event) render({ type: "nested", call: "ask", event });
      },
      watchdog: opts.config.watchdogTimeout,
    });
    if (controller.signal.aborted) return fail("[error: interrupted]", 130);
    const out = resultText(opts.name, result, Number.MAX_SAFE_INTEGER);
    if (out.failed) return fail(out.output);
    const post = await runHooks(hooks.postAsk, {
      event: "postAsk",
      agent: opts.name,
      prompt: opts.prompt,
      answer: out.output,
      cwd: opts.cwd,
    }, bashTimeout);
    for (const f of post.failures) writeAll(Deno.stderr, `[warning: ${f}]\n`);
    // A hook's context is for a model: stdout is the answer alone (docs/tools.md).
    const answer = post.replace ?? out.output;
    writeAll(Deno.stdout, answer.endsWith("\n") ? answer : `${answer}\n`);
    return 0;
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    await closeChildren();
  }
}
