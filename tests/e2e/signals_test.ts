/**
 * Signals and pipes (issue 17), through the real `mm -p`, `--json`, `mm doctor`, editor, line and
 * window mode: on SIGINT, SIGTERM, SIGHUP and SIGQUIT the turn is cancelled, the command's process
 * group killed, the last `error` event written, the temporary files removed, the session saved,
 * and mm exits with 128 + the signal's number; a closed stdout ends the run quietly.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { runCases } from "../helpers/cases.ts";
import {
  gone,
  mmCommand,
  readSessions,
  runMM,
  sessionFiles,
  sessionsOf,
  tempDir,
  until,
  workdir,
} from "../helpers/mm.ts";
import { Editor } from "../helpers/acp.ts";
import { ScriptedServer } from "../helpers/server/mod.ts";
import { Terminal } from "../helpers/tmux.ts";

const server = ScriptedServer.start();

/** A bash call that writes its pid and its `sleep`'s pid, then waits for a minute. */
const SLEEPER = {
  toolCalls: [{
    name: "bash",
    arguments: { command: "echo $$ > pid; sleep 60 & echo $! > sleep.pid; wait" },
  }],
};

/** The pids the sleeper wrote. */
async function pids(dir: string): Promise<string[]> {
  await until(`${dir}/sleep.pid`);
  return [
    (await Deno.readTextFile(`${dir}/pid`)).trim(),
    (await Deno.readTextFile(`${dir}/sleep.pid`)).trim(),
  ];
}

