/** The real `mm -p` keeps its requests inside the context window, and answers an overflow once. */

import { COMPACT_ACK, COMPACT_REQUEST, COMPACT_WRAPPER } from "../../lib/agent/agent.ts";
import {
  answerReserve,
  compactingNotice,
  isShortened,
  OVERFLOW_NOTICE,
  promptTokens,
} from "../../lib/agent/budget.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server.ts";

const server = ScriptedServer.start();

/** `size` characters in lines of 40, each naming its file. */
function lines(name: string, size: number): string {
  let out = "";
  for (let i = 0; out.length < size; i++) out += `${name} ${i} `.padEnd(39, ".") + "\n";
  return out.slice(0, size);
}

/** A working directory for `model` on the openai provider, with four files of 4,200 characters. */
async function dirFor(model: string, extra = ""): Promise<string> {
  const dir = await workdir(`provider: openai\nurl: ${server.url}/v1\nmodel: ${model}\n${extra}`);
  for (const name of ["a", "b", "c", "d"]) {
    await Deno.writeTextFile(`${dir}/${name}.txt`, lines(name, 4200));
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

const overflowBody = (message: string) => ({
  error: { code: 400, message, type: "exceed_context_size_error" },
});

Deno.test("context window", async (t) => {
  await runCases(t, {
    "a conversation that outgrows 4,096 tokens is shortened, then compacted, and answers":
      async () => {
        server.script("grow", [
          cat("a"),
          cat("b"),
          cat("c", "d"),
          { text: "Read a.txt, b.txt, c.txt and d.txt: numbered lines." },
          { text: "All four files hold numbered lines." },
        ]);
        const dir = await dirFor("grow", "contextSize: 4096\nsessions:\n  enabled: true\n");
        const run = await runMM(["-p", "read the four files"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, "All four files hold numbered lines.\n");
        assertStringIncludes(run.stderr, `\n${compactingNotice(4096)}\n`);
        const chats = server.chats("grow").map((r) => r.body);
        assertEquals(chats.length, 5);
        const limit = 4096 - answerReserve(4096);
        for (const [i, body] of chats.entries()) {
          const tokens = promptTokens(body.messages, body.tools ?? []);
          assertEquals(tokens <= limit, true, `request ${i} takes ${tokens} tokens`);
        }
        assertEquals(outputs(chats[1]), [["call_a_0", false]]);
        assertEquals(outputs(chats[2]), [["call_a_0", true], ["call_b_0", false]]);
        const summary = chats[3];
        assertEquals(summary.tools, undefined, "the summary is asked without tools");
        assertEquals(summary.messages.at(-1), { role: "user", content: COMPACT_REQUEST });
        assertEquals(outputs(summary).slice(0, 2), [["call_a_0", true], ["call_b_0", true]]);
        const after = chats[4].messages;
        // deno-lint-ignore no-explicit-any
        assertEquals(after.map((m: any) => m.role), ["system", "user", "assistant", "user"]);
        assertEquals(after.slice(1), [
          {
            role: "user",
            content: `${COMPACT_WRAPPER}\nRead a.txt, b.txt, c.txt and d.txt: numbered lines.`,
          },
          { role: "assistant", content: COMPACT_ACK },
          { role: "user", content: "read the four files" },
        ]);
        assertEquals(chats[4].tools.length > 0, true, "the turn goes on with its tools");
        const [file] = [...Deno.readDirSync(`${dir}/.mm/sessions`)];
        const session = JSON.parse(await Deno.readTextFile(`${dir}/.mm/sessions/${file.name}`));
        assertEquals(session.messages, [
          ...after.slice(1).map((m: Body) => ({ ...m, turn: 1 })),
          { role: "assistant", content: "All four files hold numbered lines.", turn: 1 },
        ]);
      },
    "an overflow the server reports is answered once by compacting": async () => {
      server.script("overflow-once", [
        cat("a"),
        {
          status: 400,
          body: overflowBody("the request exceeds the available context size, try increasing it"),
        },
        { text: "Read a.txt: numbered lines." },
        { text: "a.txt holds numbered lines." },
      ]);
      const dir = await dirFor("overflow-once");
      const run = await runMM(["-p", "read a", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(events.filter((e) => e.type === "notice"), [
        { type: "notice", message: OVERFLOW_NOTICE },
      ]);
      assertEquals(events.at(-1), { type: "answer", text: "a.txt holds numbered lines." });
      const chats = server.chats("overflow-once").map((r) => r.body);
      assertEquals(chats.length, 4);
      assertEquals(chats[2].messages.at(-1), { role: "user", content: COMPACT_REQUEST });
      assertEquals(outputs(chats[2]), [["call_a_0", true]]);
      assertEquals(chats[3].messages.slice(1), [
        { role: "user", content: `${COMPACT_WRAPPER}\nRead a.txt: numbered lines.` },
        { role: "assistant", content: COMPACT_ACK },
        { role: "user", content: "read a" },
      ]);
    },
    "a second overflow ends the run with the clear error": async () => {
      const vllm =
        "This model's maximum context length is 4096 tokens. However, you requested 5210 tokens (4186 in the messages, 1024 in the completion).";
      server.script("overflow-twice", [
        cat("a"),
        { status: 400, body: overflowBody(vllm) },
        { text: "Read a.txt." },
        { status: 400, body: overflowBody(vllm) },
      ]);
      const dir = await dirFor("overflow-twice");
      const run = await runMM(["-p", "read a"], { cwd: dir });
      assertEquals(run.code, 1);
      assertEquals(run.stdout, "");
      assertStringIncludes(run.stderr, `${OVERFLOW_NOTICE}\n`);
      assertStringIncludes(
        run.stderr,
        `mm: the conversation no longer fits the context window of "overflow-twice" at ${server.url}/v1 (${vllm}) — raise \`contextSize\`, or start a new conversation\n`,
      );
      assertEquals(server.chats("overflow-twice").length, 4);
    },
  });
  await server.close();
});
