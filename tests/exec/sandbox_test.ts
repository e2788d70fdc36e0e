/** The sandbox of bash and declared tools (lib/exec/sandbox.ts): its argv, its faults, and bwrap for real. */

import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { execFor, realExec, runProcess } from "../../lib/exec/run.ts";
import {
  checkSandbox,
  INSTALL_BWRAP,
  NETWORK_WITHOUT_SANDBOX,
  type Sandbox,
  sandboxArgv,
  sandboxOf,
  sandboxProblem,
  sandboxText,
  sandboxTrial,
} from "../../lib/exec/sandbox.ts";
import { ConfigError } from "../../lib/config/errors.ts";
import { assertRejects } from "../helpers/assert.ts";
import type { ExecResult } from "../../lib/tool.ts";

const WORKSPACE: Sandbox = { mode: "workspace", network: true };
const READONLY: Sandbox = { mode: "readonly", network: true };

Deno.test("sandboxArgv", async (t) => {
  const head = [
    "bwrap",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
  ];
  await t.step("workspace: the working directory read-write, the rest read-only", () => {
    assertEquals(sandboxArgv(WORKSPACE, ["bash", "-c", "ls"], "/home/u/proj", "/home/u"), [
      ...head,
      "--bind",
      "/home/u/proj",
      "/home/u/proj",
      "--unshare-pid",
      "--die-with-parent",
      "--setenv",
      "TMPDIR",
      "/tmp",
      "--chdir",
      "/home/u/proj",
      "--",
      "bash",
      "-c",
      "ls",
    ]);
  });
  await t.step("readonly: the working directory read-only too; no network", () => {
    assertEquals(
      sandboxArgv({ mode: "readonly", network: false }, ["make"], "/home/u/proj/", undefined),
      [
        ...head,
        "--ro-bind",
        "/home/u/proj",
        "/home/u/proj",
        "--unshare-pid",
        "--die-with-parent",
        "--unshare-net",
        "--setenv",
        "TMPDIR",
        "/tmp",
        "--chdir",
        "/home/u/proj",
        "--",
        "make",
      ],
    );
  });
  await t.step("a $HOME under /tmp is mounted again, read-only, before the project", () => {
    const argv = sandboxArgv(WORKSPACE, ["true"], "/tmp/p", "/tmp/h");
    assertEquals(argv.slice(head.length, head.length + 6), [
      "--ro-bind-try",
      "/tmp/h",
      "/tmp/h",
      "--bind",
      "/tmp/p",
      "/tmp/p",
    ]);
  });
  await t.step(
    "the argv comes after --, as given (an option-like word stays the command's)",
    () => {
      const argv = sandboxArgv(WORKSPACE, ["--help"], "/p");
      assertEquals(argv.slice(-2), ["--", "--help"]);
    },
  );
});

Deno.test("sandboxOf and sandboxText", () => {
  assertEquals(sandboxOf({ sandbox: "off", sandboxNetwork: true }), undefined);
  assertEquals(sandboxOf({ sandbox: "readonly", sandboxNetwork: false }), {
    mode: "readonly",
    network: false,
  });
  assertEquals(sandboxText(WORKSPACE), "workspace (bubblewrap), network on");
  assertEquals(
    sandboxText({ mode: "readonly", network: false }),
    "readonly (bubblewrap), network off",
  );
});

