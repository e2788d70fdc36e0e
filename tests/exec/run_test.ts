import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { until } from "../helpers/mm.ts";
import { type Grouping, grouping } from "../../lib/exec/group.ts";
import { NOT_IN_PATH } from "../../lib/exec/program.ts";
import { OutputKeeper } from "../../lib/exec/keeper.ts";
import { droppedText, READ_BACK_END, READ_BACK_LIMIT, readBack } from "../../lib/exec/read_back.ts";
import { TOO_LARGE_MARKER } from "../../lib/history.ts";
import { realExec, runProcess } from "../../lib/exec/run.ts";
import type { Exec, ExecRequest, ExecResult } from "../../lib/tool.ts";
import { bash } from "../../tools/bash.ts";

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

/** Runs `bash -c <script>` in `cwd` through `exec` (the real Exec unless told). */
function sh(
  script: string,
  options: Partial<ExecRequest> = {},
  exec: Exec = realExec,
  limit = 10_000,
): Promise<ExecResult> {
  return within(
    limit,
    exec.run({
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

/** The live processes of process group `pgid` (zombies excluded). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) members.push(Number(entry.name));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

/** Waits until process group `pgid` is empty, and returns who is left after 2 s. */
async function groupGone(pgid: number): Promise<number[]> {
  for (let i = 0; i < 100 && groupMembers(pgid).length; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return groupMembers(pgid);
}

/**
 * What still runs, 2 s at most after a kill, of the processes listed in `pidFile` (the command's
 * `$$`, which is also its group id, then its children) and of that group; killed before returning.
 */
async function leftBehind(pidFile: string): Promise<number[]> {
  const [pgid, ...children] = (await Deno.readTextFile(pidFile)).trim().split("\n").map(Number);
  const left = await groupGone(pgid);
  for (const pid of [pgid, ...children]) {
    if (!left.includes(pid) && !await gone(pid)) left.push(pid);
  }
  left.forEach(cleanup);
  return left;
}

/**
 * The reference: `bash -c <script>` as a shell starts it (`$0` is `bash`, not Deno's full path),
 * with nothing of mm around it; its stdout then stderr.
 */
async function plainBash(script: string, cwd: string): Promise<string> {
  const args = ["-c", 'exec bash -c "$1"', "-", script];
  const out = await new Deno.Command("bash", { args, cwd, stdin: "null" }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return decode(out.stdout) + decode(out.stderr);
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
    // The pid file appears (whole, by mv) once "go" is written: aborted then, never before, however
    // slow the start under load.
    const running = sh(
      `sleep 30 & echo go; echo $! > ${pidFile}.part; mv ${pidFile}.part ${pidFile}; sleep 30`,
      { signal: controller.signal },
    );
    await until(pidFile);
    controller.abort();
    const result = await running;
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
    const count = `${droppedText(3 * n - 2 * READ_BACK_END)}\n`;
    assertEquals(count, "[... 1202848 bytes dropped between the two ends ...]\n");
    assertEquals(result.dropped, 3 * n - 2 * READ_BACK_END);
    assertEquals(
      result.output ===
        "a".repeat(READ_BACK_END) + TOO_LARGE_MARKER + count + "z".repeat(READ_BACK_END),
      true,
    );
  });

  await t.step("output over 2 MiB: a character cut at either end is dropped", async () => {
    const result = await sh(`printf x; yes é | head -n 1100000 | tr -d '\\n'; printf y`);
    const half = READ_BACK_END / 2 - 1;
    const count = `${droppedText(1 + 2 * 1_100_000 + 1 - 2 * READ_BACK_END)}\n`;
    assertEquals(
      result.output === "x" + "é".repeat(half) + TOO_LARGE_MARKER + count + "é".repeat(half) + "y",
      true,
    );
  });

  await t.step(
    "output of 1 GB: the file's middle is dropped while it runs, the ends kept",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "mm-exec-cap-" });
      const named = join(dir, "output-file");
      let peak = 0;
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const path = await Deno.readTextFile(named).catch(() => "");
          const info = path ? await Deno.stat(path.trim()).catch(() => undefined) : undefined;
          peak = Math.max(peak, (info?.blocks ?? 0) * 512);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const script = `readlink /proc/$$/fd/1 > ${named}; seq 1 200000; ` +
        "head -c 1000000000 /dev/zero | tr '\\0' m; seq 200001 400000";
      const result = await sh(script, { timeout: 0 }, realExec, 60_000);
      watching = false;
      await watch;
      await Deno.remove(dir, { recursive: true });
      const total = 1_000_000_000 + Number((await sh("seq 1 400000 | wc -c")).output.trim());
      assertEquals(result.output.startsWith("1\n2\n3\n"), true);
      assertEquals(result.output.endsWith("399999\n400000\n"), true);
      // Exact with holes (Linux, util-linux's fallocate); a lower bound where the file is truncated.
      const exact = !result.output.includes("[... at least ");
      const marker = TOO_LARGE_MARKER + droppedText(result.dropped!, !exact);
      assertEquals(result.output.includes(marker), true);
      if (exact) assertEquals(result.dropped, total - 2 * READ_BACK_END);
      else assertEquals(result.dropped! <= total - 2 * READ_BACK_END, true);
      // Never the whole gigabyte on disk: the file holds at most the limit and what one look lets in.
      assertEquals(peak < 400 * 1024 * 1024, true, `peak ${peak} bytes on disk`);
    },
  );

  await t.step(
    "the truncating keeper (no holes) keeps both ends and counts at least what it cut",
    async () => {
      const file = await Deno.makeTempFile({ prefix: "mm-exec-cut-" });
      const child = new Deno.Command("bash", {
        args: ["-c", `(seq 1 100000; head -c 60000000 /dev/zero | tr '\\0' m; seq 1 3) >> ${file}`],
      }).spawn();
      const keeper = new OutputKeeper(file, false);
      await child.status;
      await keeper.stop();
      const back = await readBack(file, keeper.dropped, keeper.tail);
      await Deno.remove(file);
      assertEquals(back.text.startsWith("1\n2\n3\n"), true);
      assertEquals(back.text.endsWith("mmm1\n2\n3\n"), true);
      assertEquals(back.dropped > 0 && back.dropped <= 60_000_000, true, `${back.dropped}`);
      assertEquals(back.text.includes(TOO_LARGE_MARKER + droppedText(back.dropped, true)), true);
      assertEquals(droppedText(5, true), "[... at least 5 bytes dropped between the two ends ...]");
    },
  );

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

/** Each way a command is started (lib/exec/run.ts), with what must hold for every one. */
for (
  const way of [
    { how: "setsid", userBashEnv: false, name: "setsid, the command's own bash redirects" },
    { how: "setsid", userBashEnv: true, name: "setsid, the wrapper (the user has BASH_ENV)" },
    { how: "detached", userBashEnv: false, name: "detached, the wrapper" },
  ] as const
) {
  Deno.test(`runProcess: ${way.name}`, async (t) => {
    if (way.how === "setsid" && await grouping() !== "setsid") {
      throw new Error("setsid is not on the PATH of this machine: these steps cannot run");
    }
    const exec: Exec = { run: (request) => runProcess(request, way.how as Grouping) };
    const dir = await Deno.makeTempDir({ prefix: "mm-exec-way-" });
    const userFile = join(dir, "user-env.sh");
    await Deno.writeTextFile(userFile, "MM_FROM_USER_BASH_ENV=read\n");
    if (way.userBashEnv) Deno.env.set("BASH_ENV", userFile);
    try {
      await t.step("output, exit code, stdin closed", async () => {
        const result = await sh("echo out; echo err >&2; cat; exit 4", { cwd: dir }, exec);
        assertEquals(result, {
          output: "out\nerr\n",
          code: 4,
          signal: undefined,
          timedOut: false,
          cancelled: false,
        });
        const killed = await sh("echo before; kill -KILL $$", {}, exec);
        assertEquals([killed.output, killed.code, killed.signal], [
          "before\n",
          undefined,
          "SIGKILL",
        ]);
      });

      await t.step("the environment, $0, arguments and messages of a plain bash -c", async () => {
        const scripts = [
          "env | sort",
          'echo "$0 $# $LINENO $BASH_EXECUTION_STRING"',
          "echo (",
          "echo a\nno-such-command-mm-test\nexit 2",
        ];
        for (const script of scripts) {
          const result = await sh(script, { cwd: dir }, exec);
          assertEquals(result.output, await plainBash(script, dir), script);
        }
      });

      await t.step("a BASH_ENV of the user's is read as by a plain bash -c", async () => {
        const script = 'echo "[${MM_FROM_USER_BASH_ENV-}]"';
        const expected = way.userBashEnv ? "[read]\n" : "[]\n";
        assertEquals((await sh(script, {}, exec)).output, expected);
        assertEquals(await plainBash(script, dir), expected);
      });

      await t.step("temporary directories named with quotes, spaces and `$`", async () => {
        // In a process of its own: TMPDIR is process-wide, and `deno test --parallel` runs other
        // test files in this one.
        const exec = JSON.stringify(new URL("../../lib/exec/run.ts", import.meta.url).href);
        const script = 'echo in; dirname "$(readlink /proc/$$/fd/1)"';
        for (const name of [`it's a "dir"`, "a $HOME `x` \\"]) {
          const tmp = join(dir, name);
          await Deno.mkdir(tmp);
          const code = `
            import { runProcess } from ${exec};
            const result = await runProcess({
              argv: ["bash", "-c", ${JSON.stringify(script)}], cwd: "/", timeout: 10000,
              signal: new AbortController().signal,
            }, ${JSON.stringify(way.how)});
            console.log(JSON.stringify(result.output));
          `;
          const out = await new Deno.Command(Deno.execPath(), {
            args: ["eval", "--quiet", code],
            env: { TMPDIR: tmp },
            stdin: "null",
          }).output();
          const printed = new TextDecoder().decode(out.stdout);
          assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
          assertEquals(JSON.parse(printed), `in\n${await Deno.realPath(tmp)}\n`, name);
          assertEquals([...Deno.readDirSync(tmp)], [], name);
        }
      });

      await t.step("the command leads its own session and process group", async () => {
        const result = await sh(
          'read -r stat < /proc/$$/stat; set -- ${stat##*) }; echo "$$ $3 $4"',
          {},
          exec,
        );
        const [pid, pgid, sid] = result.output.trim().split(" ");
        assertEquals([pgid, sid], [pid, pid], result.output);
      });

      await t.step("timeout: nothing of `sleep 100 & sleep 100` is left behind", async () => {
        const pidFile = join(dir, "timeout.pid");
        const result = await sh(
          `echo $$ > ${pidFile}; sleep 100 & echo $! >> ${pidFile}; sleep 100`,
          { timeout: 300 },
          exec,
        );
        assertEquals([result.timedOut, result.signal], [true, "SIGTERM"]);
        assertEquals(await leftBehind(pidFile), []);
      });

      await t.step("cancellation: nothing of the command is left behind", async () => {
        const pidFile = join(dir, "cancel.pid");
        const controller = new AbortController();
        const running = sh(
          `echo $$ > ${pidFile}; (sleep 100; :) & echo $! >> ${pidFile}; ` +
            `sleep 100 & echo $! >> ${pidFile}; wait`,
          { signal: controller.signal },
          exec,
        );
        const started = () => Deno.readTextFile(pidFile).then((t) => t.split("\n").length > 3);
        for (let i = 0; i < 250 && !await started().catch(() => false); i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        controller.abort();
        const result = await running;
        assertEquals([result.cancelled, result.timedOut], [true, false]);
        assertEquals(await leftBehind(pidFile), []);
      });

      await t.step("a timeout right after the spawn still gets SIGTERM through", async () => {
        // The timer can fire before the process has called setsid: it has no group yet.
        for (let i = 0; i < 10; i++) {
          const result = await sh("sleep 100 & sleep 100", { timeout: 1 }, exec);
          assertEquals([result.timedOut, result.signal], [true, "SIGTERM"], `run ${i}`);
        }
      });
    } finally {
      if (way.userBashEnv) Deno.env.delete("BASH_ENV");
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("grouping: detached when setsid is not on the PATH", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mm-exec-path-" });
  try {
    await Deno.symlink((await plainBash("command -v bash", dir)).trim(), join(dir, "bash"));
    const code = `
      import { realExec } from ${
      JSON.stringify(new URL("../../lib/exec/run.ts", import.meta.url).href)
    };
      import { grouping } from ${
      JSON.stringify(new URL("../../lib/exec/group.ts", import.meta.url).href)
    };
      const result = await realExec.run({
        argv: ["bash", "-c", "echo hi"], cwd: "/", timeout: 5000, signal: new AbortController().signal,
      });
      console.log(await grouping(), JSON.stringify(result.output));
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", code],
      env: { PATH: dir },
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(text, 'detached "hi\\n"\n');
    assertEquals(await grouping(), "setsid");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
