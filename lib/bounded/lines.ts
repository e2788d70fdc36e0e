/**
 * Lines of a byte stream, read in linear time with a bound: the bytes of a line are kept as the
 * chunks they came in and joined once, at its end, then decoded from UTF-8 once (so a character
 * split across chunks is whole). A line longer than its limit is never held: reading stops with
 * {@linkcode TooLarge}, or the line is passed over and only its first and last bytes are told.
 */

import { sizeText } from "./limits.ts";

/** A line or a body longer than its limit: reading stopped there. */
export class TooLarge extends Error {
  /** The limit, in bytes. */
  readonly limit: number;

  /** Builds the error for `what` (`a line`, `a body`) past `limit` bytes. */
  constructor(limit: number, what = "a line") {
    super(`${what} longer than ${sizeText(limit)}`);
    this.name = "TooLarge";
    this.limit = limit;
  }
}

/** A line passed over for its length: how long it was, its first and last bytes. */
export interface SkippedLine {
  /** Its length in bytes, its end not counted. */
  bytes: number;
  /** Its first {@linkcode EDGE_BYTES} bytes, decoded. */
  head: string;
  /** Its last {@linkcode EDGE_BYTES} bytes, decoded. */
  tail: string;
}

/** How lines are read. */
export interface LineOptions {
  /** The most bytes a line may have, its end not counted. */
  max: number;
  /** Whether a CR or a CRLF ends a line too (event streams); else an LF alone does. */
  cr?: boolean;
  /**
   * Given, a longer line is passed over, this is told of it, and reading goes on; else reading
   * stops with {@linkcode TooLarge}.
   */
  skip?: (line: SkippedLine) => void;
}

/** Bytes kept of each end of a line passed over. */
export const EDGE_BYTES = 4096;

const LF = 10;
const CR = 13;

/** The lines of `body`, without their ends; the last one yielded even without its end. */
export async function* readLines(
  body: ReadableStream<Uint8Array>,
  opts: LineOptions,
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const decode = (bytes: Uint8Array) => decoder.decode(bytes);
  let parts: Uint8Array[] = [];
  let length = 0;
  /** The line being passed over: its head, and its last pieces. */
  let skipping: { head: Uint8Array; tail: Uint8Array[]; tailLength: number } | undefined;
  let afterCR = false;
  let first = true;

  const take = (piece: Uint8Array) => {
    if (piece.length === 0) return;
    length += piece.length;
    if (skipping) {
      skipping.tail.push(piece);
      skipping.tailLength += piece.length;
      while (skipping.tailLength - skipping.tail[0].length >= EDGE_BYTES) {
        skipping.tailLength -= skipping.tail.shift()!.length;
      }
      return;
    }
    if (length <= opts.max) {
      parts.push(piece);
      return;
    }
    if (!opts.skip) throw new TooLarge(opts.max);
    const head = join([...parts, piece]).slice(0, EDGE_BYTES);
    skipping = { head, tail: [piece], tailLength: piece.length };
    parts = [];
  };

  /** The line taken so far, ended: undefined when it was passed over. */
  const end = (): string | undefined => {
    let line: string | undefined;
    if (skipping) {
      const tail = join(skipping.tail);
      opts.skip!({
        bytes: length,
        head: decode(skipping.head),
        tail: decode(tail.subarray(Math.max(0, tail.length - EDGE_BYTES))),
      });
      skipping = undefined;
    } else {
      line = decode(parts.length === 1 ? parts[0] : join(parts));
      if (first && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    first = false;
    parts = [];
    length = 0;
    return line;
  };

  for await (const chunk of body) {
    if (chunk.length === 0) continue;
    let start = 0;
    if (afterCR) {
      afterCR = false;
      if (chunk[0] === LF) start = 1; // the LF of a CRLF split across chunks
    }
    // The next LF and CR at or after `start`, found once each (-1: none in this chunk).
    let lf = chunk.indexOf(LF, start);
    let cr = opts.cr ? chunk.indexOf(CR, start) : -1;
    while (start < chunk.length) {
      if (lf !== -1 && lf < start) lf = chunk.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (at === -1) {
        take(chunk.subarray(start));
        break;
      }
      take(chunk.subarray(start, at));
      const line = end();
      if (line !== undefined) yield line;
      start = at + 1;
      if (chunk[at] === CR) {
        if (start === chunk.length) afterCR = true;
        else if (chunk[start] === LF) start++;
      }
    }
  }
  if (length > 0 || skipping) {
    const line = end();
    if (line !== undefined) yield line;
  }
}

/** The pieces as one array. */
export function join(pieces: Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  let size = 0;
  for (const p of pieces) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The whole of `body`, at most `max` bytes of it: past that, reading stops with
 * {@linkcode TooLarge} (`what` names it), or with `cut`, what came up to `max` is the answer.
 */
export async function readBody(
  body: ReadableStream<Uint8Array>,
  max: number,
  opts: { cut?: boolean; what?: string } = {},
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.length > max) {
        if (!opts.cut) throw new TooLarge(max, opts.what ?? "a body");
        parts.push(value.subarray(0, max - length));
        length = max;
        break;
      }
      parts.push(value);
      length += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return join(parts);
}
