/**
 * Plan mode (docs/security.md, "Plan mode"): only calls that read run. Which calls read is decided
 * here, by the tool's name and input alone — a bash line by every simple command of it
 * (shell_split.ts) — and the one text a refused call answers. Pure; nothing is run.
 */

import { splitCommands, withoutAssignments } from "./shell_split.ts";

/** What the model reads of a call plan mode does not run (the same text for every call). */
export const PLAN_MODE_REFUSED =
  "[not run: plan mode allows only reading (read_file, lsp, search_memory, read_skill, fetch_content without output, ask_user, read-only commands such as ls, cat, grep, git diff) — change nothing; write the plan as your answer]";

/**
 * The built-in tools that only read, whatever their input (lsp, fetch_content and bash: below);
 * `mcp_tools` lists the MCP catalog mm holds.
 */
const READING_TOOLS = new Set([
  "read_file",
  "search_memory",
  "read_skill",
  "ask_user",
  "mcp_tools",
]);

/** A call as plan mode looks at it. */
export interface PlanCall {
  /** The tool's name (a built-in's, or an MCP tool's as declared). */
  tool: string;
  /** The call's kind as the tool gives it for this input (lsp `rename` is `edit`). */
  kind: string;
  /** The MCP tool the call runs, when it runs one. */
  mcp?: string;
  /** Whether the MCP tool declares `readOnlyHint: true`. */
  mcpReadOnly?: boolean;
  input: Record<string, unknown>;
}

/** Whether plan mode lets `call` run: it only reads. */
export function planAllows(call: PlanCall): boolean {
  if (call.mcp !== undefined) return call.mcpReadOnly === true;
  if (READING_TOOLS.has(call.tool)) return true;
  if (call.tool === "lsp") return call.kind === "read";
  if (call.tool === "fetch_content") {
    const output = call.input.output;
    return output === undefined || output === null ||
      (typeof output === "string" && !output.trim());
  }
  if (call.tool === "bash") {
    return typeof call.input.command === "string" && readOnlyLine(call.input.command);
  }
  return false;
}

/**
 * The programs that only read (given no option that writes: see {@linkcode readOnlyCommand}).
 * `cd` and `echo` change nothing on disk either. awk, sed, tee, xargs, env and every shell are not
 * here: each can write or run anything.
 */
const READING_PROGRAMS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "rg",
  "find",
  "git",
  "tree",
  "pwd",
  "stat",
  "file",
  "cd",
  "echo",
]);

/** The git subcommands that only read. */
const READING_GIT = new Set(["status", "log", "diff", "show", "blame"]);

/** find's actions that write or run: `-exec`, `-execdir`, `-ok`, `-okdir`, `-delete`, `-fprint*`, `-fls`. */
const FIND_WRITES = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;

/**
 * Whether a bash line only reads: it is read to its end, and every simple command of it — those
 * of its `$(…)`, backquotes and `<(…)` included — is a reading program of plain words (nothing bash
 * rewrites first: no `$`, backquote or brace expansion) without an option that
 * writes, and writes to no file (`>`, `>>`, `&>`, `>|` only into `/dev/null` or another descriptor).
 */
export function readOnlyLine(line: string): boolean {
  const split = splitCommands(line);
  if (!split.complete || split.commands.length === 0) return false;
  return split.commands.every(readOnlyCommand);
}

