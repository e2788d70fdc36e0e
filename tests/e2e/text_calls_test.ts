/** The real `mm -p` against a server that passes the model's tool call through as text. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { DIALECT_CALLS } from "../fixtures/text_calls/dialects.ts";

const server = ScriptedServer.start();
const CALL = '<tool_call>{"name":"bash","arguments":{"command":"echo hi"}}</tool_call>';

/** A working directory whose agent file points at the scripted server with `model`. */
function dirFor(model: string, more = ""): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${more}`);
}

Deno.test("text-form tool calls through mm -p", async (t) => {
  await runCases(t, {
    "a <tool_call> written as text runs bash; stdout has only the final answer": async () => {
      server.script("text-call", [
        { text: CALL, chunkSize: 3 },
        { text: "It printed hi." },
      ]);
      const run = await runMM(["-p", "say hi"], { cwd: await dirFor("text-call") });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "It printed hi.\n");
      assertEquals(run.stderr.includes("<tool_call>"), false, run.stderr);
      assertStringIncludes(run.stderr, "bash: echo hi");
      const second = server.chats("text-call")[1].body.messages;
      const assistant = second.at(-2);
      assertEquals(assistant.role, "assistant");
      assertEquals(assistant.content, null);
      assertEquals(assistant.tool_calls[0].function, {
        name: "bash",
        arguments: '{"command":"echo hi"}',
      });
      assertEquals(second.at(-1), {
        role: "tool",
        tool_call_id: assistant.tool_calls[0].id,
        content: "hi\n",
      });
    },
    "--json shows the call as a tool_call event, never as text": async () => {
      server.script("text-call-json", [
        { text: `Running it.\n${CALL}`, chunkSize: 4 },
        { text: "Done." },
      ]);
      const run = await runMM(["-p", "say hi", "--json"], {
        cwd: await dirFor("text-call-json"),
      });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout.includes("tool_call>"), false, run.stdout);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const text = events.filter((e) => e.type === "text").map((e) => e.text).join("");
      assertEquals(text, "Running it.\nDone.");
      const call = events.find((e) => e.type === "tool_call");
      assertEquals([call.name, call.input], ["bash", { command: "echo hi" }]);
      assertEquals(events.at(-1), { type: "answer", text: "Done." });
    },
    "tags inside a Qwen3-Coder value or a JSON string: the call runs with the whole value":
      async () => {
        const content = 'a </function> b\nx = "<function=foo>"\nsay </tool_call> here';
        const write = [
          "<tool_call>",
          "<function=write_file>",
          "<parameter=path>",
          "f.txt",
          "</parameter>",
          "<parameter=content>",
          content,
          "</parameter>",
          "</function>",
          "</tool_call>",
        ].join("\n");
        const echo =
          '<tool_call>\n{"name": "bash", "arguments": {"command": "echo \'</tool_call>\'"}}\n</tool_call>';
        server.script("tags", [
          { text: write, chunkSize: 5 },
          { text: echo, chunkSize: 5 },
          { text: "Written and echoed." },
        ]);
        const dir = await dirFor("tags");
        const run = await runMM(["-p", "write it"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, "Written and echoed.\n");
        assertEquals(await Deno.readTextFile(`${dir}/f.txt`), content);
        const last = server.chats("tags")[2].body.messages.at(-1);
        assertEquals([last.role, last.content], ["tool", "</tool_call>\n"]);
      },
    "every dialect's first sample runs as calls; stdout has only the final answer": async () => {
      for (const [dialect, [sample]] of Object.entries(DIALECT_CALLS)) {
        const model = `dialect-${dialect.replace(/\W+/g, "-")}`;
        server.script(model, [{ text: sample.text, chunkSize: 5 }, { text: "Done." }]);
        const run = await runMM(["-p", "go"], { cwd: await dirFor(model) });
        assertEquals([run.code, run.stdout], [0, "Done.\n"], `${dialect}\n${run.stderr}`);
        const chats = server.chats(model);
        assertEquals(chats[0].body.tools?.length > 0, true, dialect);
        const assistant = chats[1].body.messages.find((m: { role: string }) =>
          m.role === "assistant"
        );
        const calls = assistant.tool_calls.map((
          c: { function: { name: string; arguments: string } },
        ) => ({
          name: c.function.name,
          arguments: JSON.parse(c.function.arguments),
        }));
        assertEquals(calls, sample.calls, dialect);
      }
    },
    "calls shown in an indented code block are text, never run": async () => {
      const cmd = '{"command": "echo RAN > ran.txt"}';
      const answers = [
        `Hermes output:\n\n    <tool_call>{"name": "bash", "arguments": ${cmd}}</tool_call>\n`,
        `Llama:\n\n    <|python_tag|>{"name": "bash", "parameters": ${cmd}}\n`,
        `Mistral:\n\n\t[TOOL_CALLS]bash[ARGS]${cmd}\n`,
        "GLM:\n\n    <tool_call>bash\n    <arg_key>command</arg_key>\n" +
        "    <arg_value>echo RAN > ran.txt</arg_value>\n    </tool_call>\n",
      ];
      for (const [i, text] of answers.entries()) {
        const model = `shown-${i}`;
        server.script(model, [{ text, chunkSize: 5 }, { text: "Ran." }]);
        const dir = await dirFor(model);
        const run = await runMM(["-p", "go"], { cwd: dir });
        assertEquals([run.code, run.stdout], [0, text.trimEnd() + "\n"], run.stderr);
        assertEquals(server.chats(model).length, 1, text);
        assertEquals(run.stderr.includes("bash:"), false, run.stderr);
        assertEquals(await exists(`${dir}/ran.txt`), false, text);
      }
    },
    "a JSON answer repeating itself prints whole; with structuredOutput too": async () => {
      const zeros = `[${Array(200).fill(0).join(", ")}]`;
      const grid = `{"grid":[${Array(300).fill(0).join(",")}]}`;
      server.script("zeros", [{ text: zeros, chunkSize: 4 }]);
      server.script("grid", [{ text: grid, chunkSize: 4 }]);
      const plain = await runMM(["-p", "zeros"], { cwd: await dirFor("zeros") });
      assertEquals([plain.code, plain.stdout], [0, zeros + "\n"], plain.stderr);
      const schema = "structuredOutput:\n  type: object\n";
      const structured = await runMM(["-p", "grid"], { cwd: await dirFor("grid", schema) });
      assertEquals([structured.code, structured.stdout], [0, grid + "\n"], structured.stderr);
      assertEquals(server.chats("grid")[0].body.response_format?.type, "json_schema");
    },
  });
  await server.close();
});
