/** Small text helpers shared by tools and front ends. */

/**
 * Cuts `text` to at most `max` characters, keeping its head and its tail around a marker line,
 * so that both the start of a command's output and its final error stay visible.
 */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (n: number) => `\n[... ${n} characters cut: output truncated to maxOutput ...]\n`;
  const room = Math.max(0, max - marker(text.length).length);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const cut = text.length - head - tail;
  return text.slice(0, head) + marker(cut) + (tail > 0 ? text.slice(text.length - tail) : "");
}

/** Counts the lines of `text` the way an editor numbers them (a final newline ends the last line). */
export function countLines(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/** The first line of `text`, without its newline. */
export function firstLine(text: string): string {
  const i = text.indexOf("\n");
  return i < 0 ? text : text.slice(0, i);
}
