/**
 * Placeholders a model writes instead of code (`// ... existing code ...`, `# ...`,
 * `// rest of methods ...`): refused in `new` when `old` has no such line, since writing one deletes
 * the code it stands for; read in `old` as an elision (docs/tools.md, "Placeholders").
 */

/** A comment line's markers around its text: `//`, `#`, `--`, `;`, C and HTML comment delimiters. */
const COMMENT = /^(?:\/\/+|#+|--|;+|\/\*+|\*|<!--|\{\/\*)[ \t]*(.*?)[ \t]*(?:\*+\/\}?|-->)?$/;

/** Dots that stand for lines: `...`, `. . .`, `…`. */
const DOTS = /^(?:\.[ \t]?){2,}\.$|^…$/;

/** What a placeholder says of the code it stands for. */
const WORDS =
  /^(?:(?:the )?rest(?: of)?\b|(?:all )?(?:existing|remaining|other|previous|more|same|unchanged|original)\b|keep(?:s|ing)? (?:the )?(?:rest|existing)\b|omitted\b|snip(?:ped)?\b|etc\b|code\b|(?:\w+ )?(?:methods|functions|fields|properties|imports|cases|tests)\b)/i;

/** Without dots, a placeholder also says the code stays as it is. */
const STAYS =
  /\b(?:unchanged|omitted|remains?|remain the same|stays?|same as (?:before|above)|as before|goes here|not shown|elided|here)\b/i;

/** A whole comment that names the code it stands for, dots or not: `// existing code`. */
const NAMES_CODE =
  /^(?:(?:the )?rest of (?:the )?(?:code|file|function|class|methods?|implementation|body|module|component|tests?)|(?:existing|remaining|other|previous|original) (?:code|methods?|functions?|fields?|imports?|implementation|logic|properties|tests?|cases?|content|lines?))$/i;

/** Files where a line of bare dots is content: Python's `...`, YAML's end of document, prose. */
const DOTS_ARE_CONTENT = /\.(?:py|pyi|md|markdown|mdx|txt|rst|adoc|tex|ya?ml)$/i;

/** The text of a comment-only line, or undefined when the line is not one. */
function commentText(trimmed: string): string | undefined {
  const m = trimmed.match(COMMENT);
  return m ? m[1] : undefined;
}

/** Whether a comment's text is a placeholder: dots, or words about the code it stands for. */
function placeholderText(text: string): boolean {
  const inner = text.replace(/^[([]+|[)\]]+$/g, "").trim();
  if (inner === "") return false;
  if (DOTS.test(inner)) return true;
  const bare = inner.replace(/^(?:\.{3,}|…)[ \t]*|[ \t]*(?:\.{3,}|…)$/g, "")
    .replace(/^[([]+|[)\]]+$/g, "").trim();
  const dotted = bare !== inner;
  if (bare === "") return dotted;
  if (NAMES_CODE.test(bare)) return true;
  if (!WORDS.test(bare)) return false;
  return dotted || STAYS.test(bare);
}

/**
 * Whether `line` is a placeholder in a file named `path`: a comment that is dots or says the code
 * goes on (`// ... existing code ...`, `# rest of the file unchanged`), or bare dots where they
 * cannot be content.
 */
export function isPlaceholder(line: string, path: string): boolean {
  const trimmed = line.trim();
  if (DOTS.test(trimmed)) return !DOTS_ARE_CONTENT.test(path) && /\.[^./\\]+$/.test(path);
  const text = commentText(trimmed);
  return text !== undefined && placeholderText(text);
}

/** Whether `line` marks an elision in old: a placeholder, or bare dots in any file. */
export function isElisionMarker(line: string, path: string): boolean {
  return DOTS.test(line.trim()) || isPlaceholder(line, path);
}

/**
 * The first placeholder line of `neu` that `old` does not have as often (compared trimmed), or
 * undefined: such a line would be written into the file in place of the code it stands for.
 */
export function addedPlaceholder(old: string, neu: string, path: string): string | undefined {
  const counts = new Map<string, number>();
  for (const line of old.split("\n")) {
    if (isElisionMarker(line, path)) counts.set(line.trim(), (counts.get(line.trim()) ?? 0) + 1);
  }
  for (const line of neu.split("\n")) {
    if (!isPlaceholder(line, path)) continue;
    const left = counts.get(line.trim()) ?? 0;
    if (left === 0) return line.trim();
    counts.set(line.trim(), left - 1);
  }
  return undefined;
}
