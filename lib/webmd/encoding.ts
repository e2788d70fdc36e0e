/**
 * A web page's type and text: which media types are HTML, sniffing a page sent without a type,
 * and decoding its bytes in the order of tools.md (byte-order mark, the header's charset,
 * `<meta>` in the first 4 KiB, valid UTF-8, else windows-1252).
 */

/** The media types read as HTML. */
export const HTML_TYPES: readonly string[] = ["text/html", "application/xhtml+xml"];

/** How many leading bytes are searched for a `<meta>` charset. */
export const META_SCAN_BYTES = 4096;

/** The media type of a `Content-Type` value, lower case, without parameters (`text/html`). */
export function mediaType(contentType: string): string {
  return contentType.split(";")[0].trim().toLowerCase();
}

/** The `charset` parameter of a `Content-Type` value, unquoted, or undefined. */
export function charsetParam(contentType: string): string | undefined {
  const match = contentType.match(/;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i);
  if (!match) return undefined;
  const value = (match[2] ?? match[1]).trim();
  return value === "" ? undefined : value;
}

/**
 * The WHATWG name of an encoding label (`latin1` is `windows-1252`), or undefined for a label
 * this runtime does not know, or one that only decodes to U+FFFD (`replacement`).
 */
export function encodingName(label: string): string | undefined {
  try {
    const name = new TextDecoder(label.trim()).encoding;
    return name === "replacement" ? undefined : name;
  } catch {
    return undefined;
  }
}

/** The encoding a byte-order mark announces, or undefined. */
export function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

/**
 * The first known encoding named by a `<meta charset>` or a
 * `<meta http-equiv="Content-Type" content="…; charset=…">` in the first 4 KiB, comments skipped.
 * As in the HTML standard's prescan, UTF-16 there means UTF-8 and `x-user-defined` windows-1252.
 */
export function metaEncoding(bytes: Uint8Array): string | undefined {
  const head = latin1(bytes.subarray(0, META_SCAN_BYTES)).replace(/<!--[\s\S]*?(-->|$)/g, "");
  for (const tag of head.matchAll(/<meta[\s/]([^>]*)>?/gi)) {
    const attrs = attributes(tag[1]);
    let label = attrs.get("charset");
    if (label === undefined && attrs.get("http-equiv")?.trim().toLowerCase() === "content-type") {
      label = charsetFromContent(attrs.get("content") ?? "");
    }
    const name = label === undefined ? undefined : encodingName(label);
    if (name === undefined) continue;
    if (name === "utf-16be" || name === "utf-16le") return "utf-8";
    if (name === "x-user-defined") return "windows-1252";
    return name;
  }
  return undefined;
}

/** The attributes of a tag's inside, names in lower case; the first of a name wins. */
function attributes(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]+)))?/g;
  for (const m of text.matchAll(re)) {
    const name = m[1].toLowerCase();
    if (!attrs.has(name)) attrs.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attrs;
}

/** The charset in a meta `content` value (`text/html; charset=utf-8`), as the HTML standard finds it. */
function charsetFromContent(content: string): string | undefined {
  const m = content.match(/charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** Whether `bytes` are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Why an encoding was chosen. */
export type EncodingSource = "bom" | "header" | "meta" | "utf-8" | "fallback";

/** A page's text and the encoding it was decoded from. */
export interface DecodedPage {
  text: string;
  encoding: string;
  source: EncodingSource;
}

/**
 * Decodes a page: byte-order mark, then the `charset` of `contentType`, then `<meta>` in the
 * first 4 KiB, then UTF-8 when the bytes are valid UTF-8, else windows-1252. An unknown name is
 * skipped. Invalid sequences become U+FFFD; a byte-order mark is not kept.
 */
export function decodePage(bytes: Uint8Array, contentType?: string | null): DecodedPage {
  const pick = (): { encoding: string; source: EncodingSource } => {
    const bom = bomEncoding(bytes);
    if (bom) return { encoding: bom, source: "bom" };
    const param = contentType ? charsetParam(contentType) : undefined;
    const header = param === undefined ? undefined : encodingName(param);
    if (header) return { encoding: header, source: "header" };
    const meta = metaEncoding(bytes);
    if (meta) return { encoding: meta, source: "meta" };
    if (isUtf8(bytes)) return { encoding: "utf-8", source: "utf-8" };
    return { encoding: "windows-1252", source: "fallback" };
  };
  const { encoding, source } = pick();
  // A BOM of another encoding than the chosen one is not stripped by TextDecoder: drop it.
  const text = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, "");
  return { text, encoding, source };
}

/**
 * Whether a page sent without a `Content-Type` looks like HTML (the HTML patterns of the WHATWG
 * MIME sniffing standard, after a byte-order mark and white space, each followed by white space
 * or `>`), or like XHTML (`<?xml`
 * followed by an `<html` tag in the first 1 KiB).
 */
export function sniffsAsHtml(bytes: Uint8Array): boolean {
  let start = bomEncoding(bytes) === "utf-8" ? 3 : 0;
  while (start < bytes.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[start])) start++;
  const head = latin1(bytes.subarray(start, start + 1024));
  const lower = head.toLowerCase();
  if (lower.startsWith("<?xml")) return /<html[\s>]/.test(lower);
  const patterns = [
    "<!doctype html",
    "<html",
    "<head",
    "<script",
    "<iframe",
    "<h1",
    "<div",
    "<font",
    "<table",
    "<a",
    "<style",
    "<title",
    "<b",
    "<body",
    "<br",
    "<p",
    "<!--",
  ];
  return patterns.some((p) => {
    if (!lower.startsWith(p)) return false;
    const next = lower[p.length];
    return next !== undefined && " \t\n\r\f>".includes(next);
  });
}
