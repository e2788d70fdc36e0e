/** The tools a server refuses for their grammar, found by halving (lib/agent/grammar.ts). */

import { grammarDroppedText, isGrammarRefusal, refusedTools } from "../../lib/agent/grammar.ts";
import type { ChatClient, ChatRequest, ToolSchema } from "../../lib/provider/chat.ts";
import { ProviderError } from "../../lib/provider/errors.ts";
import { assertEquals } from "../helpers/assert.ts";

const tool = (name: string): ToolSchema => ({
  type: "function",
  function: { name, description: "", parameters: { type: "object", properties: {} } },
});

/** A server that refuses any request declaring one of `bad`, and counts the requests. */
function server(bad: string[]) {
  const seen: string[][] = [];
  const chat = {
    target: { provider: "llamacpp", url: "http://x", model: "m" },
    stream(req: ChatRequest) {
      const names = req.tools.map((t) => t.function.name);
      seen.push(names);
      if (names.some((n) => bad.includes(n))) {
        return Promise.reject(
          new ProviderError(
            "http",
            'the llamacpp server answered HTTP 400 for "m": failed to parse grammar',
            400,
          ),
        );
      }
      req.onDelta({ type: "text", text: "OK" });
      return Promise.reject(new Error("aborted by the first delta"));
    },
  } as unknown as ChatClient;
  return { chat, seen };
}

const TOOLS = ["a", "b", "c", "d", "e", "f", "g"].map(tool);
const NEVER = new AbortController().signal;

Deno.test("refusedTools", async (t) => {
  await t.step("one tool at fault among seven", async () => {
    const { chat, seen } = server(["e"]);
    assertEquals(await refusedTools(chat, TOOLS, NEVER), [4]);
    assertEquals(seen.length <= 7, true, `${seen.length} requests`);
  });
  await t.step("two at fault", async () => {
    const { chat } = server(["a", "g"]);
    assertEquals(await refusedTools(chat, TOOLS, NEVER), [0, 6]);
  });
  await t.step("none alone: nothing to leave out", async () => {
    const { chat } = server([]);
    assertEquals(await refusedTools(chat, TOOLS, NEVER), []);
  });
});

Deno.test("isGrammarRefusal and the warning", () => {
  assertEquals(
    isGrammarRefusal(new ProviderError("http", "x: failed to parse grammar", 400)),
    true,
  );
  assertEquals(isGrammarRefusal(new ProviderError("http", "x: bad request", 400)), false);
  assertEquals(isGrammarRefusal(new ProviderError("unreachable", "grammar")), false);
  assertEquals(
    grammarDroppedText(["fs_search", "fs_grep"]),
    "[warning: the server cannot parse the grammar of fs_search, fs_grep: left out of this conversation — mm doctor names what to exclude]",
  );
});
