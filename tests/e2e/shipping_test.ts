/**
 * Shipping, end to end: unload_model through the real `mm -p` against the scripted server playing
 * Ollama's and llama.cpp's side APIs; `mm doctor` and `mm init` against it and against nothing;
 * the permissions mm keeps and revokes; the compile flags; the install script on a fake release.
 */

import { fileURLToPath } from "node:url";
import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import {
  DENO_DIR,
  MAIN,
  type MMRun,
  runMM,
  sessionFiles,
  tempDir,
  workdir,
} from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { parseConfig } from "../../lib/config/load.ts";
import { PERMISSIONS } from "../../scripts/compile.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Plays Ollama (`/api/ps`, `/api/generate`) and llama.cpp in router mode (`/models/unload`). */
const server = ScriptedServer.start();
server.router = true;
/** A llama.cpp server started with one model: `/models/unload` answers 404. */
const single = ScriptedServer.start();
/** For mm doctor: one model, with its context in `/api/show`. */
const doctorOllama = ScriptedServer.start();
doctorOllama.models = ["doc-ok"];
doctorOllama.show = { "doc-ok": { model_info: { "qwen2.context_length": 32768 } } };
/** For mm doctor: a llama-server with a small context and a model that answers in text. */
const doctorLlama = ScriptedServer.start();
doctorLlama.models = ["lc"];
doctorLlama.props = { default_generation_settings: { n_ctx: 4096 } };
doctorLlama.sideReplies["/v1/models"] = {
  status: 200,
  body: { object: "list", data: [{ id: "lc", object: "model", meta: { n_ctx_train: 32768 } }] },
};
/** For mm init: a llama-server with two models, found by the probe. */
const initLlama = ScriptedServer.start();
initLlama.models = ["qwen-a", "qwen-b"];
initLlama.props = { default_generation_settings: { n_ctx: 32768 } };

/** An empty temporary directory (no agent file), removed at exit. */
const emptyDir = tempDir;

/** Loopback ports nothing listens on. */
function closedURL(): string {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return `http://127.0.0.1:${port}`;
}
const down = [closedURL(), closedURL(), closedURL()];

