/** The lines a terminal front end starts with (line mode prints them, window mode shows them first). */

import type { Config } from "../../config/config.ts";
import { contextLine, type ContextPlan } from "../../provider/client.ts";
import type { SessionRecorder } from "../../session/recorder.ts";
import { redactUrl } from "../../secrets.ts";
import { VERSION } from "../../version.ts";
import { sandboxOf, sandboxText } from "../../exec/sandbox.ts";

/**
 * The banner: version, model, provider, URL, the context window, the tools, yolo, the session, the
 * sandbox when it is on, the instructions files read (AGENTS.md) when there are any.
 */
export function banner(
  config: Config,
  model: string,
  tools: string[],
  recorder?: SessionRecorder,
  context?: ContextPlan,
  instructions: string[] = [],
): string {
  const sandbox = sandboxOf(config);
  const lines = [
    `mm ${VERSION} · ${model} @ ${config.provider} (${redactUrl(config.url)})`,
    ...(context ? [contextLine(context, config.provider)] : []),
    `tools: ${tools.join(", ") || "none"} · yolo: ${config.yolo ? "on" : "off (calls ask first)"}`,
    // On its own line: after the tools it wrapped at 100 columns.
    ...(recorder ? [`session ${recorder.session.id}`] : []),
    ...(sandbox ? [`sandbox: ${sandboxText(sandbox)}`] : []),
    ...(instructions.length ? [instructionsLine(instructions)] : []),
    "Type a request; /help lists the commands; Ctrl-D quits.",
  ];
  return lines.join("\n") + "\n";
}

/** The banner's line of the instructions files read into the system prompt. */
export function instructionsLine(files: string[]): string {
  return `instructions: ${files.join(", ")}`;
}
