/**
 * ask_user in line mode, without the terminal: the lines that show a question, how one typed line
 * answers it, and an asker that runs a whole set over an injected reader and writer
 * (tools.md, `ask_user`, "Line mode").
 */

import type { AskOutcome, AskUser, Question } from "../../tool.ts";
import { parseAnswer } from "../terminal/answers.ts";

/** The prompt the answer is typed after, printed by the reader, not part of {@linkcode questionLines}. */
export const ANSWER_PROMPT = "  ? ";

/**
 * The hint line of a question, printed under it and again after a line that does not answer:
 * `  (a number or the option's text[; empty for the default])` (choice),
 * `  (numbers separated by commas or spaces, e.g. 1,3)` (multi),
 * `  (y or n[; empty for yes])` (confirm), `  (your answer[; empty for "<default>"])` (text).
 */
export function hintLine(q: Question): string {
  switch (q.type) {
    case "choice":
      return q.default === undefined
        ? "  (a number or the option's text)"
        : "  (a number or the option's text; empty for the default)";
    case "multi":
      return "  (numbers separated by commas or spaces, e.g. 1,3)";
    case "confirm":
      return q.default === undefined ? "  (y or n)" : `  (y or n; empty for ${q.default})`;
    case "text":
      return q.default === undefined
        ? "  (your answer)"
        : `  (your answer; empty for "${q.default}")`;
  }
}

/**
 * The lines that show question `index` (0-based) of `total`: `❓ <question>`, one `  N. <option>`
 * line per option (` (default)` after the default), and the hint. The prompt is
 * {@linkcode ANSWER_PROMPT}. `index` and `total` change nothing: line mode shows no `(i/N)`, the
 * spec's row quotes `❓ <question>` alone; they are there for front ends that number questions.
 */
export function questionLines(q: Question, _index = 0, _total = 1): string[] {
  const options = q.options.map((o, i) =>
    `  ${i + 1}. ${o}${q.type === "choice" && o === q.default ? " (default)" : ""}`
  );
  return [`❓ ${q.question}`, ...options, hintLine(q)];
}

/** What a front end gives {@linkcode lineAsker}: a line reader and a writer. */
export interface LineAskerIO {
  /** Prints `prompt` and reads one line, without its newline; null at the end of the input. */
  readLine(prompt: string): Promise<string | null>;
  /** Prints `text` as it is (the asker adds the newlines). */
  write(text: string): void;
  /**
   * Runs a slash command typed instead of an answer (`name` with its slash, `line` as typed):
   * `"again"` asks the question again, `"cancel"` cancels the set. Absent, every command cancels.
   */
  command?(name: string, line: string): "again" | "cancel" | Promise<"again" | "cancel">;
}

/**
 * An AskUser for line mode: prints each question in turn ({@linkcode questionLines}), reads lines
 * until one answers it (printing the hint again after one that does not), and returns the answers.
 * `/skip` declines; the end of the input, an aborted signal or a cancelling command cancels.
 */
export function lineAsker(io: LineAskerIO): AskUser {
  return async (questions, signal) => {
    const answers: string[] = [];
    for (const [i, q] of questions.entries()) {
      io.write(questionLines(q, i, questions.length).join("\n") + "\n");
      for (;;) {
        if (signal.aborted) return { kind: "cancelled" };
        const line = await untilAborted(io.readLine(ANSWER_PROMPT), signal);
        if (line === null || signal.aborted) return { kind: "cancelled" };
        const parsed = parseAnswer(q, line);
        if (parsed.kind === "answer") {
          answers.push(parsed.value);
          break;
        }
        if (parsed.kind === "skip") return { kind: "declined" };
        if (parsed.kind === "command" && (await io.command?.(parsed.name, line)) !== "again") {
          return { kind: "cancelled" };
        }
        io.write(hintLine(q) + "\n");
      }
    }
    return { kind: "answered", answers } satisfies AskOutcome;
  };
}

/** `read`, or null as soon as `signal` aborts. */
function untilAborted(read: Promise<string | null>, signal: AbortSignal): Promise<string | null> {
  let onAbort = () => {};
  const aborted = new Promise<null>((resolve) => {
    onAbort = () => resolve(null);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([read, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
