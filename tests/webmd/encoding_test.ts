import { assertEquals } from "../helpers/assert.ts";
import {
  charsetParam,
  decodePage,
  encodingName,
  mediaType,
  metaEncoding,
  sniffsAsHtml,
} from "../../lib/webmd/encoding.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
/** Bytes of a Latin-1 string, one byte per character. */
const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

Deno.test("page encoding", async (t) => {
  await t.step("a byte-order mark wins over the header and meta", () => {
    const page = cat(bytes("\xEF\xBB\xBF"), utf8('<meta charset="koi8-r"><p>é'));
    assertEquals(decodePage(page, "text/html; charset=iso-8859-2"), {
      text: '<meta charset="koi8-r"><p>é',
      encoding: "utf-8",
      source: "bom",
    });
    const le = cat(bytes("\xFF\xFE"), bytes("<\0p\0>\0\xE9\0"));
    assertEquals(decodePage(le, "text/html; charset=utf-8").text, "<p>é");
    const be = cat(bytes("\xFE\xFF"), bytes("\0<\0p\0>\0\xE9"));
    assertEquals(decodePage(be, null).encoding, "utf-16be");
  });

  await t.step("the header's charset, before meta", () => {
    const page = bytes('<meta charset="utf-8"><p>\xE9t\xE9');
    assertEquals(decodePage(page, 'text/html; charset="ISO-8859-1"'), {
      text: '<meta charset="utf-8"><p>été',
      encoding: "windows-1252",
      source: "header",
    });
    const cyrillic = bytes("<p>\xF0\xD2\xC9\xD7\xC5\xD4");
    assertEquals(decodePage(cyrillic, "text/html;charset=koi8-r").text, "<p>Привет");
  });

  await t.step("<meta charset> and <meta http-equiv> in the first 4 KiB", () => {
    const meta = bytes("<html><head><meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2");
    assertEquals(decodePage(meta, "text/html").source, "meta");
    assertEquals(decodePage(meta, "text/html").text.slice(-6), "Привет");
    const equiv = bytes(
      '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2"><p>\xB1',
    );
    assertEquals(decodePage(equiv, null).text.slice(-1), "ą");
    const late = cat(utf8(`<p>${"x".repeat(4096)}</p>`), bytes('<meta charset="koi8-r">\xE9'));
    assertEquals(decodePage(late, null).source, "fallback");
  });

  await t.step("a meta inside a comment is not read; UTF-16 in meta means UTF-8", () => {
    assertEquals(
      metaEncoding(bytes('<!-- <meta charset="koi8-r"> --><meta charset=utf-8>')),
      "utf-8",
    );
    assertEquals(metaEncoding(bytes('<meta charset="utf-16le">')), "utf-8");
    assertEquals(metaEncoding(bytes("<p>no meta</p>")), undefined);
  });

  await t.step("valid UTF-8 without any declaration", () => {
    assertEquals(decodePage(utf8("<p>日本語 ü</p>"), "text/html"), {
      text: "<p>日本語 ü</p>",
      encoding: "utf-8",
      source: "utf-8",
    });
  });

  await t.step("invalid UTF-8 without any declaration is windows-1252", () => {
    assertEquals(decodePage(bytes("<p>caf\xE9 \x93quoted\x94 \x80</p>"), null), {
      text: "<p>café “quoted” €</p>",
      encoding: "windows-1252",
      source: "fallback",
    });
  });

  await t.step("an unknown name is skipped, at every step", () => {
    const page = bytes('<meta charset="no-such-thing"><meta charset="koi8-r"><p>\xF0');
    assertEquals(decodePage(page, "text/html; charset=bogus"), {
      text: '<meta charset="no-such-thing"><meta charset="koi8-r"><p>П',
      encoding: "koi8-r",
      source: "meta",
    });
    assertEquals(decodePage(bytes("<p>caf\xE9"), "text/html; charset=x-nope").source, "fallback");
    assertEquals(encodingName("iso-2022-kr"), undefined);
    assertEquals(encodingName(" Latin1 "), "windows-1252");
  });

  await t.step("media type and charset of a Content-Type value", () => {
    assertEquals(mediaType("Text/HTML; charset=UTF-8"), "text/html");
    assertEquals(charsetParam('text/html; charset="utf-8"'), "utf-8");
    assertEquals(charsetParam("text/html;charset=Shift_JIS;x=y"), "Shift_JIS");
    assertEquals(charsetParam("text/html"), undefined);
  });

  await t.step("sniffing a page sent without Content-Type", () => {
    const html = [
      "<!DOCTYPE html><p>x",
      "  \n<HTML lang=en>",
      "<p>hello",
      "<!-- c --><div>",
      "\xEF\xBB\xBF<html>",
      '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">',
    ];
    for (const page of html) assertEquals(sniffsAsHtml(bytes(page)), true, page);
    const other = ["%PDF-1.7", "plain text <b>", "<?xml version='1.0'?><feed>", '{"a":1}', ""];
    for (const page of other) assertEquals(sniffsAsHtml(bytes(page)), false, page);
  });
});
