/**
 * Trust for a project's agent file through the real mm (docs/security.md): a cloned repository's
 * mm.yaml runs nothing until the user trusts its folder — `mm -p` and `mm --ask` refuse, doctor
 * and the editor leave it out, line mode asks at start — and the user's own safety settings
 * survive a project file.
 */
import { methods, RequestError } from "npm:@agentclientprotocol/sdk@2.4.0";
import { assertEquals, assertRejects, assertStringIncludes } from "../helpers/assert.ts";
import { Editor } from "../helpers/acp.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** Not trusted by the helpers' MM_TRUST. */
const UNTRUSTED = { MM_TRUST: "" };

/** A project whose mm.yaml has a hook and an MCP server that would each create a marker file. */
async function project(model: string): Promise<string> {
  return await workdir(`url: ${server.url}
model: ${model}
hooks:
  preGeneration:
    - command: ["touch", "hook-marker"]
mcpServers:
  marker:
    command: touch
    args: [mcp-marker]
`);
}

/** Whether either marker is there. */
async function ran(dir: string): Promise<boolean> {
  return (await exists(`${dir}/hook-marker`)) || (await exists(`${dir}/mcp-marker`));
}

/**
 * Untrusted, with a user agent file of its own (the scripted server, `model`) in a config folder
 * shared by every mm given this environment, wherever it starts.
 */
async function userFile(model: string): Promise<Record<string, string>> {
  const config = await tempDir();
  await Deno.mkdir(`${config}/mm`);
  await Deno.writeTextFile(`${config}/mm/mm.yaml`, `url: ${server.url}\nmodel: ${model}\n`);
  return { ...UNTRUSTED, XDG_CONFIG_HOME: config };
}

const refusal = (dir: string) =>
  `mm: ${dir}/mm.yaml sets hooks, mcpServers, which run programs, connect to other hosts or widen access, and this folder is not trusted — check them, then run mm trust (or mm --trust for this run only)\n`;

