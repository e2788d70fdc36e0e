/**
 * One simple command (a part of splitCommands, shell_split.ts) read into its words the way bash
 * reads them, for the permission rules: quotes removed (`"git" push` is `git push`, `\rm` and
 * `r""m` are `rm`), redirections taken out and noted (`> file` writes a file), leading
 * assignments and well-known wrappers (`command`, `env`, `exec`, `nice`, `nohup`, `sudo`, `time`,
 * `timeout`, `xargs`…) left out, and the program named by its base name (`/bin/rm` is `rm`). Pure;
 * no shell is run, and nothing is expanded: a word with `$…` or `` `…` `` is only marked.
 */

/** One word of a command after quote removal. */
export interface Word {
  /** The word without its quotes and backslashes; an expansion's text left as written. */
  text: string;
  /** Whether an unquoted or double-quoted `$…` or `` `…` `` is in it: bash would change it. */
  expands: boolean;
}

/** A simple command read (see the module doc). */
export interface CommandWords {
  /** Its words, redirections left out. */
  words: Word[];
  /** Whether it redirects output into a file (not `/dev/null`, not a `2>&1` duplication). */
  writes: boolean;
  /** Whether it holds a here-document (`<<`), whose text this reading does not follow. */
  heredoc: boolean;
}

/** Reads `command` into its words (see {@linkcode CommandWords}). */
export function commandWords(command: string): CommandWords {
  const words: Word[] = [];
  let writes = false;
  let heredoc = false;
  let i = 0;
  const s = command;
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i])) i++;
    if (i >= s.length) break;
    const redirect = /^(\d*|&)(>>|>\||>&|>|<<<|<<-?|<>|<&|<)(?!\()/.exec(s.slice(i));
    if (redirect) {
      i += redirect[0].length;
      while (i < s.length && /[ \t]/.test(s[i])) i++;
      const target = readWord(s, i);
      i = target.end;
      const op = redirect[2];
      if (op.startsWith("<<") && op !== "<<<") heredoc = true;
      const output = op.startsWith(">") || op === "<>";
      const dup = (op === ">&" || op === "<&") && /^(\d+|-)$/.test(target.word.text);
      if (output && !dup && target.word.text !== "/dev/null") writes = true;
      continue;
    }
    const read = readWord(s, i);
    i = read.end;
    words.push(read.word);
  }
  return { words, writes, heredoc };
}

/** Reads one word from `i` (which is not white space): its unquoted text and where it ends. */
function readWord(s: string, i: number): { word: Word; end: number } {
  let text = "";
  let expands = false;
  while (i < s.length && !/\s/.test(s[i])) {
    const c = s[i];
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      const end = j < 0 ? s.length : j;
      text += s.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === "\\" && i + 1 < s.length && '$`"\\\n'.includes(s[i + 1])) {
          text += s[i + 1];
          i += 2;
          continue;
        }
        if (s[i] === "$" || s[i] === "`") {
          expands = true;
          const end = expansionEnd(s, i);
          text += s.slice(i, end);
          i = end;
          continue;
        }
        text += s[i++];
      }
      i++;
    } else if (c === "\\") {
      text += s[i + 1] ?? "";
      i += 2;
    } else if (c === "$" || c === "`") {
      expands = true;
      const end = expansionEnd(s, i);
      text += s.slice(i, end);
      i = end;
    } else if ((c === "<" || c === ">") && s[i + 1] === "(") {
      expands = true;
      const end = expansionEnd(s, i + 1);
      text += s.slice(i, end);
      i = end;
    } else if (c === "<" || c === ">") break;
    else text += s[i++];
  }
  return { word: { text, expands }, end: i };
}

/** Where the expansion opening at `i` (`$x`, `${…}`, `$(…)`, `` `…` ``, `(…)`) ends. */
function expansionEnd(s: string, i: number): number {
  const open = s[i] === "$" ? s[i + 1] : s[i];
  if (open === "`") {
    let j = s[i] === "$" ? i + 2 : i + 1;
    while (j < s.length && s[j] !== "`") j += s[j] === "\\" ? 2 : 1;
    return Math.min(j + 1, s.length);
  }
  if (open === "(" || open === "{") {
    const close = open === "(" ? ")" : "}";
    let depth = 0;
    for (let j = s[i] === "$" ? i + 1 : i; j < s.length; j++) {
      if (s[j] === "\\") j++;
      else if (s[j] === open) depth++;
      else if (s[j] === close && --depth === 0) return j + 1;
    }
    return s.length;
  }
  let j = i + 1;
  if (/[@*#?$!0-9-]/.test(s[j] ?? "")) return j + 1;
  while (j < s.length && /\w/.test(s[j])) j++;
  return j;
}

/** Wrappers that run their arguments as a command, and their options that take a value. */
const WRAPPERS: Record<string, { valued: string[]; operands?: number; assignments?: true }> = {
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  env: { valued: ["-u", "-C", "-S", "--unset", "--chdir"], assignments: true },
  nice: { valued: ["-n", "--adjustment"] },
  nohup: { valued: [] },
  sudo: { valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R"] },
  doas: { valued: ["-u", "-C"] },
  time: { valued: ["-f", "-o"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], operands: 1 },
  xargs: { valued: ["-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--max-args", "--delimiter"] },
  stdbuf: { valued: ["-i", "-o", "-e"] },
  setsid: { valued: [] },
};

/** Whether `word` is a `NAME=value` assignment. */
function isAssignment(word: Word): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text);
}

/**
 * The words of the command that actually runs: leading assignments and wrappers (with their
 * options) left out, the program named by its base name. Empty when nothing runs.
 */
export function programWords(words: readonly Word[]): Word[] {
  let i = 0;
  while (i < words.length && isAssignment(words[i]) && !words[i].expands) i++;
  for (;;) {
    const wrapper = i < words.length ? WRAPPERS[baseName(words[i].text)] : undefined;
    if (!wrapper || words[i].expands) break;
    i++;
    while (i < words.length && words[i].text.startsWith("-") && words[i].text !== "-") {
      const option = words[i].text;
      i++;
      if (option === "--") break;
      if (wrapper.valued.includes(option)) i++;
      else if (/^-n?\d+$/.test(option)) continue;
    }
    if (wrapper.assignments) { while (i < words.length && isAssignment(words[i])) i++; }
    i += wrapper.operands ?? 0;
  }
  const rest = words.slice(i);
  if (rest.length && !rest[0].expands) rest[0] = { ...rest[0], text: baseName(rest[0].text) };
  return rest;
}

/** `/bin/rm` → `rm`; a word without `/` as it is. */
function baseName(word: string): string {
  const slash = word.replace(/\/+$/, "").lastIndexOf("/");
  return slash < 0 ? word : word.slice(slash + 1).replace(/\/+$/, "");
}
