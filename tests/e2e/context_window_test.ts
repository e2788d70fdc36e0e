/**
 * The context window through the real `mm`: Ollama's native API with `num_ctx` when `contextSize`
 * is set (a tool call included), the window `--json` reports (Ollama, llama.cpp's `/props`), the
 * line-mode banner, and the switch from the OpenAI endpoint when Ollama's default is too small.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, type MMRun, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();
server.show["cw-auto"] = {
  model_info: { "general.architecture": "qwen2", "qwen2.context_length": 131072 },
};
const llama = ScriptedServer.start();
llama.models = ["cw-llama"];
llama.props = { default_generation_settings: { n_ctx: 16384 } };

// deno-lint-ignore no-explicit-any
function events(run: MMRun): any[] {
  return run.stdout.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("context window", async (t) => {
  await runCases(t, {
    "ollama with contextSize: /api/chat with num_ctx, a tool call runs, the answer printed":
      async () => {
        server.script("cw-native", [
          { toolCalls: [{ name: "bash", arguments: { command: "echo from-bash" } }] },
          { text: "It printed from-bash." },
        ]);
        const dir = await workdir(
          `provider: ollama\nurl: ${server.url}\nmodel: cw-native\ncontextSize: 8192\n`,
        );
        const run = await runMM(["-p", "run it"], { cwd: dir });
        assertEquals(run.stdout, "It printed from-bash.\n", run.stderr);
        assertEquals(run.code, 0);
        assertStringIncludes(run.stderr, "bash: echo from-bash\n");
        const sent = server.nativeChats("cw-native");
        assertEquals(sent.map((r) => r.body.options.num_ctx), [8192, 8192]);
        assertEquals(server.chats("cw-native"), []);
        // The history goes back in Ollama's shape: arguments as an object, the result named.
        const [, , assistant, tool] = sent[1].body.messages;
        assertEquals(assistant.tool_calls, [
          { function: { name: "bash", arguments: { command: "echo from-bash" } } },
        ]);
        assertEquals([tool.role, tool.tool_name, tool.content.trim()], [
          "tool",
          "bash",
          "from-bash",
        ]);
      },
    "--json: turn_start reports the window and the API": async () => {
      server.script("cw-json", [{ text: "ok" }]);
      const dir = await workdir(
        `provider: ollama\nurl: ${server.url}\nmodel: cw-json\ncontextSize: 16384\n`,
      );
      const run = await runMM(["-p", "hi", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const start = events(run)[0];
      assertEquals([start.type, start.contextWindow, start.chatAPI], [
        "turn_start",
        16384,
        "ollama",
      ]);
    },
    "--json: llama.cpp's /props window": async () => {
      llama.script("cw-llama", [{ text: "ok" }]);
      const dir = await workdir(`provider: llamacpp\nurl: ${llama.url}\n`);
      const run = await runMM(["-p", "hi", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const start = events(run)[0];
      assertEquals([start.contextWindow, start.chatAPI], [16384, "openai"]);
      assertEquals(llama.chats("cw-llama").length, 1);
    },
    "--json: an unknown window is null": async () => {
      server.script("cw-unknown", [{ text: "ok" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: cw-unknown\n`);
      const run = await runMM(["-p", "hi", "--json"], { cwd: dir });
      const start = events(run)[0];
      assertEquals([start.contextWindow, start.chatAPI], [null, "openai"]);
      assertEquals(server.chats("cw-unknown").length, 1);
    },
    "ollama's default below the model's maximum: auto, up to 32768": async () => {
      server.script("cw-auto", [{ text: "ok" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: cw-auto\n`);
      const run = await runMM(["-p", "hi", "--json"], { cwd: dir });
      const start = events(run)[0];
      assertEquals([start.contextWindow, start.chatAPI], [32768, "auto"]);
      // A short conversation fits Ollama's default: the OpenAI endpoint, no num_ctx.
      assertEquals(server.chats("cw-auto").length, 1, run.stderr);
      assertEquals(server.nativeChats("cw-auto"), []);
    },
    "auto: a conversation that outgrows Ollama's default goes on through /api/chat": async () => {
      server.show["cw-grow"] = server.show["cw-auto"];
      server.script("cw-grow", [
        { toolCalls: [{ name: "bash", arguments: { command: "seq 1 3000" } }] },
        { text: "counted" },
      ]);
      const dir = await workdir(`url: ${server.url}\nmodel: cw-grow\n`);
      const run = await runMM(["-p", "count"], { cwd: dir });
      assertEquals(run.stdout, "counted\n", run.stderr);
      // The first request fits 4096 tokens; with 14 KB of output the second does not.
      assertEquals(server.chats("cw-grow").length, 1);
      const native = server.nativeChats("cw-grow");
      assertEquals(native.length, 1);
      const numCtx = native[0].body.options.num_ctx;
      assertEquals([8192, 16384].includes(numCtx), true, `num_ctx ${numCtx}`);
      assertEquals(native[0].body.messages.at(-1).tool_name, "bash");
    },
    "line mode: the banner shows the window and the path": async () => {
      server.script("cw-line", [{ text: "line answer" }]);
      const dir = await workdir(
        `provider: ollama\nurl: ${server.url}\nmodel: cw-line\ncontextSize: 8192\n`,
      );
      const term = await Terminal.start(
        [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
        { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
      );
      try {
        const screen = await term.waitFor("Ctrl-D quits.");
        assertStringIncludes(
          screen,
          "context: 8192 tokens (contextSize) · chat: Ollama's native /api/chat with num_ctx 8192\n",
        );
        await term.type("hello");
        await term.keys("Enter");
        await term.waitFor("line answer");
        assertEquals(server.nativeChats("cw-line")[0].body.options.num_ctx, 8192);
      } finally {
        await term.kill();
      }
    },
    "line mode: the banner names the OpenAI-compatible path": async () => {
      const dir = await workdir(`provider: llamacpp\nurl: ${llama.url}\n`);
      const term = await Terminal.start(
        [Deno.execPath(), "run", "--allow-all", "--no-config", "--quiet", MAIN],
        { cwd: dir, env: { HOME: dir, NO_COLOR: "1", DENO_DIR } },
      );
      try {
        const screen = await term.waitFor("Ctrl-D quits.");
        assertStringIncludes(
          screen,
          "context: 16384 tokens (llama-server's /props) · chat: OpenAI-compatible /v1/chat/completions\n",
        );
      } finally {
        await term.kill();
      }
    },
  });
  await server.close();
  await llama.close();
});