Deno.test("trust of a project's agent file", async (t) => {
  await runCases(t, {
    "mm -p: nothing of an untrusted file runs, exit 2, one message": async () => {
      server.script("t-refuse", [{ text: "never asked" }]);
      const dir = await project("t-refuse");
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 2);
      assertEquals(run.stderr, refusal(dir));
      assertEquals(run.stdout, "");
      assertEquals(await ran(dir), false);
      assertEquals(server.chats("t-refuse").length, 0);
    },
    "mm --ask: refused the same way": async () => {
      const dir = await project("t-ask");
      const run = await runMM(["--ask", "x", "hi"], { cwd: dir, env: UNTRUSTED });
      assertEquals([run.code, run.stderr], [2, refusal(dir)]);
      assertEquals(await ran(dir), false);
    },
    "--trust and MM_TRUST=1: the file runs for that run": async () => {
      server.script("t-once", [{ text: "one" }, { text: "two" }]);
      const dir = await project("t-once");
      const run = await runMM(["--trust", "-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await exists(`${dir}/hook-marker`), true);
      await Deno.remove(`${dir}/hook-marker`);
      const again = await runMM(["-p", "hello"], { cwd: dir, env: { MM_TRUST: "1" } });
      assertEquals(again.code, 0, again.stderr);
      assertEquals(await exists(`${dir}/hook-marker`), true);
      // Nothing recorded: the next run is refused again.
      const later = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(later.code, 2);
    },
    "mm doctor: ✘ trust, and none of the file's servers started": async () => {
      const dir = await project("t-doctor");
      const run = await runMM(["doctor"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 1);
      const lines = run.stdout.split("\n");
      assertEquals(
        lines[0],
        `✔ agent file: ${dir}/mm.yaml (project: url, model, hooks, mcpServers)`,
      );
      assertEquals(lines[1], `✘ ${refusal(dir).slice("mm: ".length, -1).replace(/^/, "trust: ")}`);
      assertEquals(run.stdout.includes("MCP server marker"), false);
      assertEquals(await ran(dir), false);
    },
    "mm trust shows what runs and records it; then mm -p runs; a change untrusts": async () => {
      server.script("t-trust", [{ text: "ok" }, { text: "never" }]);
      const dir = await project("t-trust");
      const trust = await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
      assertEquals(trust.code, 0, trust.stderr);
      assertEquals(
        trust.stdout,
        `${dir}/mm.yaml\nIt runs:\n  hooks.preGeneration: touch hook-marker\n  mcpServers.marker: touch mcp-marker\n` +
          `${dir} is trusted (recorded in ${dir}/.config/mm/trusted.json)\n`,
      );
      assertEquals(await ran(dir), false);
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await exists(`${dir}/hook-marker`), true);
      // A change of a key that needs trust: untrusted again; of another key: still trusted.
      const text = await Deno.readTextFile(`${dir}/mm.yaml`);
      await Deno.writeTextFile(`${dir}/mm.yaml`, text.replace("hook-marker", "other-marker"));
      const changed = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(changed.code, 2);
      assertEquals(await exists(`${dir}/other-marker`), false);
      const list = await runMM(["trust", "--list"], { cwd: dir, env: UNTRUSTED });
      assertStringIncludes(list.stdout, `${dir}  ${dir}/mm.yaml`);
      const revoke = await runMM(["trust", "--revoke"], { cwd: dir, env: UNTRUSTED });
      assertEquals(revoke.stdout, `${dir} is no longer trusted\n`);
    },
    "a project file that only picks its model needs no trust": async () => {
      server.script("t-plain", [{ text: "plain answer" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: t-plain\nyolo: false\n`);
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals([run.code, run.stdout], [0, "plain answer\n"], run.stderr);
    },
    "the user's yolo: false survives a project file without yolo": async () => {
      server.script("t-yolo", [
        { toolCalls: [{ name: "bash", arguments: { command: "touch yolo-marker" } }] },
        { text: "done" },
      ]);
      const dir = await workdir(`url: ${server.url}\nmodel: t-yolo\n`);
      await Deno.mkdir(`${dir}/.config/mm`, { recursive: true });
      await Deno.writeTextFile(`${dir}/.config/mm/mm.yaml`, "yolo: false\n");
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(await exists(`${dir}/yolo-marker`), false, run.stderr);
    },
    "an untrusted yolo: true does not loosen the user's yolo: false": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: t-yolo2\nyolo: true\n`);
      await Deno.mkdir(`${dir}/.config/mm`, { recursive: true });
      await Deno.writeTextFile(`${dir}/.config/mm/mm.yaml`, "yolo: false\n");
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 2);
      assertStringIncludes(run.stderr, "mm.yaml sets yolo, which run programs");
    },
    "systemFile and sessions.dir through a symbolic link out of the folder need trust":
      async () => {
        server.script("t-link", [{ text: "never asked" }]);
        const outside = await tempDir("mm-e2e-outside-");
        await Deno.mkdir(`${outside}/secretdir`);
        await Deno.writeTextFile(`${outside}/secretdir/id_rsa`, "PRIVATE KEY\n");
        const dir = await workdir(
          `url: ${server.url}\nmodel: t-link\nsystemFile: prompt.md\nsessions: {dir: sess}\n`,
        );
        await Deno.symlink(`${outside}/secretdir/id_rsa`, `${dir}/prompt.md`);
        await Deno.symlink(`${outside}/secretdir`, `${dir}/sess`);
        const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
        assertEquals(run.code, 2, run.stderr);
        assertStringIncludes(run.stderr, `${dir}/mm.yaml sets systemFile, sessions, which run`);
        assertEquals(server.chats("t-link").length, 0);
        const list = await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
        assertStringIncludes(list.stdout, `systemFile: ${dir}/prompt.md (outside this folder)`);
        assertStringIncludes(list.stdout, `sessions.dir: ${dir}/sess (outside this folder)`);
        // A link that stays inside the folder needs no trust.
        const inside = await workdir(`url: ${server.url}\nmodel: t-link\nsystemFile: p.md\n`);
        await Deno.writeTextFile(`${inside}/real.md`, "be brief\n");
        await Deno.symlink(`${inside}/real.md`, `${inside}/p.md`);
        const ok = await runMM(["-p", "hello"], { cwd: inside, env: UNTRUSTED });
        assertEquals(ok.code, 0, ok.stderr);
      },
    "an mmConfigs file: mm trust lists what it runs; a change of it untrusts": async () => {
      server.script("t-agent", [{ text: "one" }, { text: "two" }]);
      const dir = await workdir(
        `url: ${server.url}\nmodel: t-agent\nmmConfigs:\n  helper: {file: helper.yaml}\n`,
      );
      await Deno.writeTextFile(
        `${dir}/helper.yaml`,
        `hooks:\n  preGeneration:\n    - command: ["touch", "child-marker"]\n`,
      );
      const trust = await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
      assertEquals(trust.code, 0, trust.stderr);
      assertStringIncludes(
        trust.stdout,
        `  mmConfigs.helper: mm with the agent file ${dir}/helper.yaml\n` +
          `  mmConfigs.helper › hooks.preGeneration: touch child-marker\n`,
      );
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 0, run.stderr);
      await Deno.writeTextFile(
        `${dir}/helper.yaml`,
        `hooks:\n  preGeneration:\n    - command: ["touch", "other-marker"]\n`,
      );
      const changed = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(changed.code, 2, changed.stderr);
      assertStringIncludes(changed.stderr, "mm.yaml sets mmConfigs, which run programs");
      // A file removed is a change too.
      await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
      await Deno.remove(`${dir}/helper.yaml`);
      const gone = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(gone.code, 2, gone.stderr);
    },
    "a trust store that is not JSON: reported, not overwritten": async () => {
      const dir = await project("t-broken");
      await Deno.mkdir(`${dir}/.config/mm`, { recursive: true });
      await Deno.writeTextFile(`${dir}/.config/mm/trusted.json`, "{nope");
      const trust = await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
      assertEquals(trust.code, 2);
      assertStringIncludes(trust.stderr, `trusted.json is not JSON`);
      assertEquals(await Deno.readTextFile(`${dir}/.config/mm/trusted.json`), "{nope");
    },
    "editor mode: session/new answers with the refusal, and nothing runs": async () => {
      const dir = await project("t-acp");
      const editor = await Editor.start({ cwd: dir, env: UNTRUSTED });
      try {
        await editor.agent.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: {},
        });
        const e = await assertRejects(
          () => editor.agent.request(methods.agent.session.new, { cwd: dir, mcpServers: [] }),
          RequestError,
        );
        assertEquals(e.message, refusal(dir).slice("mm: ".length, -1));
      } finally {
        await editor.close();
      }
      assertEquals(await ran(dir), false);
    },
    "editor mode judges each session's folder: started elsewhere, an untrusted one is refused":
      async () => {
        const dir = await project("t-acp-away");
        const editor = await Editor.start({
          cwd: await tempDir(),
          env: await userFile("t-acp-u1"),
        });
        try {
          const e = await assertRejects(() => editor.newSession(dir), RequestError);
          assertEquals(e.message, refusal(dir).slice("mm: ".length, -1));
        } finally {
          await editor.close();
        }
        assertEquals(await ran(dir), false);
      },
    "editor mode: started in an untrusted project, a neutral folder's session works": async () => {
      server.script("t-acp-u2", [{ text: "neutral" }]);
      const dir = await project("t-acp-home");
      const neutral = await tempDir();
      const editor = await Editor.start({ cwd: dir, env: await userFile("t-acp-u2") });
      try {
        const id = await editor.newSession(neutral);
        assertEquals(await editor.prompt(id, "hello"), "end_turn");
      } finally {
        await editor.close();
      }
      assertEquals(server.chats("t-acp-u2").length, 1);
      assertEquals([await ran(dir), await ran(neutral)], [false, false]);
    },
    "editor mode: a trusted project's session runs with its agent file": async () => {
      server.script("t-acp-trusted", [{ text: "trusted" }]);
      const dir = await project("t-acp-trusted");
      const env = await userFile("t-acp-u3");
      const trust = await runMM(["trust", "--yes"], { cwd: dir, env });
      assertEquals(trust.code, 0, trust.stderr);
      const editor = await Editor.start({ cwd: await tempDir(), env });
      try {
        const id = await editor.newSession(dir);
        assertEquals(await editor.prompt(id, "hello"), "end_turn");
      } finally {
        await editor.close();
      }
      assertEquals(server.chats("t-acp-trusted").length, 1);
      assertEquals(server.chats("t-acp-u3").length, 0);
      assertEquals(await exists(`${dir}/hook-marker`), true);
    },
  });
});

