/**
 * A thinking model's reasoning through the real `mm -p` and the scripted server: sent back within
 * the turn that made it (as the Qwen3 template renders it: tests/fixtures/llama-server/
 * apply-template-reasoning-*.http), not in the next; `sendReasoning`; the thinking keys; the
 * `usage` events and the recap's sums, the server's or mm's estimate.
 */

import assert from "node:assert/strict";
import { assertEquals } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { readSessions, runMM, workdir } from "../helpers/mm.ts";
import { capturedRequest } from "../helpers/server/fixtures.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();
const kept = capturedRequest("apply-template-reasoning-kept");
const dropped = capturedRequest("apply-template-reasoning-dropped");
/** The assistant message of the fixtures: its reasoning, its call of `ls`. */
const keptCall = kept.messages[1];
const droppedCall = dropped.messages[1];

/** A working directory with a.txt and b.txt and an agent file for `model` (llama.cpp). */
async function dirFor(model: string, extra = "", provider = "llamacpp"): Promise<string> {
  const dir = await workdir(
    `provider: ${provider}\nurl: ${server.url}\nmodel: ${model}\nsessions:\n  enabled: true\n${extra}`,
  );
  await Deno.writeTextFile(`${dir}/a.txt`, "");
  await Deno.writeTextFile(`${dir}/b.txt`, "");
  return dir;
}

/** The model's step of the fixtures: it thinks, then calls `ls`. */
const thinkThenCall = {
  thought: keptCall.reasoning_content,
  toolCalls: [{ id: "c1", name: "bash", arguments: { command: "ls" } }],
};

// deno-lint-ignore no-explicit-any
type Json = any;

/** The JSON events of a `--json` run. */
function events(stdout: string): Json[] {
  return stdout.trim().split("\n").map((l) => JSON.parse(l));
}

/** The assistant messages of chat request `n` of `model`. */
function assistants(model: string, n: number): Json[] {
  return server.chats(model)[n].body.messages.filter((m: Json) => m.role === "assistant");
}