Deno.test("a signal stops -p cleanly", async (t) => {
  const cases: Record<string, () => Promise<void>> = {};
  const signals = [["SIGTERM", 143], ["SIGHUP", 129], ["SIGINT", 130], ["SIGQUIT", 131]] as const;
  for (const [signal, code] of signals) {
    cases[
      `${signal}: killed group, last error event, no temporary file, session saved, exit ${code}`
    ] = async () => {
      const model = `signal-${signal}`;
      server.script(model, [SLEEPER]);
      const dir = await workdir(
        `url: ${server.url}\nmodel: ${model}\nsessions:\n  enabled: true\n`,
      );
      const tmp = await tempDir("mm-tmp-");
      const run = await runMM(["-p", "wait", "--json"], {
        cwd: dir,
        env: { TMPDIR: tmp },
        started: (child) => {
          (async () => {
            await until(`${dir}/sleep.pid`);
            child.kill(signal);
          })();
        },
      });
      assertEquals(run.code, code, run.stderr);
      const events = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const message = signal === "SIGINT"
        ? "[error: interrupted]"
        : `[error: interrupted by ${signal}]`;
      assertEquals(events.at(-1), { type: "error", message, where: "generation" });
      assertEquals(run.stderr, "");
      for (const pid of await pids(dir)) assertEquals(await gone(pid), true, pid);
      // The command's output files are gone; nothing else of mm's is there (no session lock).
      assertEquals([...Deno.readDirSync(tmp)].map((e) => e.name), []);
      // The session file alone, beside its undo store: its lock went with the run.
      const [file, ...more] = sessionFiles(dir);
      assertEquals(more, []);
      const id = file.slice(0, -".json".length);
      assertEquals([...Deno.readDirSync(sessionsOf(dir))].map((e) => e.name).sort(), [
        `${id}.json`,
        `${id}.undo`,
      ]);
      const session = JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${file}`));
      assertEquals(session.messages.map((m: { role: string }) => m.role), [
        "user",
        "assistant",
        "tool",
      ]);
      assertEquals(session.messages[2].content, "[error: cancelled]");
    };
  }
  await runCases(t, cases);
});

/** Runs `mm args` in `dir`, reads its stdout up to `lines` lines, then closes the pipe. */
async function readThenClose(args: string[], dir: string, lines: number) {
  const child = new Deno.Command(Deno.execPath(), {
    ...mmCommand(args, dir),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let text = "";
  while (text.split("\n").length <= lines) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  const stderr = new TextDecoder().decode(
    (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
  );
  const status = await child.status;
  return { code: status.code, stderr, text };
}

Deno.test("a closed stdout ends the run quietly", async (t) => {
  await runCases(t, {
    "mm -p --json | head -1 while events stream: exit 141, nothing on stderr": async () => {
      server.script("closed-stream", [
        { toolCalls: [{ name: "bash", arguments: { command: "sleep 0.3; seq 1 5" } }] },
        { text: "done" },
      ]);
      const dir = await workdir(`url: ${server.url}\nmodel: closed-stream\n`);
      const run = await readThenClose(["-p", "go", "--json"], dir, 1);
      assertEquals(run.stderr, "");
      assertEquals(run.code, 141);
      assertEquals(server.chats("closed-stream").length, 1, "the turn stopped");
    },
    "mm -p hi | true: the answer lost in the closed pipe is exit 141, never 0": async () => {
      server.script("closed-answer", [{ text: "the answer" }]);
      const dir = await workdir(`url: ${server.url}\nmodel: closed-answer\n`);
      const run = await readThenClose(["-p", "hi"], dir, 0);
      assertEquals(run.stderr, "");
      assertEquals(run.code, 141);
    },
    "mm doctor | head -1: no trace, exit 141": async () => {
      const dir = await workdir(`url: ${server.url}\nmodel: scripted\n`);
      const run = await readThenClose(["doctor"], dir, 1);
      assertEquals(run.stderr.includes("BrokenPipe"), false, run.stderr);
      assertEquals(run.stderr, "");
      assertEquals(run.code, 141);
    },
  });
});

Deno.test("SIGTERM during the start-up (a server that never answers) ends mm at once", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  let connected: () => void = () => {};
  const reached = new Promise<void>((r) => connected = r);
  const accepting = (async () => {
    for await (const conn of listener) {
      held.push(conn); // never answered: the model's listing waits for ever
      connected();
    }
  })();
  // No model: the start-up lists the server's models, and waits.
  const dir = await workdir(`url: http://127.0.0.1:${listener.addr.port}\n`);
  let guard: ReturnType<typeof setTimeout> | undefined;
  const run = await runMM(["-p", "hi", "--json"], {
    cwd: dir,
    started: (child) => {
      (async () => {
        await reached;
        child.kill("SIGTERM");
        // A guard, not a measure: a SIGTERM that is ignored fails the test instead of stalling it.
        guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
      })();
    },
  });
  clearTimeout(guard);
  for (const conn of held) conn.close();
  listener.close();
  await accepting.catch(() => {});
  assertEquals(run.code, 143, run.stderr);
  assertEquals(JSON.parse(run.stdout.trim().split("\n").at(-1)!), {
    type: "error",
    message: "[error: interrupted by SIGTERM]",
    where: "generation",
  });
});

Deno.test("mm -acp: SIGTERM and SIGQUIT cancel the running turn, save it, kill the command, exit 143 and 131", async (t) => {
  const cases: Record<string, () => Promise<void>> = {};
  for (const [signal, code] of [["SIGTERM", 143], ["SIGQUIT", 131]] as const) {
    cases[signal] = async () => {
      const model = `signal-acp-${signal}`;
      server.script(model, [SLEEPER]);
      const dir = await workdir(
        `url: ${server.url}\nmodel: ${model}\nsessions:\n  enabled: true\n`,
      );
      const editor = await Editor.start({ cwd: dir });
      const id = await editor.newSession(dir);
      const stopped = editor.prompt(id, "wait").catch(() => "connection closed");
      const [bash, sleep] = await pids(dir);
      editor.child.kill(signal);
      await stopped;
      const { code: exit, stderr } = await editor.close();
      assertEquals(exit, code, stderr);
      assertEquals(await gone(bash), true);
      assertEquals(await gone(sleep), true);
      const session = JSON.parse(await Deno.readTextFile(`${sessionsOf(dir)}/${id}.json`));
      assertEquals(session.messages.at(-1).content, "[error: cancelled]");
    };
  }
  await runCases(t, cases);
});

Deno.test("line and window mode: SIGTERM and SIGQUIT cancel the turn, save it, give the terminal back, exit 143 and 131", async (t) => {
  const modes = {
    "line mode": { args: [], cancelled: "⏹ turn cancelled: SIG" },
    "window mode": { args: ["-tui"], cancelled: "⏹ turn cancelled" },
  };
  const signals = [["SIGTERM", 143], ["SIGQUIT", 131]] as const;
  await runCases(
    t,
    Object.fromEntries(
      Object.entries(modes).flatMap(([mode, { args, cancelled }]) =>
        signals.map(([signal, code]) => [`${mode}, ${signal}`, async () => {
          const model = `signal-${args.length ? "window" : "line"}-${signal}`;
          server.script(model, [SLEEPER]);
          const dir = await workdir(
            `url: ${server.url}\nmodel: ${model}\nsessions:\n  enabled: true\n`,
          );
          const term = await Terminal.mm(dir, args);
          try {
            await term.waitFor("Ctrl-D quits.");
            await term.type("wait");
            await term.keys("Enter");
            const [bash, sleep] = await pids(dir);
            Deno.kill(await term.pid(), signal);
            const screen = await term.waitFor(`[exited ${code}]`);
            assertStringIncludes(screen, cancelled + (args.length ? "" : signal.slice(3)));
            assertEquals(await gone(bash), true);
            assertEquals(await gone(sleep), true);
            const [session] = await readSessions(dir);
            assertEquals(session.messages.at(-1).content, "[error: cancelled]");
          } finally {
            await term.kill();
          }
        }])
      ),
    ),
  );
  await server.close();
});
