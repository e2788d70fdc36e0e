/** mm -p's text rendering (lib/frontend/terminal/plain.ts): how a failed turn's error is shown. */

import type { AgentEvent } from "../../../lib/agent/events.ts";
import { PENDING_SHOWN, plain } from "../../../lib/frontend/terminal/plain.ts";
import type { Output } from "../../../lib/frontend/terminal/output.ts";
import { defaultConfig } from "../../../lib/config/config.ts";
import { assertEquals } from "../../helpers/assert.ts";

/** The renderer over an output that keeps what goes to stderr. */
function rendered(events: AgentEvent[]): string {
  let stderr = "";
  const out = {
    colour: false,
    stderr: (t: string) => stderr += t,
    stdout: () => {},
    answer: () => {},
    dim: (t: string) => t,
  } as unknown as Output;
  const render = plain(out, defaultConfig());
  for (const e of events) render(e);
  return stderr;
}

Deno.test("plain: errors", async (t) => {
  await t.step("a provider's sentence follows mm:", () => {
    const e: AgentEvent = {
      type: "error",
      message: "cannot reach the server",
      kind: "sentence",
      where: "generation",
    };
    assertEquals(rendered([e]), "mm: cannot reach the server\n");
  });
  await t.step("mm's bracketed text is shown as it is", () => {
    const e: AgentEvent = {
      type: "error",
      message: "[error: interrupted]",
      kind: "bracketed",
      where: "generation",
    };
    assertEquals(rendered([e]), "[error: interrupted]\n");
  });
  await t.step("the kind decides, not the first character", () => {
    const e: AgentEvent = { type: "error", message: "[x] down", kind: "sentence", where: "hook" };
    assertEquals(rendered([e]), "mm: [x] down\n");
  });
  await t.step("the text said before the failure comes first; control characters are shown", () => {
    assertEquals(
      rendered([
        { type: "text", text: "partial" },
        { type: "error", message: "bad\x1b[2J", kind: "sentence", where: "generation" },
      ]),
      "partial\nmm: bad^[[2J\n",
    );
  });
});

Deno.test("plain: the text said before a failure is kept up to PENDING_SHOWN, the rest counted", () => {
  const piece = "abcdefghij".repeat(10_000);
  const events: AgentEvent[] = Array.from({ length: 10 }, () => ({ type: "text", text: piece }));
  events.push({ type: "error", message: "too much", kind: "sentence", where: "generation" });
  const shown = piece.repeat(10).slice(0, PENDING_SHOWN);
  const more = piece.length * 10 - PENDING_SHOWN;
  assertEquals(rendered(events), `${shown}\n… ${more} more characters not shown\nmm: too much\n`);
  assertEquals(
    rendered([{ type: "text", text: "short" }, events.at(-1)!]),
    "short\nmm: too much\n",
  );
});
