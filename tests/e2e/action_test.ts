/**
 * action.yml, the GitHub Action: parsed, its inputs and outputs as docs/ci.md says, its steps'
 * scripts (scripts/action/) run here as the runner runs them, against a fake release on 127.0.0.1
 * and the scripted model server; and the workflows of docs/ci.md use only the action's inputs.
 */

import { fileURLToPath } from "node:url";
import { parse } from "npm:yaml@2.9.1";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { DENO_DIR, MAIN, sessionFiles, stateHomeOf, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INSTALL = `${ROOT}scripts/action/install.sh`;
const RUN = `${ROOT}scripts/action/run.sh`;

/** The inputs the action takes, as the issue and docs/ci.md list them. */
const INPUTS = [
  "prompt",
  "prompt-file",
  "agent-file",
  "provider",
  "url",
  "model",
  "version",
  "output-schema",
  "json-log",
  "yolo",
  "args",
];

// deno-lint-ignore no-explicit-any
const action: any = parse(await Deno.readTextFile(`${ROOT}action.yml`));

Deno.test("action.yml", async (t) => {
  await t.step("a composite action with the inputs and outputs of docs/ci.md", () => {
    assertEquals(action.runs.using, "composite");
    assertEquals(Object.keys(action.inputs), INPUTS);
    assertEquals(action.inputs.yolo.default, "false");
    assertEquals(action.inputs.version.default, "");
    assertEquals(Object.keys(action.outputs), ["answer", "exit-code", "json-log"]);
  });
  await t.step("every ${{ inputs.x }} and ${{ steps.x }} names an input and a step", () => {
    const text = JSON.stringify(action);
    const ids = action.runs.steps.map((s: { id?: string }) => s.id).filter(Boolean);
    for (const [, name] of text.matchAll(/inputs\.([a-z-]+)/g)) {
      assertEquals(INPUTS.includes(name), true, `inputs.${name}`);
    }
    for (const [, id] of text.matchAll(/steps\.([a-z-]+)\./g)) {
      assertEquals(ids.includes(id), true, `steps.${id}`);
    }
  });
  await t.step("the shell steps run the scripts of scripts/action/, which exist", async () => {
    const runs = action.runs.steps.filter((s: { run?: string }) => s.run).map((
      s: { run: string },
    ) => s.run);
    assertEquals(runs, [
      'sh "$GITHUB_ACTION_PATH/scripts/action/install.sh" resolve',
      'sh "$GITHUB_ACTION_PATH/scripts/action/install.sh" install',
      'bash "$GITHUB_ACTION_PATH/scripts/action/run.sh"',
    ]);
    for (const script of [INSTALL, RUN]) await Deno.stat(script);
  });
  await t.step("the binary is cached per version (actions/cache)", () => {
    const cache = action.runs.steps.find((s: { uses?: string }) =>
      s.uses?.startsWith("actions/cache")
    );
    assertStringIncludes(cache.with.key, "${{ steps.resolve.outputs.version }}");
  });
  await t.step("every input of run.sh is passed to it", () => {
    const env = action.runs.steps.find((s: { id?: string }) => s.id === "run").env;
    for (const name of INPUTS.filter((n) => n !== "version")) {
      const key = `INPUT_${name.toUpperCase().replaceAll("-", "_")}`;
      assertEquals(env[key], `\${{ inputs.${name} }}`, key);
    }
  });
});

Deno.test("docs/ci.md: its workflows parse and give the action only its inputs", async () => {
  const doc = await Deno.readTextFile(`${ROOT}docs/ci.md`);
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  let uses = 0;
  for (const block of blocks) {
    // deno-lint-ignore no-explicit-any
    const flow: any = parse(block);
    for (const job of Object.values(flow.jobs ?? {}) as { steps?: unknown[] }[]) {
      for (const step of (job.steps ?? []) as { uses?: string; with?: object }[]) {
        if (!/\/mm@/.test(step.uses ?? "")) continue;
        uses++;
        for (const key of Object.keys(step.with ?? {})) {
          assertEquals(INPUTS.includes(key), true, `unknown input "${key}" in docs/ci.md`);
        }
      }
    }
  }
  assertEquals(uses >= 4, true, `only ${uses} uses of the action in docs/ci.md`);
});

/** What a script left: its exit code, its outputs, what it wrote. */
interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

/** Runs `script args` with `env` (and a fresh $GITHUB_OUTPUT) in `cwd`. */
async function script(
  shell: string,
  path: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Ran> {
  const output = `${await tempDir("mm-action-out-")}/output`;
  await Deno.writeTextFile(output, "");
  const out = await new Deno.Command(shell, {
    args: [path, ...args],
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: cwd,
      XDG_CONFIG_HOME: `${cwd}/.config`,
      // Sessions are saved by default: into the test's own state folder, never the real one.
      XDG_STATE_HOME: stateHomeOf(cwd),
      DENO_DIR,
      NO_COLOR: "1",
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: cwd,
      ...env,
    },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    outputs: githubOutputs(await Deno.readTextFile(output)),
  };
}

/** The name=value and name<<DELIM lines of a $GITHUB_OUTPUT file. */
function githubOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const eq = lines[i].indexOf("=");
    if (eq > 0) out[lines[i].slice(0, eq)] = lines[i].slice(eq + 1);
  }
  return out;
}

