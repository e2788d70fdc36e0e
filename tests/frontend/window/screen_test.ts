/** The frame writer (lib/frontend/window/screen.ts): what reaches the terminal, checked in an emulator. */

import { type Frame, FrameWriter } from "../../../lib/frontend/window/screen.ts";
import { ENTER_MODES } from "../../../lib/frontend/window/terminal.ts";
import { plainText } from "../../../lib/frontend/window/style.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { Emulator } from "../../helpers/xterm.ts";

/** A writer into an emulator of `columns` × `rows`, every write recorded. */
async function setup(columns: number, rows: number) {
  const emulator = new Emulator(columns, rows);
  await emulator.write(ENTER_MODES);
  const writes: string[] = [];
  const writer = new FrameWriter((bytes) => writes.push(bytes));
  writer.resize(columns);
  const draw = async (frame: Frame) => {
    const before = writes.length;
    writer.draw(frame);
    for (const w of writes.slice(before)) await emulator.write(w);
    return writes.slice(before);
  };
  return { emulator, writer, writes, draw };
}

const rowsOf = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

Deno.test("FrameWriter", async (t) => {
  await t.step("the first frame draws every row; the screen is the rows meant", async () => {
    const { emulator, draw } = await setup(20, 5);
    const rows = ["header", "one", "", "中文 wide", "x".repeat(20)];
    const w = await draw({ rows, cursor: { row: 4, col: 3 } });
    assertEquals(w.length, 1, "one write per frame");
    assertEquals(emulator.screen(), rows);
    assertEquals(emulator.cursor(), { row: 4, col: 3 });
    emulator.dispose();
  });
  await t.step("a frame is wrapped in synchronized output", async () => {
    const { draw } = await setup(20, 3);
    const [bytes] = await draw({ rows: ["a", "b", "c"], cursor: { row: 0, col: 0 } });
    assertEquals(bytes.startsWith("\x1b[?2026h"), true);
    assertEquals(bytes.endsWith("\x1b[?2026l"), true);
  });
  await t.step("only the rows that changed are written; nothing when nothing changed", async () => {
    const { emulator, draw } = await setup(30, 6);
    const rows = rowsOf(6, (i) => `row ${i}`);
    await draw({ rows, cursor: { row: 5, col: 0 } });
    const next = [...rows];
    next[3] = "row three, changed";
    const [bytes] = await draw({ rows: next, cursor: { row: 5, col: 0 } });
    assertEquals(bytes.includes("row 2"), false);
    assertEquals(bytes.includes("row three, changed"), true);
    assertEquals(emulator.screen(), next);
    assertEquals(await draw({ rows: next, cursor: { row: 5, col: 0 } }), []);
  });
  await t.step("a shorter row erases what was left of the longer one", async () => {
    const { emulator, draw } = await setup(20, 2);
    await draw({ rows: ["a long row of text", "x"], cursor: { row: 1, col: 0 } });
    await draw({ rows: ["short", "x"], cursor: { row: 1, col: 0 } });
    assertEquals(emulator.screen(), ["short", "x"]);
  });
  await t.step("a row as wide as the screen keeps its last character", async () => {
    const { emulator, draw } = await setup(10, 2);
    await draw({ rows: ["0123456789", "中文中文中"], cursor: { row: 1, col: 0 } });
    assertEquals(emulator.screen(), ["0123456789", "中文中文中"]);
  });
  await t.step("following the end: the region scrolls, only the new rows are written", async () => {
    const { emulator, draw } = await setup(40, 12);
    const scroll = { top: 1, bottom: 10 };
    const frame = (first: number): Frame => ({
      rows: ["header", ...rowsOf(9, (i) => `line ${first + i}`), "status", "› input"],
      cursor: { row: 11, col: 2 },
      scroll,
    });
    await draw(frame(0));
    for (let first = 1; first <= 5; first++) {
      const [bytes] = await draw(frame(first));
      assertEquals(bytes.includes(`\x1b[2;10r\x1b[1S\x1b[r`), true, "scrolled by the terminal");
      assertEquals(bytes.includes(`line ${first + 7}`), false, "a moved row is not written");
      assertEquals(bytes.includes(`line ${first + 8}`), true);
      assertEquals(emulator.screen(), frame(first).rows);
    }
    const [jump] = await draw(frame(8));
    assertEquals(jump.includes("\x1b[3S"), true);
    assertEquals(emulator.screen(), frame(8).rows);
  });
  await t.step(
    "styled rows: the text is what the emulator shows, the attributes are kept",
    async () => {
      const { emulator, draw } = await setup(20, 2);
      const rows = ["\x1b[7m reversed \x1b[27m", "\x1b[1mbold\x1b[22m and \x1b[31mred\x1b[39m"];
      await draw({ rows, cursor: { row: 1, col: 0 } });
      assertEquals(emulator.screen(), rows.map((r) => plainText(r).trimEnd()));
      assertEquals(emulator.cell(0, 1).inverse, true);
      assertEquals(emulator.cell(1, 0).bold, true);
      assertEquals(emulator.cell(1, 5).bold, false);
      assertEquals(emulator.cell(1, 9).fg, 1);
    },
  );
  await t.step("a resize or an invalidate draws the whole frame again", async () => {
    const { emulator, writer, draw } = await setup(20, 3);
    await draw({ rows: ["a", "b", "c"], cursor: { row: 0, col: 0 } });
    emulator.resize(30, 4);
    writer.resize(30);
    await draw({ rows: ["a", "b", "c", "d"], cursor: { row: 3, col: 0 } });
    assertEquals(emulator.screen(), ["a", "b", "c", "d"]);
    writer.invalidate();
    const [bytes] = await draw({ rows: ["a", "b", "c", "d"], cursor: { row: 3, col: 0 } });
    assertEquals(bytes.includes("\x1b[2J"), true);
  });
});
