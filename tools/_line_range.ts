/**
 * A range of a file's lines read chunk by chunk, for a file too large to load whole: the lines
 * before the range are counted and dropped, those in it kept up to a number of bytes, and the read
 * stops after the range (docs/tools.md, `read_file`, "Too large").
 */

import { join } from "../lib/bounded/lines.ts";

/** What {@linkcode streamLines} found. */
export interface StreamedLines {
  /** The first bytes of the file (a byte order mark is there). */
  head: Uint8Array;
  /** The lines from `first` on, without their `\n`; the last one may be cut (`cut`). */
  lines: Uint8Array[];
  /** Whether the keeping stopped at the byte cap, inside the last line kept. */
  cut: boolean;
  /** How many lines the file has, when the read reached its end (else undefined). */
  total?: number;
  /** Whether the file ends with `\n` (known only at its end). */
  finalNewline: boolean;
}

/**
 * Lines `first`..`last` (1-based, inclusive; `last` may be Infinity) of the bytes `chunks` yields,
 * keeping at most `cap` bytes of them: memory stays bounded by `cap` and one chunk whatever the
 * file's size or the length of its lines. Reading stops once line `last` is over and one more
 * byte shows whether the file goes on.
 */
export async function streamLines(
  chunks: AsyncIterable<Uint8Array>,
  first: number,
  last: number,
  cap: number,
): Promise<StreamedLines> {
  const head = new Uint8Array(4);
  let headLength = 0;
  const lines: Uint8Array[] = [];
  let current: Uint8Array[] = [];
  let kept = 0;
  let n = 1;
  let cut = false;
  let more = false;
  let seen = false;
  let endsWithNewline = false;
  reading: for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    if (n > last) {
      more = true;
      break;
    }
    for (let i = 0; i < chunk.length && headLength < head.length; i++) {
      head[headLength++] = chunk[i];
    }
    seen = true;
    endsWithNewline = chunk[chunk.length - 1] === 0x0a;
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(0x0a, pos);
      const stop = nl < 0 ? chunk.length : nl;
      if (n >= first) {
        const take = Math.min(cap - kept, stop - pos);
        if (take > 0) current.push(chunk.slice(pos, pos + take));
        kept += take;
        if (take < stop - pos) {
          lines.push(join(current));
          cut = true;
          more = true;
          break reading;
        }
      }
      if (nl < 0) break;
      if (n >= first) lines.push(join(current));
      current = [];
      n++;
      pos = nl + 1;
      if (n > last) {
        if (pos < chunk.length) {
          more = true;
          break reading;
        }
        break;
      }
    }
  }
  if (more) return { head: head.slice(0, headLength), lines, cut, finalNewline: false };
  // The end of the file: an unterminated last line is a line.
  if (seen && !endsWithNewline && n >= first && n <= last) lines.push(join(current));
  const total = !seen ? 0 : endsWithNewline ? n - 1 : n;
  return { head: head.slice(0, headLength), lines, cut, total, finalNewline: endsWithNewline };
}
