/**
 * Secrets (issue 17), through the real `mm -p`, `--json`, `mm doctor`, line mode and an asked
 * agent: no child process gets `$MM_API_KEY` or the agent file's key in its environment, and no
 * output or record of mm holds the key or a URL's credentials.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { freePort } from "../helpers/mcp/servers.ts";
import { runMM, workdir } from "../helpers/mm.ts";
import { Editor } from "../helpers/acp.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

const ENV_KEY = "sk-env-secret-0123456789";
const FILE_KEY = "sk-file-secret-abcdef987";
const URL_PASSWORD = "sk-url-secret-55aa77bb";
const SECRETS = [ENV_KEY, FILE_KEY, URL_PASSWORD];

/** Fails when `text` (named `where`) holds one of the secrets. */
function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) {
    assertEquals(text.includes(secret), false, `${where} holds ${secret}:\n${text.slice(0, 2000)}`);
  }
}

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) Object.assign(out, await filesUnder(path));
    else if (e.isFile && !path.endsWith("mm.yaml")) out[path] = await Deno.readTextFile(path);
  }
  return out;
}

Deno.test("no child process gets mm's key in its environment", async (t) => {
  await runCases(t, {
    "bash, a declared tool and a hook: $MM_API_KEY and the file's apiKey are left out":
      async () => {
        const dir = await workdir(
          `url: ${server.url}\nmodel: env-kids\napiKey: ${FILE_KEY}\n` +
            `tools:\n  - name: show_env\n    description: Shows the environment.\n` +
            `    command: ["env"]\n    parameters: {}\n` +
            `hooks:\n  postToolCall:\n    - command: ["bash", "-c", "env > hook-env.txt"]\n`,
        );
        server.script("env-kids", [
          {
            toolCalls: [
              { name: "bash", arguments: { command: `env; echo "key=[$MM_API_KEY]"` } },
              { name: "show_env", arguments: {} },
            ],
          },
          { text: "done" },
        ]);
        const run = await runMM(["-p", "go"], {
          cwd: dir,
          env: { MM_API_KEY: ENV_KEY, OTHER_COPY: FILE_KEY, KEEP_ME: "visible" },
        });
        assertEquals(run.code, 0, run.stderr);
        const [bash, declared] = server.toolOutputs("env-kids");
        assertStringIncludes(bash, "key=[]");
        assertStringIncludes(bash, "KEEP_ME=visible");
        assertStringIncludes(declared, "KEEP_ME=visible");
        assertNoSecret(bash, "bash's environment");
        assertNoSecret(declared, "the declared tool's environment");
        const hookEnv = await Deno.readTextFile(`${dir}/hook-env.txt`);
        assertStringIncludes(hookEnv, "KEEP_ME=visible");
        assertNoSecret(hookEnv, "the hook's environment");
        // The server still gets the key: it is the file's bearer token.
        assertEquals(
          server.chats("env-kids")[0].headers.get("authorization"),
          `Bearer ${FILE_KEY}`,
        );
      },
    "an asked agent gets $MM_API_KEY only when its own file has no apiKey, and hides it too":
      async () => {
        const dir = await workdir(
          `url: ${server.url}\nmodel: parent-key\nmmConfigs:\n  own:\n    file: own.yaml\n` +
            `  bare:\n    file: bare.yaml\n`,
        );
        await Deno.writeTextFile(
          `${dir}/own.yaml`,
          `url: ${server.url}\nmodel: child-own\napiKey: ${FILE_KEY}\n`,
        );
        await Deno.writeTextFile(`${dir}/bare.yaml`, `url: ${server.url}\nmodel: child-bare\n`);
        server.script("parent-key", [
          {
            toolCalls: [
              { name: "ask_agent", arguments: { agent: "own", prompt: "go" } },
              { name: "ask_agent", arguments: { agent: "bare", prompt: "go" } },
            ],
          },
          { text: "done" },
        ]);
        for (const model of ["child-own", "child-bare"]) {
          server.script(model, [
            { toolCalls: [{ name: "bash", arguments: { command: `echo "key=[$MM_API_KEY]"` } }] },
            { text: "ok" },
          ]);
        }
        const run = await runMM(["-p", "go"], { cwd: dir, env: { MM_API_KEY: ENV_KEY } });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(
          server.chats("child-own")[0].headers.get("authorization"),
          `Bearer ${FILE_KEY}`,
        );
        assertEquals(
          server.chats("child-bare")[0].headers.get("authorization"),
          `Bearer ${ENV_KEY}`,
        );
        assertEquals(server.toolOutputs("child-own"), ["key=[]\n"]);
        assertEquals(server.toolOutputs("child-bare"), ["key=[]\n"]);
      },
  });
});

