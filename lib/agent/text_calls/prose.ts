/**
 * What of a message is code (a call shown there is an example, never a call) and the prose left
 * around the calls found in it.
 */

/**
 * The ranges of fenced code blocks, indented code blocks and inline code spans: what a message
 * shows, not what it does.
 */
export function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const open = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*$/gm;
  let m: RegExpExecArray | null;
  while ((m = open.exec(text))) {
    const close = new RegExp(
      `^[ \\t]{0,3}${m[1][0] === "`" ? "`" : "~"}{${m[1].length},}[ \\t]*$`,
      "gm",
    );
    close.lastIndex = open.lastIndex + 1;
    const c = close.exec(text);
    const end = c ? close.lastIndex : text.length;
    ranges.push([m.index, end]);
    open.lastIndex = end;
  }
  for (const block of indentedBlocks(text)) if (!inRanges(ranges, block[0])) ranges.push(block);
  const inline = /(`+)[^`\n]+?\1/g;
  while ((m = inline.exec(text))) {
    if (!inRanges(ranges, m.index)) ranges.push([m.index, inline.lastIndex]);
  }
  return ranges;
}

/**
 * Markdown's indented code blocks: after a blank line, lines indented by four spaces or a tab, up to
 * the first line indented less that is not blank.
 */
function indentedBlocks(text: string): [number, number][] {
  const blocks: [number, number][] = [];
  const indented = /^(?: {4}| {0,3}\t)/;
  let start = -1;
  let end = 0;
  let blankBefore = false;
  let at = 0;
  for (const line of text.split("\n")) {
    const blank = line.trim() === "";
    if (start >= 0 && !blank && !indented.test(line)) {
      blocks.push([start, end]);
      start = -1;
    }
    if (start < 0 && !blank && blankBefore && indented.test(line)) start = at;
    if (start >= 0 && !blank) end = at + line.length;
    blankBefore = blank;
    at += line.length + 1;
  }
  if (start >= 0) blocks.push([start, end]);
  return blocks;
}

/** Whether `at` is inside one of the `[start, end)` ranges. */
export function inRanges(ranges: [number, number][], at: number): boolean {
  return ranges.some(([start, end]) => at >= start && at < end);
}

/**
 * The text of `text` from `from` on without the spans: the pieces either side of a call trimmed
 * where the call was, joined by a blank line; "" when nothing but blanks is left.
 */
export function proseOutside(text: string, spans: [number, number][], from = 0): string {
  const pieces: string[] = [];
  let at = from;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    pieces.push(text.slice(at, Math.max(at, start)));
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.map((p, i) => {
    if (i > 0) p = p.trimStart();
    if (i < pieces.length - 1) p = p.trimEnd();
    return p;
  }).filter((p) => p.trim() !== "").join("\n\n").trim();
}
