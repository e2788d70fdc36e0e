import { assertEquals } from "../helpers/assert.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import type { ChatClient, ChatRequest } from "../../lib/provider/chat.ts";
import { warms, Warmup, WARMUP_PROMPT } from "../../lib/provider/warmup.ts";

/** A client that records its requests; each stream waits until its signal aborts or `end` is called. */
function recordingClient(fail = false) {
  const requests: ChatRequest[] = [];
  const ends: (() => void)[] = [];
  const chat: ChatClient = {
    target: { provider: "llamacpp", url: "http://x", model: "m" },
    stream: (request) => {
      requests.push(request);
      return new Promise((resolve, reject) => {
        request.signal.addEventListener("abort", () => reject(new Error("aborted")));
        ends.push(() =>
          fail ? reject(new Error("boom")) : resolve({ text: ".", thought: "", toolCalls: [] })
        );
      });
    },
  };
  return { chat, requests, ends };
}

const system = { role: "system" as const, content: "You are mm." };

Deno.test("warms: local providers only, and not with warmup: false", () => {
  const rows: [string, boolean, boolean][] = [
    ["ollama", true, true],
    ["llamacpp", true, true],
    ["lmstudio", true, true],
    ["llamacpp", false, false],
    ["openai", true, false],
    ["dmr", true, false],
    ["vllm", true, false],
  ];
  for (const [provider, warmup, expected] of rows) {
    const config = { ...defaultConfig(), provider, warmup } as ReturnType<typeof defaultConfig>;
    assertEquals(warms(config), expected, `${provider} warmup: ${warmup}`);
  }
});

Deno.test("Warmup: one token of the prefix and a user message, a new one stops the last", async () => {
  const { chat, requests, ends } = recordingClient();
  const warmup = new Warmup(chat);
  warmup.warm({ messages: [system], tools: [], thinking: { thinking: "off" } });
  assertEquals(requests[0].maxTokens, 1);
  assertEquals(requests[0].messages, [system, { role: "user", content: WARMUP_PROMPT }]);
  assertEquals(requests[0].thinking, { thinking: "off" });
  warmup.warm({ messages: [system], tools: [] });
  assertEquals(requests[0].signal.aborted, true);
  assertEquals(requests[1].signal.aborted, false);
  ends[1]();
  await warmup.settled();
  warmup.stop(); // after its end: nothing to stop, no error
});

Deno.test("Warmup: a failure or a stop is never thrown", async () => {
  const failing = recordingClient(true);
  const warmup = new Warmup(failing.chat);
  warmup.warm({ messages: [system], tools: [] });
  failing.ends[0]();
  await warmup.settled();
  const hanging = recordingClient();
  const other = new Warmup(hanging.chat);
  other.warm({ messages: [system], tools: [] });
  other.stop();
  assertEquals(hanging.requests[0].signal.aborted, true);
  await other.settled();
});
