/**
 * How typed text answers one of ask_user's questions (tools.md, `ask_user`): a line in line mode, a
 * key or the typed answer in window mode.
 */

import type { Question } from "../../tool.ts";
import { yesNo } from "../../text.ts";

/** What one typed line does to a question. */
export type LineAnswer =
  /** It answers: an option, options joined by `, `, `yes`/`no`, or the text. */
  | { kind: "answer"; value: string }
  /** It does not answer: print the hint and read another line. */
  | { kind: "again" }
  /** `/skip`: the user declines the whole set. */
  | { kind: "skip" }
  /** Another slash command (`/abort`, `/quit`, ...), with its slash, for the front end. */
  | { kind: "command"; name: string };

/** `/word …` at the start of a line: a slash command, not an answer (`/usr/bin` is an answer). */
const COMMAND = /^\/([A-Za-z][\w-]*)(?:\s|$)/;

/**
 * What the typed `line` does to `q`. An empty line takes the default, else asks again; `/skip`
 * declines; another slash command is returned for the front end. Otherwise, by type:
 * - `choice`: a number in range, an option's text (ignoring case), the start of exactly one option
 *   (ignoring case), or any other text, taken as the answer as typed; a number out of range asks
 *   again.
 * - `multi`: numbers separated by commas, spaces or semicolons, all in range; the options are
 *   answered in the options' order, each once, joined by `, `. Anything else asks again.
 * - `confirm`: `y`/`yes`/`o`/`oui`/`true`/`1` is `yes`, `n`/`no`/`non`/`false`/`0` is `no`, any
 *   case; anything else asks again.
 * - `text`: the line, trimmed.
 */
export function parseAnswer(q: Question, line: string): LineAnswer {
  const text = line.trim();
  const command = text.match(COMMAND);
  if (command) {
    return command[1].toLowerCase() === "skip"
      ? { kind: "skip" }
      : { kind: "command", name: `/${command[1]}` };
  }
  if (text === "") return q.default === undefined ? again : answer(q.default);
  switch (q.type) {
    case "choice":
      return choiceAnswer(q.options, text);
    case "multi":
      return multiAnswer(q.options, text);
    case "confirm": {
      const word = yesNo(text);
      return word === undefined ? again : answer(word);
    }
    case "text":
      return answer(text);
  }
}

const again: LineAnswer = { kind: "again" };

function answer(value: string): LineAnswer {
  return { kind: "answer", value };
}

/** A 1-based option number as typed (`2`, `2.`), or undefined when the text is not one. */
function optionNumber(text: string): number | undefined {
  const m = text.match(/^(\d+)\.?$/);
  return m ? Number(m[1]) : undefined;
}

function choiceAnswer(options: string[], text: string): LineAnswer {
  const n = optionNumber(text);
  if (n !== undefined && n >= 1 && n <= options.length) return answer(options[n - 1]);
  const lower = text.toLowerCase();
  const exact = options.find((o) => o.toLowerCase() === lower);
  if (exact !== undefined) return answer(exact);
  if (n !== undefined) return again;
  const starting = options.filter((o) => o.toLowerCase().startsWith(lower));
  return answer(starting.length === 1 ? starting[0] : text);
}

function multiAnswer(options: string[], text: string): LineAnswer {
  const picked = new Set<number>();
  for (const token of text.split(/[\s,;]+/).filter((t) => t !== "")) {
    const n = optionNumber(token);
    if (n === undefined || n < 1 || n > options.length) return again;
    picked.add(n - 1);
  }
  if (picked.size === 0) return again;
  return answer([...picked].sort((a, b) => a - b).map((i) => options[i]).join(", "));
}
