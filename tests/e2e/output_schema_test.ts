/**
 * `mm -p --output-schema FILE` (and `outputSchema` of the agent file): the answer checked against a
 * JSON Schema, sent back once when it is off, the server asked for the format where it takes it
 * (and asked again without it when it refuses it beside tools, as llama-server may); `--timeout`.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

const SCHEMA = {
  type: "object",
  properties: { verdict: { enum: ["pass", "fail"] }, count: { type: "integer" } },
  required: ["verdict", "count"],
};

/** A working directory for `provider` at the scripted server with `model`, and the schema file. */
async function project(model: string, provider = "openai", extra = ""): Promise<string> {
  const dir = await workdir(`provider: ${provider}\nurl: ${server.url}\nmodel: ${model}\n${extra}`);
  await Deno.writeTextFile(`${dir}/schema.json`, JSON.stringify(SCHEMA));
  return dir;
}

/** The JSON events of a `--json` run. */
// deno-lint-ignore no-explicit-any
function events(stdout: string): any[] {
  return stdout.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("--output-schema", async (t) => {
  await runCases(t, {
    "a valid answer: stdout holds exactly the JSON; the server is asked for the format":
      async () => {
        server.script("s-valid", [{ text: '```json\n{"verdict": "pass",\n "count": 2}\n```' }]);
        const dir = await project("s-valid");
        const run = await runMM(["-p", "judge", "--output-schema", "schema.json"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, '{"verdict":"pass","count":2}\n');
        assertEquals(server.chats("s-valid")[0].body.response_format, {
          type: "json_schema",
          json_schema: { name: "answer", schema: SCHEMA },
        });
      },
    "an invalid answer is sent back once with its errors; the second is the answer": async () => {
      server.script("s-retry", [
        { text: '{"verdict": "maybe", "count": 2}' },
        { text: '{"verdict": "fail", "count": 2}' },
      ]);
      const dir = await project("s-retry");
      const run = await runMM(["-p", "judge", "--output-schema", "schema.json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, '{"verdict":"fail","count":2}\n');
      const chats = server.chats("s-retry");
      assertEquals(chats.length, 2);
      assertEquals(
        chats[1].body.messages.at(-1),
        {
          role: "user",
          content:
            "Your answer does not follow the required JSON Schema: /verdict: must be equal " +
            'to one of the allowed values (["pass","fail"]). Answer again with only the corrected ' +
            "JSON, nothing else.",
        },
      );
      assertStringIncludes(run.stderr, "the answer does not follow the output schema (/verdict");
    },
    "still invalid after the retry: exit 1 naming the errors, nothing on stdout": async () => {
      server.script("s-bad", [{ text: "pass, 2" }, { text: '{"verdict": "pass"}' }]);
      const dir = await project("s-bad");
      const run = await runMM(["-p", "judge", "--output-schema", "schema.json"], { cwd: dir });
      assertEquals(run.code, 1);
      assertEquals(run.stdout, "");
      assertStringIncludes(
        run.stderr,
        "[error: the answer does not follow the output schema: the answer: must have required " +
          "property 'count']",
      );
      assertEquals(server.chats("s-bad").length, 2);
    },
    "--json: the final event carries the JSON": async () => {
      server.script("s-json", [{ text: '{"verdict":"pass","count":1}' }]);
      const dir = await project("s-json");
      const run = await runMM(
        ["-p", "judge", "--json", "--output-schema", "schema.json"],
        { cwd: dir },
      );
      assertEquals(run.code, 0, run.stderr);
      const all = events(run.stdout);
      assertEquals(all.map((e) => e.type), ["turn_start", "text", "usage", "recap", "answer"]);
      assertEquals(all.at(-1), {
        type: "answer",
        text: '{"verdict":"pass","count":1}',
        json: { verdict: "pass", count: 1 },
      });
    },
    "outputSchema in the agent file, and structuredOutput its old name": async () => {
      for (const key of ["outputSchema", "structuredOutput"]) {
        const model = `s-key-${key}`;
        server.script(model, [{ text: '{"verdict":"x"}' }, { text: '{"verdict":"x"}' }]);
        const dir = await project(model, "openai", `${key}: ${JSON.stringify(SCHEMA)}\n`);
        const run = await runMM(["-p", "judge"], { cwd: dir });
        assertEquals(run.code, 1, key);
        assertStringIncludes(run.stderr, "[error: the answer does not follow the output schema");
      }
    },
    "a schema file that is not JSON, or not a schema: exit 2 before any request": async () => {
      const dir = await project("s-never");
      await Deno.writeTextFile(`${dir}/bad.json`, "{type: object");
      await Deno.writeTextFile(`${dir}/odd.json`, '{"type": "objekt"}');
      const notJson = await runMM(["-p", "x", "--output-schema", "bad.json"], { cwd: dir });
      assertEquals(notJson.code, 2);
      assertStringIncludes(notJson.stderr, "--output-schema bad.json: the file is not JSON (");
      const notSchema = await runMM(["-p", "x", "--output-schema", "odd.json"], { cwd: dir });
      assertEquals(notSchema.code, 2);
      assertStringIncludes(notSchema.stderr, "--output-schema odd.json: not a JSON Schema (");
      const missing = await runMM(["-p", "x", "--output-schema", "none.json"], { cwd: dir });
      assertEquals(missing.code, 2);
      assertStringIncludes(missing.stderr, "--output-schema none.json: the file cannot be read");
      const bad = await project("s-never", "openai", "outputSchema: {type: objekt}\n");
      const fromFile = await runMM(["-p", "x"], { cwd: bad });
      assertEquals(fromFile.code, 2);
      assertStringIncludes(fromFile.stderr, "not a JSON Schema (");
      assertEquals(server.chats("s-never").length, 0);
    },
    "--output-schema without -p is a usage error": async () => {
      const dir = await project("s-none");
      const run = await runMM(["--ask", "x", "hi", "--output-schema", "schema.json"], { cwd: dir });
      assertEquals(run.code, 2);
      assertStringIncludes(run.stderr, "--output-schema goes with -p");
    },
    "llama-server refuses response_format beside tools: asked again without it, checked":
      async () => {
        server.script("s-llama", [
          { fixture: "response-format-with-tools" },
          { text: '{"verdict":"pass"}' },
          { text: '{"verdict":"pass","count":4}' },
        ]);
        const dir = await project("s-llama", "llamacpp");
        const run = await runMM(["-p", "judge", "--output-schema", "schema.json"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, '{"verdict":"pass","count":4}\n');
        const chats = server.chats("s-llama");
        assertEquals(chats.length, 3);
        assertEquals(chats[0].body.tools.length > 0, true);
        assertEquals(chats[0].body.response_format?.type, "json_schema");
        // Once refused, never sent again: the retry and the correction go without it.
        assertEquals(chats.slice(1).map((c) => c.body.response_format), [undefined, undefined]);
      },
  });
});

Deno.test("--timeout", async (t) => {
  await runCases(t, {
    "the whole run stopped: exit 124, the last JSON event says so": async () => {
      server.script("t-hang", [{ hang: true }]);
      const dir = await project("t-hang");
      const run = await runMM(["-p", "wait", "--json", "--timeout", "1500ms"], { cwd: dir });
      assertEquals(run.code, 124, run.stderr);
      assertEquals(events(run.stdout).at(-1), {
        type: "error",
        message: "[error: the run took longer than --timeout 1500ms — stopped]",
        where: "generation",
      });
    },
    "a run within its time is not touched": async () => {
      server.script("t-fast", [{ text: "done" }]);
      const dir = await project("t-fast");
      const run = await runMM(["-p", "go", "--timeout", "1m"], { cwd: dir });
      assertEquals([run.code, run.stdout], [0, "done\n"]);
    },
    "a bad duration is a usage error": async () => {
      const dir = await project("t-none");
      const run = await runMM(["-p", "go", "--timeout", "soon"], { cwd: dir });
      assertEquals(run.code, 2);
      assertStringIncludes(
        run.stderr,
        '--timeout takes a duration like 90s, 10m or 1h, not "soon"',
      );
    },
  });
});

Deno.test("close the scripted server", async () => await server.close());
