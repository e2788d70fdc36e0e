/**
 * The window's answers drawn as Markdown (lib/frontend/window/blocks.ts's TextBlock over
 * terminal/markdown.ts): every frame fed into the headless xterm, whose screen must be the frame.
 */

import assert from "node:assert/strict";
import { loadLexer } from "../../../lib/frontend/terminal/markdown.ts";
import { WindowScreen } from "../../../lib/frontend/window/render.ts";
import { FrameWriter } from "../../../lib/frontend/window/screen.ts";
import { plainText } from "../../../lib/frontend/window/style.ts";
import { ENTER_MODES } from "../../../lib/frontend/window/terminal.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { Emulator } from "../../helpers/xterm.ts";

const lexer = await loadLexer();

/** A window of `columns` × `rows` drawing into an emulator; `lexer` undefined loads it itself. */
async function scene(
  colour: boolean,
  opts: { hyperlinks?: boolean; given?: boolean; columns?: number } = {},
) {
  const columns = opts.columns ?? 60;
  const rows = 24;
  const screen = new WindowScreen({
    write: () => {},
    size: () => ({ columns, rows }),
    up: () => false,
  }, {
    colour,
    counterOf: () => undefined,
    titleOf: (a) => a,
    now: () => 0,
    markdown: {
      hyperlinks: opts.hyperlinks ?? false,
      lexer: opts.given === false ? undefined : lexer,
    },
  });
  const emulator = new Emulator(columns, rows);
  const pending: string[] = [];
  const writer = new FrameWriter((b) => pending.push(b));
  writer.resize(columns);
  await emulator.write(ENTER_MODES);
  const draw = async () => {
    const frame = screen.compose(columns, rows);
    writer.draw(frame);
    for (const b of pending.splice(0)) await emulator.write(b);
    const shown = emulator.screen();
    assertEquals(shown, frame.rows.map((r) => plainText(r).trimEnd()), "the screen is the frame");
    return shown;
  };
  return { screen, emulator, draw };
}

const ANSWER = "# Title\n\nSome **bold** text.\n\n```ts\nconst x = 1;\n```\n\n" +
  "| name | n |\n|------|--:|\n| a | 1 |\n| bbbb | 22 |\n\nThe [docs](https://x.dev).\n";

Deno.test("window: the answer as Markdown", async (t) => {
  await t.step("a heading without #, a code block without fences, a table aligned", async () => {
    const s = await scene(true);
    s.screen.view.handle({ type: "turn_start", prompt: "p", provider: "ollama", model: "m" });
    s.screen.view.handle({ type: "text", text: ANSWER });
    s.screen.view.handle({ type: "answer", text: ANSWER });
    const shown = (await s.draw()).join("\n");
    assert(shown.includes("Title\n\nSome bold text.\n\nts\n  const x = 1;\n"), shown);
    assert(!shown.includes("#"), shown);
    assert(!shown.includes("```"), shown);
    assert(shown.includes(" name │  n\n──────┼────\n a    │  1\n bbbb │ 22"), shown);
    assert(shown.includes("The docs (https://x.dev)."), shown);
    s.emulator.dispose();
  });

  await t.step("the block still streaming is drawn as it is, then rendered", async () => {
    const s = await scene(true);
    s.screen.view.handle({ type: "text", text: "## Head\n\nsome *stream" });
    let shown = (await s.draw()).join("\n");
    assert(shown.includes("Head\n\nsome *stream"), shown);
    assert(!shown.includes("## Head"), shown);
    s.screen.view.handle({ type: "text", text: "ing*\n\nnext" });
    shown = (await s.draw()).join("\n");
    assert(shown.includes("Head\n\nsome streaming\n\nnext"), shown);
    s.screen.view.handle({ type: "answer", text: "" });
    shown = (await s.draw()).join("\n");
    assert(shown.includes("some streaming\n\nnext"), shown);
    s.emulator.dispose();
  });

  await t.step("without colour the answer stays as it is", async () => {
    const s = await scene(false);
    s.screen.view.handle({ type: "text", text: ANSWER });
    s.screen.view.handle({ type: "answer", text: ANSWER });
    const shown = (await s.draw()).join("\n");
    assert(shown.includes("# Title"), shown);
    assert(shown.includes("```ts"), shown);
    s.emulator.dispose();
  });

  await t.step("an OSC 8 link takes no column", async () => {
    const s = await scene(true, { hyperlinks: true });
    s.screen.view.handle({ type: "text", text: "See [docs](https://x.dev) now." });
    s.screen.view.handle({ type: "answer", text: "" });
    const shown = (await s.draw()).join("\n");
    assert(shown.includes("See docs (https://x.dev) now."), shown);
    s.emulator.dispose();
  });

  await t.step("the lexer loaded lazily: the answer is drawn again rendered", async () => {
    const s = await scene(true, { given: false });
    s.screen.view.handle({ type: "text", text: "# Late\n\ntext\n" });
    s.screen.view.handle({ type: "answer", text: "" });
    await s.draw();
    await loadLexer();
    // The lexer's promise is settled: its callbacks ran before this one.
    await Promise.resolve();
    const shown = (await s.draw()).join("\n");
    assert(shown.includes("Late\n\ntext"), shown);
    assert(!shown.includes("# Late"), shown);
    s.emulator.dispose();
  });

  await t.step("a wide table fits a narrow window", async () => {
    const s = await scene(true, { columns: 40 });
    const wide = "| " + "word ".repeat(60) + "| b |\n|---|---|\n| 名前名前 | d |\n";
    s.screen.view.handle({ type: "text", text: wide });
    s.screen.view.handle({ type: "answer", text: "" });
    const shown = await s.draw();
    for (const row of shown) assert([...row].length <= 40, row);
    assert(shown.some((r) => r.includes("│ b")), shown.join("\n"));
    s.emulator.dispose();
  });
});
