/**
 * The plain-text rendering of `mm -p` (and of the asked agent's work in `mm --ask`). What a model
 * or a tool wrote reaches stderr through {@linkcode visible}; the answer on stdout too when stdout
 * is a terminal.
 */

import { type AgentEvent, recapLine } from "../../agent/mod.ts";
import { errorLine } from "../../presentation.ts";
import type { Config } from "../../config/config.ts";
import { hookInputLine, previewLines, toolLine } from "./display.ts";
import { endsCall, indented, NestedTitles, nestedToolLine } from "./nested_lines.ts";
import type { Output } from "./output.ts";
import { visible } from "./visible.ts";

/**
 * How much of the text said before a call (or a failure) is kept to show on stderr: the rest is
 * counted, not held (an answer may run to the 32 MiB limit before it fails).
 */
export const PENDING_SHOWN = 64 * 1024;

/** The text rendering: the answer on stdout, everything else on stderr, dimmed only on a terminal. */
export function plain(out: Output, config: Config): (e: AgentEvent) => void {
  let pending = "";
  let dropped = 0;
  /** Writes the text said so far, then a line counting what was not kept. */
  const flush = (): void => {
    const text = pending.trim();
    const more = dropped ? `\n… ${dropped} more characters not shown` : "";
    if (text) out.stderr(visible(text) + more + "\n");
    pending = "";
    dropped = 0;
  };
  let thinking = false;
  const endThought = () => {
    if (thinking) out.stderr("\n");
    thinking = false;
  };
  // An asked agent's text (ask_agent), written indented before its next call or its result.
  let nested = "";
  const titles = new NestedTitles();
  const endNested = () => {
    endThought();
    if (nested.trim()) out.stderr(indented(visible(nested.trim()), true) + "\n");
    nested = "";
  };
  const render = (e: AgentEvent): void => {
    switch (e.type) {
      case "text": {
        const room = PENDING_SHOWN - pending.length;
        if (room >= e.text.length) pending += e.text;
        else {
          pending += e.text.slice(0, Math.max(0, room));
          dropped += e.text.length - Math.max(0, room);
        }
        break;
      }
      case "thought":
        if (!out.colour) break;
        if (!thinking) out.stderr(out.dim("💭 "));
        thinking = true;
        out.stderr(out.dim(visible(e.text)));
        break;
      case "tool_call":
        endThought();
        flush();
        out.stderr(toolLine(e.emoji, e.name, e.summary) + "\n");
        break;
      case "tool_input":
        out.stderr(hookInputLine(e.name, e.summary) + "\n");
        break;
      case "tool_result":
        endNested();
        if (e.preview === false) break;
        for (const line of previewLines(e.display ?? e.output, config.previewLines)) {
          out.stderr(out.dim(line) + "\n");
        }
        break;
      case "nested": {
        const n = e.event;
        const changed = titles.line(n);
        if (changed) {
          endNested();
          out.stderr(changed + "\n");
        }
        if (n.type === "text") nested += n.text;
        else if (n.type === "thought") render({ type: "thought", text: n.text });
        else if (n.type === "tool_call") {
          endNested();
          out.stderr(nestedToolLine(n) + "\n");
        } else if (endsCall(n) && n.output !== undefined) {
          endNested();
          for (const line of previewLines(n.output, config.previewLines)) {
            out.stderr(out.dim(line) + "\n");
          }
        }
        break;
      }
      case "warning":
      case "notice":
        // An asked agent's text streamed so far comes first (a postAsk hook warns after it).
        endNested();
        out.stderr(`${visible(e.message)}\n`);
        break;
      case "recap": {
        endThought();
        const line = recapLine(e.counters);
        if (line) out.stderr(line + "\n");
        break;
      }
      case "answer":
        endThought();
        out.answer(e.text.endsWith("\n") || e.text === "" ? e.text : e.text + "\n");
        break;
      case "error":
        endThought();
        // What the model said before the turn failed is not an answer, but it was said.
        flush();
        out.stderr(`${visible(errorLine(e.message, e.kind))}\n`);
        break;
    }
  };
  return render;
}
