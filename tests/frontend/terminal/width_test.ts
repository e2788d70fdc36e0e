/** Columns, cutting and wrapping (lib/frontend/terminal/width.ts). */

import {
  fit,
  textWidth,
  wrapLine,
  Wrapped,
  wrapRows,
  wrapText,
} from "../../../lib/frontend/terminal/width.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("width", async (t) => {
  await t.step(
    "wide characters take two columns, combining marks none, a tab to the next stop",
    () => {
      assertEquals(textWidth("abc"), 3);
      assertEquals(textWidth("中文"), 4);
      assertEquals(textWidth("e\u0301"), 1);
      assertEquals(textWidth("😀"), 2);
      assertEquals(textWidth("a\tb"), 5);
    },
  );
  await t.step("fit cuts to the width with …", () => {
    assertEquals(fit("hello world", 5), "hell…");
    assertEquals(fit("中文中文", 5), "中文…");
    assertEquals(fit("ok", 5), "ok");
  });
  await t.step("wrapLine breaks after a space, inside a word only when it must", () => {
    assertEquals(wrapLine("hello world foo", 5), ["hello", "world", "foo"]);
    assertEquals(wrapLine("a long-word", 4), ["a ", "long", "-wor", "d"]);
    assertEquals(wrapLine("中文字符中文", 5), ["中文", "字符", "中文"]);
    assertEquals(wrapRows("ab cd", 3), { rows: ["ab ", "cd"], starts: [0, 3] });
  });
  await t.step("Wrapped, appended piece by piece, has the rows of the whole text", () => {
    const text = "alpha beta  gamma 中文字符 epsilon\tzeta eta\n\ntheta iota kappa lambda mu "
      .repeat(6);
    for (const width of [5, 7, 13, 20]) {
      for (const step of [1, 3, 7]) {
        const w = new Wrapped();
        for (let i = 0; i < text.length; i += step) {
          w.append(text.slice(i, i + step));
          w.rows(width);
        }
        assertEquals(w.rows(width), wrapText(text, width), `width ${width}, ${step} at a time`);
      }
    }
  });
});
