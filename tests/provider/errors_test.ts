/** The overflow sentence: what to do depends on `contextSize` and the server's window. */

import { largerWindow, overflow, type Target, tooLarge } from "../../lib/provider/errors.ts";
import { MAX_ANSWER, MAX_BODY, MAX_STREAM_LINE } from "../../lib/bounded/limits.ts";
import { assertEquals } from "../helpers/assert.ts";

const t: Target = { provider: "llamacpp", url: "http://h:8080", model: "m" };
const start =
  `the conversation no longer fits the context window of "m" at http://h:8080 (too long) — `;

Deno.test("the advice of an overflow", async (t2) => {
  await t2.step("llama.cpp, its window unknown: a larger -c, since contextSize cannot help", () => {
    const e = overflow(t, "too long");
    assertEquals(
      e.message,
      `${start}restart llama-server with a larger \`-c\`, or send a shorter prompt`,
    );
    assertEquals([e.kind, e.status, e.serverMessage], ["overflow", 400, "too long"]);
  });
  await t2.step("llama.cpp with at least contextSize, or naming n_ctx: -c with twice that", () => {
    const advice =
      "restart llama-server with `-c 16384` (it runs the model with 8192 tokens), or send a shorter prompt";
    const e = overflow({ ...t, contextSize: 8192, serverWindow: 8192 }, "too long");
    assertEquals(e.message, `${start}${advice}`);
    assertEquals(overflow(t, "too long", 8192).message, `${start}${advice}`);
  });
  await t2.step("the prompt's measured size: a window it fits in, not only twice the old", () => {
    assertEquals(largerWindow(2048, 6030), 8192);
    assertEquals(largerWindow(2048, 3000), 4096);
    assertEquals(largerWindow(8192), 16384);
    assertEquals(
      overflow(t, "too long", 2048, 6030).message,
      `${start}restart llama-server with \`-c 8192\` (it runs the model with 2048 tokens, the prompt needs 6030), or send a shorter prompt`,
    );
  });
  await t2.step("Ollama: contextSize helps (mm sends it as num_ctx)", () => {
    const ollama = { ...t, provider: "ollama" as const };
    assertEquals(
      overflow(ollama, "too long").message,
      `${start}raise \`contextSize\` (mm sends it to Ollama as num_ctx), or send a shorter prompt`,
    );
    assertEquals(
      overflow({ ...ollama, contextSize: 8192, serverWindow: 8192 }, "too long").message,
      `${start}raise \`contextSize\` above 8192 (mm sends it to Ollama as num_ctx), or send a shorter prompt`,
    );
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

Deno.test("more than mm reads: a line, an answer, a body, each with its limit", () => {
  const head = "the llamacpp server at http://h:8080 sent";
  const log = "look at the server's log: a model server does not send that much at once";
  assertEquals(
    tooLarge(t, "a line", MAX_STREAM_LINE).message,
    `${head} a line of more than 8 MiB for "m", mm's limit — mm stopped reading it: ${log}`,
  );
  assertEquals(
    tooLarge(t, "an answer", MAX_ANSWER).message,
    `${head} an answer of more than 32 MiB for "m", mm's limit — mm stopped reading it: set \`maxTokens\` in the agent file to keep answers shorter, or look at the server's log`,
  );
  const body = tooLarge(t, "a body", MAX_BODY);
  assertEquals(
    body.message,
    `${head} a body of more than 32 MiB for "m", mm's limit — mm stopped reading it: ${log}`,
  );
  assertEquals(body.kind, "tooLarge");
});
