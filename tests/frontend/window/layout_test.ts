/**
 * The window's frames (lib/frontend/window/render.ts and layout.ts with the blocks, the events and
 * the frame writer): every frame fed into a terminal emulator, whose screen must be the rows meant, at
 * 100×30, 60×20 and 40×12, with and without colour.
 */

import type { AgentEvent } from "../../../lib/agent/events.ts";
import type { Conversation } from "../../../lib/frontend/window/conversation.ts";
import type { EventView } from "../../../lib/frontend/window/events.ts";
import { AskForm } from "../../../lib/frontend/window/form.ts";
import type { InputEditor } from "../../../lib/frontend/window/input.ts";
import { tooSmallShort, tooSmallText } from "../../../lib/frontend/window/layout.ts";
import { PermissionBox } from "../../../lib/frontend/window/permission.ts";
import { type Frame, FrameWriter } from "../../../lib/frontend/window/screen.ts";
import { DRAG_HINT, IDLE_HINT, WindowScreen } from "../../../lib/frontend/window/render.ts";
import { plainText, type Style } from "../../../lib/frontend/window/style.ts";
import { ENTER_MODES } from "../../../lib/frontend/window/terminal.ts";
import type { Question } from "../../../lib/tool.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { Emulator } from "../../helpers/xterm.ts";

const SIZES: [number, number][] = [[100, 30], [60, 20], [40, 12]];

/** A window without a terminal (the real screen, its clock the test's), drawn into an emulator. */
class Scene {
  readonly screen: WindowScreen;
  clock = 1_000_000;
  emulator: Emulator;
  writer: FrameWriter;
  columns: number;
  rows: number;
  frames: Frame[] = [];

