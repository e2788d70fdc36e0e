/** The bell's rule (lib/frontend/terminal/notify.ts): when a turn's end or a question rings it. */

import { assertEquals } from "../../helpers/assert.ts";
import {
  BEL,
  Notifier,
  NOTIFY_AFTER_MS,
  notifyAfter,
  type RingCase,
  shouldRing,
} from "../../../lib/frontend/terminal/notify.ts";

Deno.test("shouldRing: the table", async (t) => {
  const cases: [string, RingCase, boolean][] = [
    ["a long turn, nothing typed", {
      kind: "turnEnded",
      startedAt: 0,
      now: 10_001,
      typedSince: false,
    }, true],
    ["a turn of exactly the limit", {
      kind: "turnEnded",
      startedAt: 0,
      now: 10_000,
      typedSince: false,
    }, false],
    ["a short turn", { kind: "turnEnded", startedAt: 0, now: 2_000, typedSince: false }, false],
    ["a long turn, typed meanwhile", {
      kind: "turnEnded",
      startedAt: 0,
      now: 60_000,
      typedSince: true,
    }, false],
    [
      "a lowered limit",
      { kind: "turnEnded", startedAt: 0, now: 51, typedSince: false, after: 50 },
      true,
    ],
    ["a question at once", { kind: "question", startedAt: 5, now: 5, typedSince: false }, true],
    [
      "a question, typed since",
      { kind: "question", startedAt: 0, now: 1, typedSince: true },
      false,
    ],
  ];
  for (const [name, c, want] of cases) {
    await t.step(name, () => assertEquals(shouldRing(c), want));
  }
});

Deno.test("notifyAfter: the default, or a whole number of MM_NOTIFY_AFTER_MS", () => {
  assertEquals(NOTIFY_AFTER_MS, 10_000);
  assertEquals(notifyAfter({}), 10_000);
  assertEquals(notifyAfter({ MM_NOTIFY_AFTER_MS: "200" }), 200);
  assertEquals(notifyAfter({ MM_NOTIFY_AFTER_MS: "soon" }), 10_000);
});

Deno.test("Notifier: writes BEL as the rule says, and nothing when disabled", () => {
  let clock = 0;
  const written: string[] = [];
  const bell = (enabled: boolean) =>
    new Notifier({ enabled, write: (b) => written.push(b), after: 100, now: () => clock });
  const n = bell(true);
  n.turnStarted();
  clock = 101;
  n.turnEnded();
  assertEquals(written, [BEL]);
  n.turnStarted();
  n.typed();
  clock = 500;
  n.turnEnded();
  n.question();
  assertEquals(written, [BEL, BEL]);
  const off = bell(false);
  off.turnStarted();
  clock = 10_000;
  off.turnEnded();
  off.question();
  assertEquals(written, [BEL, BEL]);
  assertEquals(BEL, "\x07");
});