/** Whether one simple command (as the splitter gives it) only reads. */
export function readOnlyCommand(command: string): boolean {
  // `NAME=value ls` is refused: an assignment (PATH, LD_PRELOAD, GIT_EXTERNAL_DIFF) may run anything.
  if (withoutAssignments(command) !== command) return false;
  if (writesFile(command)) return false;
  const read = wordsOf(command);
  if (!read) return false;
  // Every word must be what the program sees: bash rewrites `$…`, backquotes and braces first
  // (`find . $'-delete'`, `git diff --{output=p,stat}`).
  if (read.some((w) => w.rewritten)) return false;
  const [program, ...args] = read.map((w) => w.text);
  if (!READING_PROGRAMS.has(program)) return false;
  // A glob may expand to a file named like an option: refused where it could start one, and for
  // every program with an option that writes or runs (a file named `--output=x.ts` matches `*.ts`).
  if (
    read.some((w, i) => w.glob && (w.text.startsWith("-") || WRITING_OPTIONS.has(program) && i > 0))
  ) {
    return false;
  }
  switch (program) {
    case "find":
      return !args.some((a) => FIND_WRITES.test(a));
    case "git":
      // No option before the subcommand (`-c core.pager=…` runs a program), none writing a file.
      return READING_GIT.has(args[0] ?? "") &&
        !args.some((a) => /^--output(=|$)/.test(a) || a === "--ext-diff");
    case "rg":
      // `--pre COMMAND` runs a program on every file searched.
      return !args.some((a) => /^--pre(=|$)/.test(a));
    case "tree":
      // `-o FILE` writes the listing to a file; `-R` (with `-H`) writes `00Tree.html` in every folder.
      return !args.some((a) => shortOptionIn(a, "oR"));
    case "file":
      // `-C` compiles a magic file: it writes one.
      return !args.some((a) => a === "--compile" || shortOptionIn(a, "C"));
  }
  return true;
}

/**
 * Whether `word` is a group of short options (`-ao`, `-o`, `-oout`) holding one of `letters`. Every
 * letter of the group is looked at, also those bash would read as an option's value (conservative).
 */
function shortOptionIn(word: string, letters: string): boolean {
  return /^-[^-]/.test(word) && [...word.slice(1)].some((c) => letters.includes(c));
}

/** The reading programs that have an option that writes or runs (below, in readOnlyCommand). */
const WRITING_OPTIONS = new Set(["find", "git", "rg", "tree", "file"]);

/**
 * Whether a command redirects output into a file: an unquoted `>` not followed by a descriptor
 * (`2>&1`, `>&-`) or `/dev/null`, or `<>` (opened for writing too).
 */
function writesFile(command: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"') i++;
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      continue;
    }
    if (c !== ">") continue;
    if (command[i - 1] === "<") return true;
    let rest = command.slice(i + 1);
    if (rest.startsWith(">") || rest.startsWith("|")) rest = rest.slice(1);
    if (/^&(\d+|-)(\s|$)/.test(rest)) continue;
    if (/^\s*\/dev\/null(\s|$)/.test(rest)) continue;
    return true;
  }
  return false;
}

/** One word of a command: its text after quote removal, and what bash would do to it first. */
interface PlanWord {
  text: string;
  /**
   * Whether bash rewrites it before the program sees it: a `$` of any kind (`$X`, `${…}`, `$(…)`,
   * `$'…'`, `$"…"`), a backquote, or a brace expansion (`{a,b}`, `{1..3}`) outside single quotes.
   */
  rewritten: boolean;
  /** Whether it holds an unquoted glob character (`*`, `?`, `[`): it may become other words. */
  glob: boolean;
}

/**
 * A command's words, quotes removed; undefined when a quote is left open or the program's name is
 * not plain (`$X`, `\rm` or `"r"m` hide what runs).
 */
function wordsOf(command: string): PlanWord[] | undefined {
  const words: PlanWord[] = [];
  let word: { text: string; bare: string; rewritten: boolean } | undefined;
  let quote: "'" | '"' | undefined;
  const add = (text: string, bare: string) => {
    word ??= { text: "", bare: "", rewritten: false };
    word.text += text;
    word.bare += bare;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else add(c, "_");
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < command.length && '$`"\\\n'.includes(command[i + 1])) {
        add(command[++i], "_");
      } else {
        if (c === "$" || c === "`") word!.rewritten = true;
        add(c, "_");
      }
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      add("", "");
      continue;
    }
    if (c === "\\") {
      add(command[i + 1] ?? "", "_");
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(finished(word));
      word = undefined;
      continue;
    }
    add(c, c);
    if (c === "$" || c === "`") word!.rewritten = true;
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(finished(word));
  if (!words.length || !/^[a-z]+$/.test(command.split(/\s/)[0])) return undefined;
  return words;
}

/** A word read, with its unquoted characters (`bare`, quoted ones as `_`) looked at. */
function finished(word: { text: string; bare: string; rewritten: boolean }): PlanWord {
  const brace = /\{[^{}]*(,|\.\.)[^{}]*\}/.test(word.bare);
  return {
    text: word.text,
    rewritten: word.rewritten || brace,
    glob: /[*?[]/.test(word.bare),
  };
}
