import { matches, runHooks, withHookContext } from "../../lib/hooks/run.ts";
import { HOOK_CONTEXT_MARKER } from "../../lib/history.ts";
import { assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { exists, gone } from "../helpers/mm.ts";

const cwd = Deno.cwd();

const sh = (script: string, timeout?: number) => ({ command: ["bash", "-c", script], timeout });

Deno.test("runHooks", async (t) => {
  await t.step("the payload arrives as JSON on stdin", async () => {
    const dir = await Deno.makeTempDir();
    const v = await runHooks(
      [sh(`cat > ${dir}/in.json`)],
      { event: "preToolCall", tool: "bash", input: { command: "ls" }, cwd },
      5000,
    );
    assertEquals(v, { context: [], failures: [] });
    assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/in.json`)), {
      event: "preToolCall",
      tool: "bash",
      input: { command: "ls" },
      cwd,
    });
  });
  await t.step("deny with a reason stops the hooks after it", async () => {
    const v = await runHooks(
      [sh(`echo '{"deny": true, "reason": "no pushing"}'`), sh(`echo '{"context": "never"}'`)],
      { event: "preToolCall", tool: "bash", cwd },
      5000,
    );
    assertEquals(v, { denied: "no pushing", context: [], failures: [] });
  });
  await t.step("exit code 2 denies with stderr as the reason", async () => {
    const v = await runHooks([sh(`echo "git push is forbidden" >&2; exit 2`)], {
      event: "preToolCall",
      tool: "bash",
      cwd,
    }, 5000);
    assertEquals(v.denied, "git push is forbidden");
  });
  await t.step("context, a new input and a replacement, in order", async () => {
    const v = await runHooks(
      [
        sh(`echo '{"context": "one", "input": {"command": "ls -la"}}'`),
        sh(
          `read -r line; echo "$line" | grep -q '"ls -la"' && echo '{"context": "two", "replace": "new output"}'`,
        ),
      ],
      { event: "postToolCall", tool: "bash", input: { command: "ls" }, cwd },
      5000,
    );
    assertEquals(v, {
      context: ["one", "two"],
      input: { command: "ls -la" },
      replace: "new output",
      failures: [],
    });
  });
  await t.step(
    "failures are reported and ignored: exit code, garbage, timeout, no program",
    async () => {
      const v = await runHooks(
        [
          sh(`echo oops >&2; exit 3`),
          sh(`echo 'not json'`),
          sh(`sleep 5`, 200),
          { command: ["no-such-program-mm-test"] },
          sh(`echo '{"context": "still here"}'`),
        ],
        { event: "preGeneration", prompt: "hi", cwd },
        5000,
      );
      assertEquals(v.context, ["still here"]);
      assertEquals(v.failures.length, 4);
      assertEquals(
        v.failures[0],
        `preGeneration hook "bash -c echo oops >&2; exit 3" failed with exit code 3: oops`,
      );
      assertStringIncludes(v.failures[1], "printed something that is not a JSON object");
      assertStringIncludes(v.failures[2], "timed out after 200ms");
      assertMatch(v.failures[3], /no-such-program-mm-test" cannot be started: /);
    },
  );
  await t.step("a cancellation kills the hook's whole process group at once", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const controller = new AbortController();
      const verdict = runHooks(
        [
          sh(`echo $$ > ${dir}/hook.pid; sleep 71 & echo $! > ${dir}/sleep.pid; wait`),
          sh(`touch ${dir}/second`),
        ],
        { event: "preToolCall", tool: "write_file", cwd },
        100_000,
        controller.signal,
      );
      while (!(await exists(`${dir}/sleep.pid`))) await new Promise((r) => setTimeout(r, 20));
      const pids = [`${dir}/hook.pid`, `${dir}/sleep.pid`].map((f) => Deno.readTextFileSync(f));
      const before = Date.now();
      controller.abort();
      assertEquals(await verdict, { context: [], failures: [], cancelled: true });
      assertEquals(Date.now() - before < 1000, true, "ended within a second");
      for (const pid of pids) assertEquals(await gone(pid.trim()), true, `${pid} still runs`);
      assertEquals(await exists(`${dir}/second`), false, "the hooks after it do not run");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
  await t.step("an aborted signal runs no hook", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const v = await runHooks(
        [sh(`touch ${dir}/ran`)],
        { event: "postToolCall", tool: "bash", cwd },
        5000,
        AbortSignal.abort(),
      );
      assertEquals(v, { context: [], failures: [], cancelled: true });
      assertEquals(await exists(`${dir}/ran`), false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
  await t.step("a timeout kills the group too: a job it left does not hold the call", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const v = await runHooks(
        [sh(`sleep 71 & echo $! > ${dir}/sleep.pid; echo '{}'`, 300)],
        { event: "preToolCall", tool: "bash", cwd },
        5000,
      );
      assertStringIncludes(v.failures[0], "timed out after 300ms");
      const pid = (await Deno.readTextFile(`${dir}/sleep.pid`)).trim();
      assertEquals(await gone(pid), true, `${pid} still runs`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
  await t.step("the matcher selects tools by name or regular expression", async () => {
    const v = await runHooks(
      [{ ...sh(`echo '{"context": "edit"}'`), matcher: "write_file|edit_file" }, {
        ...sh(`echo '{"context": "bash"}'`),
        matcher: "bash",
      }],
      { event: "postToolCall", tool: "write_file", cwd },
      5000,
    );
    assertEquals(v.context, ["edit"]);
  });
});

Deno.test("matches", () => {
  assertEquals(matches(undefined, "bash"), true);
  assertEquals(matches("bash", "bash"), true);
  assertEquals(matches("bash", "bash_extra"), false, "a name matches whole");
  assertEquals(matches("read_.*", "read_file"), true);
  assertEquals(matches("run_tests", undefined), true, "events without a tool ignore the matcher");
});

Deno.test("withHookContext", () => {
  assertEquals(withHookContext("out", []), "out");
  assertEquals(withHookContext("out\n", ["a", "b"]), `out\n${HOOK_CONTEXT_MARKER}\na\nb`);
  assertEquals(withHookContext("prompt", ["c"]), `prompt\n${HOOK_CONTEXT_MARKER}\nc`);
});