/** The tool messages of the `n`th chat request for `model`. */
function toolOutputs(s: ScriptedServer, model: string, n: number): string[] {
  return s.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

/** The names of the tools declared in the first chat request for `model`. */
function declared(model: string): string[] {
  // deno-lint-ignore no-explicit-any
  return (server.chats(model)[0].body.tools ?? []).map((t: any) => t.function.name);
}

const unloadCall = (args: Record<string, unknown>) => ({
  toolCalls: [{ name: "unload_model", arguments: args }],
});

/** The `--json` events of a run. */
// deno-lint-ignore no-explicit-any
function events(run: MMRun): any[] {
  return run.stdout.trim().split("\n").map((l) => JSON.parse(l));
}

/** Runs `deno <args>` in `cwd` and collects what it wrote. */
async function deno(args: string[], cwd: string, env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // MM_TRUST: the agent file a test writes is its own (tests/helpers/mm.ts).
    env: {
      NO_COLOR: "1",
      HOME: cwd,
      XDG_CONFIG_HOME: `${cwd}/.config`,
      XDG_STATE_HOME: `${cwd}/.local/state`,
      DENO_DIR,
      MM_TRUST: "1",
      ...env,
    },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Asserts that nothing crashed: no uncaught error, no stack trace. */
function assertNoCrash(run: MMRun) {
  assertEquals(/Uncaught|\bat .*:\d+:\d+/.test(run.stderr), false, run.stderr);
}

Deno.test("unload_model through mm -p", async (t) => {
  await runCases(t, {
    "ollama: a loaded model is unloaded — GET /api/ps, then POST /api/generate keep_alive 0":
      async () => {
        server.loaded.push("gemma3:4b");
        server.script("un-ollama", [unloadCall({ model: "gemma3:4b" }), { text: "freed" }]);
        const dir = await workdir(`url: ${server.url}\nmodel: un-ollama\n`);
        const run = await runMM(["-p", "free some memory"], { cwd: dir });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(run.stdout, "freed\n");
        assertStringIncludes(run.stderr, "🧹 unload_model: gemma3:4b\n   unloaded gemma3:4b\n");
        assertEquals(toolOutputs(server, "un-ollama", 1), ["unloaded gemma3:4b"]);
        const generate = server.requests.findIndex((r) =>
          r.path === "/api/generate" && r.body?.model === "gemma3:4b"
        );
        assertEquals(server.requests[generate].body, { model: "gemma3:4b", keep_alive: 0 });
        assertEquals(server.requests[generate].method, "POST");
        assertMatch(server.requests[generate].headers.get("user-agent") ?? "", /^mm\//);
        const ps = server.requests.findIndex((r) => r.path === "/api/ps");
        assertEquals(ps >= 0 && ps < generate, true, "GET /api/ps comes first");
        assertEquals(server.loaded.includes("gemma3:4b"), false);
      },
    "ollama: a model that is not loaded is never asked for (that would load it)": async () => {
      server.script("un-idle", [unloadCall({ model: "phi4:14b" }), { text: "nothing to do" }]);
      const dir = await workdir(`provider: llmman\nurl: ${server.url}\nmodel: un-idle\n`);
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs(server, "un-idle", 1), [
        "phi4:14b was not loaded: nothing to unload",
      ]);
      const asked = server.requests.filter((r) =>
        r.path === "/api/generate" && r.body?.model === "phi4:14b"
      );
      assertEquals(asked, []);
      assertEquals(server.loaded.includes("phi4:14b"), false);
    },
    "the agent's own model, never asked even with yolo: false": async () => {
      server.loaded.push("un-own");
      server.script("un-own", [unloadCall({}), { text: "done" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: un-own\nyolo: false\n`);
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(run.stderr, "🧹 unload_model: (own model)\n   unloaded un-own\n");
      assertEquals(toolOutputs(server, "un-own", 1), ["unloaded un-own"]);
    },
    "llamacpp in router mode: POST /models/unload": async () => {
      server.loaded.push("qwen-r");
      server.script("un-router", [unloadCall({ model: "qwen-r" }), { text: "ok" }]);
      const dir = await workdir(`provider: llamacpp\nurl: ${server.url}\nmodel: un-router\n`);
      const run = await runMM(["-p", "x"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(toolOutputs(server, "un-router", 1), ["unloaded qwen-r"]);
      const unload = server.requests.find((r) =>
        r.path === "/models/unload" && r.body?.model === "qwen-r"
      );
      assertEquals(unload?.body, { model: "qwen-r" });
    },
    "llamacpp with a single model: a failed call that gives the alternatives": async () => {
      single.script("un-single", [unloadCall({ model: "qwen-s" }), { text: "ok" }]);
      const dir = await workdir(`provider: llamacpp\nurl: ${single.url}\nmodel: un-single\n`);
      const run = await runMM(["-p", "x", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const result = events(run).find((e) => e.type === "tool_result");
      assertEquals(result.failed, true);
      assertEquals(
        result.output,
        `cannot unload qwen-s: the llama.cpp server at ${single.url} serves a single model and has no /models/unload (404: it exists in router mode only) — to free its memory, restart llama-server in router mode (without -m) so models load and unload on demand, or start it with --sleep-idle-seconds N to unload the model after N idle seconds, or stop the server`,
      );
    },
    "dmr: cannot unload, and the server is not asked": async () => {
      server.script("un-dmr", [unloadCall({ model: "ai/smollm2" }), { text: "ok" }]);
      const dir = await workdir(`provider: dmr\nurl: ${server.url}\nmodel: un-dmr\n`);
      const run = await runMM(["-p", "x", "--json"], { cwd: dir });
      assertEquals(run.code, 0, run.stderr);
      const result = events(run).find((e) => e.type === "tool_result");
      assertEquals([result.output, result.failed], [
        "cannot unload ai/smollm2: the dmr provider cannot unload a model",
        true,
      ]);
      const sideRequests = server.requests.filter((r) =>
        r.path === "/api/ps" || r.path === "/models/unload"
      ).filter((r) => r.body?.model === "ai/smollm2");
      assertEquals(sideRequests, []);
    },
    "declared by default; not with unloadModels: false, nor beside a structuredOutput":
      async () => {
        server.script("un-decl", [{ text: "a" }]);
        server.script("un-off", [{ text: "b" }]);
        server.script("un-structured", [{ text: '{"a":1}' }]);
        const base = `url: ${server.url}\n`;
        await runMM(["-p", "x"], { cwd: await workdir(`${base}model: un-decl\n`) });
        await runMM(["-p", "x"], {
          cwd: await workdir(`${base}model: un-off\nunloadModels: false\n`),
        });
        await runMM(["-p", "x"], {
          cwd: await workdir(
            `${base}model: un-structured\nstructuredOutput:\n  type: object\n`,
          ),
        });
        assertEquals(declared("un-decl").includes("unload_model"), true);
        assertEquals(declared("un-off").includes("unload_model"), false);
        assertEquals(declared("un-structured").includes("unload_model"), false);
      },
  });
});

Deno.test("mm doctor", async (t) => {
  await runCases(t, {
    "everything passes: one line each, exit 0": async () => {
      doctorOllama.script("doc-ok", [{
        toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }],
      }]);
      const dir = await workdir(
        `url: ${doctorOllama.url}\nmodel: doc-ok\nlsp:\n  servers:\n    - name: shell\n      command: sh\n      extensions: [.sh]\n`,
      );
      const run = await runMM(["doctor"], { cwd: dir });
      assertEquals(run.stderr, "");
      assertEquals(
        run.stdout,
        [
          `✔ agent file: ${dir}/mm.yaml (project: url, model, lsp)`,
          `✔ server: ollama at ${doctorOllama.url} answers (1 model(s))`,
          "✔ model: doc-ok is on the server",
          '✔ tool calling: doc-ok called the test tool (add {"a":2,"b":3})',
          "✔ context window: doc-ok holds up to 32768 tokens (/api/show)",
          "✔ chat API: OpenAI-compatible while the conversation fits 4096 tokens (Ollama's default), then Ollama's native /api/chat with num_ctx raised up to 32768",
          "✔ thinking: no",
          "✔ LSP server shell: sh found",
          "✔ permission rules: none (yolo: true decides the rest)",
          "",
        ].join("\n"),
      );
      assertEquals(run.code, 0);
      const chat = doctorOllama.chats("doc-ok")[0].body;
      // deno-lint-ignore no-explicit-any
      assertEquals(chat.tools.map((x: any) => x.function.name), ["add"]);
    },
    "a text answer, a small context, a missing language server: ✘ with the fix, exit 1":
      async () => {
        doctorLlama.script("lc", [{ text: "5" }]);
        const dir = await workdir(
          `provider: llamacpp\nurl: ${doctorLlama.url}\nlsp:\n  servers:\n    - name: py\n      command: no-such-lsp-xyz\n      extensions: [.py]\n`,
        );
        const run = await runMM(["doctor"], { cwd: dir });
        assertEquals(run.code, 1, run.stderr);
        assertEquals(
          run.stdout,
          [
            `✔ agent file: ${dir}/mm.yaml (project: provider, url, lsp)`,
            `✔ server: llamacpp at ${doctorLlama.url} answers (1 model(s))`,
            "✔ model: none set, so the server's only model is used: lc",
            "✘ tool calling: lc answered in text instead of calling the test tool — use a model trained for tool calls (Qwen2.5-Coder, Qwen3, Llama 3.1 and later)",
            "✘ context window: llama-server runs lc with 4096 tokens (trained for 32768), too few for mm's prompt, tools and a task — restart llama-server with -c 16384 (or more)",
            "✔ chat API: OpenAI-compatible, context 4096 tokens (llama-server's /props)",
            "✔ thinking: no",
            "✘ LSP server py: no-such-lsp-xyz is not on the PATH — install it, or fix lsp.servers[0].command in the agent file",
            "✔ permission rules: none (yolo: true decides the rest)",
            "",
          ].join("\n"),
        );
      },
    "a llama-server of one model, as captured: any model name passes, saying why": async () => {
      const single = ScriptedServer.start();
      single.models = ["/srv/models/tiny-text.gguf"];
      single.sideReplies["/v1/models"] = { fixture: "single-v1-models" };
      single.sideReplies["/props"] = { fixture: "single-props" };
      single.script("qwen2.5-coder-7b", [{
        toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }],
      }]);
      try {
        const dir = await workdir(
          `provider: llamacpp\nurl: ${single.url}\nmodel: qwen2.5-coder-7b\ncontextSize: 16384\n`,
        );
        const run = await runMM(["doctor"], { cwd: dir });
        const lines = run.stdout.split("\n");
        assertEquals(
          lines[2],
          "✔ model: qwen2.5-coder-7b — the server runs one model, /srv/models/tiny-text.gguf, and answers to any name (start llama-server with `--alias qwen2.5-coder-7b` to list it by this one)",
        );
        // contextSize promises more than the server runs: never a ✔ for that window.
        assertEquals(
          lines.find((l) => l.includes("chat API")),
          "✘ chat API: OpenAI-compatible, context 16384 tokens (contextSize), but the server runs 2048 — lower contextSize to 2048, or give the server a larger window",
        );
      } finally {
        await single.close();
      }
    },
    "a chat template without tools (llama-server's /props): the hint names the template":
      async () => {
        const plain = ScriptedServer.start();
        plain.models = ["pt"];
        plain.props = {
          default_generation_settings: { n_ctx: 32768 },
          chat_template_caps: { supports_tool_calls: false },
        };
        plain.script("pt", [{ text: "5" }]);
        try {
          const dir = await workdir(`provider: llamacpp\nurl: ${plain.url}\nmodel: pt\n`);
          const run = await runMM(["doctor"], { cwd: dir });
          assertEquals(
            run.stdout.split("\n").find((l) => l.includes("tool calling")),
            "✘ tool calling: pt answered in text instead of calling the test tool — llama-server's chat template does not handle tools (/props: supports_tool_calls is false): start it with a template that does (`--chat-template-file`, or the model's own with `--jinja`), or use a model trained for tool calls (Qwen2.5-Coder, Qwen3, Llama 3.1 and later)",
          );
        } finally {
          await plain.close();
        }
      },
    "a model list the server refuses: its words, not its JSON": async () => {
      const refusing = ScriptedServer.start();
      refusing.sideReplies["/v1/models"] = {
        status: 401,
        body: { error: { message: "Invalid API key", type: "auth" } },
      };
      try {
        const dir = await workdir(`provider: llamacpp\nurl: ${refusing.url}\n`);
        const run = await runMM(["doctor"], { cwd: dir });
        assertEquals(
          run.stdout.split("\n")[1],
          `✘ server: the llamacpp server at ${refusing.url} answered HTTP 401 for its model list (${refusing.url}/v1/models): Invalid API key — check \`apiKey\` or $MM_API_KEY`,
        );
      } finally {
        await refusing.close();
      }
    },
    "dmr: the model's context_size and its maximum, too small: ✘ with the docker command":
      async () => {
        const dmr = ScriptedServer.start();
        dmr.models = ["ai/doc-dmr"];
        dmr.script("ai/doc-dmr", [{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }]);
        const gguf = { "general.architecture": "qwen3", "qwen3.context_length": "40960" };
        dmr.sideReplies["/models/ai/doc-dmr"] = {
          status: 200,
          body: { id: "sha256:1", tags: ["ai/doc-dmr"], config: { context_size: 4096, gguf } },
        };
        try {
          const dir = await workdir(`provider: dmr\nurl: ${dmr.url}\nmodel: ai/doc-dmr\n`);
          const run = await runMM(["doctor"], { cwd: dir });
          assertEquals(run.code, 1, run.stderr);
          assertEquals(run.stdout.split("\n").slice(3, 6), [
            '✔ tool calling: ai/doc-dmr called the test tool (add {"a":2,"b":3})',
            "✘ context window: Docker Model Runner runs ai/doc-dmr with 4096 tokens (trained for 40960), too few for mm's prompt, tools and a task — run `docker model configure --context-size 16384 ai/doc-dmr` (or more)",
            "✔ chat API: OpenAI-compatible, context 4096 tokens (the model's context_size)",
          ]);
          dmr.sideReplies["/models/ai/doc-dmr"].body = {
            config: { context_size: 16384, gguf },
          };
          dmr.script("ai/doc-dmr", [{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }]);
          const ok = await runMM(["doctor"], { cwd: dir });
          assertEquals(ok.code, 0, ok.stdout);
          assertEquals(
            ok.stdout.split("\n")[4],
            "✔ context window: 16384 tokens (the model's context_size); the model was trained for 40960",
          );
        } finally {
          await dmr.close();
        }
      },
    "thinking: a reasoning answer, a template that thinks, or no": async () => {
      const thinker = ScriptedServer.start();
      thinker.models = ["doc-think"];
      thinker.script("doc-think", [{
        thought: "2 + 3 is 5; call add.",
        toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }],
      }]);
      try {
        const dir = await workdir(`url: ${thinker.url}\nmodel: doc-think\n`);
        const run = await runMM(["doctor"], { cwd: dir });
        assertEquals(
          run.stdout.split("\n").find((l) => l.includes("thinking:")),
          "✔ thinking: the model thinks (reasoning sent back: auto)",
        );
      } finally {
        await thinker.close();
      }
      const llama = ScriptedServer.start();
      llama.models = ["qwen3"];
      llama.props = {
        default_generation_settings: { n_ctx: 32768 },
        chat_template:
          "{%- if enable_thinking is defined and enable_thinking is false %}<think>\n\n</think>{%- endif %}",
      };
      llama.script("qwen3", [{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }]);
      try {
        const dir = await workdir(
          `provider: llamacpp\nurl: ${llama.url}\nmodel: qwen3\nthinking: "off"\n`,
        );
        const run = await runMM(["doctor"], { cwd: dir });
        assertEquals(
          run.stdout.split("\n").find((l) => l.includes("thinking:")),
          "✔ thinking: the model can think; turned off (thinking: off)",
        );
      } finally {
        await llama.close();
      }
    },
    "a call written as text, a name in other case: ✔, saying what mm forgives": async () => {
      const forgiving = ScriptedServer.start();
      forgiving.models = ["doc-text", "doc-case"];
      forgiving.script("doc-text", [{
        text: '<tool_call>\n{"name": "Add", "arguments": {"a": 2, "b": 3}}\n</tool_call>',
      }]);
      forgiving.script("doc-case", [{
        toolCalls: [{ name: "ADD", arguments: { a: 2, b: 3 } }],
      }]);
      const line = async (model: string) => {
        const dir = await workdir(`url: ${forgiving.url}\nmodel: ${model}\n`);
        const run = await runMM(["doctor"], { cwd: dir });
        return run.stdout.split("\n").find((l) => l.includes("tool calling"));
      };
      try {
        assertEquals(
          await line("doc-text"),
          '✔ tool calling: doc-text called the test tool (add {"a":2,"b":3}), written as text, which mm recognises',
        );
        assertEquals(
          await line("doc-case"),
          '✔ tool calling: doc-case called the test tool (add {"a":2,"b":3}), named "ADD", which mm takes for "add"',
        );
      } finally {
        await forgiving.close();
      }
    },
    "the probe is watched as a turn is: silence, a 429's wait, a runaway call": async () => {
      const watched = ScriptedServer.start();
      watched.models = ["doc-silent", "doc-patient", "doc-runaway"];
      watched.script("doc-silent", [{ hang: true }]);
      const limited = { raw: { status: 429, headers: { "retry-after": "2" }, body: "slow down" } };
      watched.script("doc-patient", [limited, {
        toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }],
      }]);
      watched.script("doc-runaway", [{ runaway: "la la ", name: "add" }]);
      const line = async (model: string, extra = "") => {
        const dir = await workdir(`url: ${watched.url}\nmodel: ${model}\n${extra}`);
        const run = await runMM(["doctor"], { cwd: dir });
        return run.stdout.split("\n").find((l) => l.includes("tool calling"));
      };
      const hint =
        "use a model whose template supports tools (Qwen2.5-Coder, Qwen3, Llama 3.1 and later: ollama.com/search?c=tools)";
      try {
        assertEquals(
          await line("doc-silent", "watchdogTimeout: 400ms\n"),
          "✘ tool calling: doc-silent sent nothing for 400ms — the server may still be loading the model: run mm doctor again, or raise watchdogTimeout",
        );
        // The server asked for 2s: the watchdog's 1s does not count them.
        assertEquals(
          await line("doc-patient", "watchdogTimeout: 1s\n"),
          '✔ tool calling: doc-patient called the test tool (add {"a":2,"b":3})',
        );
        assertEquals(
          await line("doc-runaway"),
          `✘ tool calling: doc-runaway was stopped: its call ran away (its arguments kept repeating) — ${hint}`,
        );
      } finally {
        await watched.close();
      }
    },
    "a model that is not on the server: what is there, and how to get it": async () => {
      const several = ScriptedServer.start();
      several.models = ["qwen3:8b", "llama3.1:8b"];
      try {
        const dir = await workdir(`url: ${several.url}\nmodel: gemma3:4b\n`);
        const run = await runMM(["doctor"], { cwd: dir });
        assertEquals(run.code, 1);
        assertEquals(
          run.stdout.split("\n")[2],
          "✘ model: gemma3:4b is not on the server, which has: qwen3:8b, llama3.1:8b — pull it with `ollama pull gemma3:4b`, or set `model` to one it has",
        );
        // The checks that need the model are not run; the permission rules line is (a rule needs no server).
        assertEquals(run.stdout.split("\n").length, 5, run.stdout);
        assertEquals(
          run.stdout.split("\n")[3],
          "✔ permission rules: none (yolo: true decides the rest)",
        );
      } finally {
        await several.close();
      }
    },
    "against nothing at all: the server line says how to start it, exit 1": async () => {
      const dir = await emptyDir();
      const run = await runMM(["doctor", "--url", down[0]], { cwd: dir });
      assertEquals(run.code, 1, run.stderr);
      assertNoCrash(run);
      const lines = run.stdout.trimEnd().split("\n");
      assertEquals(lines, [
        `✔ agent file: none found, the built-in defaults (ollama at ${down[0]})`,
        lines[1],
        "✔ permission rules: none (yolo: true decides the rest)",
      ]);
      assertMatch(
        lines[1],
        new RegExp(
          `^✘ server: cannot reach the ollama server at ${
            down[0]
          } \\(.+\\) — start it with \`ollama serve\`, or set \`url\` in the agent file$`,
        ),
      );
    },
    "a bad agent file: ✘ with its file:line:column, exit 1": async () => {
      const dir = await workdir("model: m\nyolo: nope\n");
      const run = await runMM(["doctor"], { cwd: dir });
      assertEquals(run.code, 1);
      assertEquals(
        run.stdout,
        `✘ agent file: ${dir}/mm.yaml:2:7: yolo: expected true or false, found "nope" — fix that line, then run mm doctor again\n`,
      );
    },
    "mm doctor takes no argument": async () => {
      const dir = await emptyDir();
      const run = await runMM(["doctor", "now"], { cwd: dir });
      assertEquals(run.code, 2);
      assertEquals(
        run.stderr,
        "mm: mm doctor takes no prompt and no argument — run mm --help for the flags\n",
      );
    },
  });
});

