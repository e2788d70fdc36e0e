/** The conversation's view and scrolling (lib/frontend/window/conversation.ts). */

import { NoteBlock, TextBlock } from "../../../lib/frontend/window/blocks.ts";
import { Conversation } from "../../../lib/frontend/window/conversation.ts";
import { Style } from "../../../lib/frontend/window/style.ts";
import { assertEquals } from "../../helpers/assert.ts";

/** A conversation of `n` one-row notes `note 0`…. */
function notes(n: number): Conversation {
  const c = new Conversation(new Style(false));
  for (let i = 0; i < n; i++) c.add(new NoteBlock(`note ${i}`, "info"));
  return c;
}

Deno.test("Conversation", async (t) => {
  await t.step("it follows the end; a short one starts at the top", () => {
    assertEquals(notes(3).view(20, 5).rows, ["note 0", "note 1", "note 2"]);
    assertEquals(notes(10).view(20, 3).rows, ["note 7", "note 8", "note 9"]);
  });
  await t.step("scrolled up, new blocks do not move the view and are counted", () => {
    const c = notes(10);
    c.view(20, 3);
    c.scroll(-2, 20, 3);
    assertEquals(c.view(20, 3).rows, ["note 5", "note 6", "note 7"]);
    c.add(new NoteBlock("note 10", "info"));
    const text = new TextBlock();
    text.append("a\nb");
    c.add(text);
    assertEquals(c.view(20, 3).rows, ["note 5", "note 6", "note 7"]);
    assertEquals(c.newRows(20), 3);
    text.append("\nc");
    assertEquals(c.newRows(20), 4);
  });
  await t.step("scrolling down to the end follows it again; End too; Home goes to the top", () => {
    const c = notes(10);
    c.view(20, 3);
    c.scroll(-5, 20, 3);
    assertEquals(c.following, false);
    c.scroll(10, 20, 3);
    assertEquals([c.following, c.newRows(20)], [true, 0]);
    c.home(20);
    assertEquals(c.view(20, 3).rows, ["note 0", "note 1", "note 2"]);
    c.end();
    assertEquals(c.view(20, 3).rows, ["note 7", "note 8", "note 9"]);
  });
  await t.step("a page is the view's height but one row", () => {
    const c = notes(100);
    c.view(20, 27);
    assertEquals([c.height, c.page], [27, 26]);
    c.scroll(-c.page, 20, c.height);
    assertEquals(c.view(20, 27).rows.at(-1), "note 73", "the old top row is the bottom one");
  });
  await t.step("a view costs the rows it shows, not the whole history", () => {
    const c = notes(20_000);
    let drawn = 0;
    for (const b of c.blocks) {
      const rows = b.rows.bind(b);
      b.rows = (...args) => {
        drawn++;
        return rows(...args);
      };
    }
    c.view(100, 25);
    assertEquals(drawn, 25);
  });
});
