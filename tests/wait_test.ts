/** Waiting with a limit or until a cancellation (lib/wait.ts). */

import { orNothingAfter, settledBefore, within } from "../lib/wait.ts";
import { assertEquals } from "./helpers/assert.ts";

Deno.test("within: whether a promise settles in time", async () => {
  assertEquals(await within(Promise.resolve(), 1000), true);
  assertEquals(await within(Promise.reject(new Error("x")), 1000), true);
  assertEquals(await within(new Promise(() => {}), 10), false);
});

Deno.test("settledBefore: whether a promise settles before the signal aborts", async () => {
  assertEquals(await settledBefore(Promise.resolve(), new AbortController().signal), true);
  assertEquals(
    await settledBefore(Promise.reject(new Error("x")), new AbortController().signal),
    true,
  );
  const aborted = new AbortController();
  aborted.abort();
  assertEquals(await settledBefore(Promise.resolve(), aborted.signal), false);
  const later = new AbortController();
  const waiting = settledBefore(new Promise(() => {}), later.signal);
  later.abort();
  assertEquals(await waiting, false);
});

Deno.test("orNothingAfter: the value in time, else undefined", async () => {
  assertEquals(await orNothingAfter(Promise.resolve(7), 1000), 7);
  assertEquals(await orNothingAfter(new Promise(() => {}), 10), undefined);
});