Deno.test("sandboxProblem", async (t) => {
  await t.step("off: none", async () => {
    assertEquals(await sandboxProblem({ sandbox: "off", sandboxNetwork: true }), undefined);
  });
  await t.step("sandboxNetwork false without a sandbox", async () => {
    assertEquals(
      await sandboxProblem({ sandbox: "off", sandboxNetwork: false }),
      "sandboxNetwork: false confines only a sandbox — set sandbox: workspace or readonly too",
    );
    assertEquals(
      await sandboxProblem({ sandbox: "off", sandboxNetwork: false }),
      NETWORK_WITHOUT_SANDBOX,
    );
  });
  await t.step("macOS and Windows have none yet", async () => {
    const config = { sandbox: "workspace", sandboxNetwork: true } as const;
    assertEquals(
      await sandboxProblem(config, "darwin"),
      "sandbox: workspace: mm has no sandbox on darwin yet (it uses bubblewrap, on Linux) — set sandbox: off",
    );
    assertEquals(
      await sandboxProblem({ ...config, sandbox: "readonly" }, "windows"),
      "sandbox: readonly: mm has no sandbox on windows yet (it uses bubblewrap, on Linux) — set sandbox: off",
    );
  });
  await t.step("no bwrap on the PATH: the package to install", async () => {
    const empty = await Deno.makeTempDir({ prefix: "mm-nobwrap-" });
    const path = Deno.env.get("PATH");
    Deno.env.set("PATH", empty);
    try {
      const config = { sandbox: "workspace", sandboxNetwork: true } as const;
      const problem =
        "sandbox: workspace needs bwrap (executable file not found in $PATH) — install the bubblewrap package (apt install bubblewrap)";
      assertEquals(await sandboxProblem(config, "linux"), problem);
      assertStringIncludes(problem, INSTALL_BWRAP);
      const err = await assertRejects(
        () => checkSandbox({ ...config, file: "/p/mm.yaml" }),
        ConfigError,
      );
      assertEquals(err.message, `/p/mm.yaml: ${problem}`);
      assertEquals([err.exitCode, err.key], [2, "sandbox"]);
    } finally {
      if (path === undefined) Deno.env.delete("PATH");
      else Deno.env.set("PATH", path);
      await Deno.remove(empty, { recursive: true });
    }
  });
  await t.step("bwrap on the PATH: none", async () => {
    const bin = await Deno.makeTempDir({ prefix: "mm-bwrap-" });
    await Deno.writeTextFile(join(bin, "bwrap"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const path = Deno.env.get("PATH");
    Deno.env.set("PATH", bin);
    try {
      const config = { sandbox: "readonly", sandboxNetwork: false } as const;
      assertEquals(await sandboxProblem(config, "linux"), undefined);
    } finally {
      if (path === undefined) Deno.env.delete("PATH");
      else Deno.env.set("PATH", path);
      await Deno.remove(bin, { recursive: true });
    }
  });
});

Deno.test("execFor: off is the real Exec itself", () => {
  assertEquals(execFor({ sandbox: "off", sandboxNetwork: true }), realExec);
});

/** Why bwrap cannot confine a command on this machine; the tests below fail with it, never skip. */
async function bwrapFault(cwd: string): Promise<string | undefined> {
  const failed = await sandboxTrial(WORKSPACE, cwd, Deno.env.get("HOME"));
  return failed === undefined ? undefined : `bwrap cannot run a command here: ${failed} — the ` +
    "sandbox tests need bubblewrap (apt install bubblewrap; .ci/run installs it) and user namespaces";
}

/** `bash -c script` in `cwd` under `sandbox`, through the runner every command takes. */
async function confined(sandbox: Sandbox, script: string, cwd: string, timeout = 10_000) {
  return await runProcess(
    { argv: ["bash", "-c", script], cwd, timeout, signal: new AbortController().signal },
    "setsid",
    sandbox,
  );
}

Deno.test({
  name: "the sandbox for real (bwrap)",
  ignore: Deno.build.os !== "linux",
  async fn(t) {
    const root = await Deno.makeTempDir({ prefix: "mm-sandbox-" });
    const project = join(root, "project");
    const home = join(root, "home");
    await Deno.mkdir(project);
    await Deno.mkdir(home);
    const marker = `/tmp/mm-sandbox-${crypto.randomUUID()}`;
    const fault = await bwrapFault(project);
    if (fault) throw new Error(fault);
    const homeBefore = Deno.env.get("HOME");
    Deno.env.set("HOME", home);
    try {
      await t.step("workspace: the project writable, $HOME read-only, /tmp private", async () => {
        const r = await confined(
          WORKSPACE,
          `touch "$HOME/x"; echo hi > ${marker}; cat ${marker}; touch ./inproject; echo "tmp: $TMPDIR"`,
          project,
        );
        assertEquals(
          r.output,
          `touch: cannot touch '${home}/x': Read-only file system\nhi\ntmp: /tmp\n`,
        );
        assertEquals(r.code, 0);
        assertEquals(await exists(join(project, "inproject")), true);
        assertEquals(await exists(join(home, "x")), false);
        assertEquals(await exists(marker), false);
      });
      await t.step("readonly: the project is read-only too, /tmp still writable", async () => {
        const r = await confined(READONLY, `touch ./ro; echo ok > /tmp/f && cat /tmp/f`, project);
        assertEquals(r.output, "touch: cannot touch './ro': Read-only file system\nok\n");
        assertEquals(await exists(join(project, "ro")), false);
      });
      await t.step("the exit code and a large output come back as without a sandbox", async () => {
        const r = await confined(WORKSPACE, "seq 1 20000; exit 3", project);
        assertEquals(r.code, 3);
        assertEquals(r.output.split("\n").length, 20001);
      });
      await t.step("a PID namespace of its own", async () => {
        const r = await confined(WORKSPACE, "echo $$", project);
        assertEquals(r.output, "2\n"); // bwrap's init is 1
      });
      await t.step("the network off: a local port cannot be reached", async () => {
        const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const port = (listener.addr as Deno.NetAddr).port;
        try {
          const script = `echo > /dev/tcp/127.0.0.1/${port} && echo reached`;
          const on = await confined(WORKSPACE, script, project);
          assertEquals(on.output, "reached\n");
          const off = await confined({ mode: "workspace", network: false }, script, project);
          assertStringIncludes(off.output, "Connection refused");
          assertEquals(off.code, 1);
        } finally {
          listener.close();
        }
      });
      await t.step("a timeout stops the command in its sandbox", async () => {
        const started = Date.now();
        const r: ExecResult = await confined(WORKSPACE, "sleep 30", project, 300);
        assertEquals(r.timedOut, true);
        assertEquals(Date.now() - started < 10_000, true);
      });
    } finally {
      if (homeBefore === undefined) Deno.env.delete("HOME");
      else Deno.env.set("HOME", homeBefore);
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxTrial: bwrap's own complaint",
  ignore: Deno.build.os === "windows",
  async fn() {
    const bin = await Deno.makeTempDir({ prefix: "mm-bwrap-" });
    await Deno.writeTextFile(
      join(bin, "bwrap"),
      "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
      { mode: 0o755 },
    );
    const path = Deno.env.get("PATH");
    Deno.env.set("PATH", `${bin}:${path}`);
    try {
      assertEquals(
        await sandboxTrial(WORKSPACE, bin),
        "bwrap: setting up uid map: Permission denied",
      );
    } finally {
      Deno.env.set("PATH", path ?? "");
      await Deno.remove(bin, { recursive: true });
    }
  },
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
