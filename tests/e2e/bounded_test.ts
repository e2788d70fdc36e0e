/**
 * What mm reads no more of (lib/bounded/limits.ts), through the real `mm -p` against the scripted
 * server: a 100 MB line, a 40 MB answer, a 40 MB body end the run in seconds with one sentence
 * naming the limit and the server, and mm never holds them; an MCP server's 40 MB answer is an
 * error the model reads.
 */

import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { faultYaml } from "../helpers/mcp/servers.ts";

const server = ScriptedServer.start();
const MB = 1_000_000;

/** Runs `mm -p hi` for `model` and returns its run and how long it took. */
async function run(yaml: string) {
  const dir = await workdir(yaml);
  const began = performance.now();
  const result = await runMM(["-p", "hi"], { cwd: dir });
  return { ...result, seconds: (performance.now() - began) / 1000 };
}

/** The last line of stderr, which must be the only `mm:` line. */
function sentence(stderr: string): string {
  const lines = stderr.trimEnd().split("\n").filter((l) => l.startsWith("mm: "));
  assertEquals(lines.length, 1, stderr.slice(-2000));
  return lines[0];
}

Deno.test("bounded reading of a model server", async (t) => {
  await runCases(t, {
    "a 100 MB event-stream line: one sentence naming the 8 MiB limit, in seconds": async () => {
      server.script("huge-line", [{ huge: "line", bytes: 100 * MB }]);
      const r = await run(`provider: llamacpp\nurl: ${server.url}\nmodel: huge-line\n`);
      assertEquals([r.code, r.stdout], [1, ""]);
      assertEquals(
        sentence(r.stderr),
        `mm: the llamacpp server at ${server.url} sent a line of more than 8 MiB for "huge-line", mm's limit — mm stopped reading it: look at the server's log: a model server does not send that much at once`,
      );
      if (r.seconds > 30) throw new Error(`took ${r.seconds} s`);
    },
    "a 40 MB streamed answer: the 32 MiB limit of an answer": async () => {
      server.script("huge-answer", [{ huge: "answer", bytes: 40 * MB }]);
      const r = await run(`provider: llamacpp\nurl: ${server.url}\nmodel: huge-answer\n`);
      assertEquals([r.code, r.stdout], [1, ""]);
      assertMatch(
        sentence(r.stderr),
        /^mm: the llamacpp server at .* sent an answer of more than 32 MiB for "huge-answer", mm's limit — mm stopped reading it: set `maxTokens`/,
      );
      // What was said before the failure is shown up to 64 KiB, the rest counted, not printed.
      if (r.stderr.length > 100_000) throw new Error(`stderr of ${r.stderr.length} characters`);
      assertMatch(r.stderr, /\n… \d+ more characters not shown\nmm: /);
    },
    "a 40 MB completion that is not streamed: the 32 MiB limit of a body": async () => {
      server.script("huge-body", [{ huge: "body", bytes: 40 * MB }]);
      const r = await run(`provider: llamacpp\nurl: ${server.url}\nmodel: huge-body\n`);
      assertEquals([r.code, r.stdout], [1, ""]);
      assertMatch(
        sentence(r.stderr),
        /sent a body of more than 32 MiB for "huge-body", mm's limit/,
      );
    },
    "Ollama's native API: a 100 MB NDJSON line": async () => {
      server.script("huge-ndjson", [{ huge: "line", bytes: 100 * MB }]);
      const r = await run(
        `provider: ollama\nurl: ${server.url}\nmodel: huge-ndjson\ncontextSize: 8192\n`,
      );
      assertEquals([r.code, r.stdout], [1, ""]);
      assertMatch(
        sentence(r.stderr),
        /^mm: the ollama server at .* sent a line of more than 8 MiB for "huge-ndjson", mm's limit/,
      );
      assertEquals(server.nativeChats("huge-ndjson").length, 1);
    },
    "an MCP server answering 40 MB over stdio: the model reads the error, the next call works":
      async () => {
        server.script("huge-mcp", [
          { toolCalls: [{ name: "fault_big", arguments: { bytes: 40 * MB } }] },
          { toolCalls: [{ name: "fault_add", arguments: { a: 1, b: 2 } }] },
          { text: "done" },
        ]);
        const r = await run(
          `url: ${server.url}\nmodel: huge-mcp\nmcpServers:\n  fault: ${
            faultYaml({ FAULT_BIG: "1" }, "timeout: 60s")
          }\n`,
        );
        assertEquals([r.code, r.stdout], [0, "done\n"], r.stderr.slice(-2000));
        const outputs = server.toolOutputs("huge-mcp");
        assertEquals(outputs, [
          "[error: fault refused the call: its answer is larger than 32 MiB, more than mm reads, and was not read — ask for less (a narrower query, a smaller range)]",
          "3",
        ]);
      },
  }, 2);
});

globalThis.addEventListener("unload", () => server.close());
