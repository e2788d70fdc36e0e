/**
 * How a finished command's output ends for the model (tools.md, `bash`, "Declared tools"): bash
 * and the declared tools say it alike.
 */

import { formatDuration } from "../lib/config/duration.ts";
import { TOO_LARGE_MARKER } from "../lib/exec.ts";
import { truncateMiddle } from "../lib/text.ts";
import type { ExecResult, ToolResult } from "../lib/tool.ts";

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

/** What the model reads in place of output that is not text (NUL bytes, bytes that are not UTF-8). */
export function binaryOutputText(bytes: number): string {
  return `[binary output: ${bytes} bytes, not shown]`;
}

/** Where a NUL byte stood in output that is mostly text (`find -print0`). */
export const NUL_MARK = "␀";

/**
 * Output a model can read: as it is when it is text. A line of it that is mostly not text (NUL
 * bytes, bytes that are not UTF-8, already U+FFFD, raw control bytes) is replaced, with the lines
 * like it around it, by one line saying how many bytes were left out (`[binary output: N bytes, not
 * shown]`): sent as JSON, each NUL would cost the model six characters of escape, and the text
 * around a binary file (`cat notes.txt icon.ico`) stays readable. The scraps between two binary
 * lines (a few characters, or any that carry such bytes) belong to the binary part, and an output
 * that starts binary is so up to its last binary line, so `cat` of an executable is one line, not
 * dozens. A few NULs in a line of text (`find -print0`) are marked
 * {@linkcode NUL_MARK}.
 */
export function readableOutput(output: string): string {
  if (!/[\0\ufffd]/.test(output)) return output;
  const lines = output.split("\n");
  const binary = binaryLines(lines);
  const out: string[] = [];
  let bytes = 0;
  lines.forEach((line, i) => {
    if (binary[i]) {
      bytes += byteLength(line) + (i === lines.length - 1 ? 0 : 1);
      return;
    }
    if (bytes) out.push(binaryOutputText(bytes));
    bytes = 0;
    out.push(line.replaceAll("\0", NUL_MARK));
  });
  if (bytes) out.push(binaryOutputText(bytes));
  return out.join("\n");
}

/** Whether code unit `c` is a control byte text does not carry (tab, newlines, bell, BS, FF, ESC do). */
function isRawControl(c: number): boolean {
  return (c >= 0x01 && c <= 0x06) || (c >= 0x0e && c <= 0x1f && c !== 0x1b) || c === 0x7f;
}

/** Whether `line` holds a raw control byte. */
function hasRawControl(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (isRawControl(line.charCodeAt(i))) return true;
  return false;
}

/**
 * Which lines are binary: those {@linkcode isBinaryLine} says, and the scraps between them — the
 * lines between two binary ones that are short or hold a byte text does not, and on the side of a
 * binary line that has text beyond, the lines next to it that hold such a byte.
 */
function binaryLines(lines: string[]): boolean[] {
  const binary = lines.map(isBinaryLine);
  const odd = (i: number) => oddCount(lines[i]) > 0;
  const scrap = (i: number) => odd(i) || lines[i].trim().length < 8;
  for (let i = 0; i < lines.length; i++) {
    if (binary[i]) continue;
    let end = i; // the run of lines that are not binary: [i, end)
    while (end < lines.length && !binary[end]) end++;
    const before = i > 0;
    const after = end < lines.length;
    if (before && after && lines.slice(i, end).every((_, k) => scrap(i + k))) {
      binary.fill(true, i, end);
    } else {
      for (let k = i; before && k < end && odd(k); k++) binary[k] = true;
      for (let k = end - 1; after && k >= i && odd(k) && !binary[k]; k--) binary[k] = true;
    }
    i = end;
  }
  // Output that starts binary (`cat` of an executable) is so up to its last binary line: the
  // strings of an executable are not text to read; what a later command printed stays.
  if (binary[0]) binary.fill(true, 0, binary.lastIndexOf(true) + 1);
  return binary;
}

/** How many characters of `line` are NUL, U+FFFD (a byte that was not UTF-8) or a raw control. */
function oddCount(line: string): number {
  let odd = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0 || c === 0xfffd || isRawControl(c)) odd++;
  }
  return odd;
}

/**
 * Whether `line` is binary: more than a tenth of it is NUL bytes, bytes that were not UTF-8 or raw
 * controls, or it has NULs or such bytes beside raw controls (an executable's tables).
 */
function isBinaryLine(line: string): boolean {
  const odd = oddCount(line);
  if (odd === 0) return false;
  return odd > line.length / 10 || (/[\0\ufffd]/.test(line) && hasRawControl(line));
}

/** The bytes `text` stood for: each U+FFFD was one byte that was not UTF-8, not its three. */
function byteLength(text: string): number {
  const replacements = text.split("\ufffd").length - 1;
  return new TextEncoder().encode(text).length - 2 * replacements;
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
