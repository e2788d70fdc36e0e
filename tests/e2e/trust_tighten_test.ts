/**
 * Without trust a project's agent file may only tighten (docs/security.md): its deny and ask rules
 * are added to the user's, its allow rules, a looser `sandbox` and `sandboxNetwork: true` need
 * trust — through the real mm against the scripted server.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import { exists, runMM, workdir } from "../helpers/mm.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";

const server = ScriptedServer.start();

/** Not trusted by the helpers' MM_TRUST. */
const UNTRUSTED = { MM_TRUST: "" };

/** A project folder with `project` as its mm.yaml and `user` as the user's agent file. */
async function folder(project: string, user: string): Promise<string> {
  const dir = await workdir(project);
  await Deno.mkdir(`${dir}/.config/mm`, { recursive: true });
  await Deno.writeTextFile(`${dir}/.config/mm/mm.yaml`, user);
  return dir;
}

Deno.test("an untrusted project file only tightens", async (t) => {
  await runCases(t, {
    "its deny rules are added to the user's, never replace them": async () => {
      server.script("tt-deny", [
        { toolCalls: [{ name: "bash", arguments: { command: "touch deny-marker" } }] },
        { text: "done" },
      ]);
      const dir = await folder(
        `url: ${server.url}\nmodel: tt-deny\npermissions:\n  deny: [bash(ls *)]\n`,
        "yolo: true\npermissions:\n  deny: [bash(touch *)]\n",
      );
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 0, run.stderr);
      assertEquals(await exists(`${dir}/deny-marker`), false);
    },
    "its allow rules need trust": async () => {
      const dir = await folder(
        `url: ${server.url}\nmodel: tt-allow\npermissions:\n  allow: [bash(touch *)]\n`,
        "",
      );
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 2, run.stderr);
      assertStringIncludes(run.stderr, `${dir}/mm.yaml sets permissions, which run programs`);
      const doctor = await runMM(["doctor"], { cwd: dir, env: UNTRUSTED });
      assertEquals(doctor.stdout.includes("allow: bash(touch *)"), false, doctor.stdout);
      const trust = await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
      assertStringIncludes(trust.stdout, "permissions.allow: bash(touch *)");
    },
    "a looser sandbox needs trust": async () => {
      const dir = await folder(
        `url: ${server.url}\nmodel: tt-sandbox\nsandbox: off\n`,
        "sandbox: workspace\n",
      );
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 2, run.stderr);
      assertStringIncludes(run.stderr, `${dir}/mm.yaml sets sandbox, which run programs`);
    },
    "the network back under the user's sandbox needs trust": async () => {
      const dir = await folder(
        `url: ${server.url}\nmodel: tt-net\nsandboxNetwork: true\n`,
        "sandbox: workspace\nsandboxNetwork: false\n",
      );
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals(run.code, 2, run.stderr);
      assertStringIncludes(run.stderr, `${dir}/mm.yaml sets sandboxNetwork, which run programs`);
    },
    "mm trust shows the file's names with their escapes drawn, and asks first": async () => {
      const dir = await workdir(
        `url: ${server.url}\nmodel: tt-esc\nhooks:\n  preGeneration:\n    - command: ["printf", "\\e[2J\\u202e"]\n`,
      );
      const ask = await runMM(["trust"], { cwd: dir, env: UNTRUSTED });
      assertEquals(ask.code, 1);
      assertStringIncludes(ask.stdout, "run mm trust --yes to trust this folder without asking");
      assertEquals(await exists(`${dir}/.config/mm/trusted.json`), false);
      const trust = await runMM(["trust", "--yes"], { cwd: dir, env: UNTRUSTED });
      assertEquals(trust.code, 0, trust.stderr);
      assertEquals(trust.stdout.includes("\x1b"), false, trust.stdout);
      assertEquals(trust.stdout.includes("\u202e"), false, trust.stdout);
      assertStringIncludes(trust.stdout, "<U+202E>");
    },
    "a trust given to the run does not reach bash": async () => {
      server.script("tt-env", [
        { toolCalls: [{ name: "bash", arguments: { command: "env > env-seen" } }] },
        { text: "done" },
      ]);
      const dir = await folder(`url: ${server.url}\nmodel: tt-env\nyolo: true\n`, "");
      const run = await runMM(["--trust", "-p", "hello"], { cwd: dir, env: { MM_TRUST: "1" } });
      assertEquals(run.code, 0, run.stderr);
      const seen = await Deno.readTextFile(`${dir}/env-seen`);
      assertEquals(seen.includes("MM_TRUST"), false);
      assertStringIncludes(seen, "HOME=");
    },
    "a stricter sandbox needs none": async () => {
      server.script("tt-strict", [{ text: "strict" }]);
      const dir = await folder(
        `url: ${server.url}\nmodel: tt-strict\nsandbox: readonly\nsandboxNetwork: false\n`,
        "sandbox: workspace\n",
      );
      const run = await runMM(["-p", "hello"], { cwd: dir, env: UNTRUSTED });
      assertEquals([run.code, run.stdout], [0, "strict\n"], run.stderr);
    },
  });
});