  constructor(columns: number, rows: number, colour: boolean) {
    this.columns = columns;
    this.rows = rows;
    this.screen = new WindowScreen({
      write: () => {},
      size: () => ({ columns: this.columns, rows: this.rows }),
      up: () => false,
    }, {
      colour,
      counterOf: (tool) => (tool === "bash" ? "commands" : undefined),
      titleOf: (agent) => agent,
      now: () => this.clock,
    });
    this.screen.header = "mm · qwen3 @ ollama";
    this.emulator = new Emulator(columns, rows);
    this.writer = new FrameWriter((bytes) => this.#pending.push(bytes));
    this.writer.resize(columns);
  }

  #pending: string[] = [];

  get style(): Style {
    return this.screen.style;
  }

  get conversation(): Conversation {
    return this.screen.conversation;
  }

  get view(): EventView {
    return this.screen.view;
  }

  get input(): InputEditor {
    return this.screen.input;
  }

  /** The permission box asking, if one is. */
  get box(): PermissionBox | undefined {
    const asking = this.screen.asking;
    return asking?.kind === "permission" ? asking.box : undefined;
  }

  set box(box: PermissionBox | undefined) {
    this.screen.asking = box ? { kind: "permission", box, answer: () => {} } : undefined;
  }

  /** The form asking, if one is. */
  get form(): AskForm | undefined {
    const asking = this.screen.asking;
    return asking?.kind === "form" ? asking.form : undefined;
  }

  set form(form: AskForm | undefined) {
    this.screen.asking = form ? { kind: "form", form, answer: () => {} } : undefined;
  }

  events(...events: AgentEvent[]): void {
    for (const e of events) this.view.handle(e);
  }

  /** Draws a frame into the emulator, checks its screen is the frame's rows, returns the screen. */
  async draw(): Promise<string[]> {
    if (this.frames.length === 0) await this.emulator.write(ENTER_MODES);
    const frame = this.screen.compose(this.columns, this.rows);
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

  await everywhere(
    t,
    "a preToolCall hook's new input: the call's row shows what runs",
    async (s) => {
      s.events(call("h1", "bash", "echo original"));
      s.events({
        type: "tool_input",
        id: "h1",
        name: "bash",
        summary: "echo rewritten",
        input: { command: "echo rewritten" },
      });
      const screen = await s.draw();
      assertEquals(screen[1].startsWith("‣ bash  echo rewritten"), true, screen[1]);
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

  await everywhere(
    t,
    "an unfolded long thought folds again with Enter once its header scrolled off",
    async (s) => {
      s.events({
        type: "thought",
        text: Array.from({ length: 60 }, (_, i) => `step ${i}.`).join("\n"),
      });
      s.clock += 3000;
      s.events({ type: "text", text: "Done." });
      let screen = await s.draw();
      assertMatch(screen[1], /^💭 thought for 3s \(120 words\) ▸$/);
      const thought = s.conversation.lastFoldable()!;
      thought.folded = false;
      thought.changed();
      screen = await s.draw();
      assertEquals(screen.some((r) => r.startsWith("💭")), false, "the header is off the screen");
      assertEquals(screen.includes("   step 59."), true);
      // What Enter on an empty input folds: the thought whose body is on the screen.
      assertEquals(s.conversation.lastFoldable(), thought);
      const body = screen.indexOf("   step 59.") - 1;
      assertEquals(s.conversation.foldAt(body), thought, "a click on its body too");
    },
  );

  await everywhere(
    t,
    "scrolled up near the end, folding a call leaves no empty rows",
    async (s, columns) => {
      for (let i = 0; i < 40; i++) s.events({ type: "notice", message: `note ${i}` });
      s.events(call("c1", "bash", "seq 1 10"));
      s.events(result("c1", "bash", Array.from({ length: 10 }, (_, i) => `${i + 1}`).join("\n")));
      let screen = await s.draw();
      const fold = s.conversation.lastFoldable()!;
      fold.folded = false;
      fold.changed();
      screen = await s.draw();
      const height = s.rows - 3; // the header, the status line, the input
      s.conversation.scroll(-3, columns, height);
      screen = await s.draw();
      assertEquals(s.conversation.following, false);
      const head = screen.findIndex((r) => r.startsWith("‣ bash"));
      assertEquals(s.conversation.foldAt(head - 1), fold);
      fold.folded = true;
      fold.changed();
      screen = await s.draw();
      const rows = screen.slice(1, 1 + height);
      assertEquals(rows.includes(""), false, "every row of the conversation drawn");
      assertEquals(rows.at(-1)!.startsWith("‣ bash  seq 1 10  ✓"), true, "the end shown");
    },
  );

  await everywhere(
    t,
    "the status line: Thinking, then Writing while the answer streams",
    async (s) => {
      s.screen.turnStarted = s.clock;
      const status = async () => (await s.draw()).at(-2)!;
      s.events({ type: "turn_start", prompt: "hi", provider: "ollama", model: "qwen3" });
      assertMatch(await status(), /^⠋ Thinking… · 0\.0s · Esc cancels$/);
      s.events({ type: "thought", text: "Hmm." });
      assertMatch(await status(), /Thinking…/);
      s.events({ type: "text", text: "Hello" });
      assertMatch(await status(), /^⠋ Writing… · 0\.0s · Esc cancels$/);
      s.events({ type: "composing", tool: "bash" });
      assertMatch(await status(), /Composing a tool call…/);
      s.events(call("c1", "bash", "ls"));
      assertMatch(await status(), /Running…/);
      s.events(result("c1", "bash", "a"));
      assertMatch(await status(), /Thinking… · 0\.0s · ⚙ 1 · Esc/);
    },
  );

  await everywhere(
    t,
    "the status line: the window's fill and the speed, live from the usage events",
    async (s) => {
      s.screen.turnStarted = s.clock;
      const status = async () => (await s.draw()).at(-2)!;
      s.events({ type: "turn_start", prompt: "hi", provider: "ollama", model: "qwen3" });
      assertMatch(await status(), /^⠋ Thinking… · 0\.0s · Esc cancels$/);
      s.events({
        type: "usage",
        usage: {
          promptTokens: 3000,
          completionTokens: 100,
          contextWindow: 8192,
          tokensPerSecond: 41,
          estimated: false,
        },
      });
      const wide = s.columns >= 60;
      if (wide) {
        assertMatch(
          await status(),
          /^⠋ Thinking… · 0\.0s · ctx 3\.1k\/8\.2k \(38%\) · 41 tok\/s · Esc/,
        );
      } else assertMatch(await status(), /^⠋ Thinking… · 0\.0s · ctx 3\.1k/);
      // A second request: the fill is the last one's; an estimate of mm's own reads ~.
      s.events({
        type: "usage",
        usage: { promptTokens: 5000, completionTokens: 120, contextWindow: 8192, estimated: true },
      });
      assertMatch(await status(), wide ? /· ctx ~5\.1k\/8\.2k \(63%\)/ : /· ctx ~5\.1k/);
      s.events(call("c1", "bash", "ls"), result("c1", "bash", "a"));
      assertMatch(await status(), wide ? /⚙ 1 · ctx ~5\.1k\/8\.2k/ : /⚙ 1 · ctx/);
      // The next turn starts over.
      s.events({ type: "turn_start", prompt: "again", provider: "ollama", model: "qwen3" });
      assertMatch(await status(), /^⠋ Thinking… · 0\.0s · Esc cancels$/);
    },
  );

  await everywhere(t, "warnings, notices and errors are one-line blocks", async (s) => {
    s.events({ type: "warning", message: "[warning: hook failed]" });
    s.events({ type: "notice", message: "compacted the window" });
    s.events({
      type: "error",
      message: "the server is down",
      kind: "sentence",
      where: "generation",
    });
    // The kind decides, not the string: a sentence that starts with a bracket is still one.
    s.events({ type: "error", message: "[a] is down", kind: "sentence", where: "generation" });
    s.events({
      type: "error",
      message: "[error: interrupted]",
      kind: "bracketed",
      where: "generation",
    });
    const screen = await s.draw();
    assertEquals(screen.slice(1, 6), [
      "[warning: hook failed]",
      "compacted the window",
      "mm: the server is down",
      "mm: [a] is down",
      "[error: interrupted]",
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

  await everywhere(
    t,
    "a call longer than the box: its head kept, the rest read with PgDn and ↓ before allowing",
    async (s, columns) => {
      // Longer than the box at every size (at 100×30 the reviewer's 40 parts fit whole).
      const parts = Array.from({ length: 150 }, (_, i) => `echo part-${i};`).join(" ");
      const command = `${parts} touch /tmp/x/PWNED`;
      s.events(call("c1", "bash", command));
      s.view.setStatus(s.view.runningCall(), "permission");
      s.box = new PermissionBox("bash", command, false);
      const box = s.box;
      let screen = await s.draw();
      const text = () => screen.join("\n").replace(/[│\s]+/g, " ");
      const top = screen.findIndex((r) => r.startsWith("╭─ 🔐 allow this call? "));
      assertEquals(top > 0, true, "the box's head is drawn");
      assertEquals(screen[top + 1].startsWith("│ bash: echo part-0; echo part-1;"), true);
      assertEquals(text().includes("PWNED"), false, "the end is not in the first page");
      assertStringIncludes(text(), "↑↓ PgUp PgDn read the whole call");
      const border = screen.findIndex((r, i) => i > top && r.startsWith("╰"));
      assertMatch(screen[border], /^╰─ lines 1–\d+ of \d+ ↓ ─+╯$/);
      assertEquals(border, screen.length - 3, "the whole box above the status line");
      // PgDn pages through the call to its end, which shows before anything is allowed.
      let pages = 0;
      while (!text().includes("PWNED")) {
        assertEquals(box.scroll({ name: "pagedown" }), true);
        screen = await s.draw();
        assertEquals(pages++ < 200, true, "the end comes");
      }
      assertStringIncludes(text(), "touch /tmp/x/PWNED");
      assertMatch(screen.join("\n"), /╰─ lines \d+–(\d+) of \1 ↑ ─+╯/);
      // ↑ goes back a row; the box keeps its place in the frame.
      assertEquals(box.handle({ name: "up" }), undefined);
      screen = await s.draw();
      assertMatch(screen.join("\n"), /╰─ lines \d+–\d+ of \d+ ↑↓ ─+╯/);
      // A reason typed at the smallest size: the caret on its row, the head still there.
      box.handle({ name: "text", text: "r" });
      box.handle({ name: "text", text: "no" });
      screen = await s.draw();
      const reason = screen.findIndex((r) => r.startsWith("│ why not? no"));
      assertEquals(reason > 0, true);
      assertEquals(s.emulator.cursor(), { row: reason, col: 2 + "why not? no".length });
      assertEquals(screen.some((r) => r.startsWith("╭─ 🔐 allow this call? ")), true);
      void columns;
    },
  );

  await everywhere(t, "a short call: no scrolling, no hint of it", async (s) => {
    s.box = new PermissionBox("bash", "ls", false);
    const screen = (await s.draw()).join("\n");
    assertEquals(screen.includes("PgUp"), false);
    assertEquals(s.box!.scroll({ name: "pagedown" }), false, "PgDn scrolls the conversation");
    assertMatch(screen, /\n╰─+╯\n/);
  });

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
      // The options, from the first one down (the status line's hint under them may wrap).
      const options = (first: RegExp, n: number) => {
        const at = screen.findIndex((r) => first.test(r));
        return { at, rows: screen.slice(at, at + n) };
      };
      let shown = options(/1\. red$/, 3);
      assertEquals(shown.rows, ["❯ 1. red", "  2. green", "  3. blue"]);
      const lit = shown.at;
      assertEquals(s.emulator.cell(lit, 0).inverse, true, "the highlighted option in reverse");
      assertEquals(s.emulator.cell(lit, columns - 1).inverse, true, "the whole row");
      assertEquals(s.emulator.cell(lit + 1, 0).inverse, false);
      s.form!.handle({ name: "up" });
      screen = await s.draw();
      shown = options(/1\. red$/, 3);
      assertEquals(shown.rows, ["  1. red", "  2. green", "❯ 3. blue"], "↑ wraps");
      s.form!.handle({ name: "enter" });
      s.form!.handle({ name: "text", text: " " });
      screen = await s.draw();
      assertEquals(screen.at(-1), "❓ Languages? (2/3)");
      assertEquals(options(/go$/, 3).rows, ["❯ [x] go", "  [ ] rust", "  [ ] ts"]);
      s.form!.handle({ name: "enter" });
      screen = await s.draw();
      assertEquals(options(/Yes$/, 2).rows, ["  Yes", "❯ No (default)"]);
      assertEquals(s.form!.handle({ name: "text", text: "y" }), {
        kind: "answered",
        answers: ["blue", "go", "yes"],
      });
    },
  );

  await everywhere(
    t,
    "fifteen options: the list scrolls with the highlight, signs say what is above and below",
    async (s, _columns, rows) => {
      const options = Array.from({ length: 15 }, (_, i) => `option ${i + 1}`);
      s.form = new AskForm([{ question: "Pick one", type: "choice", options }]);
      const form = s.form;
      let screen = await s.draw();
      const lit = () => screen.find((r) => r.startsWith("❯ ")) ?? "";
      assertEquals(lit(), "❯ 1. option 1", "the highlight is shown");
      assertEquals(screen.some((r) => r.startsWith("  ↑")), false);
      const fits = screen.filter((r) => /^. \d+\. option/.test(r)).length === 15;
      assertEquals(fits, rows >= 20, "all fifteen drawn when there is room");
      if (!fits) assertMatch(screen.join("\n"), /\n {2}↓ \d+ more\n/);
      for (let i = 2; i <= 15; i++) {
        form.handle({ name: "down" });
        screen = await s.draw();
        assertEquals(lit(), `❯ ${i}. option ${i}`, `↓ to option ${i}`);
      }
      if (!fits) {
        assertMatch(screen.join("\n"), /\n {2}↑ \d+ more\n/);
        assertEquals(screen.some((r) => r.startsWith("  ↓")), false, "nothing below the last");
      }
      // ↓ from the last wraps to the first, which is shown again.
      form.handle({ name: "down" });
      screen = await s.draw();
      assertEquals(lit(), "❯ 1. option 1");
      form.handle({ name: "up" });
      screen = await s.draw();
      assertEquals(lit(), "❯ 15. option 15");
      // Enter answers the option shown highlighted.
      assertEquals(form.handle({ name: "enter" }), { kind: "answered", answers: ["option 15"] });
    },
  );

  await everywhere(t, "a long question wraps, its count kept", async (s, columns) => {
    const question = "Which of the following directories should I clean before the release, " +
      "given that the build cache is shared with the nightly job and must not be removed?";
    s.form = new AskForm([
      { question, type: "choice", options: ["dist", "build"] },
      { question: "Sure?", type: "confirm", options: [] },
    ]);
    const screen = await s.draw();
    const at = screen.findIndex((r) => r.startsWith("❓ "));
    const rows = screen.slice(at);
    assertEquals(rows.length > 1, true, "more than one row");
    assertEquals(rows.every((r) => r.length <= columns), true);
    const text = rows.join(" ");
    if (columns >= 60) assertEquals(text, `❓ ${question} (1/2)`);
    else assertEquals(text.endsWith("… (1/2)"), true, text);
    assertEquals(s.emulator.cursor().row, s.rows - 1, "the caret on the question's last row");
  });

  await everywhere(t, "the first drag's hint wraps on the status line", async (s, columns) => {
    s.screen.hint = DRAG_HINT;
    const screen = await s.draw();
    const at = screen.findIndex((r) => r.startsWith("to select text"));
    const hint = screen.slice(at, -1);
    assertEquals(hint.join(" "), DRAG_HINT);
    assertEquals(hint.length > 1, columns < DRAG_HINT.length);
  });

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
      assertEquals(
        IDLE_HINT.startsWith(screen[rows - 1 - max].replace(/…$/, "")),
        true,
        "the status line above the box",
      );
    },
  );

  await t.step("a window smaller than 40×10 says so, wrapped within its rows", async () => {
    const said = async (columns: number, rows: number) => {
      const s = new Scene(columns, rows, true);
      try {
        const screen = await s.draw();
        assertEquals(screen.every((r) => r.length <= columns), true);
        return screen.filter((r) => r).join(" ");
      } finally {
        s.dispose();
      }
    };
    assertEquals(await said(39, 12), tooSmallText(39, 12));
    assertEquals(await said(60, 9), tooSmallText(60, 9));
    assertEquals(await said(20, 3), tooSmallText(20, 3));
    // Too few rows for the sentence: the short form, still whole.
    assertEquals(await said(12, 3), tooSmallShort(12, 3));
    assertEquals(tooSmallShort(12, 3), "too small: 12×3 < 40×10");
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
