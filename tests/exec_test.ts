import { join } from "node:path";
import { assertEquals, assertMatch } from "./helpers/assert.ts";
import { fakeContext } from "./helpers/fake_context.ts";
import {
  NOT_IN_PATH,
  READ_BACK_END,
  READ_BACK_LIMIT,
  realExec,
  TOO_LARGE_MARKER,
} from "../lib/exec.ts";
import type { ExecRequest, ExecResult } from "../lib/tool.ts";
import { bash } from "../tools/bash.ts";

/** Rejects when `promise` takes longer than `ms`: a guard, not a measure. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `bash -c <script>` in `cwd` through the real Exec. */
function sh(script: string, options: Partial<ExecRequest> = {}): Promise<ExecResult> {
  return within(
    10_000,
    realExec.run({
      argv: ["bash", "-c", script],
      cwd: Deno.cwd(),
      timeout: 10_000,
      signal: new AbortController().signal,
      ...options,
    }),
  );
}

/** Whether process `pid` is alive (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits until process `pid` is gone; there is nothing to await for another process's death. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

/** Kills a process the test left running, if it still runs. */
function cleanup(pid: number): void {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

Deno.test("realExec", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "mm-exec-test-" });

  await t.step("runs argv in cwd and returns its output and exit code 0", async () => {
    const result = await sh("pwd; echo hello", { cwd: dir });
    assertEquals(result, {
      output: `${await Deno.realPath(dir)}\nhello\n`,
      code: 0,
      signal: undefined,
      timedOut: false,
      cancelled: false,
    });
  });

  await t.step("argv is not a shell: arguments stay arguments", async () => {
    const result = await within(
      5000,
      realExec.run({
        argv: ["printf", "%s|", "a b", "$HOME", ";ls"],
        cwd: dir,
        timeout: 5000,
        signal: new AbortController().signal,
      }),
    );
    assertEquals(result.output, "a b|$HOME|;ls|");
  });

  await t.step("stdout and stderr merged, in order", async () => {
    const result = await sh("echo one; echo two >&2; echo three; echo four >&2");
    assertEquals(result.output, "one\ntwo\nthree\nfour\n");
  });

  await t.step("no stdin: a program reading it sees end of file", async () => {
    assertEquals((await sh("cat; echo done")).output, "done\n");
  });

  await t.step("exit codes", async () => {
    const result = await sh("echo bad >&2; exit 3");
    assertEquals([result.output, result.code, result.signal], ["bad\n", 3, undefined]);
    assertEquals((await sh("nosuchcommand-mm-test 2>/dev/null")).code, 127);
  });

  await t.step("a signal that ended the process: signal set, no code", async () => {
    const result = await sh("echo before; kill -KILL $$");
    assertEquals(result, {
      output: "before\n",
      code: undefined,
      signal: "SIGKILL",
      timedOut: false,
      cancelled: false,
    });
  });

  await t.step("background job: returns at the shell's exit; the job keeps running", async () => {
    const pidFile = join(dir, "bg.pid");
    const result = await sh(`sleep 30 & echo $! > ${pidFile}; echo started`);
    assertEquals(result.output, "started\n");
    assertEquals(result.code, 0);
    const pid = Number(await Deno.readTextFile(pidFile));
    try {
      assertEquals(alive(pid), true);
    } finally {
      cleanup(pid);
    }
  });

  await t.step("background job with nohup: returns too", async () => {
    const pidFile = join(dir, "nohup.pid");
    const result = await sh(`nohup sleep 30 >/dev/null 2>&1 & echo $! > ${pidFile}; echo ok`);
    cleanup(Number(await Deno.readTextFile(pidFile)));
    assertEquals(result.output, "ok\n");
  });

  await t.step("timeout: the whole process group is killed, children included", async () => {
    const pidFile = join(dir, "child.pid");
    const result = await sh(`echo begun; sleep 30 & echo $! > ${pidFile}; sleep 30`, {
      timeout: 300,
    });
    const pid = Number(await Deno.readTextFile(pidFile));
    try {
      assertEquals(result.timedOut, true);
      assertEquals(result.cancelled, false);
      assertEquals(result.output, "begun\n");
      assertEquals(result.code, undefined);
      assertEquals(typeof result.signal, "string");
      assertEquals(await gone(pid), true, `child ${pid} still runs`);
    } finally {
      cleanup(pid);
    }
  });

  await t.step("timeout: a process that ignores SIGTERM gets SIGKILL", async () => {
    const result = await sh(`trap "" TERM; sleep 30; echo not reached`, { timeout: 300 });
    assertEquals(result.timedOut, true);
    assertEquals(result.signal, "SIGKILL");
    assertEquals(result.output, "");
  });

  await t.step("cancellation: aborting the signal kills the group", async () => {
    const pidFile = join(dir, "cancel.pid");
    const controller = new AbortController();
    const running = sh(`sleep 30 & echo $! > ${pidFile}; echo go; sleep 30`, {
      signal: controller.signal,
    });
    const timer = setTimeout(() => controller.abort(), 200);
    const result = await running;
    clearTimeout(timer);
    const pid = Number(await Deno.readTextFile(pidFile));
    try {
      assertEquals([result.cancelled, result.timedOut, result.output], [true, false, "go\n"]);
      assertEquals(await gone(pid), true, `child ${pid} still runs`);
    } finally {
      cleanup(pid);
    }
  });

  await t.step("cancellation before the start: nothing runs", async () => {
    const marker = join(dir, "never");
    const controller = new AbortController();
    controller.abort();
    const result = await sh(`touch ${marker}`, { signal: controller.signal });
    assertEquals(result, { output: "", timedOut: false, cancelled: true });
    assertEquals(await Deno.stat(marker).catch(() => undefined), undefined);
  });

  await t.step("the temporary output file is deleted", async () => {
    const result = await sh("readlink /proc/$$/fd/1");
    const file = result.output.trim();
    assertMatch(file, /mm-exec-/);
    assertEquals(await Deno.stat(file).catch(() => undefined), undefined);
  });

  await t.step("output up to 2 MiB is read back in full", async () => {
    const result = await sh(`head -c ${READ_BACK_LIMIT} /dev/zero | tr '\\0' a`);
    assertEquals(result.output, "a".repeat(READ_BACK_LIMIT));
  });

  await t.step("output over 2 MiB: first and last MiB with the marker between", async () => {
    assertEquals(TOO_LARGE_MARKER, "\n[... output too large to read back in full ...]\n");
    const n = 1_100_000;
    const result = await sh(
      `head -c ${n} /dev/zero | tr '\\0' a; head -c ${n} /dev/zero | tr '\\0' m; ` +
        `head -c ${n} /dev/zero | tr '\\0' z`,
    );
    assertEquals(result.output.length, 2 * READ_BACK_END + TOO_LARGE_MARKER.length);
    assertEquals(
      result.output === "a".repeat(READ_BACK_END) + TOO_LARGE_MARKER + "z".repeat(READ_BACK_END),
      true,
    );
  });

  await t.step("output over 2 MiB: a character cut at either end is dropped", async () => {
    const result = await sh(`printf x; yes é | head -n 1100000 | tr -d '\\n'; printf y`);
    const half = READ_BACK_END / 2 - 1;
    assertEquals(
      result.output === "x" + "é".repeat(half) + TOO_LARGE_MARKER + "é".repeat(half) + "y",
      true,
    );
  });

  await t.step("invalid UTF-8 is decoded lossily", async () => {
    assertEquals((await sh(`printf 'caf\\351\\n'`)).output, "caf\uFFFD\n");
  });

  await t.step("program not found: startError, nothing spawned", async () => {
    const run = (argv: string[], cwd = dir) =>
      realExec.run({ argv, cwd, timeout: 5000, signal: new AbortController().signal });
    assertEquals(await run(["no-such-program-mm-test", "x"]), {
      output: "",
      timedOut: false,
      cancelled: false,
      startError: NOT_IN_PATH,
    });
    assertEquals(NOT_IN_PATH, "executable file not found in $PATH");
    assertEquals((await run(["./nope"])).startError, "no such file or directory");
    await Deno.writeTextFile(join(dir, "plain.sh"), "echo hi\n", { mode: 0o644 });
    await Deno.chmod(join(dir, "plain.sh"), 0o644);
    assertEquals((await run(["./plain.sh"])).startError, "permission denied");
    await Deno.mkdir(join(dir, "sub"));
    assertEquals((await run(["./sub"])).startError, "is a directory");
    assertEquals((await run([])).startError, "empty command");
    assertEquals(
      (await run(["true"], join(dir, "missing"))).startError,
      `working directory ${join(dir, "missing")} does not exist`,
    );
    await Deno.chmod(join(dir, "plain.sh"), 0o755);
    assertEquals((await run(["./plain.sh"])).output, "hi\n");
  });

  await t.step("the bash tool over the real Exec: timeout marker", async () => {
    const ctx = { ...fakeContext({ cwd: dir, config: { bashTimeout: 300 } }), exec: realExec };
    const result = await within(10_000, bash.run({ command: "echo hi; sleep 30" }, ctx));
    assertEquals(result, { output: "hi\n[error: 300ms timeout exceeded]", failed: true });
  });

  await Deno.remove(dir, { recursive: true });
});
