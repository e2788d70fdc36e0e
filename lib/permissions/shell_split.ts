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
  /**
   * False when a quote or a substitution is left open (what was read is all there is), or when the
   * line holds what this reading does not follow for sure — backticks nested in backticks, a
   * here-document, `eval`, a `${…}` that runs a command: such a line is never allowed by a rule.
   */
  complete: boolean;
}

/** What a reading found that it cannot follow for sure. */
interface Doubts {
  unsure: boolean;
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
  "fi",
  "done",
  "esac",
]);

/** The simple commands of `line` (see {@linkcode SplitLine}). */
export function splitCommands(line: string): SplitLine {
  const commands: string[] = [];
  const doubts: Doubts = { unsure: false };
  const text = line.replace(/\\\r?\n/g, "");
  const end = readCommands(text, 0, undefined, commands, doubts);
  if (
    /(^|[^<])<<-?\s*[^<\s]/.test(text) || commands.some((c) => /^(eval|\.|source)(\s|$)/.test(c))
  ) {
    doubts.unsure = true;
  }
  return { commands, complete: end.complete && !doubts.unsure };
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
  doubts: Doubts,
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
    if (c === "$" && s[i + 1] === "{") {
      // `${x:-$(rm y)}`: a parameter expansion that runs a command is not followed for sure.
      const j = s.indexOf("}", i);
      if (j < 0 || /[`(]|\$\{/.test(s.slice(i + 2, j))) doubts.unsure = true;
    }
    if (c === '"') {
      const read = readDoubleQuoted(s, i + 1, out, doubts);
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
      const inner = readCommands(s, i + sub.length, sub.close, out, doubts);
      if (sub.close === "`") nested(s.slice(i + 1, inner.end - 1), out, doubts);
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
  doubts: Doubts,
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
      const inner = readCommands(s, i + open.length, open.close, out, doubts);
      if (open.close === "`") nested(s.slice(i + 1, inner.end - 1), out, doubts);
      if (!inner.complete) return { end: s.length, complete: false };
      i = inner.end;
      continue;
    }
    i++;
  }
  return { end: s.length, complete: false };
}

/**
 * The inside of a backtick substitution with backticks nested in it (`` `a \`b\`` ``): bash reads
 * it again with `` \` ``, `\\` and `\$` unescaped, so its commands are read again the same way
 * (for ask and deny), and the line is not sure (for allow).
 */
function nested(inside: string, out: string[], doubts: Doubts): void {
  if (!/\\[`\\$]/.test(inside)) return;
  doubts.unsure = true;
  const again = inside.replace(/\\([`\\$])/g, "$1");
  readCommands(again, 0, undefined, out, doubts);
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
