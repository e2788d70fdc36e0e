/** The window's permission box (lib/frontend/window/permission.ts): a, s, r, n, Esc. */

import { PermissionBox } from "../../../lib/frontend/window/permission.ts";
import type { Key } from "../../../lib/frontend/terminal/keys.ts";
import { plainText, Style } from "../../../lib/frontend/window/style.ts";
import { assertEquals } from "../../helpers/assert.ts";

const key = (k: Key | string): Key => typeof k === "string" ? { name: "text", text: k } : k;
const feed = (box: PermissionBox, ...keys: (Key | string)[]) =>
  keys.map((k) => box.handle(key(k))).at(-1);
const own = () => new PermissionBox("bash", "rm -rf build", false);
const asked = () => new PermissionBox("helper · bash", "helper asks: bash: ls", true);

Deno.test("PermissionBox", async (t) => {
  await t.step("a allows once; s allows the tool for the session", () => {
    assertEquals(feed(own(), "a"), { kind: "answer", answer: { kind: "allow" } });
    assertEquals(feed(own(), "s"), { kind: "answer", answer: { kind: "allowAlways" } });
  });
  await t.step("n and Esc refuse", () => {
    assertEquals(feed(own(), "n"), { kind: "answer", answer: { kind: "reject" } });
    assertEquals(feed(own(), { name: "escape" }), { kind: "answer", answer: { kind: "reject" } });
  });
  await t.step("r: a reason typed in the box, Enter refuses with it; Esc goes back", () => {
    assertEquals(feed(own(), "r", "not ", "now", { name: "backspace" }, "w", { name: "enter" }), {
      kind: "answer",
      answer: { kind: "reject", reason: "not now" },
    });
    assertEquals(feed(own(), "r", { name: "enter" }), {
      kind: "answer",
      answer: { kind: "reject" },
    });
    const box = own();
    feed(box, "r", "x", { name: "escape" });
    assertEquals(box.reasoning, false);
    assertEquals(feed(box, "a"), { kind: "answer", answer: { kind: "allow" } });
  });
  await t.step("an asked agent's request: s is not offered and does nothing", () => {
    const box = asked();
    assertEquals(feed(box, "s"), undefined);
    assertEquals(box.choices(), "a allow once · r refuse, saying why · n refuse");
    assertEquals(
      own().choices(),
      "a allow once · s allow bash for this session · r refuse, saying why · n refuse",
    );
    assertEquals(
      new PermissionBox("fetch_content", "http://a.test/", false, "fetch_content(a.test)")
        .choices(),
      "a allow once · s allow fetch_content(a.test) for this session · r refuse, saying why · n refuse",
    );
  });
  await t.step("a call longer than the box scrolls: ↑↓ a row, PgUp PgDn a page, Home End", () => {
    const command = Array.from({ length: 30 }, (_, i) => `echo ${i};`).join(" ") + " touch END";
    const box = new PermissionBox("bash", command, false);
    const style = new Style(false);
    const shown = () => box.rows(40, style, 10).rows.map(plainText).join("\n");
    assertEquals(shown().includes("touch END"), false);
    assertEquals(box.cut, true);
    assertEquals(box.handle({ name: "pagedown" }), undefined);
    assertEquals(shown().includes("│ bash: echo 0;"), false, "a page down");
    assertEquals(box.scroll({ name: "end" }), true);
    assertEquals(shown().includes("touch END"), true);
    assertEquals(box.scroll({ name: "down" }), true, "at the end: taken, nothing moves");
    assertEquals(shown().includes("touch END"), true);
    box.scroll({ name: "home" });
    assertEquals(shown().includes("│ bash: echo 0;"), true);
    // While a reason is typed, Home and End are the reason's; ↑↓ still scroll.
    box.handle({ name: "text", text: "r" });
    assertEquals(box.scroll({ name: "end" }), false);
    assertEquals(box.scroll({ name: "down" }), true);
    // The box fits in its room: the borders, the call, the hint.
    assertEquals(box.rows(40, style, 10).rows.length, 10);
    assertEquals(box.handle({ name: "text", text: "a" }), undefined, "a is typed in the reason");
  });
  await t.step("little room: the hint is the keys alone, and the borders stay", () => {
    const box = new PermissionBox("write_file", "notes/a-rather-long-name.txt", false);
    const style = new Style(false);
    for (const room of [5, 6]) {
      const rows = box.rows(40, style, room).rows.map(plainText);
      assertEquals(rows.length <= room, true, `${rows.length} rows in ${room}`);
      assertEquals(rows.at(-1)!.startsWith("╰"), true, "the bottom border is there");
      assertEquals(rows.some((r) => r.includes("a · s · r · n")), true);
    }
    // With room, the words.
    assertEquals(
      box.rows(40, style, 12).rows.map(plainText).join(" ").includes("allow once"),
      true,
    );
  });
  await t.step("Backspace in the reason takes a ZWJ emoji whole", () => {
    assertEquals(
      feed(own(), "r", "no 👩\u200d👩\u200d👧", { name: "backspace" }, { name: "enter" }),
      {
        kind: "answer",
        answer: { kind: "reject", reason: "no" },
      },
    );
  });
  await t.step("Ctrl-C cancels the turn", () => {
    assertEquals(feed(own(), { name: "ctrl-c" }), { kind: "cancel" });
  });
});
