/**
 * How a finished command's output ends for the model (tools.md, `bash`, "Declared tools"): bash
 * and the declared tools say it alike.
 */

import { formatDuration } from "../lib/config/duration.ts";
import { TOO_LARGE_MARKER } from "../lib/history.ts";
import { truncateMiddle } from "../lib/text.ts";
import type { ExecResult, ToolResult } from "../lib/tool.ts";
import { readableOutput } from "./_readable.ts";

/** The read-back marker of very large output and the line that counts what it dropped. */
const READ_BACK_NOTE =
  /\[\.\.\. output too large to read back in full \.\.\.\]\n\[\.\.\. (at least )?\d+ bytes dropped between the two ends \.\.\.\]/;

/** The last line of the output when the command outlived its timeout: `[error: 30s timeout exceeded]`. */
export function timeoutText(timeout: number): string {
  return `[error: ${formatDuration(timeout)} timeout exceeded]`;
}

/** The last line of the output when the turn was cancelled while the command ran. */
export const CANCELLED_TEXT = "[error: cancelled]";

/** The last line of the output of a command that exited with a non-zero status. */
export function exitCodeText(code: number): string {
  return `[exit code: exit status ${code}]`;
}

/** The last line of the output of a command ended by a signal mm did not send: `[exit code: signal: killed]`. */
export function signalExitText(signal: string): string {
  return `[exit code: signal: ${signalName(signal)}]`;
}

/** Go's names of the signals (what `exit status`'s sibling `signal: killed` says), by POSIX name. */
const SIGNAL_NAMES: Record<string, string> = {
  SIGHUP: "hangup",
  SIGINT: "interrupt",
  SIGQUIT: "quit",
  SIGILL: "illegal instruction",
  SIGTRAP: "trace/breakpoint trap",
  SIGABRT: "aborted",
  SIGBUS: "bus error",
  SIGFPE: "floating point exception",
  SIGKILL: "killed",
  SIGUSR1: "user defined signal 1",
  SIGSEGV: "segmentation fault",
  SIGUSR2: "user defined signal 2",
  SIGPIPE: "broken pipe",
  SIGALRM: "alarm clock",
  SIGTERM: "terminated",
  SIGSTKFLT: "stack fault",
  SIGCHLD: "child exited",
  SIGCONT: "continued",
  SIGSTOP: "stopped (signal)",
  SIGTSTP: "stopped",
  SIGTTIN: "stopped (tty input)",
  SIGTTOU: "stopped (tty output)",
  SIGURG: "urgent I/O condition",
  SIGXCPU: "CPU time limit exceeded",
  SIGXFSZ: "file size limit exceeded",
  SIGVTALRM: "virtual timer expired",
  SIGPROF: "profiling timer expired",
  SIGWINCH: "window changed",
  SIGIO: "I/O possible",
  SIGPWR: "power failure",
  SIGSYS: "bad system call",
};

/** A signal as Go's os/exec writes it (`SIGKILL` → `killed`); an unknown one keeps its name. */
export function signalName(signal: string): string {
  return SIGNAL_NAMES[signal] ?? signal;
}

/** The marker line that ends the output, or undefined for a clean exit. */
function endMarker(result: ExecResult, timeout: number): string | undefined {
  if (result.timedOut) return timeoutText(timeout);
  if (result.cancelled) return CANCELLED_TEXT;
  if (result.signal) return signalExitText(result.signal);
  if (result.code !== undefined && result.code !== 0) return exitCodeText(result.code);
  return undefined;
}

/** `text`, then `line` on a line of its own. */
function appendLine(text: string, line: string): string {
  if (text === "") return line;
  return text.endsWith("\n") ? text + line : `${text}\n${line}`;
}

/**
 * A finished command's result as the model reads it: the output made readable and truncated to
 * `maxOutput`, then the timeout, cancellation, signal or exit-code line. Declared tools end their
 * output the same way.
 */
export function commandOutput(result: ExecResult, timeout: number, maxOutput: number): ToolResult {
  // The read-back marker and its count stay whatever maxOutput cuts.
  const output = readableOutput(result.output);
  const marker = READ_BACK_NOTE.exec(output)?.[0] ?? TOO_LARGE_MARKER.trim();
  const shown = truncateMiddle(output, maxOutput, marker);
  const end = endMarker(result, timeout);
  if (end === undefined) return { output: shown };
  return { output: appendLine(shown, end), failed: true };
}