Deno.test("mm init", async (t) => {
  await runCases(t, {
    "finds the running server, writes its file, and mm doctor passes on it": async () => {
      const dir = await emptyDir();
      const probe = `ollama=${down[0]},llamacpp=${initLlama.url},dmr=${down[1]}`;
      const run = await runMM(["init"], { cwd: dir, env: { MM_INIT_PROBE: probe } });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        run.stdout,
        `found llamacpp at ${initLlama.url} with 2 model(s)\n` +
          `wrote ${dir}/mm.yaml for llamacpp, model qwen-a — check it with mm doctor\n`,
      );
      const text = await Deno.readTextFile(`${dir}/mm.yaml`);
      const config = parseConfig(text, `${dir}/mm.yaml`, {});
      assertEquals([config.provider, config.url, config.model], [
        "llamacpp",
        initLlama.url,
        "qwen-a",
      ]);
      assertStringIncludes(text, "model: qwen-a # the server also has: qwen-b\n");
      for (const key of ["yolo: true", "bashTimeout: 30s", "unloadModels: true", "sessions:"]) {
        assertStringIncludes(text, `# ${key}`);
      }
      initLlama.script("qwen-a", [{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }]);
      const doctor = await runMM(["doctor"], { cwd: dir });
      assertEquals(doctor.code, 0, doctor.stdout);
      // Agent file, server, model, tool calling, context window, chat API, thinking, rules.
      assertEquals(doctor.stdout.split("\n").filter((l) => l.startsWith("✔")).length, 8);
      assertEquals(doctor.stdout.includes("✘"), false, doctor.stdout);
    },
    "nothing running: an Ollama file, and how to start a server": async () => {
      const dir = await emptyDir();
      const probe = `ollama=${down[0]},llamacpp=${down[1]},dmr=${down[2]}`;
      const run = await runMM(["init"], { cwd: dir, env: { MM_INIT_PROBE: probe } });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(
        run.stdout,
        `no model server answered (ollama at ${down[0]}, llamacpp at ${down[1]}, dmr at ${
          down[2]
        })\n` +
          `wrote ${dir}/mm.yaml for ollama at http://localhost:11434 — start the server with \`ollama serve\`, pull a model with \`ollama pull qwen2.5-coder:7b\`, then run mm doctor\n`,
      );
      const config = parseConfig(await Deno.readTextFile(`${dir}/mm.yaml`), "mm.yaml", {});
      assertEquals([config.provider, config.url, config.model], [
        "ollama",
        "http://localhost:11434",
        undefined,
      ]);
    },
    "an agent file already there is never overwritten: exit 1": async () => {
      for (const path of ["mm.yaml", ".mm/mm.yaml"]) {
        const dir = await emptyDir();
        await Deno.mkdir(`${dir}/.mm`);
        await Deno.writeTextFile(`${dir}/${path}`, "model: mine\n");
        const probe = `ollama=${down[0]}`;
        const run = await runMM(["init"], { cwd: dir, env: { MM_INIT_PROBE: probe } });
        assertEquals(run.code, 1);
        assertEquals(run.stdout, "");
        assertEquals(
          run.stderr,
          `mm: ${dir}/${path} already exists — nothing was written; edit it, or move it away and run mm init again\n`,
        );
        assertEquals(await Deno.readTextFile(`${dir}/${path}`), "model: mine\n");
        if (path !== "mm.yaml") {
          assertEquals(await Deno.stat(`${dir}/mm.yaml`).then(() => true, () => false), false);
        }
      }
    },
    "an MM_INIT_PROBE that cannot be read: exit 2, nothing written": async () => {
      const dir = await emptyDir();
      const run = await runMM(["init"], { cwd: dir, env: { MM_INIT_PROBE: "ollama:11434" } });
      assertEquals(run.code, 2);
      assertEquals(
        run.stderr,
        'mm: MM_INIT_PROBE: "ollama:11434" is not provider=url (e.g. ollama=http://127.0.0.1:11434)\n',
      );
      assertEquals(await Deno.stat(`${dir}/mm.yaml`).then(() => true, () => false), false);
    },
  });
});

