/** ask_user through the real `mm -p`: nobody can be asked in one-shot mode. */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { ASK_USER_SCHEMA, NOBODY_TEXT } from "../../tools/ask_user.ts";

const server = ScriptedServer.start();

/** A working directory whose agent file points at the scripted server with `model`. */
function dirFor(model: string, extra = ""): Promise<string> {
  return workdir(`url: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** The tools declared in the first chat request for `model`. */
// deno-lint-ignore no-explicit-any
function declared(model: string): any[] {
  return server.chats(model)[0].body.tools ?? [];
}

Deno.test("ask_user end to end", async (t) => {
  await runCases(t, {
    "one-shot: the model reads the nobody text and goes on": async () => {
      server.script("ask-nobody", [
        {
          toolCalls: [{
            name: "ask_user",
            arguments: {
              questions: [{ question: "Which branch?", type: "choice", options: ["main", "dev"] }],
            },
          }],
          chunkSize: 7,
        },
        { text: "I assumed main." },
      ]);
      const run = await runMM(["-p", "deploy"], { cwd: await dirFor("ask-nobody") });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, "I assumed main.\n");
      assertStringIncludes(run.stderr, "❓ ask_user: 1 question(s)\n");
      // deno-lint-ignore no-explicit-any
      const tools = server.chats("ask-nobody")[1].body.messages.filter((m: any) =>
        m.role === "tool"
      );
      assertEquals(tools.map((m: { content: string }) => m.content), [NOBODY_TEXT]);
    },
    "one-shot: a single question at the top level, and an error text, reach the model":
      async () => {
        server.script("ask-flat", [
          {
            toolCalls: [
              { name: "ask_user", arguments: { question: "Proceed?", type: "yesno" } },
              {
                name: "ask_user",
                arguments: { questions: [{ question: "Pick", options: ["a"] }] },
              },
            ],
          },
          { text: "ok" },
        ]);
        const run = await runMM(["-p", "go"], { cwd: await dirFor("ask-flat") });
        assertEquals(run.code, 0, run.stderr);
        // deno-lint-ignore no-explicit-any
        const tools = server.chats("ask-flat")[1].body.messages.filter((m: any) =>
          m.role === "tool"
        );
        assertEquals(tools.map((m: { content: string }) => m.content), [
          NOBODY_TEXT,
          "[ask_user: question 1 is a choice question — give it at least two options]",
        ]);
      },
    "declared by default, its question items without properties": async () => {
      server.script("ask-declared", [{ text: "hi" }]);
      const run = await runMM(["-p", "x"], { cwd: await dirFor("ask-declared") });
      assertEquals(run.code, 0, run.stderr);
      const tool = declared("ask-declared").find((d) => d.function.name === "ask_user");
      assertEquals(tool?.function.parameters, ASK_USER_SCHEMA);
      assertEquals(tool.function.parameters.properties.questions.items, { type: "object" });
      assertEquals("properties" in tool.function.parameters.properties.questions.items, false);
    },
    "not declared with askUserTool: false": async () => {
      server.script("ask-off", [{ text: "hi" }]);
      const run = await runMM(["-p", "x"], {
        cwd: await dirFor("ask-off", "askUserTool: false\n"),
      });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(declared("ask-off").some((d) => d.function.name === "ask_user"), false);
      assertEquals(declared("ask-off").some((d) => d.function.name === "bash"), true);
    },
    "not declared beside a structuredOutput": async () => {
      server.script("ask-structured", [{ text: '{"answer": "hi"}' }]);
      const run = await runMM(["-p", "x"], {
        cwd: await dirFor(
          "ask-structured",
          "structuredOutput:\n  type: object\n  properties:\n    answer: {type: string}\n",
        ),
      });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(declared("ask-structured").some((d) => d.function.name === "ask_user"), false);
    },
  });
  await server.close();
});
