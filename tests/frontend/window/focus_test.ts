/**
 * Who gets the keys when a permission box or a form comes up (lib/frontend/window/focus.ts), as
 * docs/window-mode.md's rule says it: one row per case, without a terminal.
 */

import {
  boxOpened,
  boxRedrawn,
  type Focus,
  IDLE,
  type KeyRoute,
  routeKey,
  TYPE_AHEAD_PAUSE,
  typingAhead,
} from "../../../lib/frontend/window/focus.ts";
import { assertEquals } from "../../helpers/assert.ts";

const P = TYPE_AHEAD_PAUSE;
/** When the box comes up in every row. */
const OPEN = 10_000;

/** A step of a row: a key `at` ms after the box came up (or `resize` then). */
type Step = { key: string; at: number } | { resize: number };

/**
 * The routes of `steps` after a box came up at {@linkcode OPEN}, the last key having come `lastKey`
 * ms before it, with a draft in the input or not; and whether the status line says typing ahead.
 */
function play(
  lastKey: number,
  draft: boolean,
  steps: Step[],
): { routes: KeyRoute[]; ahead: boolean } {
  let f: Focus = boxOpened({ ...IDLE, lastKeyAt: OPEN - lastKey }, OPEN, !draft);
  const routes: KeyRoute[] = [];
  for (const s of steps) {
    if ("resize" in s) {
      f = boxRedrawn(f, OPEN + s.resize);
      continue;
    }
    const r = routeKey(f, s.key, OPEN + s.at, { asking: true, tooSmall: false });
    f = r.focus;
    routes.push(r.route);
  }
  return { routes, ahead: typingAhead(f) };
}

const k = (key: string, at: number): Step => ({ key, at });

Deno.test("routeKey: who gets the keys when a box comes up", async (t) => {
  const rows: [string, number, boolean, Step[], KeyRoute[], boolean][] = [
    // name, last key before the box (ms), a draft, the steps, their routes, typing ahead at the end
    ["someone idle answers at once", P, false, [k("a", 1)], ["box"], false],
    ["idle long ago: the box's at once", 60_000, false, [k("y", 0)], ["box"], false],
    ["a key just typed keeps them in the input", 100, false, [k("a", 50)], ["input"], true],
    [
      "a key just typed, then typing on: the input's, however long the pauses",
      100,
      false,
      [k("s", 50), k("o", 200), k("a", 200 + 3 * P)],
      ["input", "input", "input"],
      true,
    ],
    [
      "a key just typed, no key since: the box's after a pause",
      100,
      false,
      [k("a", P)],
      ["box"],
      false,
    ],
    [
      "the pause counts from the box too, not only from the last key",
      100,
      false,
      [k("a", P - 1)],
      ["input"],
      true,
    ],
    ["a draft keeps them in the input, even after a pause", 60_000, true, [k("a", 10 * P)], [
      "input",
    ], true],
    ["a draft: Tab gives them to the box", 60_000, true, [k("tab", 10), k("a", 20)], [
      "focus",
      "box",
    ], false],
    [
      "typed ahead: Tab then the box's keys, until it closes",
      100,
      false,
      [k("x", 10), k("tab", 20), k("n", 30)],
      ["input", "focus", "box"],
      false,
    ],
    ["Esc refuses wherever the keys go", 100, true, [k("escape", 10)], ["box"], true],
    ["Esc, the box's keys: the box's", P, false, [k("escape", 10)], ["box"], false],
    ["Ctrl-C acts at once while typing ahead", 100, true, [k("ctrl-c", 10)], ["cancel"], true],
    ["Ctrl-C acts at once, the box's keys", P, false, [k("ctrl-c", 10)], ["cancel"], false],
    ["Ctrl-D acts at once", 100, true, [k("ctrl-d", 10)], ["leave"], true],
    ["a paste is the input's, the box's keys", P, false, [k("paste", 10), k("a", 20)], [
      "input",
      "box",
    ], false],
    ["a paste while typing ahead is typing", 100, false, [k("paste", 10), k("a", 10 + 2 * P)], [
      "input",
      "input",
    ], true],
    [
      "scrolling while typing ahead is not typing: the box's after a pause",
      100,
      false,
      [k("pageup", 10), k("a", 10 + P)],
      ["window", "box"],
      false,
    ],
    [
      "scrolling keys are the box's when it has the keys (a long call)",
      P,
      false,
      [
        k("pageup", 10),
        k("shift-up", 20),
      ],
      ["box", "box"],
      false,
    ],
    [
      "F2, Ctrl-Z, Ctrl-L, the mouse: the window's",
      100,
      false,
      [
        k("f2", 10),
        k("ctrl-z", 20),
        k("ctrl-l", 30),
        k("mouse", 40),
      ],
      ["window", "window", "window", "window"],
      false,
    ],
    [
      "a mouse event is not a pause",
      100,
      false,
      [k("mouse", P - 100), k("a", P + 100)],
      ["window", "input"],
      true,
    ],
    [
      "Home and End while typing ahead are the input's",
      100,
      false,
      [k("home", 10)],
      ["input"],
      true,
    ],
    [
      "a resize makes the box new: its keys again only after a pause",
      P,
      false,
      [{ resize: 1000 }, k("a", 1100)],
      ["input"],
      true,
    ],
    [
      "a resize makes the box new: the box's after a pause",
      P,
      false,
      [{ resize: 1000 }, k("a", 1000 + P)],
      ["box"],
      false,
    ],
    [
      "a resize forgets what was typed ahead, a draft too: a pause gives the box the keys",
      100,
      true,
      [{ resize: 1000 }, k("a", 1000 + P)],
      ["box"],
      false,
    ],
  ];
  for (const [name, lastKey, draft, steps, routes, ahead] of rows) {
    await t.step(name, () => {
      assertEquals(play(lastKey, draft, steps), { routes, ahead });
    });
  }
});

