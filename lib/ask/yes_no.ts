/** Yes and no as a user or a model writes them, in English or French (tools.md, `ask_user`). */

const YES = new Set(["yes", "y", "oui", "o", "true", "1"]);
const NO = new Set(["no", "n", "non", "false", "0"]);

/** `yes` for `yes`/`y`/`oui`/`o`/`true`/`1`, `no` for `no`/`n`/`non`/`false`/`0` (any case), else undefined. */
export function yesNo(text: string): "yes" | "no" | undefined {
  const word = text.trim().toLowerCase();
  if (YES.has(word)) return "yes";
  if (NO.has(word)) return "no";
  return undefined;
}