Deno.test("scripts/action/install.sh against a fake release", async (t) => {
  const asset = `mm-${Deno.build.target}${Deno.build.os === "windows" ? ".exe" : ""}`;
  const binary = '#!/bin/sh\necho "mm 1.2.3 (fake, test)"\n';
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(binary)),
  );
  const good = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  /** Release files by tag. */
  const tags: Record<string, Record<string, string>> = {
    "v1.2.3": { [asset]: binary, SHA256SUMS: `${good}  ${asset}\n` },
    "v6.6.6": { [asset]: binary, SHA256SUMS: `${"0".repeat(64)}  ${asset}\n` },
  };
  const release = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req): Response => {
      const path = new URL(req.url).pathname;
      if (path === "/releases/latest") {
        return new Response(null, {
          status: 302,
          headers: { location: "/releases/tag/v1.2.3" },
        });
      }
      const tag = /^\/releases\/tag\/([^/]+)$/.exec(path);
      if (tag) {
        return new Response(tags[tag[1]] ? "a release" : "no", {
          status: tags[tag[1]] ? 200 : 404,
        });
      }
      const file = /^\/releases\/download\/([^/]+)\/([^/]+)$/.exec(path);
      const body = file ? tags[file[1]]?.[file[2]] : undefined;
      return body === undefined ? new Response("no", { status: 404 }) : new Response(body);
    },
  );
  const base = `http://127.0.0.1:${release.addr.port}`;
  const env = { MM_RELEASES_URL: `${base}/releases` };

  await runCases(t, {
    "no version: the latest release's tag": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["resolve"], env, dir);
      assertEquals([run.code, run.outputs.version], [0, "v1.2.3"], run.stderr);
    },
    "a version that is a release: that tag": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["resolve"], { ...env, MM_VERSION: "v6.6.6" }, dir);
      assertEquals([run.code, run.outputs.version], [0, "v6.6.6"], run.stderr);
    },
    "a tag that does not exist: the step fails naming it": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["resolve"], { ...env, MM_VERSION: "v9.9.9" }, dir);
      assertEquals(run.code, 1);
      assertEquals(
        run.stderr,
        `mm action: no release v9.9.9 at ${base}/releases (${base}/releases/tag/v9.9.9 answered HTTP 404) — set version to an existing release tag, or leave it empty for the latest\n`,
      );
      assertEquals(run.outputs, {});
    },
    "no network to the release host: a clear error": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["resolve"], {
        MM_RELEASES_URL: "http://127.0.0.1:9/releases",
      }, dir);
      assertEquals(run.code, 1);
      assertStringIncludes(
        run.stderr,
        "mm action: cannot reach the release host for http://127.0.0.1:9/releases/latest (",
      );
      assertStringIncludes(run.stderr, "— the runner needs network access to it");
    },
    "install: checked, installed, and it runs": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["install"], {
        ...env,
        MM_VERSION: "v1.2.3",
        MM_INSTALL_DIR: `${dir}/tool/mm/v1.2.3`,
      }, dir);
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(run.stdout, `checksum ok: ${good}\n`);
      assertEquals(await Deno.readTextFile(`${dir}/tool/mm/v1.2.3/mm`), binary);
    },
    "install: a checksum mismatch fails the step and installs nothing": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["install"], {
        ...env,
        MM_VERSION: "v6.6.6",
        MM_INSTALL_DIR: `${dir}/bin`,
      }, dir);
      assertEquals(run.code, 1);
      assertStringIncludes(run.stderr, `mm install: checksum mismatch for ${asset}`);
      assertEquals(await Array.fromAsync(Deno.readDir(`${dir}/bin`)).catch(() => []), []);
    },
    "without MM_REPO or MM_RELEASES_URL: says what to set": async () => {
      const dir = await tempDir("mm-action-");
      const run = await script("sh", INSTALL, ["resolve"], {}, dir);
      assertEquals(run.code, 1);
      assertStringIncludes(run.stderr, "mm action: MM_REPO must be owner/name");
    },
  });
  await release.shutdown();
});