Deno.test("no output or record of mm holds a secret", async (t) => {
  // The URL's credentials, the file's key and $MM_API_KEY, printed by a tool and quoted by errors.
  const port = new URL(server.url).port;
  const agentFile = (model: string) =>
    `provider: openai\nurl: http://user:${URL_PASSWORD}@127.0.0.1:${port}/v1\n` +
    `model: ${model}\napiKey: ${FILE_KEY}\nsessions:\n  enabled: true\n`;
  const leaky = () => [
    {
      text: `My key is ${FILE_KEY}.`,
      toolCalls: [{
        name: "bash",
        arguments: {
          command: `echo ${FILE_KEY} ${ENV_KEY} http://user:${URL_PASSWORD}@example.com/x`,
        },
      }],
    },
    { text: `Done with ${FILE_KEY} and http://user:${URL_PASSWORD}@example.com/.` },
  ];
  await runCases(t, {
    "-p, --json, the session file and mm doctor": async () => {
      const dir = await workdir(agentFile("leaky"));
      server.script("leaky", leaky());
      const env = { MM_API_KEY: ENV_KEY };
      const text = await runMM(["-p", "go"], { cwd: dir, env });
      assertEquals(text.code, 0, text.stderr);
      assertStringIncludes(text.stdout, "Done with *** and http://***@example.com/.");
      assertStringIncludes(text.stderr, "   *** *** http://***@example.com/x\n");
      server.script("leaky", leaky());
      const json = await runMM(["-p", "go", "--json"], { cwd: dir, env });
      assertEquals(json.code, 0, json.stderr);
      for (const line of json.stdout.trim().split("\n")) JSON.parse(line);
      // Nor does the model read them (issue 24): every tool output is redacted before it does.
      assertEquals(
        server.toolOutputs("leaky")[0],
        "*** *** http://***@example.com/x\n",
      );
      const doctor = await runMM(["doctor"], { cwd: dir, env });
      // An unreachable server: the error names the URL, without its credentials.
      const down = await workdir(
        `provider: openai\nurl: http://user:${URL_PASSWORD}@127.0.0.1:1/v1\nmodel: m\n`,
      );
      const failed = await runMM(["-p", "go", "--json"], { cwd: down, env });
      assertEquals(failed.code, 1);
      assertStringIncludes(failed.stdout, "http://***@127.0.0.1:1/v1");
      const failedDoctor = await runMM(["doctor"], { cwd: down, env });
      for (const [where, out] of Object.entries({ text, json, doctor, failed, failedDoctor })) {
        assertNoSecret(out.stdout, `${where} stdout`);
        assertNoSecret(out.stderr, `${where} stderr`);
      }
      for (const [path, content] of Object.entries(await filesUnder(dir))) {
        assertNoSecret(content, path);
      }
    },
    "a url's query parameter that looks like a secret: the model server's and an MCP server's":
      async () => {
        const key = "sk-query-secret-0a1b2c3d";
        const token = "tok-mcp-secret-9f8e7d6c";
        const port = freePort();
        const down = await workdir(
          `provider: openai\nurl: http://127.0.0.1:1/v1?api_key=${key}&x=1\nmodel: m\n` +
            `mcpServers:\n  web: {url: "http://127.0.0.1:${port}/mcp?token=${token}"}\n`,
        );
        const failed = await runMM(["-p", "go"], { cwd: down });
        assertEquals(failed.code, 1);
        assertStringIncludes(failed.stderr, "http://127.0.0.1:1/v1?api_key=***&x=1");
        const doctor = await runMM(["doctor"], { cwd: down });
        assertStringIncludes(
          doctor.stdout,
          `MCP server web: did not start: cannot connect to http://127.0.0.1:${port}/mcp?token=*** (connection refused)`,
        );
        const up = await workdir(
          `url: ${server.url}\nmodel: query\n` +
            `mcpServers:\n  web: {url: "http://127.0.0.1:${port}/mcp?token=${token}"}\n`,
        );
        server.script("query", [{ text: "ok" }]);
        const warned = await runMM(["-p", "go"], { cwd: up });
        assertEquals(warned.code, 0, warned.stderr);
        assertStringIncludes(
          warned.stderr,
          `[warning: MCP server web did not start: cannot connect to http://127.0.0.1:${port}/mcp?token=*** (connection refused)]`,
        );
        for (const [where, out] of Object.entries({ failed, doctor, warned })) {
          for (const text of [out.stdout, out.stderr]) {
            assertEquals([text.includes(key), text.includes(token)], [false, false], where);
          }
        }
      },
  });
});

