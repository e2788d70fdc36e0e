/** The editor's permission dialog: its buttons and what the user's choice means. */

import {
  permissionAnswer,
  permissionOptions,
  untilAborted,
} from "../../../lib/frontend/acp/permission.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("permissionOptions", async (t) => {
  await t.step("allow once, always allow the tool, reject", () => {
    assertEquals(permissionOptions("bash"), [
      { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_always", name: "Always allow bash", kind: "allow_always" },
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    ]);
  });
  await t.step("always names the session rule it adds", () => {
    assertEquals(permissionOptions("fetch_content", "fetch_content(example.com)")[1], {
      optionId: "allow_always",
      name: "Always allow fetch_content(example.com)",
      kind: "allow_always",
    });
  });
});

Deno.test("permissionAnswer", async (t) => {
  const selected = (optionId: string) => ({ outcome: { outcome: "selected" as const, optionId } });
  await t.step("allow once and always", () => {
    assertEquals(permissionAnswer(selected("allow_once")), { kind: "allow" });
    assertEquals(permissionAnswer(selected("allow_always")), { kind: "allowAlways" });
  });
  await t.step("reject, an unknown option, a cancelled dialog and no answer are refusals", () => {
    assertEquals(permissionAnswer(selected("reject_once")), { kind: "reject" });
    assertEquals(permissionAnswer(selected("maybe")), { kind: "reject" });
    assertEquals(permissionAnswer({ outcome: { outcome: "cancelled" } }), { kind: "reject" });
    assertEquals(permissionAnswer(undefined), { kind: "reject" });
  });
});

Deno.test("untilAborted", async (t) => {
  await t.step("the value when it comes first", async () => {
    assertEquals(await untilAborted(Promise.resolve(3), new AbortController().signal, () => {}), 3);
  });
  await t.step("undefined as soon as the signal aborts", async () => {
    const c = new AbortController();
    const waiting = untilAborted(new Promise(() => {}), c.signal, () => {});
    c.abort();
    assertEquals(await waiting, undefined);
  });
  await t.step("a failed request is undefined, and reported", async () => {
    const errors: unknown[] = [];
    const r = await untilAborted(
      Promise.reject(new Error("gone")),
      new AbortController().signal,
      (e) => errors.push(e),
    );
    assertEquals([r, errors.length], [undefined, 1]);
  });
});