Deno.test("reasoning", async (t) => {
  await runCases(t, {
    "the turn in progress sends its reasoning back; the next turn does not": async () => {
      server.script("back", [thinkThenCall, { text: "a.txt and b.txt" }, { text: "again" }]);
      const dir = await dirFor("back");
      const first = await runMM(["-p", "list the files"], { cwd: dir });
      assertEquals([first.code, first.stdout], [0, "a.txt and b.txt\n"], first.stderr);
      // The second request of the turn: the call with its reasoning, as the kept fixture sends it.
      const [call] = assistants("back", 1);
      assertEquals(call.reasoning_content, keptCall.reasoning_content);
      assertEquals(call.tool_calls, keptCall.tool_calls);
      const second = await runMM(["-p", "again", "--continue"], { cwd: dir });
      assertEquals(second.code, 0, second.stderr);
      // A new turn: the earlier turn's reasoning is gone, as the dropped fixture sends it.
      const earlier = assistants("back", 2);
      assertEquals(Object.keys(earlier[0]).sort(), Object.keys(droppedCall).sort());
      assert(earlier.every((m) => !("reasoning_content" in m)));
      // The session file keeps it.
      const [session] = await readSessions(dir);
      const stored = session.messages.find((m: Json) => m.tool_calls);
      assertEquals(stored.reasoning_content, keptCall.reasoning_content);
    },
    "sendReasoning: never sends none, always sends every one": async () => {
      server.script("never", [thinkThenCall, { text: "done" }]);
      const never = await runMM(["-p", "list"], {
        cwd: await dirFor("never", "sendReasoning: never\n"),
      });
      assertEquals(never.code, 0, never.stderr);
      assert(!("reasoning_content" in assistants("never", 1)[0]));
      server.script("always", [thinkThenCall, { text: "done", thought: "Done." }, { text: "ok" }]);
      const dir = await dirFor("always", "sendReasoning: always\n");
      assertEquals((await runMM(["-p", "list"], { cwd: dir })).code, 0);
      assertEquals((await runMM(["-p", "more", "--continue"], { cwd: dir })).code, 0);
      assertEquals(assistants("always", 2).map((m) => m.reasoning_content), [
        keptCall.reasoning_content,
        "Done.",
      ]);
    },
    "Ollama's native chat sends it back as thinking": async () => {
      server.script("native", [thinkThenCall, { text: "done" }]);
      const dir = await dirFor("native", "contextSize: 8192\n", "ollama");
      const run = await runMM(["-p", "list"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const call = server.nativeChats("native")[1].body.messages[2];
      assertEquals([call.role, call.thinking], ["assistant", keptCall.reasoning_content]);
    },
    "reasoning in `reasoning`, in a <think> block of the content, or of 1 MB": async () => {
      // 1 MB of thinking that does not repeat itself (the repetition watch would stop it).
      let big = "";
      for (let i = 0; big.length < 1024 * 1024; i++) big += `${i} is ${(i * 7919) % 100003}. `;
      server.script("fields", [
        { ...thinkThenCall, thoughtField: "reasoning" as const },
        {
          text: "<think>\nI look again.\n</think>\n\nnow cat",
          toolCalls: [{ id: "c2", name: "bash", arguments: { command: "cat a.txt" } }],
        },
        { thought: big, toolCalls: [{ id: "c3", name: "bash", arguments: { command: "true" } }] },
        { text: "<think>fine</think>All done." },
      ]);
      const run = await runMM(["-p", "list", "--json"], { cwd: await dirFor("fields") });
      assertEquals(run.code, 0, run.stderr + run.stdout.slice(-2000));
      assertEquals(events(run.stdout).at(-1), { type: "answer", text: "All done." });
      const calls = assistants("fields", 3);
      assertEquals(calls.map((m) => m.reasoning_content?.length), [
        keptCall.reasoning_content.length,
        "I look again.".length,
        big.length,
      ]);
      assertEquals(calls[1].content, "now cat");
      const thoughts = events(run.stdout).filter((e) => e.type === "thought").map((e) => e.text);
      assert(thoughts.join("").includes("I look again."));
      assert(!events(run.stdout).some((e) => e.type === "text" && e.text.includes("<think>")));
    },
    "thinking and reasoningEffort go out as each server takes them": async () => {
      server.script("knobs", [{ text: "a" }]);
      await runMM(["-p", "hi"], { cwd: await dirFor("knobs", "thinking: off\n") });
      assertEquals(server.chats("knobs")[0].body.chat_template_kwargs, { enable_thinking: false });
      server.script("effort", [{ text: "a" }]);
      await runMM(["-p", "hi"], {
        cwd: await dirFor("effort", "reasoningEffort: low\n", "openai"),
      });
      const body = server.chats("effort")[0].body;
      assertEquals([body.reasoning_effort, body.chat_template_kwargs], ["low", undefined]);
      server.script("auto", [{ text: "a" }]);
      await runMM(["-p", "hi"], { cwd: await dirFor("auto") });
      const plain = server.chats("auto")[0].body;
      assertEquals([plain.reasoning_effort, plain.chat_template_kwargs], [undefined, undefined]);
      server.script("olthink", [{ text: "a" }]);
      await runMM(["-p", "hi"], {
        cwd: await dirFor("olthink", "contextSize: 8192\nreasoningEffort: high\n", "ollama"),
      });
      assertEquals(server.nativeChats("olthink")[0].body.think, "high");
      server.script("flag", [{ text: "a" }]);
      await runMM(["-p", "hi", "--thinking", "on"], { cwd: await dirFor("flag") });
      assertEquals(server.chats("flag")[0].body.chat_template_kwargs, { enable_thinking: true });
    },
    "usage: the server's counts, llama.cpp's timings, and the turn's sums": async () => {
      server.script("usage", [
        { fixture: "think-stream" },
      ]);
      const run = await runMM(["-p", "say hi", "--json"], { cwd: await dirFor("usage") });
      assertEquals(run.code, 0, run.stderr);
      const all = events(run.stdout);
      const usage = all.find((e) => e.type === "usage");
      assertEquals(usage.usage.promptTokens, 11);
      assertEquals(usage.usage.completionTokens, 8);
      assertEquals(usage.usage.cachedTokens, 0);
      assertEquals(Math.round(usage.usage.tokensPerSecond), 676);
      assertEquals(usage.usage.estimated, false);
      const recap = all.find((e) => e.type === "recap");
      assertEquals([recap.usage.requests, recap.usage.promptTokens], [1, 11]);
      server.script("sums", [
        {
          ...thinkThenCall,
          usage: {
            prompt_tokens: 1000,
            completion_tokens: 20,
            prompt_tokens_details: { cached_tokens: 0 },
          },
          timings: { cache_n: 0, predicted_per_second: 40 },
        },
        {
          text: "done",
          usage: {
            prompt_tokens: 1100,
            completion_tokens: 60,
            prompt_tokens_details: { cached_tokens: 1000 },
          },
          timings: { cache_n: 1000, predicted_per_second: 60 },
        },
      ]);
      const sums = await runMM(["-p", "list", "--json"], {
        cwd: await dirFor("sums", "contextSize: 4096\n"),
      });
      const turn = events(sums.stdout).find((e) => e.type === "recap").usage;
      assertEquals(
        [
          turn.requests,
          turn.promptTokens,
          turn.completionTokens,
          turn.cachedTokens,
          turn.contextTokens,
        ],
        [2, 2100, 80, 1000, 1160],
      );
      assertEquals([turn.contextWindow, Math.round(turn.tokensPerSecond), turn.estimated], [
        4096,
        53,
        false,
      ]);
    },
    "a count that cannot be the prompt's is ignored: the estimate, marked, and the turn goes on":
      async () => {
        server.script("huge-usage", [
          {
            ...thinkThenCall,
            usage: { prompt_tokens: 1_000_000, completion_tokens: 20 },
          },
          { text: "listed", usage: { prompt_tokens: 1_000_000, completion_tokens: 3 } },
        ]);
        const run = await runMM(["-p", "list", "--json"], {
          cwd: await dirFor("huge-usage", "contextSize: 8000\n"),
        });
        assertEquals(run.code, 0, run.stderr);
        const all = events(run.stdout);
        assertEquals(
          all.some((e) => e.type === "text" && e.text.includes("listed")),
          true,
          run.stdout,
        );
        const usages = all.filter((e) => e.type === "usage").map((e) => e.usage);
        assertEquals(usages.length, 2, run.stdout);
        for (const u of usages) {
          assertEquals(u.estimated, true, JSON.stringify(u));
          assert(u.promptTokens < 8000, JSON.stringify(u));
        }
        assertEquals(server.chats("huge-usage").length, 2);
      },
    "usage missing, zero, negative or absurd: mm's estimate, marked": async () => {
      const bad: Json[] = [
        undefined,
        { prompt_tokens: 0, completion_tokens: 0 },
        { prompt_tokens: -5, completion_tokens: 3 },
        { prompt_tokens: 1e12, completion_tokens: 3 },
        { prompt_tokens: "12", completion_tokens: 3 },
      ];
      for (const [i, usage] of bad.entries()) {
        const model = `bad-usage-${i}`;
        server.script(model, [{ text: "hello there", ...(usage ? { usage } : {}) }]);
        const run = await runMM(["-p", "hi", "--json"], { cwd: await dirFor(model) });
        assertEquals(run.code, 0, run.stderr);
        const u = events(run.stdout).find((e) => e.type === "usage").usage;
        assertEquals(u.estimated, true, JSON.stringify(usage));
        assert(u.promptTokens > 0 && u.promptTokens < 100_000, JSON.stringify(u));
        assert(u.completionTokens > 0, JSON.stringify(u));
      }
    },
  });
});
