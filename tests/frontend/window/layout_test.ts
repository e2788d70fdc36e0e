/**
 * The window's frames (lib/frontend/window/layout.ts with the blocks, the events and the frame
 * writer): every frame fed into a terminal emulator, whose screen must be the rows meant, at
 * 100×30, 60×20 and 40×12, with and without colour.
 */

import type { AgentEvent } from "../../../lib/agent/events.ts";
import { Conversation } from "../../../lib/frontend/window/conversation.ts";
import { EventView } from "../../../lib/frontend/window/events.ts";
import { AskForm } from "../../../lib/frontend/window/form.ts";
import { InputEditor } from "../../../lib/frontend/window/input.ts";
import { inputRowsMax, layout, tooSmallText } from "../../../lib/frontend/window/layout.ts";
import { PermissionBox } from "../../../lib/frontend/window/permission.ts";
import { type Frame, FrameWriter } from "../../../lib/frontend/window/screen.ts";
import { plainText, Style } from "../../../lib/frontend/window/style.ts";
import { ENTER_MODES } from "../../../lib/frontend/window/terminal.ts";
import type { Question } from "../../../lib/tool.ts";
import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { Emulator } from "../../helpers/xterm.ts";

const SIZES: [number, number][] = [[100, 30], [60, 20], [40, 12]];

/** A window without a terminal: its conversation, input and questions, drawn into an emulator. */
class Scene {
  readonly style: Style;
  readonly conversation: Conversation;
  readonly view: EventView;
  readonly input = new InputEditor();
  box?: PermissionBox;
  form?: AskForm;
  clock = 1_000_000;
  emulator: Emulator;
  writer: FrameWriter;
  columns: number;
  rows: number;
  frames: Frame[] = [];