/** A script that runs mm's own main() in-process, then reports its permissions and tries spawns. */
function probeScript(): string {
  const at = (p: string) => JSON.stringify(new URL(p, `file://${ROOT}`).href);
  return `
import { main } from ${at("main.ts")};
import { realContext } from ${at("lib/context.ts")};
import { defaultConfig } from ${at("lib/config/config.ts")};
import { runHooks } from ${at("lib/hooks/run.ts")};
import { declaredTool } from ${at("tools/declared.ts")};
const code = await main(["-p", "go"]);
const state = (name) => Deno.permissions.querySync({ name }).state;
const signal = new AbortController().signal;
const tool = declaredTool({ name: "greet", command: ["echo", "hi"], parameters: {} });
let toolOutput;
try {
  toolOutput = (await tool.run({}, realContext(defaultConfig(), Deno.cwd(), signal))).output;
} catch (e) {
  toolOutput = "threw " + e.name;
}
const hook = await runHooks([{ command: ["echo", "{}"] }], { event: "preToolCall", cwd: Deno.cwd() }, 5000);
console.log(JSON.stringify({
  code, run: state("run"), write: state("write"), ffi: state("ffi"), net: state("net"),
  read: state("read"), env: state("env"), tool: toolOutput, hook: hook.failures,
}));
`;
}

