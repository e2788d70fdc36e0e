/** The real `mm -p` keeps its requests inside the context window, and answers an overflow once. */

import { COMPACT_ACK, COMPACT_REQUEST, COMPACT_WRAPPER } from "../../lib/history.ts";
import {
  answerReserve,
  compactingNotice,
  isShortened,
  OVERFLOW_CUT_NOTICE,
  OVERFLOW_NOTICE,
  overflowAnsweredText,
  promptTokens,
  READ_IN_PARTS,
} from "../../lib/agent/budget.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { readSessions, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** `size` characters in lines of 40, each naming its file. */
function lines(name: string, size: number): string {
  let out = "";
  for (let i = 0; out.length < size; i++) out += `${name} ${i} `.padEnd(39, ".") + "\n";
  return out.slice(0, size);
}

/** A working directory for `model` on the openai provider, with six files of 2,900 characters. */
async function dirFor(model: string, extra = "", at = server): Promise<string> {
  const dir = await workdir(`provider: openai\nurl: ${at.url}/v1\nmodel: ${model}\n${extra}`);
  for (const name of ["a", "b", "c", "d", "e", "f"]) {
    await Deno.writeTextFile(`${dir}/${name}.txt`, lines(name, 2900));
  }
  return dir;
}

const cat = (...names: string[]) => ({
  toolCalls: names.map((n, i) => ({
    name: "bash",
    arguments: { command: `cat ${n}.txt` },
    id: `call_${n}_${i}`,
  })),
});

// deno-lint-ignore no-explicit-any
type Body = any;

/** The tool outputs of a request, by call id, with whether each was shortened. */
function outputs(body: Body): [string, boolean][] {
  // deno-lint-ignore no-explicit-any
  return body.messages.filter((m: any) => m.role === "tool").map((m: any) => [
    m.tool_call_id,
    isShortened(m.content),
  ]);
}

/** The session file of `dir`, parsed. */
async function sessionOf(dir: string): Promise<Body> {
  const [session] = await readSessions(dir);
  return session;
}

/** The six files of {@linkcode dirFor} in `dir`. */
async function writeFiles(dir: string): Promise<void> {
  for (const name of ["a", "b", "c", "d", "e", "f"]) {
    await Deno.writeTextFile(`${dir}/${name}.txt`, lines(name, 2900));
  }
}

const LLAMA_OVERFLOW = "the request exceeds the available context size, try increasing it";

const overflowBody = (message: string) => ({
  error: { code: 400, message, type: "exceed_context_size_error" },
});

