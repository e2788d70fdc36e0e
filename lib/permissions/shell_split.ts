/**
 * A bash line cut into its simple commands, for the permission rules `bash(…)`: split on `;`, `&`,
 * `&&`, `||`, `|`, newlines and subshell parentheses, with the commands of `$(…)`, `` `…` ``,
 * `<(…)` and `>(…)` as commands of their own (also inside double quotes, where bash runs them
 * too). Quotes and backslashes are respected. Pure; no shell is run.
 */

/** The simple commands of a line, and whether the line was read to its end without a fault. */
export interface SplitLine {
  /** Each command trimmed, leading `if`/`then`/`do`/`!`/`{`… words left out; none is empty. */
  commands: string[];
  /** False when a quote or a substitution is left open: what was read is all there is. */
  complete: boolean;
}

/** Words that open a command without being it (`if true; then rm x; fi` runs `rm x`). */
const LEADING_WORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "do",
  "while",
  "until",
  "!",
  "{",
  "}",
  "time",
  "fi",
  "done",
  "esac",
]);

/** The simple commands of `line` (see {@linkcode SplitLine}). */
export function splitCommands(line: string): SplitLine {
  const commands: string[] = [];
  const end = readCommands(line.replace(/\\\r?\n/g, ""), 0, undefined, commands);
  return { commands, complete: end.complete };
}

/**
 * Reads commands from `i` until `close` (`)` or `` ` ``) or the end, pushing each to `out`; returns
 * where it stopped and whether it found what it looked for.
 */
function readCommands(
  s: string,
  i: number,
  close: ")" | "`" | undefined,
  out: string[],
): { end: number; complete: boolean } {
  let current = "";
  let depth = 0;
  const push = () => {
    const command = cleaned(current);
    if (command) out.push(command);
    current = "";
  };
  while (i < s.length) {
    const c = s[i];
    if (close && c === close && (close === "`" || depth === 0)) {
      push();
      return { end: i + 1, complete: true };
    }
    if (c === "\\") {
      current += s.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) {
        current += s.slice(i);
        push();
        return { end: s.length, complete: false };
      }
      current += s.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '"') {
      const read = readDoubleQuoted(s, i + 1, out);
      current += s.slice(i, read.end);
      if (!read.complete) {
        push();
        return { end: s.length, complete: false };
      }
      i = read.end;
      continue;
    }
    const sub = substitution(s, i);
    if (sub) {
      const inner = readCommands(s, i + sub.length, sub.close, out);
      current += s.slice(i, inner.end);
      if (!inner.complete) {
        push();
        return { end: s.length, complete: false };
      }
      i = inner.end;
      continue;
    }
    if (c === ";" || c === "&" || c === "|" || c === "\n" || c === "(" || c === ")") {
      // `2>&1`, `&>` and `>|` are redirections, not separators.
      const redirection = (c === "&" || c === "|") && /[<>]$/.test(current) ||
        c === "&" && s[i + 1] === ">";
      if (redirection) {
        current += c;
        i++;
        continue;
      }
      if (c === "(") depth++;
      if (c === ")" && depth > 0) depth--;
      push();
      i++;
      continue;
    }
    current += c;
    i++;
  }
  push();
  return { end: s.length, complete: close === undefined };
}

/** Reads a double-quoted string's inside from `i`, its substitutions' commands pushed to `out`. */
function readDoubleQuoted(
  s: string,
  i: number,
  out: string[],
): { end: number; complete: boolean } {
  while (i < s.length) {
    const c = s[i];
    if (c === '"') return { end: i + 1, complete: true };
    if (c === "\\") {
      i += 2;
      continue;
    }
    const sub = c === "$" && s[i + 1] === "(" ? { length: 2, close: ")" as const } : undefined;
    const tick = c === "`" ? { length: 1, close: "`" as const } : undefined;
    const open = sub ?? tick;
    if (open) {
      const inner = readCommands(s, i + open.length, open.close, out);
      if (!inner.complete) return { end: s.length, complete: false };
      i = inner.end;
      continue;
    }
    i++;
  }
  return { end: s.length, complete: false };
}

/** The substitution that opens at `i` (`$(`, `` ` ``, `<(`, `>(`), or undefined. */
function substitution(s: string, i: number): { length: number; close: ")" | "`" } | undefined {
  const c = s[i];
  if (c === "`") return { length: 1, close: "`" };
  if ((c === "$" || c === "<" || c === ">") && s[i + 1] === "(") return { length: 2, close: ")" };
  return undefined;
}

/** A command's text trimmed, white space runs made one space, its leading keywords left out. */
function cleaned(text: string): string {
  let words = text.trim();
  for (;;) {
    const m = /^(\S+)(\s+|$)/.exec(words);
    if (!m || !LEADING_WORDS.has(m[1])) break;
    words = words.slice(m[0].length);
  }
  return words.replace(/\s+/g, " ").trim();
}

/** A command without its leading `NAME=value` assignments (`FOO=1 rm x` runs `rm x`). */
export function withoutAssignments(command: string): string {
  return command.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S)*\s+)+/, "");
}
