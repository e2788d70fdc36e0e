import { assertEquals } from "./helpers/assert.ts";
import {
  bomOf,
  codePoint,
  decodeFile,
  encodeText,
  encodingLabel,
  unencodable,
} from "../lib/encoding.ts";

/** Every byte 0x00–0xFF but NUL, once. */
const ALL_BYTES = Uint8Array.from({ length: 255 }, (_, i) => i + 1);

Deno.test("decodeFile", async (t) => {
  await t.step("valid UTF-8 is UTF-8, without a BOM", () => {
    assertEquals(decodeFile(new TextEncoder().encode("é\n")), {
      kind: "text",
      encoding: "utf-8",
      bom: false,
      text: "é\n",
    });
  });
  await t.step("a UTF-8 BOM is kept in the text", () => {
    const r = decodeFile(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61));
    assertEquals(r, { kind: "text", encoding: "utf-8", bom: true, text: "\uFEFFa" });
  });
  await t.step("Latin-1 bytes are Windows-1252", () => {
    const r = decodeFile(Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0x80, 0x0a));
    assertEquals(r, { kind: "text", encoding: "windows-1252", bom: false, text: "café€\n" });
  });
  await t.step("a NUL outside UTF-16 is binary", () => {
    assertEquals(decodeFile(Uint8Array.of(0x61, 0, 0x62)), { kind: "binary" });
    assertEquals(decodeFile(Uint8Array.of(0xe9, 0)), { kind: "binary" });
  });
  await t.step("UTF-16 LE and BE with a BOM", () => {
    const le = Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0xe9, 0x00, 0x0a, 0x00);
    assertEquals(decodeFile(le), {
      kind: "text",
      encoding: "utf-16le",
      bom: true,
      text: "\uFEFFaé\n",
    });
    const be = Uint8Array.of(0xfe, 0xff, 0x00, 0x61, 0x20, 0xac);
    assertEquals(decodeFile(be), {
      kind: "text",
      encoding: "utf-16be",
      bom: true,
      text: "\uFEFFa€",
    });
  });
  await t.step("UTF-16 that does not decode (odd length, lone surrogate) is undecodable", () => {
    assertEquals(decodeFile(Uint8Array.of(0xff, 0xfe, 0x61, 0x00, 0x62)), {
      kind: "undecodable",
      encoding: "utf-16le",
    });
    assertEquals(decodeFile(Uint8Array.of(0xff, 0xfe, 0x00, 0xd8, 0x61, 0x00)), {
      kind: "undecodable",
      encoding: "utf-16le",
    });
  });
});

Deno.test("encodeText gives back every byte it decoded", async (t) => {
  await t.step("Windows-1252: all 255 non-NUL bytes, the five undefined ones included", () => {
    const r = decodeFile(ALL_BYTES);
    if (r.kind !== "text") throw new Error(r.kind);
    assertEquals(r.encoding, "windows-1252");
    assertEquals(encodeText(r.text, "windows-1252"), ALL_BYTES);
  });
  await t.step("UTF-16 LE and BE, a surrogate pair included", () => {
    for (const enc of ["utf-16le", "utf-16be"] as const) {
      const text = "\uFEFFa😀é\r\n";
      const bytes = encodeText(text, enc) as Uint8Array;
      assertEquals(bomOf(bytes), enc);
      assertEquals(decodeFile(bytes), { kind: "text", encoding: enc, bom: true, text });
    }
  });
  await t.step("a character Windows-1252 lacks is named with its offset", () => {
    assertEquals(encodeText("a→b", "windows-1252"), { char: "→", index: 1 });
    assertEquals(unencodable("x😀", "windows-1252"), { char: "😀", index: 1 });
    assertEquals(unencodable("€‰ÿ", "windows-1252"), undefined);
    assertEquals(unencodable("→", "utf-16le"), undefined);
  });
});

Deno.test("labels", () => {
  assertEquals(encodingLabel("windows-1252"), "Windows-1252 (Latin-1)");
  assertEquals(encodingLabel("utf-16be"), "UTF-16 BE");
  assertEquals(codePoint("→"), "U+2192");
  assertEquals(codePoint("😀"), "U+1F600");
});
