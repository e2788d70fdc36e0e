import { truncateMiddle } from "../lib/text.ts";
import { addSecret } from "../lib/secrets.ts";
import { assertEquals, assertStringIncludes } from "./helpers/assert.ts";

Deno.test("truncateMiddle", async (t) => {
  await t.step("short text is left alone", () => {
    assertEquals(truncateMiddle("abc", 10), "abc");
  });
  await t.step("head and tail kept around the marker, within max", () => {
    const out = truncateMiddle("x".repeat(500) + "END", 200);
    assertEquals(out.length <= 200, true);
    assertEquals(out.endsWith("END"), true);
    assertStringIncludes(out, "characters cut: output truncated to maxOutput ...]");
  });
  await t.step("a line to keep that falls in the cut stays in the marker", () => {
    const keep = "[... output too large to read back in full ...]";
    const text = "a".repeat(1000) + `\n${keep}\n` + "b".repeat(1000);
    const out = truncateMiddle(text, 300, keep);
    assertStringIncludes(out, keep);
    assertEquals(out.length <= 300, true);
    assertEquals(out.split(keep).length, 2, "once");
    const short = truncateMiddle(`${keep}\n` + "c".repeat(1000), 300, keep);
    assertEquals(short.split(keep).length, 2, "kept in the head, not repeated");
  });
});

Deno.test("truncateMiddle: a secret the cut would split is redacted whole first", () => {
  const secret = "sk-TEXTCUTabcdefghijklmnopqrstuvwxyz0123456789";
  addSecret(secret);
  const out = truncateMiddle(`${"a".repeat(40)}${secret}\n${"b".repeat(3000)}`, 200);
  assertEquals(out.startsWith(`${"a".repeat(40)}***\n`), true, out);
  assertEquals(out.includes("sk-TEXTCUT"), false, out);
  // A part of a secret cut before (the read-back's ends) is redacted where this cut keeps it.
  const late = truncateMiddle(`${"e".repeat(3000)}${secret.slice(12)}`, 100);
  assertEquals(late.endsWith("\n***"), true, late);
});