Deno.test("a percent-encoded URL password is redacted as written and decoded", async () => {
  const port = new URL(server.url).port;
  const encoded = "p%40ssWORD12345";
  const plain = "p@ssWORD12345";
  const dir = await workdir(
    `provider: openai\nurl: http://user:${encoded}@127.0.0.1:${port}/v1\nmodel: leaky-encoded\n` +
      `sessions:\n  enabled: true\n`,
  );
  server.script("leaky-encoded", [
    { toolCalls: [{ name: "bash", arguments: { command: `echo ${encoded} ${plain}` } }] },
    { text: `The password is ${encoded}, that is ${plain}.` },
  ]);
  const run = await runMM(["-p", "go"], { cwd: dir });
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "The password is ***, that is ***.\n");
  assertStringIncludes(run.stderr, "   *** ***\n");
  const outputs = { stdout: run.stdout, stderr: run.stderr, ...await filesUnder(dir) };
  for (const [where, text] of Object.entries(outputs)) {
    for (const secret of [encoded, plain]) {
      assertEquals(
        text.includes(secret),
        false,
        `${where} holds ${secret}:\n${text.slice(0, 2000)}`,
      );
    }
  }
});

Deno.test("mm -acp: what the editor is sent holds no secret", async () => {
  const dir = await workdir(`url: ${server.url}\nmodel: leaky-acp\n`);
  server.script("leaky-acp", [
    { toolCalls: [{ name: "bash", arguments: { command: `echo ${ENV_KEY}` } }] },
    { text: `The key is ${ENV_KEY}.` },
  ]);
  const editor = await Editor.start({ cwd: dir, env: { MM_API_KEY: ENV_KEY } });
  const id = await editor.newSession(dir);
  assertEquals(await editor.prompt(id, "go"), "end_turn");
  const { stdout } = await editor.close();
  assertNoSecret(stdout, "the protocol stream");
  assertStringIncludes(JSON.stringify(editor.updates), "The key is ***.");
});

Deno.test("line mode: the banner and the previews hold no secret", async () => {
  const port = new URL(server.url).port;
  const dir = await workdir(
    `provider: openai\nurl: http://user:${URL_PASSWORD}@127.0.0.1:${port}/v1\nmodel: leaky-line\n`,
  );
  server.script("leaky-line", [
    { toolCalls: [{ name: "bash", arguments: { command: `echo ${ENV_KEY}` } }] },
    { text: `The key is ${ENV_KEY}, all done.` },
  ]);
  const term = await Terminal.mm(dir, [], { MM_API_KEY: ENV_KEY });
  try {
    const banner = await term.waitFor("Ctrl-D quits.");
    assertStringIncludes(banner, `(http://***@127.0.0.1:${port}/v1)`);
    await term.type("go");
    await term.keys("Enter");
    const screen = await term.waitFor("all done.");
    assertStringIncludes(screen, "   ***\n");
    assertNoSecret(screen, "the screen");
  } finally {
    await term.kill();
  }
});

Deno.test("a secret the maxOutput cut would split is not sent in part", async () => {
  const key = "sk-SECRETabcdefghijklmnopqrstuvwxyz0123456789";
  const dir = await workdir(`url: ${server.url}\nmodel: cut-key\napiKey: ${key}\nmaxOutput: 200\n`);
  server.script("cut-key", [
    {
      toolCalls: [{
        name: "bash",
        arguments: {
          command: "head -c 40 /dev/zero|tr '\\0' a; grep apiKey mm.yaml|cut -c9-; " +
            "head -c 3000 /dev/zero|tr '\\0' b",
        },
      }],
    },
    { text: "done" },
  ]);
  const run = await runMM(["-p", "go"], { cwd: dir });
  assertEquals(run.code, 0, run.stderr);
  const [output] = server.toolOutputs("cut-key");
  assertStringIncludes(output, `${"a".repeat(40)}***\n`);
  for (const part of [key.slice(0, 8), key.slice(-8), "abcdefghijklmnop"]) {
    assertEquals(output.includes(part), false, output);
  }
  await server.close();
});