  constructor(columns: number, rows: number, colour: boolean) {
    this.columns = columns;
    this.rows = rows;
    this.style = new Style(colour);
    this.conversation = new Conversation(this.style, () => this.clock);
    this.view = new EventView(this.conversation, {
      counterOf: (tool) => (tool === "bash" ? "commands" : undefined),
      titleOf: (agent) => agent,
      now: () => this.clock,
    });
    this.emulator = new Emulator(columns, rows);
    this.writer = new FrameWriter((bytes) => this.#pending.push(bytes));
    this.writer.resize(columns);
  }

  #pending: string[] = [];

  events(...events: AgentEvent[]): void {
    for (const e of events) this.view.handle(e);
  }

  frame(): Frame {
    const style = this.style;
    let input = this.input.rows(this.columns, inputRowsMax(this.rows));
    let overlay: string[] = [];
    let overlayCaret;
    if (this.form) {
      const f = this.form.rows(this.columns, style);
      input = { rows: f.question, row: f.caret.row, col: f.caret.col };
      overlay = f.options;
    } else if (this.box) {
      const b = this.box.rows(this.columns, style);
      overlay = b.rows;
      overlayCaret = b.caret;
    }
    return layout({
      columns: this.columns,
      rows: this.rows,
      style,
      header: "mm · qwen3 @ ollama",
      conversation: this.conversation,
      status: { left: style.dim("Enter send"), right: "" },
      input,
      overlay,
      overlayCaret,
    });
  }

  /** Draws a frame into the emulator, checks its screen is the frame's rows, returns the screen. */
  async draw(): Promise<string[]> {
    if (this.frames.length === 0) await this.emulator.write(ENTER_MODES);
    const frame = this.frame();
    this.frames.push(frame);
    this.writer.draw(frame);
    for (const bytes of this.#pending.splice(0)) await this.emulator.write(bytes);
    const screen = this.emulator.screen();
    assertEquals(screen, frame.rows.map((r) => plainText(r).trimEnd()), "the screen is the frame");
    assertEquals(this.emulator.cursor(), frame.cursor, "the cursor is at the caret");
    return screen;
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emulator.resize(columns, rows);
    this.writer.resize(columns);
  }

  dispose(): void {
    this.emulator.dispose();
  }
}

type CallEvent = Extract<AgentEvent, { type: "tool_call" }>;
type ResultEvent = Extract<AgentEvent, { type: "tool_result" }>;

const call = (id: string, name: string, summary: string): CallEvent => ({
  type: "tool_call",
  id,
  name,
  kind: "execute",
  emoji: "🛠️",
  summary,
  input: {},
});

const result = (id: string, name: string, output: string, failed = false): ResultEvent => ({
  type: "tool_result",
  id,
  name,
  output,
  failed,
});

/** Runs `f` at every size, with and without colour. */
async function everywhere(
  t: Deno.TestContext,
  name: string,
  f: (scene: Scene, columns: number, rows: number) => Promise<void>,
): Promise<void> {
  for (const [columns, rows] of SIZES) {
    for (const colour of [true, false]) {
      await t.step(`${name} (${columns}×${rows}, ${colour ? "colour" : "NO_COLOR"})`, async () => {
        const scene = new Scene(columns, rows, colour);
        try {
          await f(scene, columns, rows);
        } finally {
          scene.dispose();
        }
      });
    }
  }
}

Deno.test("window frames", async (t) => {
  await everywhere(
    t,
    "a turn: prompt, thinking folded, a call, the answer, the recap",
    async (s, columns) => {
      s.view.prompt("run it");
      s.events({ type: "turn_start", prompt: "run it", provider: "ollama", model: "qwen3" });
      s.events({ type: "thought", text: "I should run it." });
      let screen = await s.draw();
      assertEquals(screen[2], "› run it");
      assertEquals(screen[3], "💭 thinking…");
      s.clock += 2000;
      s.events(call("c1", "bash", "echo from-bash"));
      screen = await s.draw();
      assertEquals(screen[3], "💭 thought for 2s (4 words) ▸");
      assertEquals(screen[4], "‣ bash  echo from-bash  … 0.0s");
      s.clock += 300;
      s.events(result("c1", "bash", "from-bash\n"), {
        type: "text",
        text: "It printed from-bash.",
      });
      s.events({ type: "recap", counters: { commands: 1, fileOps: 0, skills: 0, lsp: 0 } });
      s.events({ type: "answer", text: "It printed from-bash." });
      screen = await s.draw();
      assertEquals(screen[4], "‣ bash  echo from-bash  ✓ 0.3s  ▸ 1 line");
      assertEquals(screen[5], "It printed from-bash.");
      assertEquals(screen[6], "⚙ 1 command(s)");
      assertEquals(screen[0].startsWith(" mm · qwen3 @ ollama"), true);
      assertEquals(screen.at(-1), "›");
      if (s.style.colour) assertEquals(s.emulator.cell(4, 26).fg, 2, "✓ in green");
      assertEquals(s.emulator.cell(0, 1).inverse, true, "the header in reverse, colour or not");
      // Unfolded: the output dimmed, indented.
      const fold = s.conversation.lastFoldable()!;
      fold.folded = false;
      fold.changed();
      screen = await s.draw();
      assertEquals(screen[4], "‣ bash  echo from-bash  ✓ 0.3s  ▾ 1 line");
      assertEquals(screen[5], "    from-bash");
      if (s.style.colour) assertEquals(s.emulator.cell(5, 4).dim, true);
      void columns;
    },
  );

  await everywhere(
    t,
    "a long command is cut to fit; a long output is capped",
    async (s, columns) => {
      const long = "x".repeat(200);
      s.events(call("c1", "bash", long));
      s.events(result("c1", "bash", Array.from({ length: 100 }, (_, i) => `out ${i}`).join("\n")));
      const block = s.conversation.blocks[0];
      (block as unknown as { folded: boolean }).folded = false;
      block.changed();
      let screen = await s.draw();
      assertEquals(screen.includes("    … 60 more lines"), true, "the view follows the end");
      s.conversation.home(columns);
      screen = await s.draw();
      const head = screen[1];
      assertEquals(head.length, columns, "cut to the width");
      assertEquals(head.endsWith("…  ✓ 0.0s  ▾ 100 lines"), true);
      assertEquals(screen[2], "    out 0");
    },
  );

  await everywhere(t, "an edit shows +A −D, unfolded the diff", async (s) => {
    s.events({ ...call("e1", "edit_file", "a.txt"), kind: "edit" });
    s.events({
      ...result("e1", "edit_file", "edited"),
      diff: { path: "/w/a.txt", oldText: "one\ntwo\n", newText: "one\n2\nthree\n" },
    });
    let screen = await s.draw();
    assertEquals(screen[1], "‣ edit_file  a.txt  ✓ 0.0s  ▸ +2 −1");
    s.conversation.foldAt(0)!.folded = false;
    s.conversation.blocks[0].changed();
    screen = await s.draw();
    assertEquals(screen.slice(2, 6), ["     one", "    -two", "    +2", "    +three"]);
    if (s.style.colour) assertEquals(s.emulator.cell(3, 4).fg, 1, "a deleted line in red");
  });

  await everywhere(
    t,
    "an asked agent's steps, nested under its call, its answer labelled",
    async (s, columns) => {
      s.events({ ...call("a1", "ask_agent", "helper (ollama/m) — count"), kind: "other" });
      s.events({
        type: "nested",
        call: "a1",
        event: {
          agent: "helper",
          type: "tool_call",
          id: "h1",
          title: "helper · bash: ls",
          kind: "execute",
          emoji: "🛠️",
        },
      });
      s.events({
        type: "nested",
        call: "a1",
        event: {
          agent: "helper",
          type: "tool_update",
          id: "h1",
          status: "completed",
          output: "a\nb\n",
        },
      });
      s.events({
        type: "nested",
        call: "a1",
        event: { agent: "helper", type: "text", text: "Two files." },
      });
      let screen = await s.draw();
      const head = columns > 40
        ? "‣ ask_agent  helper (ollama/m) — count"
        : "‣ ask_agent  helper (ollama/m) …";
      assertEquals(screen.slice(1, 5), [
        `${head}  … 0.0s`,
        "  ‣ helper · bash: ls  ✓ 0.0s  ▸ 2 lines",
        "  ‣ mm helper",
        "  Two files.",
      ]);
      assertEquals(s.view.asking, "helper");
      s.events({
        ...result("a1", "ask_agent", "Two files."),
        display: "helper answered (10 characters)",
      });
      screen = await s.draw();
      assertEquals(screen[1].endsWith("  ✓ 0.0s  ▸ 1 line"), true);
      assertEquals(s.view.asking, undefined);
      // A click on the nested call unfolds it.
      const nested = s.conversation.foldAt(1)!;
      nested.folded = false;
      nested.changed();
      s.conversation.blocks[0].changed();
      screen = await s.draw();
      assertEquals(screen.slice(2, 5), [
        "  ‣ helper · bash: ls  ✓ 0.0s  ▾ 2 lines",
        "      a",
        "      b",
      ]);
    },
  );

  await everywhere(t, "warnings, notices and errors are one-line blocks", async (s) => {
    s.events({ type: "warning", message: "[warning: hook failed]" });
    s.events({ type: "notice", message: "compacted the window" });
    s.events({ type: "error", message: "the server is down", where: "generation" });
    const screen = await s.draw();
    assertEquals(screen.slice(1, 4), [
      "[warning: hook failed]",
      "compacted the window",
      "mm: the server is down",
    ]);
    if (s.style.colour) assertEquals(s.emulator.cell(1, 0).fg, 3, "a warning in yellow");
  });

  await everywhere(
    t,
    "the permission box over the input box, the draft kept",
    async (s, columns) => {
      s.events(call("c1", "bash", "rm -rf build"));
      s.view.setStatus(s.view.runningCall(), "permission");
      s.input.set("my draft");
      s.box = new PermissionBox("bash", "rm -rf build", false);
      let screen = await s.draw();
      assertEquals(
        screen[1],
        columns > 40
          ? "‣ bash  rm -rf build  … waiting for permission"
          : "‣ bash  rm -r…  … waiting for permission",
      );
      assertEquals(screen.at(-1), "› my draft");
      const top = screen.findIndex((r) => r.startsWith("╭─ 🔐 allow this call? "));
      assertEquals(top > 1, true);
      assertEquals(screen[top + 1], `│ ${"bash: rm -rf build".padEnd(columns - 4)} │`);
      assertStringIncludes(screen.slice(top).join("\n"), "a allow once");
      assertStringIncludes(
        screen.slice(top).join("\n").replace(/[│\s]+/g, " "),
        "s allow bash for this session",
      );
      // r: the reason is typed in the box, the caret there.
      s.box.handle({ name: "text", text: "r" });
      s.box.handle({ name: "text", text: "not now" });
      screen = await s.draw();
      const reason = screen.findIndex((r) => r.startsWith("│ why not? not now"));
      assertEquals(reason > top, true);
      assertEquals(s.emulator.cursor(), { row: reason, col: 2 + "why not? not now".length });
    },
  );

  await everywhere(t, "an asked agent's request: no allowing for the session", async (s) => {
    s.box = new PermissionBox("helper · bash", "helper asks: bash: ls", true);
    const screen = (await s.draw()).join("\n");
    assertStringIncludes(screen, "│ helper asks: bash: ls");
    assertEquals(screen.includes("for this session"), false);
  });

  const colours: Question = {
    question: "Which colour?",
    type: "choice",
    options: ["red", "green", "blue"],
  };
  const langs: Question = { question: "Languages?", type: "multi", options: ["go", "rust", "ts"] };
  const sure: Question = { question: "Sure?", type: "confirm", options: [], default: "no" };

  await everywhere(
    t,
    "the form: the question in place of the input, the options over the conversation",
    async (s, columns) => {
      s.events(call("q1", "ask_user", "3 question(s)"));
      s.view.setStatus(s.view.runningCall(), "question");
      s.form = new AskForm([colours, langs, sure]);
      let screen = await s.draw();
      assertEquals(
        screen[1],
        columns > 40
          ? "‣ ask_user  3 question(s)  … waiting for your answer"
          : "‣ ask_user  … waiting for your answer",
      );
      assertEquals(screen.at(-1), "❓ Which colour? (1/3)");
      assertEquals(screen.slice(-5, -2), ["❯ 1. red", "  2. green", "  3. blue"]);
      const lit = screen.length - 5;
      assertEquals(s.emulator.cell(lit, 0).inverse, true, "the highlighted option in reverse");
      assertEquals(s.emulator.cell(lit, columns - 1).inverse, true, "the whole row");
      assertEquals(s.emulator.cell(lit + 1, 0).inverse, false);
      s.form.handle({ name: "up" });
      screen = await s.draw();
      assertEquals(screen.slice(-5, -2), ["  1. red", "  2. green", "❯ 3. blue"], "↑ wraps");
      s.form.handle({ name: "enter" });
      s.form.handle({ name: "text", text: " " });
      screen = await s.draw();
      assertEquals(screen.at(-1), "❓ Languages? (2/3)");
      assertEquals(screen.slice(-5, -2), ["❯ [x] go", "  [ ] rust", "  [ ] ts"]);
      s.form.handle({ name: "enter" });
      screen = await s.draw();
      assertEquals(screen.slice(-4, -2), ["  Yes", "❯ No (default)"]);
      assertEquals(s.form.handle({ name: "text", text: "y" }), {
        kind: "answered",
        answers: ["blue", "go", "yes"],
      });
    },
  );

  await everywhere(t, "a text question typed in the box, prefilled with the default", async (s) => {
    s.form = new AskForm([{ question: "Branch?", type: "text", options: [], default: "main" }]);
    const screen = await s.draw();
    assertEquals(screen.slice(-2), ["❓ Branch?", "› main"]);
    assertEquals(s.emulator.cursor().col, 6);
  });

  await everywhere(
    t,
    "the input box grows with its lines, up to a third of the height",
    async (s, _c, rows) => {
      for (let i = 0; i < 20; i++) {
        s.input.handle(
          i ? { name: "alt-enter" } : { name: "text", text: "" },
        );
      }
      s.input.handle({ name: "text", text: "last" });
      const screen = await s.draw();
      const max = Math.floor(rows / 3);
      assertEquals(screen.at(-1), "  last");
      assertEquals(screen.filter((r) => r === "").length >= 0, true);
      assertEquals(s.frames.at(-1)!.cursor.row, rows - 1);
      assertEquals(screen[rows - 1 - max], "Enter send", "the status line above the box");
    },
  );

  await t.step("a window smaller than 40×10 says so", async () => {
    const s = new Scene(39, 12, true);
    const screen = await s.draw();
    assertEquals(screen[0], tooSmallText(39, 12).slice(0, 38) + "…");
    s.dispose();
    const small = new Scene(60, 9, false);
    assertEquals((await small.draw())[0], tooSmallText(60, 9));
    small.dispose();
  });

  await t.step("resized mid-stream, the next frame is right at the new size", async () => {
    const s = new Scene(100, 30, true);
    s.view.prompt("write a lot");
    for (let i = 0; i < 40; i++) {
      s.events({ type: "text", text: `word${i} `.repeat(12) + "\n" });
      await s.draw();
    }
    s.resize(60, 20);
    s.events({ type: "text", text: "after the resize" });
    const screen = await s.draw();
    assertEquals(screen.at(-3), "after the resize");
    s.resize(40, 12);
    await s.draw();
    s.dispose();
  });
});