Deno.test("routeKey: without a box, and in a window too small to draw", async (t) => {
  const route = (key: string, asking: boolean, tooSmall: boolean) =>
    routeKey(IDLE, key, 1000, { asking, tooSmall }).route;
  await t.step("no box: the input's, but for the window's own keys", () => {
    assertEquals(
      ["a", "tab", "escape", "ctrl-c", "ctrl-d", "paste", "home"].map((k) =>
        route(k, false, false)
      ),
      ["input", "input", "input", "input", "input", "input", "input"],
    );
    assertEquals(
      ["f2", "ctrl-z", "ctrl-l", "pageup", "shift-down", "mouse"].map((k) =>
        route(k, false, false)
      ),
      ["window", "window", "window", "window", "window", "window"],
    );
  });
  await t.step("too small: only Ctrl-C, Ctrl-D, Esc, Ctrl-Z and Ctrl-L act", () => {
    const keys = ["a", "tab", "mouse", "pageup", "ctrl-c", "ctrl-d", "escape", "ctrl-z", "ctrl-l"];
    assertEquals(keys.map((k) => route(k, false, true)), [
      "ignored",
      "ignored",
      "ignored",
      "ignored",
      "input",
      "input",
      "input",
      "window",
      "window",
    ]);
    assertEquals(keys.map((k) => route(k, true, true)), [
      "ignored",
      "ignored",
      "ignored",
      "ignored",
      "cancel",
      "leave",
      "box",
      "window",
      "window",
    ]);
  });
  await t.step("an ignored key is no key: the pause goes on", () => {
    const opened = boxOpened({ ...IDLE, lastKeyAt: 900 }, 1000, true);
    const r = routeKey(opened, "a", 1200, { asking: true, tooSmall: true });
    assertEquals([r.route, r.focus], ["ignored", opened]);
  });
  await t.step("every key counts as the last key", () => {
    assertEquals(
      routeKey(IDLE, "a", 1234, { asking: false, tooSmall: false }).focus.lastKeyAt,
      1234,
    );
  });
});
