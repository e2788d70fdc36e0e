/** The texts the file tools share (tools.md, `read_file`, `write_file`, `edit_file`), the read limit. */

/** Files larger than this many bytes are refused rather than loaded. */
export const READ_LIMIT = 64 * 1024 * 1024;

/** The output for a path where nothing is (tools.md: `<path> does not exist. Create it with write_file`). */
export function missingText(path: string): string {
  return `${path} does not exist. Create it with write_file`;
}

/** The output for a directory; the hint depends on whether bash is declared. */
export function directoryText(path: string, bashDeclared: boolean): string {
  return bashDeclared
    ? `${path} is a directory, not a file. To see what it holds, run ls with bash.`
    : `${path} is a directory, not a file. Give the path of a file inside it.`;
}

/** The output when the file cannot be read (`permission denied`). */
export function readErrorText(path: string, reason: string): string {
  return `cannot read ${path}: ${reason}`;
}

/** The output when the file already holds exactly this content. */
export function unchangedText(path: string): string {
  return `${path} already has this content — nothing was written`;
}

/** The output when the file cannot be written (`is a directory`, `permission denied`). */
export function writeErrorText(path: string, reason: string): string {
  return `cannot write ${path}: ${reason} — nothing was written`;
}
