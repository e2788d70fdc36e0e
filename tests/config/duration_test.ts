import { formatDuration, parseDuration } from "../../lib/config/duration.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("parseDuration", async (t) => {
  const good: [string, number][] = [
    ["30s", 30_000],
    ["2m", 120_000],
    ["1500ms", 1500],
    ["1h", 3_600_000],
    ["1m30s", 90_000],
    ["1h2m3s", 3_723_000],
    ["1.5s", 1500],
    ["0.5ms", 1],
    [" 30s ", 30_000],
    ["0s", 0],
  ];
  for (const [text, ms] of good) {
    await t.step(
      `${JSON.stringify(text)} is ${ms} ms`,
      () => assertEquals(parseDuration(text), ms),
    );
  }
  const bad = ["", "30", "s", "30 s", "30sec", "-5s", "1d", "1.s", ".5s", "30S", "abc", "30s foo"];
  for (const text of bad) {
    await t.step(`${JSON.stringify(text)} is malformed`, () => {
      assertEquals(parseDuration(text), undefined);
    });
  }
});

Deno.test("formatDuration", async (t) => {
  const rows: [number, string][] = [
    [30_000, "30s"],
    [120_000, "2m"],
    [90_000, "1m30s"],
    [1500, "1500ms"],
    [3_600_000, "1h"],
    [3_723_000, "1h2m3s"],
    [61_500, "61.5s"],
    [0, "0s"],
    [-5, "0s"],
  ];
  for (const [ms, text] of rows) {
    await t.step(`${ms} ms is ${text}`, () => assertEquals(formatDuration(ms), text));
  }
  await t.step("round trip", () => {
    for (const ms of [1, 999, 1000, 30_000, 90_000, 3_723_000]) {
      assertEquals(parseDuration(formatDuration(ms)), ms);
    }
  });
});
