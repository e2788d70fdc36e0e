/**
 * The real `mm -p` against what llama.cpp's server really sends (tests/fixtures/llama-server/,
 * answered byte for byte by the scripted server) and what proxies in front of it send: turns that
 * end well, and sentences that send the user the right way.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, workdir } from "../helpers/mm.ts";
import { STREAM_CUT_REASON, TRAILER_WAIT } from "../../lib/provider/chat.ts";
import { captured } from "../helpers/server/fixtures.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** An agent file for llama.cpp at the scripted server with `model`, and `extra` lines. */
function llamaFile(model: string, extra = ""): Promise<string> {
  return workdir(`provider: llamacpp\nurl: ${server.url}\nmodel: ${model}\n${extra}`);
}

/** One SSE event of a `chat.completion.chunk` with `delta` and `finish`. */
function sse(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** A raw reply: status, content type and body, exactly. */
function raw(status: number, type: string, body: string) {
  return { raw: { status, headers: { "content-type": type }, body } };
}

/** The JSON events of a `--json` run. */
function events(stdout: string): { type: string; message?: string; text?: string }[] {
  return stdout.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("llama-server", async (t) => {
  await runCases(t, {
    "an answer cut at maxTokens is kept and says so": async () => {
      server.script("cut-text", [{ fixture: "stream-length" }, { fixture: "stream-length" }]);
      const dir = await llamaFile("cut-text", "maxTokens: 2\n");
      const run = await runMM(["-p", "say hi"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.stdout, " Undroc\n");
      assertStringIncludes(run.stderr, "[warning: the answer was cut at maxTokens (2)]\n");
      const json = await runMM(["-p", "say hi", "--json"], { cwd: dir });
      assertEquals(json.code, 0, json.stderr);
      const warning = events(json.stdout).find((e) => e.type === "warning");
      assertEquals(warning?.message, "[warning: the answer was cut at maxTokens (2)]");
    },
    "a tool call cut at maxTokens ends the turn, and the history stays readable": async () => {
      const cutCall = sse({
        tool_calls: [{
          index: 0,
          id: "c1",
          type: "function",
          function: { name: "bash", arguments: '{"command": "' },
        }],
      }) + sse({}, "length") + "data: [DONE]\n\n";
      server.script("cut-call", [raw(200, "text/event-stream", cutCall), { text: "fine now" }]);
      const dir = await llamaFile("cut-call", "maxTokens: 8\nsessions:\n  enabled: true\n");
      const first = await runMM(["-p", "run it"], { cwd: dir });
      assertEquals(first.code, 1, first.stderr);
      assertStringIncludes(
        first.stderr,
        "[error: the model's tool call was cut at maxTokens (8) before it was complete — stopped; raise maxTokens in the agent file, or ask for a smaller step]",
      );
      // The next request resends the history: llama-server refuses arguments that are not JSON.
      const second = await runMM(["-p", "again", "--continue"], { cwd: dir });
      assertEquals([second.code, second.stdout], [0, "fine now\n"], second.stderr);
      const messages = server.chats("cut-call")[1].body.messages;
      assertEquals(messages[2].tool_calls[0].function.arguments, "{}");
      assertEquals(messages[3], {
        role: "tool",
        tool_call_id: "c1",
        content: "[error: not run: the call was cut at maxTokens (8)]",
      });
    },
    "repaired arguments are sent back repaired, never as the model broke them": async () => {
      server.script("repaired", [
        { toolCalls: [{ name: "bash", arguments: "{'command': 'echo ok',}" }] },
        { text: "done" },
      ]);
      const dir = await llamaFile("repaired");
      const run = await runMM(["-p", "go"], { cwd: dir });
      assertEquals([run.code, run.stdout], [0, "done\n"], run.stderr);
      const sent = server.chats("repaired")[1].body.messages[2].tool_calls[0].function.arguments;
      assertEquals(JSON.parse(sent), { command: "echo ok" });
    },
    "an empty answer fails with a sentence": async () => {
      server.script("empty", [{ text: "" }, { text: "" }]);
      const dir = await llamaFile("empty");
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertEquals([run.code, run.stdout], [1, ""]);
      assertStringIncludes(
        run.stderr,
        "[error: the model gave an empty answer (no text, no tool call) — try again, or rephrase the request]",
      );
      const json = await runMM(["-p", "hi", "--json"], { cwd: dir });
      assertEquals(json.code, 1);
      assertEquals(events(json.stdout).at(-1)?.type, "error");
    },
    "a server that ignores stream: its one JSON completion is the answer": async () => {
      const completion = JSON.stringify({
        object: "chat.completion",
        choices: [{
          index: 0,
          message: { role: "assistant", content: "whole answer" },
          finish_reason: "stop",
        }],
      });
      server.script("unstreamed", [raw(200, "application/json", completion)]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("unstreamed") });
      assertEquals([run.code, run.stdout], [0, "whole answer\n"], run.stderr);
    },
    "HTTP 200 with a proxy's login page: one sentence naming the URL and what came back":
      async () => {
        const page = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>…</body>";
        server.script("login", [raw(200, "text/html; charset=utf-8", page)]);
        const run = await runMM(["-p", "hi"], { cwd: await llamaFile("login") });
        assertEquals([run.code, run.stdout], [1, ""]);
        assertEquals(
          run.stderr,
          `mm: ${server.url}/v1/chat/completions answered HTTP 200 with text/html, starting "<!DOCTYPE html>", not a model's answer — check \`url\`: it must be the llamacpp server itself, not a proxy's or a login page\n`,
        );
      },
    "an error inside the stream is the server's error, after what it said": async () => {
      server.script("in-stream", [{ fixture: "in-stream-error" }]);
      const run = await runMM(["-p", "say hi"], { cwd: await llamaFile("in-stream") });
      assertEquals(run.code, 1);
      assertStringIncludes(
        run.stderr,
        `mm: the llamacpp server at ${server.url} failed while "in-stream" was answering: The model produced output that does not match the expected peg-native format — look at the server's log\n`,
      );
      assertEquals(run.stderr.includes("dropped"), false);
    },
    "a line of the stream that is not JSON is passed over, and nothing leaks": async () => {
      const body = sse({ role: "assistant", content: "" }) + "data: {not json\n\n" +
        sse({ content: "still fine" }) + sse({}, "stop") + "data: [DONE]\n\n";
      server.script("garbled", [raw(200, "text/event-stream", body)]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("garbled") });
      assertEquals([run.code, run.stdout, run.stderr], [0, "still fine\n", ""]);
    },
    "a stream that stops without its end (a proxy closed it) is a dropped answer, never run":
      async () => {
        const body = sse({ role: "assistant", content: "" }) + sse({ content: "Partial ans" });
        const call = sse({
          tool_calls: [{
            index: 0,
            id: "c1",
            type: "function",
            function: { name: "bash", arguments: '{"command":"touch RAN"}' },
          }],
        });
        server.script("stopped", [raw(200, "text/event-stream", body)]);
        server.script("stopped-call", [raw(200, "text/event-stream", call)]);
        const dir = await llamaFile("stopped");
        const run = await runMM(["-p", "say hi"], { cwd: dir });
        assertEquals([run.code, run.stdout], [1, ""]);
        assertStringIncludes(
          run.stderr,
          `dropped while "stopped" was answering (${STREAM_CUT_REASON}) — try again`,
        );
        const tool = await runMM(["-p", "go", "--model", "stopped-call"], { cwd: dir });
        assertEquals(tool.code, 1);
        assertEquals(await exists(`${dir}/RAN`), false, "a cut call never runs");
      },
    "a server that closes the connection on the request: it may have crashed, not 'start it'":
      async () => {
        // Reads each request and closes without a word, as a server that dies on it does.
        const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const serving = (async () => {
          for await (const conn of listener) {
            await conn.read(new Uint8Array(65_536)).catch(() => null);
            conn.close();
          }
        })();
        try {
          const url = `http://127.0.0.1:${listener.addr.port}/v1`;
          const dir = await workdir(`provider: openai\nurl: ${url}\nmodel: m\n`);
          const run = await runMM(["-p", "hi"], { cwd: dir });
          assertEquals(run.code, 1);
          assertStringIncludes(
            run.stderr,
            `closed the connection without answering "m" — it may have crashed on this request`,
          );
          assertEquals(run.stderr.includes("start it with"), false, run.stderr);
        } finally {
          listener.close();
          await serving.catch(() => {});
        }
      },
    "url written with /v1, as for an OpenAI client: the path is not doubled": async () => {
      server.script("with-v1", [{ text: "fine" }]);
      const dir = await workdir(`provider: llamacpp\nurl: ${server.url}/v1/\nmodel: with-v1\n`);
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertEquals([run.code, run.stdout], [0, "fine\n"], run.stderr);
      assertEquals(server.chats("with-v1").length, 1);
    },
    "an answer with its finish_reason is kept though the stream's trailer is late": async () => {
      // A slow proxy holds back the usage chunk and [DONE] after the answer has ended.
      const enc = new TextEncoder();
      const late = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        () =>
          new Response(
            new ReadableStream({
              async start(c) {
                c.enqueue(enc.encode(sse({ role: "assistant", content: "All done." }, "stop")));
                await new Promise((r) => setTimeout(r, TRAILER_WAIT + 3_000));
                try {
                  c.enqueue(enc.encode("data: [DONE]\n\n"));
                  c.close();
                } catch {
                  // mm went on without it.
                }
              },
            }),
            { headers: { "content-type": "text/event-stream" } },
          ),
      );
      try {
        const url = `http://127.0.0.1:${late.addr.port}/v1`;
        const dir = await workdir(
          `provider: openai\nurl: ${url}\nmodel: m\nwatchdogTimeout: ${TRAILER_WAIT / 1000 + 2}s\n`,
        );
        const run = await runMM(["-p", "hi"], { cwd: dir });
        assertEquals([run.code, run.stdout], [0, "All done.\n"], run.stderr);
      } finally {
        await late.shutdown();
      }
    },
    "tools without --jinja: a server setting, said so": async () => {
      server.script("no-jinja", [{ fixture: "no-jinja-tools" }]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("no-jinja") });
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm: the llamacpp server at ${server.url} answered HTTP 500 for "no-jinja": tools param requires --jinja flag — the server was started without its chat template's tool support: restart llama-server with \`--jinja\` (or without \`--no-jinja\`)\n`,
      );
    },
    "a model the router does not have: the models it serves": async () => {
      const router = ScriptedServer.start();
      try {
        router.models = ["call-bash", "tiny-text"];
        router.script("nope", [{ fixture: "router-unknown-model" }]);
        const dir = await workdir(`provider: llamacpp\nurl: ${router.url}\nmodel: nope\n`);
        const run = await runMM(["-p", "hi"], { cwd: dir });
        assertEquals(run.code, 1);
        assertEquals(
          run.stderr,
          `mm: the model "nope" is not available on the llamacpp server at ${router.url} (model 'nope' not found) — it serves "call-bash", "tiny-text": set \`model\` to one of them (a llama-server of one model names it by \`--alias\`, else by its \`-m\` path)\n`,
        );
      } finally {
        await router.close();
      }
    },
    "a router that does not load models by itself: how to load it": async () => {
      const notLoaded = {
        status: 400,
        body: {
          error: { code: 400, message: "model is not loaded", type: "invalid_request_error" },
        },
      };
      server.script("unloaded", [notLoaded]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("unloaded") });
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm: the model "unloaded" is not loaded on the llamacpp server at ${server.url} (model is not loaded) — load it with \`curl -X POST ${server.url}/models/load -d '{"model": "unloaded"}'\`, or start the router without \`--no-models-autoload\`\n`,
      );
    },
    "HTTP 429: mm waits as the server asks, then gives up with a sentence": async () => {
      const limited = { raw: { status: 429, headers: { "retry-after": "0" }, body: "slow down" } };
      server.script("limited", [limited, limited, { text: "at last" }]);
      const ok = await runMM(["-p", "hi"], { cwd: await llamaFile("limited") });
      assertEquals([ok.code, ok.stdout], [0, "at last\n"], ok.stderr);
      server.script("limited-more", [limited, limited, limited, limited]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("limited-more") });
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm: the llamacpp server at ${server.url} rate-limited "limited-more" (HTTP 429: slow down) 4 times in a row, waiting as it asked — try again later, or lower how often you call it\n`,
      );
      assertEquals(server.chats("limited-more").length, 4);
    },
    "an HTML error page: its first meaningful line, not the whole page": async () => {
      const page =
        `<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>${
          "<!-- padding -->".repeat(300)
        }</body></html>`;
      server.script("gateway", [raw(502, "text/html", page)]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("gateway") });
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm: the llamacpp server at ${server.url} answered HTTP 502 for "gateway": 502 Bad Gateway — the server failed: try again, or look at its log\n`,
      );
    },
    "unloading its own model in router mode: the turn goes on once the router says so":
      async () => {
        const router = ScriptedServer.start();
        try {
          router.router = true;
          router.models = ["self"];
          router.loaded = ["self"];
          router.script("self", [
            { toolCalls: [{ name: "unload_model", arguments: { model: "self" } }] },
            { text: "unloaded and still here" },
          ]);
          const dir = await workdir(`provider: llamacpp\nurl: ${router.url}\nmodel: self\n`);
          const run = await runMM(["-p", "free the memory"], { cwd: dir });
          assertEquals([run.code, run.stdout], [0, "unloaded and still here\n"], run.stderr);
          const paths = router.requests.map((r) => `${r.method} ${r.path}`);
          const unload = paths.indexOf("POST /models/unload");
          assertEquals(paths.slice(unload, unload + 3), [
            "POST /models/unload",
            "GET /v1/models",
            "POST /v1/chat/completions",
          ]);
        } finally {
          await router.close();
        }
      },
    "a model that says the same words over and over is stopped, in its answer": async () => {
      server.script("parrot", [{
        text: "I will check the file again. ".repeat(400),
        chunkSize: 16,
      }]);
      const run = await runMM(["-p", "check"], { cwd: await llamaFile("parrot") });
      assertEquals(run.code, 1);
      assertStringIncludes(
        run.stderr,
        '[error: the model kept repeating itself in its answer ("',
      );
      assertEquals(run.stdout, "");
    },
    "… and in its thinking": async () => {
      server.script("ruminant", [{
        thought: "Wait, let me reconsider. ".repeat(400),
        chunkSize: 16,
      }]);
      const run = await runMM(["-p", "think", "--json"], { cwd: await llamaFile("ruminant") });
      assertEquals(run.code, 1);
      const last = events(run.stdout).at(-1);
      assertEquals(last?.type, "error");
      assertStringIncludes(last?.message ?? "", "kept repeating itself in its thinking");
    },
    "a one-shot turn has a bound on its total time (turnTimeout)": async () => {
      server.script("forever", [{ hang: true }]);
      const run = await runMM(["-p", "hi"], {
        cwd: await llamaFile("forever", "turnTimeout: 1s\n"),
      });
      assertEquals([run.code, run.stdout], [1, ""]);
      assertStringIncludes(
        run.stderr,
        "[error: the turn ran longer than turnTimeout (1s) — stopped; raise turnTimeout in the agent file, or ask for a smaller step]",
      );
    },
    "a command that prints NUL bytes: the model reads one line about it": async () => {
      server.script("zeros", [
        { toolCalls: [{ name: "bash", arguments: { command: "head -c 6000 /dev/zero" } }] },
        { text: "it printed zeros" },
      ]);
      const run = await runMM(["-p", "go"], {
        cwd: await llamaFile("zeros", "contextSize: 4096\n"),
      });
      assertEquals([run.code, run.stdout], [0, "it printed zeros\n"], run.stderr);
      const tool = server.chats("zeros")[1].body.messages.at(-1);
      assertEquals(tool.content, "[binary output: 6000 bytes, not shown]");
    },
    "Ollama's native path (contextSize): the same waits and the same sentences": async () => {
      const file = (model: string) =>
        workdir(`provider: ollama\nurl: ${server.url}\nmodel: ${model}\ncontextSize: 8192\n`);
      const limited = {
        raw: {
          status: 429,
          headers: { "retry-after": "0" },
          body: '{"error":"too many requests"}',
        },
      };
      server.script("n-limited", [limited, limited, { text: "native at last" }]);
      const ok = await runMM(["-p", "hi"], { cwd: await file("n-limited") });
      assertEquals([ok.code, ok.stdout], [0, "native at last\n"], ok.stderr);
      assertEquals(server.nativeChats("n-limited").length, 3);
      server.script("n-html", [
        raw(503, "text/html", "<html><title>503 Service Unavailable</title></html>"),
      ]);
      const html = await runMM(["-p", "hi"], { cwd: await file("n-html") });
      assertStringIncludes(
        html.stderr,
        'answered HTTP 503 for "n-html": 503 Service Unavailable —',
      );
      server.script("n-over", [
        raw(400, "application/json", '{"error":"the input length exceeds the context length"}'),
      ]);
      const over = await runMM(["-p", "hi"], { cwd: await file("n-over") });
      assertStringIncludes(
        over.stderr,
        "(the input length exceeds the context length) — raise `contextSize` above 8192 (mm sends it to Ollama as num_ctx), or send a shorter prompt",
      );
    },
    "a call written as text and cut at maxTokens is a cut call, not an answer": async () => {
      const body =
        sse({ content: '<tool_call>\n{"name": "bash", "arguments": {"command": "echo te' }) +
        sse({}, "length") + "data: [DONE]\n\n";
      server.script("cut-text-call", [raw(200, "text/event-stream", body)]);
      const run = await runMM(["-p", "go"], {
        cwd: await llamaFile("cut-text-call", "maxTokens: 30\n"),
      });
      assertEquals([run.code, run.stdout], [1, ""]);
      assertStringIncludes(run.stderr, "[error: the model's tool call was cut at maxTokens (30)");
    },
    "the watchdog does not count the waits a 429 asks for": async () => {
      const limited = { raw: { status: 429, headers: { "retry-after": "2" }, body: "slow down" } };
      server.script("patient", [limited, { text: "waited" }]);
      const dir = await llamaFile("patient", "watchdogTimeout: 1s\n");
      const run = await runMM(["-p", "hi"], { cwd: dir });
      assertEquals([run.code, run.stdout], [0, "waited\n"], run.stderr);
    },
    "an event stream labelled text/plain is read all the same": async () => {
      const body = sse({ content: "mislabelled" }) + sse({}, "stop") + "data: [DONE]\n\n";
      server.script("mislabelled", [raw(200, "text/plain", body)]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("mislabelled") });
      assertEquals([run.code, run.stdout], [0, "mislabelled\n"], run.stderr);
    },
    "a call's name sent whole in every delta, calls with neither index nor id": async () => {
      const piece = (args: string) =>
        sse({ tool_calls: [{ index: 0, id: "q1", function: { name: "bash", arguments: args } }] });
      const repeated = piece('{"command": ') + piece('"echo named"') + piece("}") +
        sse({}, "tool_calls") + "data: [DONE]\n\n";
      const bare = (name: string | undefined, args: string) =>
        sse({ tool_calls: [{ function: { ...(name ? { name } : {}), arguments: args } }] });
      const twoBare = bare("bash", '{"command": "echo one"}') +
        bare("bash", '{"command": "echo two"}') +
        sse({}, "tool_calls") + "data: [DONE]\n\n";
      server.script("names", [
        raw(200, "text/event-stream", repeated),
        raw(200, "text/event-stream", twoBare),
        { text: "done" },
      ]);
      const run = await runMM(["-p", "go"], { cwd: await llamaFile("names") });
      assertEquals([run.code, run.stdout], [0, "done\n"], run.stderr);
      const tools = server.chats("names")[2].body.messages.filter((m: { role: string }) =>
        m.role === "tool"
      ).map((m: { content: string }) => m.content);
      assertEquals(tools, ["named\n", "one\n", "two\n"]);
    },
    "-p: what the model said before the server failed is shown, then the error": async () => {
      server.script("said-first", [{ fixture: "in-stream-error" }]);
      const run = await runMM(["-p", "say hi"], { cwd: await llamaFile("said-first") });
      assertEquals(run.code, 1);
      assertStringIncludes(run.stderr, "Hi\nmm: the llamacpp server at");
    },
    "a Python traceback, an event: error, a model still loading: the useful line": async () => {
      const trace =
        'Traceback (most recent call last):\n  File "x.py", line 1\nRuntimeError: CUDA out of memory';
      server.script("trace", [raw(500, "text/plain", trace)]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("trace") });
      assertStringIncludes(run.stderr, 'for "trace": RuntimeError: CUDA out of memory —');
      const failing = sse({ content: "partial" }) +
        'event: error\ndata: {"message":"Internal server error"}\n\n';
      server.script("event-error", [raw(200, "text/event-stream", failing)]);
      const ev = await runMM(["-p", "hi"], { cwd: await llamaFile("event-error") });
      assertEquals(ev.code, 1);
      assertStringIncludes(
        ev.stderr,
        'failed while "event-error" was answering: Internal server error',
      );
      const loading = ScriptedServer.start();
      try {
        loading.sideReplies["/v1/models"] = {
          status: 503,
          body: { error: { code: 503, message: "Loading model", type: "unavailable_error" } },
        };
        const dir = await workdir(`provider: llamacpp\nurl: ${loading.url}\n`);
        const list = await runMM(["-p", "hi"], { cwd: dir });
        assertStringIncludes(
          list.stderr,
          "Loading model — the server is still loading its model: wait a moment, then run mm again",
        );
      } finally {
        await loading.close();
      }
    },
    "a router restarting the model after an unload: the chat request is sent again": async () => {
      server.script("restarting", [{ fixture: "router-chat-right-after-unload" }, {
        text: "back",
      }]);
      const run = await runMM(["-p", "hi"], { cwd: await llamaFile("restarting") });
      assertEquals([run.code, run.stdout], [0, "back\n"], run.stderr);
      assertEquals(server.chats("restarting").length, 2);
    },
  });
  await server.close();
});

Deno.test("the fixtures are the captured bytes", () => {
  const c = captured("exceed-context");
  assertEquals(c.status, 400);
  assertEquals(
    c.body,
    '{"error":{"code":400,"message":"request (6030 tokens) exceeds the available context size (2048 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":6030,"n_ctx":2048}}',
  );
});
