/** The overflow sentence: what to do depends on `contextSize` and the server's window. */

import { overflow, type Target } from "../../lib/provider/errors.ts";
import { assertEquals } from "../helpers/assert.ts";

const t: Target = { provider: "llamacpp", url: "http://h:8080", model: "m" };
const start =
  `the conversation no longer fits the context window of "m" at http://h:8080 (too long) — `;

Deno.test("the advice of an overflow", async (t2) => {
  await t2.step("no contextSize: raise it (mm.md §3)", () => {
    const e = overflow(t, "too long");
    assertEquals(e.message, `${start}raise \`contextSize\`, or start a new conversation`);
    assertEquals([e.kind, e.status, e.serverMessage], ["overflow", 400, "too long"]);
  });
  await t2.step("a server with at least contextSize: raise it", () => {
    const e = overflow({ ...t, contextSize: 8192, serverWindow: 8192 }, "too long");
    assertEquals(e.message, `${start}raise \`contextSize\`, or start a new conversation`);
  });
  await t2.step("a server with less than contextSize: lower it, or give the server more", () => {
    const e = overflow({ ...t, contextSize: 32768, serverWindow: 4096 }, "too long");
    assertEquals(
      e.message,
      `${start}the server runs the model with 4096 tokens, fewer than \`contextSize\` (32768): lower \`contextSize\` to 4096, or restart llama-server with \`-c 32768\``,
    );
  });
  await t2.step("a server that did not tell its window: probably the smaller one", () => {
    const e = overflow({ ...t, provider: "openai", contextSize: 16384 }, "too long");
    assertEquals(
      e.message,
      `${start}the server's window is probably smaller than \`contextSize\` (16384): lower \`contextSize\` to the server's, or start the server with a window of 16384 tokens (llama-server \`-c\`, vLLM \`--max-model-len\`, LM Studio's context length)`,
    );
  });
  await t2.step("Docker Model Runner: its configure command", () => {
    const e = overflow({ ...t, provider: "dmr", contextSize: 16384, serverWindow: 4096 }, "x");
    assertEquals(e.message.endsWith("`docker model configure --context-size 16384 m`"), true);
  });
});
