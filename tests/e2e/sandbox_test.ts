/**
 * The sandbox through the real `mm -p` against the scripted server: what bash and a declared tool
 * may write under `workspace` and `readonly`, the network off, the faults of the keys, no bwrap.
 * Linux only (bubblewrap); where bwrap cannot run, every case fails saying so.
 */

import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, tempDir, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { sandboxTrial } from "../../lib/exec/sandbox.ts";

const LINUX = Deno.build.os === "linux";
let server: ScriptedServer | undefined;

/** A project whose agent file points at the scripted server with `model`, and a $HOME apart. */
async function project(model: string, extra: string) {
  const dir = await workdir(`url: ${server!.url}\nmodel: ${model}\n${extra}`);
  const home = await tempDir("mm-e2e-home-");
  return { dir, home, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config") } };
}

/** The tool messages mm sent back in the `n`th chat request for `model`. */
function toolOutputs(model: string, n: number): string[] {
  return server!.chats(model)[n].body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => m.content);
}

const bashCall = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

Deno.test({
  name: "the sandbox through mm -p",
  ignore: !LINUX,
  async fn(t) {
    server = ScriptedServer.start();
    try {
      await cases(t);
    } finally {
      await server.close();
    }
  },
});

async function cases(t: Deno.TestContext): Promise<void> {
  {
    const probe = await tempDir();
    const failed = await sandboxTrial({ mode: "workspace", network: true }, probe);
    if (failed !== undefined) {
      throw new Error(
        `bwrap cannot run a command here (${failed}): these tests need bubblewrap ` +
          "(apt install bubblewrap; .ci/run installs it) and user namespaces",
      );
    }
    await runCases(t, {
      "workspace: $HOME read-only, /tmp private, the project writable": async () => {
        const tmpName = `/tmp/mm-sandbox-${crypto.randomUUID()}`;
        server!.script("ws", [
          bashCall(`touch $HOME/x; echo hi > ${tmpName}; cat ${tmpName}; touch ./inproject`),
          { toolCalls: [{ name: "home_touch", arguments: {} }] },
          { text: "done" },
        ]);
        const { dir, home, env } = await project(
          "ws",
          "sandbox: workspace\ntools:\n  - name: home_touch\n    command: [bash, -c, 'touch \"$HOME/declared\"']\n",
        );
        const run = await runMM(["-p", "go"], { cwd: dir, env });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("ws", 1), [
          `touch: cannot touch '${home}/x': Read-only file system\nhi\n`,
        ]);
        // A declared tool runs in the sandbox too.
        assertStringIncludes(
          toolOutputs("ws", 2)[1],
          `touch: cannot touch '${home}/declared': Read-only file system`,
        );
        assertEquals(await exists(join(dir, "inproject")), true);
        assertEquals(await exists(join(home, "x")), false);
        assertEquals(await exists(tmpName), false);
      },
      "readonly: the project write fails too": async () => {
        server!.script("ro", [bashCall("touch ./inproject; echo ok > /tmp/f; cat /tmp/f"), {
          text: "done",
        }]);
        const { dir, env } = await project("ro", "sandbox: readonly\n");
        const run = await runMM(["-p", "go"], { cwd: dir, env });
        assertEquals(run.code, 0, run.stderr);
        assertEquals(toolOutputs("ro", 1), [
          "touch: cannot touch './inproject': Read-only file system\nok\n",
        ]);
        assertEquals(await exists(join(dir, "inproject")), false);
      },
      "sandboxNetwork: false: the scripted server's port cannot be reached": async () => {
        const port = new URL(server!.url).port;
        const command = `echo > /dev/tcp/127.0.0.1/${port} && echo reached`;
        server!.script("net-off", [bashCall(command), { text: "done" }]);
        server!.script("net-on", [bashCall(command), { text: "done" }]);
        const off = await project("net-off", "sandbox: workspace\nsandboxNetwork: false\n");
        const on = await project("net-on", "sandbox: workspace\n");
        const [runOff, runOn] = await Promise.all([
          runMM(["-p", "go"], { cwd: off.dir, env: off.env }),
          runMM(["-p", "go"], { cwd: on.dir, env: on.env }),
        ]);
        assertEquals([runOff.code, runOn.code], [0, 0], runOff.stderr + runOn.stderr);
        const [outOff] = toolOutputs("net-off", 1);
        assertStringIncludes(outOff, "Connection refused");
        assertEquals(outOff.includes("reached"), false, outOff);
        assertEquals(toolOutputs("net-on", 1), ["reached\n"]);
      },
      "a bad value: exit 2 with the message": async () => {
        const { dir, env } = await project("bad", "sandbox: workspce\n");
        const run = await runMM(["-p", "go"], { cwd: dir, env });
        assertEquals(run.code, 2);
        assertEquals(
          run.stderr,
          `mm: ${dir}/mm.yaml:3:10: sandbox: expected one of off, workspace, readonly, found "workspce" — did you mean "workspace"?\n`,
        );
      },
      "no bwrap on the PATH: a configuration error naming the package": async () => {
        const { dir, env } = await project("nobwrap", "sandbox: workspace\n");
        const emptyBin = await tempDir("mm-e2e-bin-");
        const run = await runMM(["-p", "go"], { cwd: dir, env: { ...env, PATH: emptyBin } });
        assertEquals(run.code, 2);
        assertEquals(
          run.stderr,
          `mm: ${dir}/mm.yaml: sandbox: workspace needs bwrap (executable file not found in $PATH) — install the bubblewrap package (apt install bubblewrap)\n`,
        );
        assertEquals(server!.chats("nobwrap").length, 0);
      },
      "sandboxNetwork: false without a sandbox: a configuration error": async () => {
        const { dir, env } = await project("net-alone", "sandboxNetwork: false\n");
        const run = await runMM(["-p", "go"], { cwd: dir, env });
        assertEquals(run.code, 2);
        assertEquals(
          run.stderr,
          `mm: ${dir}/mm.yaml: sandboxNetwork: false confines only a sandbox — set sandbox: workspace or readonly too\n`,
        );
      },
      "mm doctor says the sandbox is on": async () => {
        server!.script("doc", [{ text: "hi" }]);
        const { dir, env } = await project("doc", "sandbox: workspace\nsandboxNetwork: false\n");
        const run = await runMM(["doctor"], { cwd: dir, env });
        assertStringIncludes(
          run.stdout,
          `✔ agent file: ${dir}/mm.yaml (project: url, model, sandbox, sandboxNetwork)\n✔ sandbox: workspace (bubblewrap), network off\n`,
        );
      },
      "mm doctor without bwrap: the check fails with the fix": async () => {
        const { dir, env } = await project("doc-nobwrap", "sandbox: readonly\n");
        const emptyBin = await tempDir("mm-e2e-bin-");
        const run = await runMM(["doctor"], { cwd: dir, env: { ...env, PATH: emptyBin } });
        assertEquals(run.code, 1);
        assertStringIncludes(
          run.stdout,
          "✘ sandbox: readonly needs bwrap (executable file not found in $PATH) — install the bubblewrap package (apt install bubblewrap)\n",
        );
      },
    });
  }
}
