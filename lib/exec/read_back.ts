/**
 * Reading back a command's output file: all of it up to {@linkcode READ_BACK_LIMIT} bytes, else its
 * two ends around {@linkcode TOO_LARGE_MARKER} (tools.md, `bash`).
 */

import { TOO_LARGE_MARKER } from "../history.ts";
import { redactCutEnd, redactCutStart } from "../secrets.ts";

/** Above this many bytes, only both ends of the output file are read back. */
export const READ_BACK_LIMIT = 2 * 1024 * 1024;

/** How many bytes of each end are read back from an output file above the limit. */
export const READ_BACK_END = 1024 * 1024;

/**
 * The line after {@linkcode TOO_LARGE_MARKER} that counts what was not read back; `atLeast` when
 * the count may miss some (the output file was truncated while the command wrote to it).
 */
export function droppedText(bytes: number, atLeast = false): string {
  return `[... ${atLeast ? "at least " : ""}${bytes} bytes dropped between the two ends ...]`;
}

/** What was read back of an output file. */
export interface ReadBack {
  text: string;
  /** Bytes of output that are not in `text` (dropped while the command ran, or not read back). */
  dropped: number;
}

/**
 * The text of an output file: all of it up to {@linkcode READ_BACK_LIMIT} bytes, else its first
 * and last {@linkcode READ_BACK_END} bytes around {@linkcode TOO_LARGE_MARKER} and the
 * {@linkcode droppedText} count. When the truncating {@linkcode OutputKeeper} cut the file while
 * the command ran, `cut` bytes are gone after its first {@linkcode READ_BACK_END} and `kept` holds
 * the bytes that came just before what follows that first MiB now.
 * Invalid UTF-8 becomes U+FFFD; a character cut at either end is dropped. The whole file is never
 * loaded.
 */
export async function readBack(
  path: string,
  cut = 0,
  kept: Uint8Array = new Uint8Array(0),
): Promise<ReadBack> {
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  if (size <= READ_BACK_LIMIT && cut === 0) {
    return { text: new TextDecoder().decode(await readAt(file, 0, size)), dropped: 0 };
  }
  const headLength = Math.min(READ_BACK_END, size);
  const head = new TextDecoder().decode(await readAt(file, 0, headLength), { stream: true });
  const fromFile = Math.min(READ_BACK_END, size - headLength);
  const fromKept = Math.min(kept.length, READ_BACK_END - fromFile);
  let tail = new Uint8Array(fromKept + fromFile);
  tail.set(kept.subarray(kept.length - fromKept));
  tail.set(await readAt(file, size - fromFile, fromFile), fromKept);
  const tailLength = tail.length;
  let skip = 0;
  while (skip < 3 && skip < tail.length && (tail[skip] & 0xc0) === 0x80) skip++;
  tail = tail.subarray(skip);
  const dropped = cut + kept.length + size - headLength - tailLength;
  return {
    // A secret cut at either end no longer matches it: what is left of it is redacted here.
    text: `${redactCutEnd(head)}${TOO_LARGE_MARKER}${droppedText(dropped, cut > 0)}\n${
      redactCutStart(new TextDecoder().decode(tail))
    }`,
    dropped,
  };
}

/** Reads up to `length` bytes at `offset` (fewer at the end of the file; `Infinity`: to its end). */
export async function readAt(
  file: Deno.FsFile,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  await file.seek(offset, Deno.SeekMode.Start);
  let buf = new Uint8Array(Math.min(length, READ_BACK_END));
  let filled = 0;
  while (filled < length) {
    if (filled === buf.length) {
      const grown = new Uint8Array(Math.min(length, buf.length * 2));
      grown.set(buf);
      buf = grown;
    }
    const n = await file.read(buf.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return buf.subarray(0, filled);
}
