/**
 * A text file's encoding, found from its bytes, and the way there and back: a byte order mark
 * (UTF-8, UTF-16 LE or BE), else valid UTF-8, else (no NUL byte) Windows-1252, else binary. The
 * file tools decode with it and write back in the file's own encoding, byte for byte outside an
 * edit (docs/tools.md, "Encodings").
 */

/** An encoding the file tools read and write. `utf-8` may carry a byte order mark. */
export type FileEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** A file's text and how to write it back. */
export interface DecodedFile {
  kind: "text";
  encoding: FileEncoding;
  /** Whether the bytes start with a byte order mark (kept in `text` as U+FEFF). */
  bom: boolean;
  /** The decoded bytes, a byte order mark included as U+FEFF: `encodeText(text)` gives them back. */
  text: string;
}

/** Bytes that are not text: a NUL byte outside UTF-16. */
export interface BinaryFile {
  kind: "binary";
}

/** Bytes that announce an encoding (a UTF-16 byte order mark) and do not decode in it. */
export interface UndecodableFile {
  kind: "undecodable";
  encoding: FileEncoding;
}

/** What a file's bytes are. */
export type FileBytes = DecodedFile | BinaryFile | UndecodableFile;

/** The encoding's name as a sentence says it: `Windows-1252 (Latin-1)`, `UTF-16 LE`. */
export function encodingLabel(encoding: FileEncoding): string {
  switch (encoding) {
    case "utf-8":
      return "UTF-8";
    case "utf-16le":
      return "UTF-16 LE";
    case "utf-16be":
      return "UTF-16 BE";
    case "windows-1252":
      return "Windows-1252 (Latin-1)";
  }
}

/** The encoding announced by a byte order mark at the start of `bytes`, or undefined. */
export function bomOf(bytes: Uint8Array): FileEncoding | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * What `bytes` are: a BOM's encoding (UTF-16 must decode and encode back to the same bytes, else
 * it is undecodable), else UTF-8 when valid, else Windows-1252 when there is no NUL, else binary.
 */
export function decodeFile(bytes: Uint8Array): FileBytes {
  const bom = bomOf(bytes);
  if (bom === "utf-16le" || bom === "utf-16be") {
    const text = new TextDecoder(bom, { ignoreBOM: true }).decode(bytes);
    const back = encodeText(text, bom);
    if (back instanceof Uint8Array && sameBytes(back, bytes)) {
      return { kind: "text", encoding: bom, bom: true, text };
    }
    return { kind: "undecodable", encoding: bom };
  }
  if (bytes.includes(0)) return { kind: "binary" };
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return { kind: "text", encoding: "utf-8", bom: bom === "utf-8", text };
  } catch {
    // Not UTF-8: every byte is a character of Windows-1252 (the five it leaves out are C1 controls).
    const text = new TextDecoder("windows-1252").decode(bytes);
    return { kind: "text", encoding: "windows-1252", bom: false, text };
  }
}

/** A character `encodeText` found no bytes for: the character and its offset in the text. */
export interface Unencodable {
  char: string;
  index: number;
}

/**
 * `text` in `encoding` (a U+FEFF in the text is written as the encoding's byte order mark), or the
 * first character that encoding has no bytes for (only Windows-1252 lacks any).
 */
export function encodeText(text: string, encoding: FileEncoding): Uint8Array | Unencodable {
  switch (encoding) {
    case "utf-8":
      return new TextEncoder().encode(text);
    case "utf-16le":
    case "utf-16be":
      return utf16(text, encoding === "utf-16le");
    case "windows-1252":
      return windows1252(text);
  }
}

/** The first character of `text` that `encoding` cannot write, or undefined. */
export function unencodable(text: string, encoding: FileEncoding): Unencodable | undefined {
  if (encoding !== "windows-1252") return undefined;
  const out = windows1252(text);
  return out instanceof Uint8Array ? undefined : out;
}

/** `U+2192`: a code point as a sentence names it. */
export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** The code units of `text`, two bytes each, in little- or big-endian order. */
function utf16(text: string, little: boolean): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    out[2 * i + (little ? 0 : 1)] = u & 0xff;
    out[2 * i + (little ? 1 : 0)] = u >> 8;
  }
  return out;
}

/**
 * Windows-1252's bytes 0x80–0x9F by the character they stand for (WHATWG's table). The five bytes
 * it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) decode to the C1 control of the same number,
 * and are written back as themselves.
 */
const HIGH_1252: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0x80],
  [0x0081, 0x81],
  [0x201a, 0x82],
  [0x0192, 0x83],
  [0x201e, 0x84],
  [0x2026, 0x85],
  [0x2020, 0x86],
  [0x2021, 0x87],
  [0x02c6, 0x88],
  [0x2030, 0x89],
  [0x0160, 0x8a],
  [0x2039, 0x8b],
  [0x0152, 0x8c],
  [0x008d, 0x8d],
  [0x017d, 0x8e],
  [0x008f, 0x8f],
  [0x0090, 0x90],
  [0x2018, 0x91],
  [0x2019, 0x92],
  [0x201c, 0x93],
  [0x201d, 0x94],
  [0x2022, 0x95],
  [0x2013, 0x96],
  [0x2014, 0x97],
  [0x02dc, 0x98],
  [0x2122, 0x99],
  [0x0161, 0x9a],
  [0x203a, 0x9b],
  [0x0153, 0x9c],
  [0x009d, 0x9d],
  [0x017e, 0x9e],
  [0x0178, 0x9f],
]);

/** `text` in Windows-1252, or its first character that has no byte there. */
function windows1252(text: string): Uint8Array | Unencodable {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    const byte = u < 0x80 || (u >= 0xa0 && u <= 0xff) ? u : HIGH_1252.get(u);
    if (byte === undefined) {
      return { char: String.fromCodePoint(text.codePointAt(i) ?? u), index: i };
    }
    out[i] = byte;
  }
  return out;
}

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