Deno.test("permissions", async (t) => {
  await runCases(t, {
    "a bash-less agent file: run is revoked once main() has read it, and spawns fail cleanly":
      async () => {
        server.script("perm-bashless", [
          { toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
          { text: "no shell here" },
        ]);
        const dir = await workdir(`url: ${server.url}\nmodel: perm-bashless\nbashTool: false\n`);
        await Deno.writeTextFile(`${dir}/probe.ts`, probeScript());
        const run = await deno(["run", "--allow-all", "--no-prompt", "--quiet", "probe.ts"], dir);
        assertEquals(run.code, 0, run.stderr);
        const lines = run.stdout.trim().split("\n");
        assertEquals(lines[0], "no shell here");
        const report = JSON.parse(lines.at(-1)!);
        assertEquals(
          [report.code, report.run, report.write, report.ffi],
          [0, "prompt", "granted", "prompt"],
        );
        assertEquals([report.net, report.read, report.env], ["granted", "granted", "granted"]);
        assertEquals(
          report.tool,
          "[error: echo cannot be started: bash, needed to start it, cannot be started: not allowed by mm's permissions]",
        );
        assertEquals(report.hook.length, 1);
        assertStringIncludes(report.hook[0], 'preToolCall hook "echo {}" cannot be started:');
        // The model asked for bash anyway: it was told bash is not there, nothing ran.
        assertStringIncludes(toolOutputs(server, "perm-bashless", 1)[0], 'unknown tool "bash"');
      },
    "nothing that writes either: write is revoked too": async () => {
      server.script("perm-readonly", [{ text: "read only" }]);
      const dir = await workdir(
        // Sessions are on by default and write their files: off here, nothing writes at all.
        `url: ${server.url}\nmodel: perm-readonly\nbashTool: false\neditTools: false\n` +
          `sessions:\n  enabled: false\n`,
      );
      await Deno.writeTextFile(`${dir}/probe.ts`, probeScript());
      const run = await deno(["run", "--allow-all", "--no-prompt", "--quiet", "probe.ts"], dir);
      assertEquals(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
      assertEquals([report.code, report.run, report.write], [0, "prompt", "prompt"]);
    },
    "the defaults keep run and write": async () => {
      server.script("perm-default", [{ text: "all there" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: perm-default\n`);
      await Deno.writeTextFile(`${dir}/probe.ts`, probeScript());
      const run = await deno(["run", "--allow-all", "--no-prompt", "--quiet", "probe.ts"], dir);
      assertEquals(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
      assertEquals([report.run, report.write, report.ffi], ["granted", "granted", "prompt"]);
      assertEquals(report.tool, "hi\n");
      assertEquals(report.hook, []);
    },
    "mm -p without run: a declared tool and a hook fail cleanly, and the turn goes on":
      async () => {
        server.script("perm-norun", [
          { toolCalls: [{ name: "greet", arguments: {} }] },
          { text: "went on" },
        ]);
        const dir = await workdir(
          `url: ${server.url}\nmodel: perm-norun\nbashTool: false\n` +
            `tools:\n  - name: greet\n    description: Say hi.\n    command: ["echo", "hi"]\n` +
            `hooks:\n  preToolCall:\n    - command: ["true"]\n`,
        );
        const flags = PERMISSIONS.filter((f) => f !== "--allow-run");
        const run = await deno(["run", "--no-config", "--quiet", ...flags, MAIN, "-p", "go"], dir);
        assertEquals(run.code, 0, run.stderr);
        assertNoCrash(run);
        assertEquals(run.stdout, "went on\n");
        assertEquals(toolOutputs(server, "perm-norun", 1), [
          "[error: echo cannot be started: bash, needed to start it, cannot be started: not allowed by mm's permissions]",
        ]);
        assertStringIncludes(run.stderr, 'preToolCall hook "true" cannot be started:');
      },
    "the compile flags are enough: bash, an edit, a session file, mm doctor, --version":
      async () => {
        server.script("perm-compiled", [
          {
            toolCalls: [{
              name: "bash",
              arguments: { command: "echo built > out.txt; cat out.txt" },
            }],
          },
          { toolCalls: [{ name: "write_file", arguments: { path: "notes.md", content: "ok\n" } }] },
          { text: "shipped" },
        ]);
        const dir = await workdir(
          `url: ${server.url}\nmodel: perm-compiled\nsessions:\n  enabled: true\n`,
        );
        const flags = ["run", "--no-config", "--quiet", ...PERMISSIONS, MAIN];
        const turn = await deno([...flags, "-p", "go"], dir);
        assertEquals(turn.code, 0, turn.stderr);
        assertNoCrash(turn);
        assertEquals(turn.stdout, "shipped\n");
        assertEquals(await Deno.readTextFile(`${dir}/out.txt`), "built\n");
        assertEquals(await Deno.readTextFile(`${dir}/notes.md`), "ok\n");
        assertEquals(sessionFiles(dir).length, 1);
        doctorOllama.script("doc-ok", [{
          toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }],
        }]);
        const doctor = await deno([
          ...flags,
          "doctor",
          "--url",
          doctorOllama.url,
          "--model",
          "doc-ok",
        ], dir);
        assertEquals(doctor.code, 0, doctor.stdout + doctor.stderr);
        const version = await deno([...flags, "--version"], dir);
        assertMatch(
          version.stdout,
          new RegExp(`^mm \\d+\\.\\d+\\.\\d+ \\(dev, ${Deno.build.target}\\)\\n$`),
        );
      },
  });
});

/** The install script against a fake release served on 127.0.0.1. */
Deno.test("scripts/install.sh", async (t) => {
  const asset = `mm-${Deno.build.target}${Deno.build.os === "windows" ? ".exe" : ""}`;
  const binary = '#!/bin/sh\necho "mm 9.9.9 (fake, test)"\n';
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(binary)),
  );
  const good = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  const bad = good.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  /** Releases by name: the files each one serves. */
  const releases: Record<string, Record<string, string>> = {
    good: { [asset]: binary, SHA256SUMS: `${"0".repeat(64)}  mm-other\n${good}  ${asset}\n` },
    mismatch: { [asset]: binary, SHA256SUMS: `${bad}  ${asset}\n` },
    unlisted: { [asset]: binary, SHA256SUMS: `${good}  mm-other\n` },
    missing: { SHA256SUMS: `${good}  ${asset}\n` },
  };
  const release = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const [, name, file] = new URL(req.url).pathname.split("/");
    const body = releases[name]?.[file];
    return body === undefined ? new Response("no", { status: 404 }) : new Response(body);
  });
  const base = `http://127.0.0.1:${release.addr.port}`;

  /** Runs the install script for release `name` into a fresh directory holding `before`. */
  async function install(name: string, before?: string) {
    const home = await emptyDir("mm-install-");
    const dir = `${home}/bin`;
    if (before !== undefined) {
      await Deno.mkdir(dir);
      await Deno.writeTextFile(`${dir}/mm`, before);
    }
    const out = await new Deno.Command("sh", {
      args: [`${ROOT}scripts/install.sh`],
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        MM_INSTALL_BASE_URL: `${base}/${name}`,
        MM_INSTALL_DIR: dir,
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
    return {
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
      dir,
      files: entries.map((e) => e.name).sort(),
    };
  }

  await runCases(t, {
    "the right checksum: mm is installed, executable, and runs": async () => {
      const run = await install("good");
      assertEquals(run.code, 0, run.stderr);
      assertEquals(run.files, ["mm"]);
      assertEquals(await Deno.readTextFile(`${run.dir}/mm`), binary);
      assertEquals((await Deno.stat(`${run.dir}/mm`)).mode! & 0o111, 0o111);
      assertEquals(
        run.stdout,
        `downloading ${base}/good/${asset}\nchecksum ok: ${good}\ninstalled ${run.dir}/mm\n` +
          `mm 9.9.9 (fake, test)\nadd ${run.dir} to your PATH to run mm\n`,
      );
    },
    "a checksum mismatch is refused: nothing is installed, an old mm stays": async () => {
      const run = await install("mismatch", "old mm\n");
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm install: checksum mismatch for ${asset} (expected ${bad}, got ${good}) — nothing was installed\n`,
      );
      assertEquals(run.files, ["mm"]);
      assertEquals(await Deno.readTextFile(`${run.dir}/mm`), "old mm\n");
      const fresh = await install("mismatch");
      assertEquals([fresh.code, fresh.files], [1, []]);
    },
    "a SHA256SUMS without the binary's line is refused": async () => {
      const run = await install("unlisted");
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm install: SHA256SUMS has no line for ${asset} — nothing was installed\n`,
      );
      assertEquals(run.files, []);
    },
    "a binary that is not there: the download fails, nothing is installed": async () => {
      const run = await install("missing");
      assertEquals(run.code, 1);
      assertStringIncludes(run.stderr, `mm install: cannot download ${base}/missing/${asset}\n`);
      assertEquals(run.files, []);
    },
  });
  await release.shutdown();
});

Deno.test("close the scripted servers", async () => {
  await Promise.all([server, single, doctorOllama, doctorLlama, initLlama].map((s) => s.close()));
});
