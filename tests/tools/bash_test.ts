import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { fakeContext } from "../helpers/fake_context.ts";
import { defaultConfig } from "../../lib/config/config.ts";
import { TOO_LARGE_MARKER } from "../../lib/history.ts";
import { rejectedText } from "../../lib/permissions/prompt.ts";
import { bash, COMMAND_DESCRIPTION, startErrorText } from "../../tools/bash.ts";
import {
  CANCELLED_TEXT,
  exitCodeText,
  signalExitText,
  signalName,
  timeoutText,
} from "../../tools/_command.ts";

Deno.test("bash", async (t) => {
  await t.step("declared when bashTool: true (the default)", () => {
    assertEquals(bash.declared(defaultConfig()), true);
    assertEquals(bash.declared({ ...defaultConfig(), bashTool: false }), false);
  });

  await t.step("field: command, the spec's description", () => {
    assertEquals(bash.name, "bash");
    assertEquals(Object.keys(bash.parameters), ["command"]);
    assertEquals(bash.parameters.command.type, "string");
    assertEquals(COMMAND_DESCRIPTION, "The shell command to run.");
    assertEquals(bash.parameters.command.description, COMMAND_DESCRIPTION);
    assertEquals(bash.parameters.command.optional, undefined);
  });

  await t.step("shell: bash -c <command>, a new shell per call", async () => {
    const ctx = fakeContext({ exec: [{ output: "hi\n" }, { output: "again\n" }] });
    assertEquals(await bash.run({ command: "echo hi | cat" }, ctx), { output: "hi\n" });
    assertEquals(await bash.run({ command: "echo again" }, ctx), { output: "again\n" });
    assertEquals(ctx.exec.requests.map((r) => r.argv), [
      ["bash", "-c", "echo hi | cat"],
      ["bash", "-c", "echo again"],
    ]);
  });

  await t.step("working directory: the context's cwd", async () => {
    const ctx = fakeContext({ cwd: "/srv/session" });
    await bash.run({ command: "pwd" }, ctx);
    assertEquals(ctx.exec.requests[0].cwd, "/srv/session");
  });

  await t.step(
    "timeout: 30 s; the output then ends with [error: 30s timeout exceeded]",
    async () => {
      const ctx = fakeContext({
        exec: [{ output: "working\n", timedOut: true, signal: "SIGTERM" }],
      });
      const result = await bash.run({ command: "sleep 100" }, ctx);
      assertEquals(ctx.exec.requests[0].timeout, 30_000);
      assertEquals(timeoutText(30_000), "[error: 30s timeout exceeded]");
      assertEquals(result, { output: "working\n[error: 30s timeout exceeded]", failed: true });
    },
  );

  await t.step("timeout: the configured bashTimeout, written as a duration", async () => {
    const ctx = fakeContext({
      config: { bashTimeout: 120_000 },
      exec: [{ output: "", timedOut: true, signal: "SIGKILL" }],
    });
    const result = await bash.run({ command: "sleep 1000" }, ctx);
    assertEquals(ctx.exec.requests[0].timeout, 120_000);
    assertEquals(result, { output: "[error: 2m timeout exceeded]", failed: true });
    assertEquals(timeoutText(1500), "[error: 1500ms timeout exceeded]");
  });

  await t.step("cancellation: the turn's signal; output ends with [error: cancelled]", async () => {
    const turn = new AbortController();
    const ctx = fakeContext({
      signal: turn.signal,
      exec: [(request) => {
        assertEquals(request.signal, turn.signal);
        return { output: "partial", cancelled: true, signal: "SIGTERM" };
      }],
    });
    assertEquals(CANCELLED_TEXT, "[error: cancelled]");
    assertEquals(await bash.run({ command: "make" }, ctx), {
      output: "partial\n[error: cancelled]",
      failed: true,
    });
  });

  await t.step(
    "background jobs: the tool returns what exec returned at the shell's exit",
    async () => {
      const ctx = fakeContext({ exec: [{ output: "started\n", code: 0 }] });
      assertEquals(await bash.run({ command: "nohup serve & echo started" }, ctx), {
        output: "started\n",
      });
    },
  );

  await t.step("very large output: read back from both ends, then cut to maxOutput", async () => {
    assertEquals(TOO_LARGE_MARKER, "\n[... output too large to read back in full ...]\n");
    const both = "a".repeat(1000) + TOO_LARGE_MARKER + "z".repeat(1000);
    const ctx = fakeContext({ config: { maxOutput: 100_000 }, exec: [{ output: both }] });
    const result = await bash.run({ command: "yes" }, ctx);
    assertStringIncludes(result.output, "[... output too large to read back in full ...]");
    assertEquals(result.output, both);
  });

  await t.step("output: truncated to maxOutput characters, markers after the cut", async () => {
    const long = "x".repeat(500) + "END";
    const ctx = fakeContext({
      config: { maxOutput: 200 },
      exec: [{ output: long, code: 3 }, { output: long }],
    });
    const failing = await bash.run({ command: "build" }, ctx);
    const lines = failing.output.split("\n");
    assertEquals(lines.at(-1), "[exit code: exit status 3]");
    assertEquals(lines.slice(0, -1).join("\n").length, 200);
    assertStringIncludes(failing.output, "output truncated to maxOutput");
    assertStringIncludes(failing.output, "END\n[exit code");
    const clean = await bash.run({ command: "build" }, ctx);
    assertEquals(clean.output.length, 200);
    assertEquals(clean.failed, undefined);
  });

  await t.step("output: empty with exit 0 is the empty string", async () => {
    assertEquals(await bash.run({ command: "true" }, fakeContext()), { output: "" });
  });

  await t.step("non-zero exit: output ends with [exit code: exit status N]", async () => {
    const ctx = fakeContext({
      exec: [{ output: "ls: cannot access 'x'\n", code: 2 }, { output: "", code: 127 }],
    });
    assertEquals(exitCodeText(2), "[exit code: exit status 2]");
    assertEquals(await bash.run({ command: "ls x" }, ctx), {
      output: "ls: cannot access 'x'\n[exit code: exit status 2]",
      failed: true,
    });
    assertEquals(await bash.run({ command: "nosuchprogram" }, ctx), {
      output: "[exit code: exit status 127]",
      failed: true,
    });
  });

  await t.step("killed by a signal mm did not send: [exit code: signal: killed]", async () => {
    const ctx = fakeContext({
      exec: [{ output: "out", signal: "SIGKILL" }, { signal: "SIGSEGV" }, { signal: "SIGRTMIN" }],
    });
    assertEquals(signalExitText("SIGKILL"), "[exit code: signal: killed]");
    assertEquals(await bash.run({ command: "kill -9 $$" }, ctx), {
      output: "out\n[exit code: signal: killed]",
      failed: true,
    });
    assertEquals(
      (await bash.run({ command: "crash" }, ctx)).output,
      "[exit code: signal: segmentation fault]",
    );
    assertEquals((await bash.run({ command: "odd" }, ctx)).output, "[exit code: signal: SIGRTMIN]");
    assertEquals(signalName("SIGTERM"), "terminated");
    assertEquals(signalName("SIGINT"), "interrupt");
  });

  await t.step("bash cannot be started: the reason, failed", async () => {
    const ctx = fakeContext({ exec: [{ startError: "executable file not found in $PATH" }] });
    assertEquals(startErrorText("x"), "[error: bash cannot be started: x]");
    assertEquals(await bash.run({ command: "ls" }, ctx), {
      output: "[error: bash cannot be started: executable file not found in $PATH]",
      failed: true,
    });
  });

  await t.step("terminal display: 🛠️  bash: <command>", () => {
    assertEquals(bash.emoji, "🛠️");
    assertEquals(bash.summary({ command: "go test ./..." }), "go test ./...");
  });

  await t.step("ACP: kind execute, permission requested; refusal text", () => {
    assertEquals(bash.kind, "execute");
    assertEquals(bash.asks, true);
    assertEquals(rejectedText("bash"), "[command rejected by the user]");
  });

  await t.step("recap: counted in ⚙ N command(s)", () => {
    assertEquals(bash.counter, "commands");
  });
});
