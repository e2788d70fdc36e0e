/** The declared tool a model meant: names that differ only by case or separators are the same. */

/** A name reduced to its lowercase letters and digits: `Read_File`, `read-file`, `readFile` → `readfile`. */
export function toolNameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * The declared name `name` stands for: itself when declared, else the one declared name whose key
 * ({@linkcode toolNameKey}) is the same, else undefined (no such tool, or two that read alike).
 */
export function matchToolName(name: string, declared: readonly string[]): string | undefined {
  if (declared.includes(name)) return name;
  const key = toolNameKey(name);
  if (!key) return undefined;
  const alike = declared.filter((d) => toolNameKey(d) === key);
  return alike.length === 1 ? alike[0] : undefined;
}
