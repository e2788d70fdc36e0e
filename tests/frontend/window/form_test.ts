/** ask_user's form in the window (lib/frontend/window/form.ts), as tools.md's "Window (-tui)" row says. */

import { AskForm } from "../../../lib/frontend/window/form.ts";
import { plainText, Style } from "../../../lib/frontend/window/style.ts";
import type { Key } from "../../../lib/frontend/terminal/keys.ts";
import type { AskOutcome, Question } from "../../../lib/tool.ts";
import { assertEquals } from "../../helpers/assert.ts";

const choice: Question = { question: "Colour?", type: "choice", options: ["red", "green", "blue"] };
const multi: Question = { question: "Langs?", type: "multi", options: ["go", "rust", "ts"] };
const confirm: Question = { question: "Sure?", type: "confirm", options: [] };
const text: Question = { question: "Name?", type: "text", options: [] };

/** Feeds keys (a string is typed text) and returns the last outcome. */
function feed(form: AskForm, ...keys: (Key | string)[]): AskOutcome | undefined {
  let out: AskOutcome | undefined;
  for (const k of keys) out = form.handle(typeof k === "string" ? { name: "text", text: k } : k);
  return out;
}

const answered = (...answers: string[]): AskOutcome => ({ kind: "answered", answers });
const up: Key = { name: "up" };
const down: Key = { name: "down" };
const enter: Key = { name: "enter" };

Deno.test("AskForm", async (t) => {
  await t.step("choice: ↑↓ wrap, then Enter", () => {
    assertEquals(feed(new AskForm([choice]), up, enter), answered("blue"));
    assertEquals(feed(new AskForm([choice]), down, down, down, down, enter), answered("green"));
  });
  await t.step("choice: a digit 1–9 answers; one out of range does nothing", () => {
    const form = new AskForm([choice]);
    assertEquals(feed(form, "7"), undefined);
    assertEquals(feed(form, "2"), answered("green"));
  });
  await t.step("keys that came in one read are taken one by one", () => {
    assertEquals(feed(new AskForm([choice]), "x2"), answered("green"));
    const form = new AskForm([multi]);
    // Space ticks go; then, in one read, Space ticks ts and 2 ticks rust.
    assertEquals(feed(form, " ", down, down, " 2"), undefined);
    assertEquals(feed(form, enter), answered("go, rust, ts"));
  });
  await t.step("choice: the default is highlighted first", () => {
    assertEquals(feed(new AskForm([{ ...choice, default: "blue" }]), enter), answered("blue"));
  });
  await t.step(
    "multi: Space ticks, Enter sends only with one ticked, in the options' order",
    () => {
      const form = new AskForm([multi]);
      assertEquals(feed(form, enter), undefined, "nothing ticked");
      assertEquals(feed(form, down, down, " ", up, up, " ", enter), answered("go, ts"));
      const untick = new AskForm([multi]);
      assertEquals(feed(untick, " ", " ", down, " ", enter), answered("rust"));
    },
  );
  await t.step("confirm: y, o, n; or the arrows and Enter", () => {
    assertEquals(feed(new AskForm([confirm]), "y"), answered("yes"));
    assertEquals(feed(new AskForm([confirm]), "o"), answered("yes"));
    assertEquals(feed(new AskForm([confirm]), "n"), answered("no"));
    assertEquals(feed(new AskForm([confirm]), { name: "right" }, enter), answered("no"));
    assertEquals(feed(new AskForm([confirm]), down, up, enter), answered("yes"));
    assertEquals(feed(new AskForm([{ ...confirm, default: "no" }]), enter), answered("no"));
  });
  await t.step(
    "text: typed, Backspace, Enter; prefilled with the default; empty asks again",
    () => {
      assertEquals(
        feed(new AskForm([text]), "bob", { name: "backspace" }, "x", enter),
        answered("box"),
      );
      assertEquals(feed(new AskForm([{ ...text, default: "main" }]), enter), answered("main"));
      assertEquals(feed(new AskForm([text]), enter), undefined);
    },
  );
  await t.step("several questions: one after the other, (i/N) on the question", () => {
    const form = new AskForm([choice, confirm, text]);
    const question = () => form.questionRows(40, new Style(false), 4).rows.map(plainText);
    assertEquals(question(), ["❓ Colour? (1/3)"]);
    feed(form, "1", "n");
    assertEquals(question(), ["❓ Name? (3/3)", "› "]);
    assertEquals(feed(form, "ok", enter), answered("red", "no", "ok"));
  });
  await t.step(
    "more options than rows: a window that holds the highlight, signs above, below",
    () => {
      const options = Array.from({ length: 9 }, (_, i) => `o${i + 1}`);
      const form = new AskForm([{ question: "Which?", type: "choice", options }]);
      const rows = () =>
        form.optionRows(20, new Style(false), 5).map((r) => plainText(r).trimEnd());
      assertEquals(rows(), ["❯ 1. o1", "  2. o2", "  3. o3", "  4. o4", "  ↓ 5 more"]);
      feed(form, down, down, down, down);
      assertEquals(rows(), ["  ↑ 2 more", "  3. o3", "  4. o4", "❯ 5. o5", "  ↓ 4 more"]);
      feed(form, up, up);
      assertEquals(rows(), ["  ↑ 2 more", "❯ 3. o3", "  4. o4", "  5. o5", "  ↓ 4 more"]);
      feed(form, up, up, up);
      assertEquals(rows(), ["  ↑ 5 more", "  6. o6", "  7. o7", "  8. o8", "❯ 9. o9"], "wrapped");
    },
  );
  await t.step("a long question wraps within its rows, cut before its count", () => {
    const form = new AskForm([{ ...choice, question: "word ".repeat(30) }, confirm]);
    const rows = form.questionRows(30, new Style(false), 2).rows.map(plainText);
    assertEquals(rows.length, 2);
    assertEquals(rows[1].endsWith("… (1/2)"), true, rows[1]);
  });
  await t.step("Escape declines the whole form, at any question", () => {
    assertEquals(feed(new AskForm([choice, text]), "1", { name: "escape" }), { kind: "declined" });
    assertEquals(feed(new AskForm([text]), "/skip", enter), { kind: "declined" });
  });
});