Deno.test("scripts/action/run.sh: mm -p --json with the action's inputs", async (t) => {
  const server = ScriptedServer.start();
  // The "installed binary": mm from source, as the release's binary would run.
  const bin = await tempDir("mm-action-bin-");
  const mm = `${bin}/mm`;
  await Deno.writeTextFile(
    mm,
    `#!/bin/sh\nexec "${Deno.execPath()}" run --allow-all --no-config --quiet "${MAIN}" "$@"\n`,
  );
  await Deno.chmod(mm, 0o755);

  /** A project at the scripted server with `model` (and `extra` lines in its agent file). */
  const project = (model: string, extra = "") =>
    workdir(`provider: openai\nurl: ${server.url}\nmodel: ${model}\n${extra}`);
  /** run.sh in `cwd` with the inputs `inputs` (INPUT_ added). */
  const run = (cwd: string, inputs: Record<string, string>) =>
    script(
      "bash",
      RUN,
      [],
      {
        MM: mm,
        MM_TRUST: "1",
        ...Object.fromEntries(
          Object.entries(inputs).map((
            [k, v],
          ) => [`INPUT_${k.toUpperCase().replaceAll("-", "_")}`, v]),
        ),
      },
      cwd,
    );
  /** The events of a log file. */
  const events = async (path: string) =>
    (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));

  await runCases(t, {
    "an answer: outputs answer and exit-code, the events in json-log": async () => {
      server.script("a-ok", [{ text: "All tests pass.\nNothing to fix." }]);
      const dir = await project("a-ok");
      const r = await run(dir, { prompt: "check", "json-log": `${dir}/logs/mm.jsonl` });
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.outputs.answer, "All tests pass.\nNothing to fix.");
      assertEquals(r.outputs["exit-code"], "0");
      assertEquals(r.outputs["json-log"], `${dir}/logs/mm.jsonl`);
      assertEquals((await events(`${dir}/logs/mm.jsonl`)).at(-1).type, "answer");
    },
    "prompt-file, and an answer that follows output-schema": async () => {
      server.script("a-schema", [{ text: '{"ok": true}' }]);
      const dir = await project("a-schema");
      await Deno.writeTextFile(`${dir}/prompt.md`, "-- is it ok?");
      await Deno.writeTextFile(`${dir}/schema.json`, '{"type":"object","required":["ok"]}');
      const r = await run(dir, { "prompt-file": "prompt.md", "output-schema": "schema.json" });
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.outputs.answer, '{"ok":true}');
      assertEquals(server.chats("a-schema")[0].body.messages.at(-1).content, "-- is it ok?");
    },
    "yolo false (the default): a call that would ask is refused, nobody is asked": async () => {
      server.script("a-ask", [
        { toolCalls: [{ name: "bash", arguments: { command: "touch made" } }] },
        { text: "could not" },
      ]);
      const dir = await project("a-ask");
      const r = await run(dir, { prompt: "make a file" });
      assertEquals(r.code, 0, r.stderr);
      const result = (await events(r.outputs["json-log"])).find((e) => e.type === "tool_result");
      assertEquals(result.failed, true);
      assertEquals(await Deno.stat(`${dir}/made`).then(() => true, () => false), false);
    },
    "yolo true: the command runs": async () => {
      server.script("a-yolo", [
        { toolCalls: [{ name: "bash", arguments: { command: "touch made" } }] },
        { text: "made it" },
      ]);
      const dir = await project("a-yolo");
      const r = await run(dir, { prompt: "make a file", yolo: "true" });
      assertEquals([r.code, r.outputs.answer], [0, "made it"], r.stderr);
      await Deno.stat(`${dir}/made`);
    },
    "a failed turn: exit-code 1, the step fails, no answer": async () => {
      const dir = await project("a-missing");
      const r = await run(dir, { prompt: "hi" });
      assertEquals([r.code, r.outputs["exit-code"], r.outputs.answer], [1, "1", ""]);
    },
    "agent-file is passed with -c, args are split as xargs splits": async () => {
      server.script("a-other", [{ text: "from the other file" }]);
      const dir = await project("a-never");
      await Deno.writeTextFile(`${dir}/ci.yaml`, "model: a-other\n");
      const r = await run(dir, {
        prompt: "hi",
        "agent-file": "ci.yaml",
        args: `--timeout '1m'  --yolo=false`,
      });
      assertEquals([r.code, r.outputs.answer], [0, "from the other file"], r.stderr);
    },
    "provider, url and model inputs are the flags": async () => {
      server.script("a-flags", [{ text: "flagged" }]);
      const dir = await tempDir("mm-action-");
      const r = await run(dir, {
        prompt: "hi",
        provider: "llamacpp",
        url: server.url,
        model: "a-flags",
      });
      assertEquals([r.code, r.outputs.answer], [0, "flagged"], r.stderr);
    },
    "bad input: no prompt, both prompts, a yolo that is not a boolean, an unknown flag":
      async () => {
        const dir = await project("a-none");
        const none = await run(dir, {});
        assertEquals([none.code, none.stderr], [
          2,
          "mm action: no prompt: set the input prompt or prompt-file\n",
        ]);
        const both = await run(dir, { prompt: "a", "prompt-file": "b" });
        assertEquals(both.code, 2);
        assertStringIncludes(both.stderr, "both prompt and prompt-file are set");
        const yolo = await run(dir, { prompt: "a", yolo: "yes" });
        assertEquals([yolo.code, yolo.stderr], [
          2,
          'mm action: yolo takes true or false, not "yes"\n',
        ]);
        const flag = await run(dir, { prompt: "a", args: "--frobnicate" });
        assertEquals(flag.code, 2);
        assertStringIncludes(flag.stderr, "unknown flag --frobnicate");
        assertEquals(server.chats("a-none").length, 0);
      },
    "a matrix of prompts in parallel on one repository: no clash": async () => {
      const dir = await project("a-matrix", "sessions:\n  enabled: true\n");
      server.script("a-matrix", [1, 2, 3, 4].map((n) => ({ text: `answer ${n}`, delay: 50 })));
      const runs = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          run(dir, { prompt: `prompt ${n}`, "json-log": `${dir}/${n}.jsonl` })
        ),
      );
      assertEquals(runs.map((r) => r.code), [0, 0, 0, 0], runs.map((r) => r.stderr).join(""));
      assertEquals(runs.map((r) => r.outputs.answer).sort(), [
        "answer 1",
        "answer 2",
        "answer 3",
        "answer 4",
      ]);
      assertEquals(sessionFiles(dir).length, 4);
    },
  });
  await server.close();
});
