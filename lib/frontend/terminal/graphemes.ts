/**
 * Where one character a reader sees (a grapheme cluster: a ZWJ emoji, a flag, a letter with its
 * combining marks) begins and ends in text being edited: line and window mode move and delete by it.
 */

/** Splits text into what a reader takes for one character: a grapheme cluster. */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The line of `text` around `offset`, and where it starts (clusters never cross a newline). */
function lineAround(text: string, offset: number): { line: string; start: number } {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const end = text.indexOf("\n", offset);
  return { line: text.slice(start, end < 0 ? text.length : end), start };
}

/**
 * The length of the character before `offset`: a grapheme cluster, so that Backspace and ← take a
 * ZWJ emoji, a flag or a letter with its combining marks whole.
 */
export function prevLength(text: string, offset: number): number {
  if (offset <= 0) return 0;
  if (text[offset - 1] === "\n") return 1;
  const { line, start } = lineAround(text, offset);
  let length = 1;
  for (const { index, segment } of GRAPHEMES.segment(line)) {
    if (start + index >= offset) break;
    length = Math.min(segment.length, offset - start - index);
  }
  return length;
}

/** The length of the character at `offset`: a grapheme cluster (see {@linkcode prevLength}). */
export function nextLength(text: string, offset: number): number {
  if (offset >= text.length) return 0;
  if (text[offset] === "\n") return 1;
  const { line, start } = lineAround(text, offset);
  for (const { index, segment } of GRAPHEMES.segment(line)) {
    if (start + index + segment.length > offset) return start + index + segment.length - offset;
  }
  return 1;
}