Deno.test("context window", async (t) => {
  await runCases(t, {
    "a conversation that outgrows 4,096 tokens is compacted, once cuts would not last, and answers":
      async () => {
        // Each step's two outputs fit the window with the prompt, the three steps do not; cutting
        // the read outputs would leave room for no further step, so the conversation is compacted
        // at once: one change of what the server cached, not a cut, another cut, then a summary.
        const own = ScriptedServer.start();
        own.summaries = "Read a.txt to d.txt: numbered lines.";
        own.script("grow", [
          cat("a", "b"),
          cat("c", "d"),
          cat("e", "f"),
          { text: "All six files hold numbered lines." },
        ]);
        try {
          const dir = await dirFor(
            "grow",
            "contextSize: 4096\nsessions:\n  enabled: true\n",
            own,
          );
          const run = await runMM(["-p", "read the six files"], { cwd: dir });
          assertEquals(run.code, 0, run.stderr);
          assertEquals(run.stdout, "All six files hold numbered lines.\n");
          assertStringIncludes(run.stderr, `\n${compactingNotice(4096)}\n`);
          const chats = own.chats("grow").map((r) => r.body);
          const limit = 4096 - answerReserve(4096);
          for (const [i, body] of chats.entries()) {
            const tokens = promptTokens(body.messages, body.tools ?? []);
            assertEquals(tokens <= limit, true, `request ${i} takes ${tokens} tokens`);
          }
          assertEquals(outputs(chats[1]), [["call_a_0", false], ["call_b_1", false]]);
          const at = chats.findIndex((b) => b.messages.at(-1)?.content === COMPACT_REQUEST);
          const summary = chats[at];
          // The tools stay declared, none to be called: the request starts as the last one did.
          assertEquals([summary.tools.length > 0, summary.tool_choice], [true, "none"]);
          // What the model has read is summarised; the step it has not read is kept after it.
          assertEquals(outputs(summary).map(([id]) => id.slice(0, 6)), ["call_a", "call_b"]);
          const after = chats[at + 1].messages;
          // deno-lint-ignore no-explicit-any
          assertEquals(after.map((m: any) => m.role), [
            "system",
            "user",
            "assistant",
            "user",
            "assistant",
            "tool",
            "tool",
          ]);
          assertEquals(after.slice(1, 4), [
            { role: "user", content: `${COMPACT_WRAPPER}\nRead a.txt to d.txt: numbered lines.` },
            { role: "assistant", content: COMPACT_ACK },
            { role: "user", content: "read the six files" },
          ]);
          assertEquals(outputs(chats[at + 1]).map(([id]) => id.slice(0, 6)), ["call_c", "call_d"]);
          const last = chats.at(-1)!;
          assertEquals(outputs(last).map(([id]) => id.slice(0, 6)).slice(-2), ["call_e", "call_f"]);
          assertEquals(last.tools.length > 0, true, "the turn goes on with its tools");
          const [session] = await readSessions(dir);
          assertEquals(session.messages, [
            ...last.messages.slice(1).map((m: Body) => ({ ...m, turn: 1 })),
            { role: "assistant", content: "All six files hold numbered lines.", turn: 1 },
          ]);
          // The listing shows the question, not the summary that now comes first.
          const listing = await runMM(["sessions"], { cwd: dir });
          assertStringIncludes(listing.stdout, "  1 turn(s)  read the six files\n");
          assertEquals(listing.stdout.includes("[mm: summary"), false, listing.stdout);
        } finally {
          await own.close();
        }
      },
    "an overflow the server reports is answered once by compacting": async () => {
      server.script("overflow-once", [
        cat("a"),
        cat("b"),
        { status: 400, body: overflowBody(LLAMA_OVERFLOW) },
        { text: "Read a.txt and b.txt: numbered lines." },
        { text: "a.txt holds numbered lines." },
      ]);
      const dir = await dirFor("overflow-once", "sessions:\n  enabled: true\n");
      const run = await runMM(["-p", "read a", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(events.filter((e) => e.type === "notice"), [
        { type: "notice", message: OVERFLOW_NOTICE },
      ]);
      assertEquals(events.at(-1), { type: "answer", text: "a.txt holds numbered lines." });
      const chats = server.chats("overflow-once").map((r) => r.body);
      assertEquals(chats.length, 5);
      assertEquals(chats[3].messages.at(-1), { role: "user", content: COMPACT_REQUEST });
      assertEquals(outputs(chats[3]), [["call_a_0", true], ["call_b_0", true]]);
      assertEquals(chats[4].messages.slice(1), [
        { role: "user", content: `${COMPACT_WRAPPER}\nRead a.txt and b.txt: numbered lines.` },
        { role: "assistant", content: COMPACT_ACK },
        { role: "user", content: "read a" },
      ]);
      // The session keeps the overflow as what it was: answered.
      assertEquals((await sessionOf(dir)).errors.map((e: Body) => e.message), [
        overflowAnsweredText(LLAMA_OVERFLOW, true),
      ]);
    },
    "a second overflow ends the run with the clear error": async () => {
      const vllm =
        "This model's maximum context length is 4096 tokens. However, you requested 5210 tokens (4186 in the messages, 1024 in the completion).";
      server.script("overflow-twice", [
        cat("a"),
        cat("b"),
        { status: 400, body: overflowBody(vllm) },
        { text: "Read a.txt and b.txt." },
        { status: 400, body: overflowBody(vllm) },
      ]);
      const dir = await dirFor("overflow-twice");
      const run = await runMM(["-p", "read a"], { cwd: dir });
      assertEquals(run.code, 1);
      assertEquals(run.stdout, "");
      assertStringIncludes(run.stderr, `${OVERFLOW_NOTICE}\n`);
      assertStringIncludes(
        run.stderr,
        `mm: the conversation no longer fits the context window of "overflow-twice" at ${server.url}/v1 (${vllm}) — start the server with a larger window (llama-server \`-c\`, vLLM \`--max-model-len\`, LM Studio's context length), or send a shorter prompt\n`,
      );
      assertEquals(server.chats("overflow-twice").length, 5);
    },
    "an overflow llama.cpp says inside its stream is answered by compacting too": async () => {
      const llama = ScriptedServer.start();
      try {
        llama.script("in-stream", [
          cat("a"),
          cat("b"),
          { text: "", streamError: LLAMA_OVERFLOW },
          { text: "Read a.txt and b.txt." },
          { text: "Both hold numbered lines." },
        ]);
        const dir = await workdir(`provider: llamacpp\nurl: ${llama.url}\nmodel: in-stream\n`);
        await writeFiles(dir);
        const run = await runMM(["-p", "read a and b"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, "Both hold numbered lines.\n");
        assertStringIncludes(run.stderr, `${OVERFLOW_NOTICE}\n`);
        const chats = llama.chats("in-stream").map((r) => r.body);
        assertEquals(chats.length, 5);
        assertEquals(chats[3].messages.at(-1), { role: "user", content: COMPACT_REQUEST });
      } finally {
        await llama.close();
      }
    },
    "a tool output bigger than the window is cut to what fits and read, never compacted":
      async () => {
        server.script("big", [
          { toolCalls: [{ name: "bash", arguments: { command: "cat big.txt" }, id: "call_big" }] },
          { text: "big.txt holds numbered lines." },
        ]);
        const dir = await dirFor("big", "contextSize: 4096\nsessions:\n  enabled: true\n");
        await Deno.writeTextFile(`${dir}/big.txt`, lines("big", 40_000));
        const run = await runMM(["-p", "what is in big.txt?"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, "big.txt holds numbered lines.\n");
        assertEquals(run.stderr.includes("compacting"), false, run.stderr);
        const chats = server.chats("big").map((r) => r.body);
        assertEquals(chats.length, 2, "no summary asked, no second cat");
        const output: string = chats[1].messages.at(-1).content;
        assertEquals(output.endsWith(`${READ_IN_PARTS}]`), true, output.slice(-300));
        const kept = output.indexOf("[mm: ");
        assertEquals(output.slice(0, kept), lines("big", 40_000).slice(0, kept));
        assertEquals(kept > 4000, true, `${kept} characters kept: as many as fit`);
        const limit = 4096 - answerReserve(4096);
        const tokens = promptTokens(chats[1].messages, chats[1].tools);
        assertEquals(tokens <= limit && tokens > limit - 100, true, `${tokens} of ${limit}`);
        const session = await sessionOf(dir);
        assertEquals(session.messages[2].content, output, "the session holds what was sent");
      },
    "contextSize above the server's window: the advice says to lower it": async () => {
      const llama = ScriptedServer.start();
      try {
        llama.props = { default_generation_settings: { n_ctx: 4096 } };
        llama.script("small", [
          cat("a"),
          { status: 400, body: overflowBody(LLAMA_OVERFLOW) },
          { status: 400, body: overflowBody(LLAMA_OVERFLOW) },
        ]);
        const dir = await workdir(
          `provider: llamacpp\nurl: ${llama.url}\nmodel: small\ncontextSize: 32768\nsessions:\n  enabled: true\n`,
        );
        await writeFiles(dir);
        const run = await runMM(["-p", "read a"], { cwd: dir });
        assertEquals(run.code, 1);
        const sentence =
          `the conversation no longer fits the context window of "small" at ${llama.url} (${LLAMA_OVERFLOW}) — the server runs the model with 4096 tokens, fewer than \`contextSize\` (32768): lower \`contextSize\` to 4096, or restart llama-server with \`-c 32768\``;
        assertStringIncludes(run.stderr, `${OVERFLOW_CUT_NOTICE}\n`);
        assertStringIncludes(run.stderr, `mm: ${sentence}\n`);
        const chats = llama.chats("small").map((r) => r.body);
        assertEquals(chats.length, 3, "the retry cut the output, no summary asked");
        assertEquals(outputs(chats[2]), [["call_a_0", true]]);
        assertEquals((await sessionOf(dir)).errors.map((e: Body) => e.message), [
          overflowAnsweredText(LLAMA_OVERFLOW, false),
          sentence,
        ]);
      } finally {
        await llama.close();
      }
    },
  });
  await server.close();
});