Deno.test("line mode asks once at start", async (t) => {
  /** Starts mm in line mode in an untrusted project and waits for the question. */
  async function asked(model: string) {
    server.script(model, [{ text: "fine" }]);
    const dir = await project(model);
    const term = await Terminal.mm(dir, [], UNTRUSTED);
    const screen = await term.waitFor("[i]gnore those keys:");
    assertStringIncludes(screen, "hooks.preGeneration: touch hook-marker");
    assertStringIncludes(screen, "mcpServers.marker: touch mcp-marker");
    assertEquals(await ran(dir), false);
    return { term, dir };
  }
  await runCases(t, {
    "trust: runs, and is remembered": async () => {
      const { term, dir } = await asked("t-line-trust");
      try {
        await term.type("t");
        await term.keys("Enter");
        await term.waitFor("Ctrl-D quits.");
        await term.type("hello");
        await term.keys("Enter");
        await term.waitFor("fine");
        assertEquals(await exists(`${dir}/hook-marker`), true);
        const store = JSON.parse(await Deno.readTextFile(`${dir}/.config/mm/trusted.json`));
        assertEquals(store.folders[0].folder, dir);
      } finally {
        await term.kill();
      }
    },
    "only this time: runs, and nothing is recorded": async () => {
      const { term, dir } = await asked("t-line-once");
      try {
        await term.type("o");
        await term.keys("Enter");
        await term.waitFor("Ctrl-D quits.");
        await term.type("hello");
        await term.keys("Enter");
        await term.waitFor("fine");
        assertEquals(await exists(`${dir}/hook-marker`), true);
        assertEquals(await exists(`${dir}/.config/mm/trusted.json`), false);
      } finally {
        await term.kill();
      }
    },
    "ignore: goes on without those keys": async () => {
      const { term, dir } = await asked("t-line-ignore");
      try {
        await term.type("i");
        await term.keys("Enter");
        await term.waitFor("Ctrl-D quits.");
        await term.type("hello");
        await term.keys("Enter");
        await term.waitFor("fine");
        assertEquals(await ran(dir), false);
        assertEquals(await exists(`${dir}/.config/mm/trusted.json`), false);
      } finally {
        await term.kill();
      }
    },
  });
});
