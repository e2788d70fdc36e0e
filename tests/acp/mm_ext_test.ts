/** mm's private ACP extensions: what one side writes, the other reads back (lib/acp/mm_ext.ts). */

import {
  ALIVE_METHOD,
  aliveParams,
  askUserMeta,
  errorChunkMeta,
  isErrorChunk,
  isNobody,
  mayAskUser,
  nestedAgent,
  nestedMeta,
  nobodyMeta,
  turnErrorMeta,
  turnFailure,
} from "../../lib/acp/mm_ext.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("mm_ext: each extension reads back what its writer wrote", async (t) => {
  await t.step("the alive notification", () => {
    assertEquals(ALIVE_METHOD, "_mm/alive");
    assertEquals(aliveParams({ sessionId: "s1" }), { sessionId: "s1" });
    assertEquals(aliveParams({ sessionId: 3 }), undefined);
    assertEquals(aliveParams(undefined), undefined);
  });
  await t.step("a failed turn's sentence, without its brackets", () => {
    const response = {
      stopReason: "end_turn",
      _meta: turnErrorMeta("[error: the server is down]"),
    };
    assertEquals(turnFailure(response), "the server is down");
    assertEquals(turnFailure({ _meta: turnErrorMeta("[mm: blocked]") }), "blocked");
    assertEquals(turnFailure({ stopReason: "end_turn" }), undefined);
    assertEquals(turnFailure({ _meta: { mm: { error: "  " } } }), undefined);
  });
  await t.step("the error chunk", () => {
    assertEquals(isErrorChunk({ _meta: errorChunkMeta() }), true);
    assertEquals(isErrorChunk({ _meta: { other: { error: true } } }), false);
    assertEquals(isErrorChunk({ _meta: null }), false);
  });
  await t.step("a forwarded update of an agent asked in turn", () => {
    assertEquals(nestedAgent({ _meta: nestedMeta("helper") }), "helper");
    assertEquals(nestedAgent({ sessionUpdate: "agent_message_chunk" }), undefined);
  });
  await t.step("nobody to ask, on session/new and on a form's answer", () => {
    assertEquals(mayAskUser({ cwd: "/", _meta: askUserMeta(false) }), false);
    assertEquals(mayAskUser({ cwd: "/", _meta: askUserMeta(true) }), true);
    assertEquals(mayAskUser({ cwd: "/" }), true);
    assertEquals(isNobody({ action: "decline", _meta: nobodyMeta() }), true);
    assertEquals(isNobody({ action: "decline" }), false);
  });
});
