/** The real `mm -p` against the scripted server: each provider's endpoints, and every failure sentence. */

import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = await ScriptedServer.start();
const single = await ScriptedServer.start();
single.models = ["only-model"];
const several = await ScriptedServer.start();
several.models = ["alpha", "beta"];
const empty = await ScriptedServer.start();
empty.models = [];
/** A loopback port nothing listens on. */
const closedPort = (() => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
})();
const downURL = `http://127.0.0.1:${closedPort}`;

/** Asserts one line on stderr, no stack trace, exit 1. */
function assertOneSentence(run: { code: number; stderr: string; stdout: string }) {
  assertEquals(run.code, 1, run.stderr);
  assertEquals(run.stdout, "");
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
  assertEquals(/\bat .*:\d+:\d+/.test(run.stderr), false, run.stderr);
}

Deno.test("providers", async (t) => {
  await runCases(t, {
    "each provider's chat endpoint": async () => {
      const cases: [string, string, string][] = [
        ["ollama", server.url, "/v1/chat/completions"],
        ["llmman", server.url, "/v1/chat/completions"],
        ["llamacpp", server.url, "/v1/chat/completions"],
        ["dmr", server.url, "/engines/v1/chat/completions"],
        ["openai", `${server.url}/v1`, "/v1/chat/completions"],
      ];
      for (const [provider, url, path] of cases) {
        const model = `endpoint-${provider}`;
        server.script(model, [{ text: `hello from ${provider}` }]);
        const dir = await workdir(`provider: ${provider}\nurl: ${url}\nmodel: ${model}\n`);
        const run = await runMM(["-p", "hi"], { cwd: dir });
        assertEquals(run.stdout, `hello from ${provider}\n`, run.stderr);
        assertEquals(server.chats(model)[0].path, path);
      }
    },
    "each provider's model list when the model is picked": async () => {
      const cases: [string, string, string][] = [
        ["ollama", single.url, "/api/tags"],
        ["llamacpp", single.url, "/v1/models"],
        ["dmr", single.url, "/engines/v1/models"],
        ["openai", `${single.url}/v1`, "/v1/models"],
      ];
      for (const [provider, url, path] of cases) {
        single.script("only-model", [{ text: "picked" }]);
        const before = single.requests.length;
        const dir = await workdir(`provider: ${provider}\nurl: ${url}\n`);
        const run = await runMM(["-p", "hi"], { cwd: dir });
        assertEquals(run.stdout, "picked\n", run.stderr);
        assertEquals(single.requests[before].path, path);
        // After the list (and the side requests that learn the context window), the chat.
        const chat = single.requests.slice(before + 1).find((r) => r.path.endsWith("/completions"));
        assertEquals(chat?.body.model, "only-model");
      }
    },
    "several models and none chosen": async () => {
      const dir = await workdir(`provider: llamacpp\nurl: ${several.url}\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertStringIncludes(
        run.stderr,
        `no model chosen and the llamacpp server at ${several.url} lists 2: alpha, beta — set \`model\` in the agent file or pass --model`,
      );
    },
    "no model at all on the server": async () => {
      const dir = await workdir(`url: ${empty.url}\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertStringIncludes(run.stderr, "lists no model — pull one with `ollama pull <model>`");
    },
    "--model, --provider and --url override the agent file": async () => {
      server.script("from-flag", [{ text: "flagged" }]);
      const dir = await workdir(`provider: ollama\nurl: http://127.0.0.1:1\nmodel: nope\n`);
      const run = await runMM(
        ["-p", "hi", "--provider", "dmr", "--url", server.url, "--model", "from-flag"],
        { cwd: dir },
      );
      assertEquals(run.stdout, "flagged\n", run.stderr);
      assertEquals(server.chats("from-flag")[0].path, "/engines/v1/chat/completions");
    },
    "the server is down": async () => {
      const dir = await workdir(`url: ${downURL}\nmodel: m\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertMatch(
        run.stderr,
        new RegExp(
          `^mm: cannot reach the ollama server at ${downURL} \\(nothing listens on 127\\.0\\.0\\.1:${closedPort}\\) — start it with \`ollama serve\`, or set \`url\` in the agent file\n$`,
        ),
      );
    },
    "the server is down while listing models": async () => {
      const dir = await workdir(`provider: llamacpp\nurl: ${downURL}\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertStringIncludes(
        run.stderr,
        `cannot reach the llamacpp server at ${downURL} (nothing listens on 127.0.0.1:${closedPort})`,
      );
      assertStringIncludes(run.stderr, "start it with `llama-server -m <model.gguf>`");
    },
    "the model is missing": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: qwen-missing\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertEquals(
        run.stderr,
        `mm: the model "qwen-missing" is not available on the ollama server at ${server.url} (model "qwen-missing" not found, try pulling it first) — pull it with \`ollama pull qwen-missing\`\n`,
      );
    },
    "an HTTP 500 carries the server's own message": async () => {
      server.script("five-hundred", [{
        status: 500,
        body: { error: { message: "CUDA out of memory" } },
      }]);
      const dir = await workdir(`url: ${server.url}\nmodel: five-hundred\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertEquals(
        run.stderr,
        `mm: the ollama server at ${server.url} answered HTTP 500 for "five-hundred": CUDA out of memory — the server failed: try again, or look at its log\n`,
      );
    },
    "an HTTP 401 says to check the key": async () => {
      server.script("unauthorised", [{ status: 401, body: { error: { message: "bad key" } } }]);
      const dir = await workdir(`provider: openai\nurl: ${server.url}/v1\nmodel: unauthorised\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertOneSentence(run);
      assertStringIncludes(
        run.stderr,
        'answered HTTP 401 for "unauthorised": bad key — check `apiKey` or $MM_API_KEY',
      );
    },
    "a context overflow on llama.cpp names a -c that fits the prompt its refusal measured":
      async () => {
        // The body of tests/fixtures/llama-server/exceed-context.http.
        server.script("overflow", [{
          status: 400,
          body: {
            error: {
              code: 400,
              message:
                "request (6030 tokens) exceeds the available context size (2048 tokens), try increasing it",
              type: "exceed_context_size_error",
              n_prompt_tokens: 6030,
              n_ctx: 2048,
            },
          },
        }]);
        const dir = await workdir(`provider: llamacpp\nurl: ${server.url}\nmodel: overflow\n`);
        const run = await runMM(["-p", "hi"], { cwd: dir });
        assertOneSentence(run);
        assertEquals(
          run.stderr,
          `mm: the conversation no longer fits the context window of "overflow" at ${server.url} (request (6030 tokens) exceeds the available context size (2048 tokens), try increasing it) — restart llama-server with \`-c 8192\` (it runs the model with 2048 tokens, the prompt needs 6030), or send a shorter prompt\n`,
        );
      },
    "a connection dropped mid-stream": async () => {
      server.script("dropper", [{ drop: true, text: "Once upon" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: dropper\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      // What came before the drop is shown, as said, then the one sentence; no answer on stdout.
      assertEquals([run.code, run.stdout], [1, ""]);
      assertStringIncludes(
        run.stderr,
        `Once upon\nmm: the connection to the ollama server at ${server.url} dropped while "dropper" was answering (`,
      );
    },
    "the API key is sent as a bearer token, from the agent file or $MM_API_KEY": async () => {
      server.script("keyed", [{ text: "a" }, { text: "b" }]);
      const dir = await workdir(
        `provider: openai\nurl: ${server.url}/v1\nmodel: keyed\napiKey: sk-file\n`,
      );
      await runMM(["-p", "hi"], { cwd: dir });
      const dir2 = await workdir(`provider: openai\nurl: ${server.url}/v1\nmodel: keyed\n`);
      await runMM(["-p", "hi"], { cwd: dir2, env: { MM_API_KEY: "sk-env" } });
      const [a, b] = server.chats("keyed");
      assertEquals(a.headers.get("authorization"), "Bearer sk-file");
      assertEquals(b.headers.get("authorization"), "Bearer sk-env");
      assertMatch(a.headers.get("user-agent") ?? "", /^mm\/\d+\.\d+\.\d+/);
    },
    "sampling options reach the server": async () => {
      server.script("sampled", [{ text: "ok" }]);
      const dir = await workdir(
        `url: ${server.url}\nmodel: sampled\ntemperature: 0.2\ntopP: 0.9\nmaxTokens: 256\n`,
      );
      await runMM(["-p", "hi"], { cwd: dir });
      const body = server.chats("sampled")[0].body;
      assertEquals([body.temperature, body.top_p, body.max_tokens, body.stream], [
        0.2,
        0.9,
        256,
        true,
      ]);
    },
  });
  await Promise.all([server.close(), single.close(), several.close(), empty.close()]);
});
